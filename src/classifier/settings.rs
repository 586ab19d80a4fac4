//! The `[classifier]` table of the config file (or the `[[classifier]]` array of tables, for
//! several classifiers that must all agree), as written and as validated. The config module
//! reads it with the rest of the file; the checks that are about the classifier live here.

use std::collections::BTreeMap;
use std::ops::Range;
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use super::provider::Provider;

/// `[classifier]` as written. Every key is documented in `config.example.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawClassifier {
    provider: Option<ProviderChoice>,
    base_url: Option<Spanned<String>>,
    model: Option<Spanned<String>>,
    api_key_env: Option<Spanned<String>>,
    timeout_ms: Option<Spanned<u64>>,
    warm_timeout_ms: Option<Spanned<u64>>,
    max_concurrent: Option<Spanned<u64>>,
    cache_size: Option<Spanned<u64>>,
    breaker_failures: Option<Spanned<u64>>,
    breaker_repeats: Option<Spanned<u64>>,
    confidence_threshold: Option<Spanned<f64>>,
    context: Option<Spanned<String>>,
    review_allow_all: Option<bool>,
    mcp_descriptions: Option<BTreeMap<String, String>>,
}

/// `[classifier]` (one table) or `[[classifier]]` (an array of tables), as written.
#[derive(Debug)]
pub enum RawClassifiers {
    One(Box<RawClassifier>),
    Many(Vec<RawClassifier>),
}

impl<'de> Deserialize<'de> for RawClassifiers {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = RawClassifiers;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a [classifier] table or [[classifier]] tables")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Self::Value, A::Error> {
                RawClassifier::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(|one| RawClassifiers::One(Box::new(one)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                seq: A,
            ) -> Result<Self::Value, A::Error> {
                Vec::<RawClassifier>::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))
                    .map(RawClassifiers::Many)
            }
        }
        d.deserialize_any(Visit)
    }
}

impl RawClassifiers {
    /// Validates one table or each of several, in order. A single `[[classifier]]` entry is
    /// the same as a `[classifier]` table; `provider = "none"` in any entry turns them all off.
    pub fn validate(raw: Option<RawClassifiers>) -> Result<ClassifierConfig, Invalid> {
        match raw {
            None => RawClassifier::validate(None),
            Some(RawClassifiers::One(one)) => RawClassifier::validate(Some(*one)),
            Some(RawClassifiers::Many(many)) => {
                let mut models = Vec::new();
                for raw in many {
                    match RawClassifier::validate(Some(raw))? {
                        ClassifierConfig::Model(model) => models.push(model),
                        _ => return Ok(ClassifierConfig::Off),
                    }
                }
                match models.len() {
                    0 => Ok(ClassifierConfig::FromEnvironment),
                    1 => Ok(ClassifierConfig::Model(models.remove(0))),
                    _ => Ok(ClassifierConfig::Several(models)),
                }
            }
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize)]
enum ProviderChoice {
    #[serde(rename = "openai")]
    OpenAi,
    #[serde(rename = "anthropic")]
    Anthropic,
    #[serde(rename = "none")]
    Off,
}

/// What the config says about the classifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassifierConfig {
    /// No `[classifier]` table: use the API key the environment has, if any.
    FromEnvironment,
    /// `provider = "none"`: never ask a model, whatever keys are set.
    Off,
    /// A model chosen in the table.
    Model(ModelConfig),
    /// Several models from `[[classifier]]`, in order; all must clear a call to allow it.
    Several(Vec<ModelConfig>),
}

/// A model as configured; the key itself is read from the environment at setup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelConfig {
    pub provider: Provider,
    /// Without a trailing slash.
    pub base_url: String,
    pub model: String,
    /// The name of the environment variable holding the key; `None` when the server needs none.
    pub api_key_env: Option<String>,
    pub limits: Limits,
    /// Full MCP tool name → the description shown to the model.
    pub mcp_descriptions: BTreeMap<String, String>,
}

/// How much the console lets the classifier do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub timeout: Duration,
    /// How long the warming request at start may take: a cold local model loads its weights
    /// first, which can take minutes, and nobody waits on it.
    pub warm_timeout: Duration,
    pub max_concurrent: usize,
    pub cache_size: usize,
    pub breaker_failures: u32,
    /// An agent session that asks about the same subject this many times in a row is no
    /// longer sent to the model.
    pub breaker_repeats: u32,
    /// The least confidence, in thousandths, at which a `read-only` verdict may allow.
    pub threshold_permille: u16,
    /// What the model is shown beside the call.
    pub context: Context,
    /// Whether it assesses what allow-all would pass.
    pub review: AllowAllReview,
}

/// What the model is shown beside the call (`context`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Context {
    /// The call alone.
    #[default]
    CallOnly,
    /// The call and the latest message the user typed to the agent (from its transcript),
    /// bounded and labelled as untrusted. It sends the user's words to the model.
    UserMessage,
}

/// Whether the classifier reviews allow-all (`review_allow_all`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AllowAllReview {
    /// Allow-all passes what it passes.
    #[default]
    Off,
    /// Calls only allow-all would pass are assessed first; a confident high or critical risk
    /// asks the human.
    Assess,
}

impl Limits {
    /// The least confidence at which this classifier's `read-only` may allow (`0.0`–`1.0`).
    pub fn threshold(&self) -> f64 {
        f64::from(self.threshold_permille) / 1000.0
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            // A cold local model takes well over 8 s for its first answer; the human is asked
            // at the same time, so a long wait costs nothing but the model's own slot.
            timeout: Duration::from_millis(30_000),
            warm_timeout: Duration::from_millis(300_000),
            max_concurrent: 4,
            cache_size: 1_024,
            breaker_failures: 3,
            breaker_repeats: 5,
            threshold_permille: 800,
            context: Context::CallOnly,
            review: AllowAllReview::Off,
        }
    }
}

impl ModelConfig {
    /// A provider's defaults, as used when only its API key is in the environment.
    pub fn defaults(provider: Provider) -> ModelConfig {
        ModelConfig {
            provider,
            base_url: provider.default_base_url().to_string(),
            model: provider.default_model().to_string(),
            api_key_env: Some(provider.default_key_env().to_string()),
            limits: Limits::default(),
            mcp_descriptions: BTreeMap::new(),
        }
    }
}

/// A bad value in `[classifier]`: where it is, what is wrong, how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub span: Range<usize>,
    pub message: String,
    pub fix: String,
}

fn invalid(span: Range<usize>, message: String, fix: &str) -> Invalid {
    Invalid {
        span,
        message,
        fix: fix.to_string(),
    }
}

impl RawClassifier {
    /// Validates the table; `None` (no table) means [`ClassifierConfig::FromEnvironment`].
    pub fn validate(raw: Option<RawClassifier>) -> Result<ClassifierConfig, Invalid> {
        let Some(raw) = raw else {
            return Ok(ClassifierConfig::FromEnvironment);
        };
        let provider = match raw.provider.unwrap_or(ProviderChoice::OpenAi) {
            ProviderChoice::OpenAi => Provider::OpenAi,
            ProviderChoice::Anthropic => Provider::Anthropic,
            ProviderChoice::Off => return Ok(ClassifierConfig::Off),
        };
        let mut config = ModelConfig::defaults(provider);
        if let Some(url) = raw.base_url {
            config.base_url = base_url(&url)?;
        }
        if let Some(model) = raw.model {
            let name = model.get_ref().trim();
            if name.is_empty() {
                return Err(invalid(
                    model.span(),
                    "classifier.model is empty".into(),
                    "name a model the server knows, or remove the key for the provider's default",
                ));
            }
            config.model = name.to_string();
        }
        if let Some(env) = raw.api_key_env {
            config.api_key_env = key_env(&env)?;
        }
        let limits = &mut config.limits;
        if let Some(ms) = raw.timeout_ms {
            limits.timeout = Duration::from_millis(ranged(&ms, "timeout_ms", 100, 120_000)?);
        }
        if let Some(ms) = raw.warm_timeout_ms {
            let ms = ranged(&ms, "warm_timeout_ms", 100, 3_600_000)?;
            limits.warm_timeout = Duration::from_millis(ms);
        }
        if let Some(n) = raw.max_concurrent {
            limits.max_concurrent = ranged(&n, "max_concurrent", 1, 64)? as usize;
        }
        if let Some(n) = raw.cache_size {
            limits.cache_size = ranged(&n, "cache_size", 0, 1_000_000)? as usize;
        }
        if let Some(n) = raw.breaker_failures {
            limits.breaker_failures = ranged(&n, "breaker_failures", 1, 1_000)? as u32;
        }
        if let Some(n) = raw.breaker_repeats {
            limits.breaker_repeats = ranged(&n, "breaker_repeats", 1, 1_000)? as u32;
        }
        if let Some(t) = raw.confidence_threshold {
            let n = *t.get_ref();
            if !(0.0..=1.0).contains(&n) {
                return Err(invalid(
                    t.span(),
                    format!("classifier.confidence_threshold = {n} is out of range"),
                    "use a number from 0.0 to 1.0, such as 0.8",
                ));
            }
            limits.threshold_permille = (n * 1000.0).round() as u16;
        }
        if let Some(context) = raw.context {
            limits.context = match context.get_ref().as_str() {
                "none" => Context::CallOnly,
                "user-message" => Context::UserMessage,
                other => {
                    return Err(invalid(
                        context.span(),
                        format!("classifier.context = {other:?} is not a context gatehouse sends"),
                        "use \"user-message\" (the latest user message, sent to the model) or \"none\"",
                    ));
                }
            };
        }
        if raw.review_allow_all == Some(true) {
            limits.review = AllowAllReview::Assess;
        }
        config.mcp_descriptions = raw.mcp_descriptions.unwrap_or_default();
        Ok(ClassifierConfig::Model(config))
    }
}

fn ranged(value: &Spanned<u64>, key: &str, low: u64, high: u64) -> Result<u64, Invalid> {
    let n = *value.get_ref();
    if (low..=high).contains(&n) {
        return Ok(n);
    }
    Err(invalid(
        value.span(),
        format!("classifier.{key} = {n} is out of range"),
        &format!("use a whole number from {low} to {high}"),
    ))
}

fn base_url(url: &Spanned<String>) -> Result<String, Invalid> {
    let text = url.get_ref().trim().trim_end_matches('/');
    let bad = |why: &str| {
        Err(invalid(
            url.span(),
            format!("classifier.base_url = {:?} {why}", url.get_ref()),
            "give the API's root, such as \"https://api.openai.com/v1\" or \"http://localhost:11434/v1\"",
        ))
    };
    match reqwest::Url::parse(text) {
        Err(err) => bad(&format!("is not a URL ({err})")),
        Ok(parsed) if !matches!(parsed.scheme(), "http" | "https") => {
            bad("is not an http or https URL")
        }
        Ok(parsed) if parsed.query().is_some() || parsed.fragment().is_some() => {
            bad("has a query or fragment")
        }
        Ok(_) => Ok(text.to_string()),
    }
}

fn key_env(env: &Spanned<String>) -> Result<Option<String>, Invalid> {
    let name = env.get_ref().trim();
    if name.is_empty() {
        return Ok(None);
    }
    let mut chars = name.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Ok(Some(name.to_string()));
    }
    // Never echo the value: it may be the key itself.
    Err(invalid(
        env.span(),
        "classifier.api_key_env is not the name of an environment variable".into(),
        "give the variable's name (such as \"OPENAI_API_KEY\") and export the key in it; never \
         put the key itself in the config; use \"\" for a server that needs no key",
    ))
}

#[cfg(test)]
#[path = "settings_tests.rs"]
mod tests;
