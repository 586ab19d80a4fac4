//! Which model, if any, the console asks: the config's `[classifier]` table, or else the API
//! key the environment already has (`ANTHROPIC_API_KEY`, then `OPENAI_API_KEY`), or else none,
//! said plainly so the status bar can show why auto mode has no classifier.

use std::collections::BTreeMap;

use super::model::ModelClassifier;
use super::panel::Panel;
use super::provider::{ApiKey, Endpoint, Provider};
use super::settings::{ClassifierConfig, Limits, ModelConfig};
use crate::core::classifier::ClassifierError;

/// The classifier the console can build, or why there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassifierSetup {
    Ready(Ready),
    /// Several models (`[[classifier]]`), in order: all must clear a call.
    Several(Vec<Ready>),
    /// No classifier: auto mode leaves every race to the human.
    None {
        why: String,
    },
}

/// A model to ask, with its key resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ready {
    pub endpoint: Endpoint,
    pub limits: Limits,
    pub mcp_descriptions: BTreeMap<String, String>,
}

impl ClassifierSetup {
    /// Resolves `config` against the process environment.
    pub fn from_env(config: &ClassifierConfig) -> ClassifierSetup {
        ClassifierSetup::resolve(config, |name| std::env::var(name).ok())
    }

    /// Resolves `config`, reading variables with `env`. An empty variable counts as unset.
    pub fn resolve(
        config: &ClassifierConfig,
        env: impl Fn(&str) -> Option<String>,
    ) -> ClassifierSetup {
        ClassifierSetup::resolve_with(config, &env)
    }

    fn resolve_with(
        config: &ClassifierConfig,
        raw_env: &dyn Fn(&str) -> Option<String>,
    ) -> ClassifierSetup {
        let env = |name: &str| raw_env(name).filter(|v| !v.trim().is_empty());
        let model = match config {
            ClassifierConfig::Off => {
                return ClassifierSetup::None {
                    why: "the config turns it off (classifier.provider = \"none\")".into(),
                };
            }
            ClassifierConfig::Model(model) => model.clone(),
            ClassifierConfig::Several(models) => {
                let mut ready = Vec::new();
                for model in models {
                    match ClassifierSetup::resolve_with(
                        &ClassifierConfig::Model(model.clone()),
                        raw_env,
                    ) {
                        ClassifierSetup::Ready(one) => ready.push(one),
                        ClassifierSetup::Several(_) => unreachable!("one model resolves to one"),
                        none @ ClassifierSetup::None { .. } => return none,
                    }
                }
                return ClassifierSetup::Several(ready);
            }
            ClassifierConfig::FromEnvironment => {
                match [Provider::Anthropic, Provider::OpenAi]
                    .into_iter()
                    .find(|p| env(p.default_key_env()).is_some())
                {
                    Some(provider) => ModelConfig::defaults(provider),
                    None => {
                        return ClassifierSetup::None {
                            why: "no [classifier] in the config and neither ANTHROPIC_API_KEY \
                                  nor OPENAI_API_KEY is set"
                                .into(),
                        };
                    }
                }
            }
        };
        let api_key = match &model.api_key_env {
            None => None,
            Some(name) => match env(name) {
                Some(key) => Some(ApiKey(key.trim().to_string())),
                None => {
                    return ClassifierSetup::None {
                        why: format!(
                            "{name} is not set (classifier.api_key_env); export the key in it"
                        ),
                    };
                }
            },
        };
        ClassifierSetup::Ready(Ready {
            endpoint: Endpoint {
                provider: model.provider,
                base_url: model.base_url,
                model: model.model,
                api_key,
            },
            limits: model.limits,
            mcp_descriptions: model.mcp_descriptions,
        })
    }

    /// The models this setup names, in order (none when there is no classifier).
    pub fn models(&self) -> Vec<Ready> {
        match self {
            ClassifierSetup::Ready(ready) => vec![ready.clone()],
            ClassifierSetup::Several(all) => all.clone(),
            ClassifierSetup::None { .. } => Vec::new(),
        }
    }

    /// Starts the models this setup names, if any, as one panel. Fails only when the HTTP
    /// client cannot start.
    pub fn start(&self) -> Result<Option<Panel>, ClassifierError> {
        let models = self
            .models()
            .into_iter()
            .map(ModelClassifier::new)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Panel::new(models))
    }

    /// One line for the status bar: `classifier: anthropic claude-haiku-4-5` or why none.
    pub fn describe(&self) -> String {
        match self {
            ClassifierSetup::Ready(ready) => format!(
                "classifier: {} {} at {}",
                ready.endpoint.provider, ready.endpoint.model, ready.endpoint.base_url
            ),
            ClassifierSetup::Several(all) => {
                let names: Vec<String> = all
                    .iter()
                    .map(|r| {
                        format!(
                            "{} {} at {}",
                            r.endpoint.provider, r.endpoint.model, r.endpoint.base_url
                        )
                    })
                    .collect();
                format!("classifiers (all must agree): {}", names.join("; "))
            }
            ClassifierSetup::None { why } => format!("no classifier: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    fn ready(setup: ClassifierSetup) -> Ready {
        match setup {
            ClassifierSetup::Ready(ready) => ready,
            other => panic!("not one classifier: {other:?}"),
        }
    }

    #[test]
    fn several_models_resolve_in_order_and_one_missing_key_means_none() {
        let mut local = ModelConfig::defaults(Provider::OpenAi);
        local.api_key_env = None;
        let remote = ModelConfig::defaults(Provider::Anthropic);
        let config = ClassifierConfig::Several(vec![local, remote]);
        let setup = ClassifierSetup::resolve(&config, env(&[("ANTHROPIC_API_KEY", "a")]));
        let models = setup.models();
        assert_eq!(models.len(), 2);
        assert_eq!(models[1].endpoint.provider, Provider::Anthropic);
        assert!(
            setup.describe().contains("all must agree"),
            "{}",
            setup.describe()
        );
        let setup = ClassifierSetup::resolve(&config, env(&[]));
        assert!(
            matches!(&setup, ClassifierSetup::None { why } if why.contains("ANTHROPIC_API_KEY")),
            "{setup:?}"
        );
    }

    #[test]
    fn without_a_table_an_anthropic_key_comes_before_an_openai_key() {
        let both = [("ANTHROPIC_API_KEY", "a"), ("OPENAI_API_KEY", "o")];
        let setup = ready(ClassifierSetup::resolve(
            &ClassifierConfig::FromEnvironment,
            env(&both),
        ));
        assert_eq!(setup.endpoint.provider, Provider::Anthropic);
        assert_eq!(setup.endpoint.model, "claude-haiku-4-5");
        assert_eq!(setup.endpoint.api_key, Some(ApiKey("a".into())));

        let openai = [("ANTHROPIC_API_KEY", ""), ("OPENAI_API_KEY", "o")];
        let setup = ready(ClassifierSetup::resolve(
            &ClassifierConfig::FromEnvironment,
            env(&openai),
        ));
        assert_eq!(setup.endpoint.provider, Provider::OpenAi);
        assert_eq!(
            setup.endpoint.url(),
            "https://api.openai.com/v1/chat/completions"
        );
    }

    #[test]
    fn no_key_anywhere_means_no_classifier_and_says_why() {
        let setup = ClassifierSetup::resolve(&ClassifierConfig::FromEnvironment, env(&[]));
        let ClassifierSetup::None { why } = &setup else {
            panic!("no classifier");
        };
        assert!(why.contains("ANTHROPIC_API_KEY"), "{why}");
        assert!(setup.describe().starts_with("no classifier"));
    }

    #[test]
    fn a_configured_variable_that_is_unset_names_the_variable() {
        let mut model = ModelConfig::defaults(Provider::OpenAi);
        model.api_key_env = Some("MY_KEY".into());
        let setup = ClassifierSetup::resolve(&ClassifierConfig::Model(model.clone()), env(&[]));
        assert!(matches!(setup, ClassifierSetup::None { why } if why.contains("MY_KEY")));

        model.api_key_env = None;
        let setup = ready(ClassifierSetup::resolve(
            &ClassifierConfig::Model(model),
            env(&[]),
        ));
        assert_eq!(setup.endpoint.api_key, None, "a local server needs no key");
    }

    #[test]
    fn provider_none_wins_over_keys_in_the_environment() {
        let setup =
            ClassifierSetup::resolve(&ClassifierConfig::Off, env(&[("OPENAI_API_KEY", "o")]));
        assert!(matches!(setup, ClassifierSetup::None { .. }));
    }
}
