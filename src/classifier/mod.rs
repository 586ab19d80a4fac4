//! The classifier: a language model that races the human on `race` dialogs and can only ever
//! advise. It implements the core's [`Classifier`](crate::core::classifier::Classifier) trait.
//!
//! `settings` reads the `[classifier]` table or `[[classifier]]` tables; `setup` resolves them
//! (or the environment's API keys) into models to ask or a plain reason why there are none;
//! `prompt` builds the question from the templates in `assets/classifier/`, with the
//! analyser's view of the call as quoted data; `answer` reads the model's JSON assessment
//! strictly; `provider` speaks the OpenAI-compatible and Anthropic wire formats over reqwest;
//! `context` reads the
//! user's latest message from the agent's transcript (opt-in); `cache` remembers assessments per exact subject and shares identical requests in flight;
//! `breaker` and `sessions` stop asking after repeated failures, overall and per agent session
//! (and for a looping agent); `model` puts them together as [`ModelClassifier`]; `panel` asks
//! several at once, all of which must agree; `eval` measures them on a labelled file.

pub mod answer;
pub mod batch;
pub mod breaker;
pub mod cache;
pub mod context;
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
pub use settings::{AllowAllReview, ClassifierConfig, Context, Limits};
pub use setup::ClassifierSetup;
