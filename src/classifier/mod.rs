//! The classifier: a language model that races the human on `race` dialogs and can only ever
//! advise. It implements the core's [`Classifier`](crate::core::classifier::Classifier) trait.
//!
//! `settings` reads the `[classifier]` config table; `setup` resolves it (or the environment's
//! API keys) into a model to ask or a plain reason why there is none; `prompt` builds the
//! question from the templates in `assets/classifier/`, with the call as quoted data;
//! `provider` speaks the OpenAI-compatible and Anthropic wire formats over reqwest; `cache`
//! remembers verdicts per exact subject and shares identical requests in flight; `breaker`
//! stops asking after repeated failures; `model` puts them together as [`ModelClassifier`].

pub mod answer;
pub mod breaker;
pub mod cache;
pub mod eval;
pub mod model;
pub mod panel;
pub mod prompt;
pub mod provider;
pub mod sessions;
pub mod settings;
pub mod setup;

pub use breaker::BreakerState;
pub use model::{ModelClassifier, Probe};
pub use panel::Panel;
pub use settings::{ClassifierConfig, Limits};
pub use setup::ClassifierSetup;
