//! The classifier the barrier races against the human: a model behind the cache, the single
//! flight, a bound on concurrent requests, a per-request timeout and the circuit breaker.
//!
//! When every slot is busy, the questions that wait are sent together in the next free one
//! ([`super::batch`]).
//!
//! Dropping the future that [`Classifier::classify`] returns (the barrier aborts its race task
//! when a human claims or answers) drops the HTTP request with it: reqwest closes the
//! connection, the semaphore permit is returned, and the single flight passes to the next
//! waiter, if any.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;

use super::answer::assessment_of;
use super::breaker::{Breaker, BreakerState};
use super::cache::VerdictCache;
use super::prompt::Prompt;
use super::provider::{Endpoint, ProviderError};
use super::sessions::SessionBreakers;
use super::settings::Limits;
use super::setup::Ready;
use crate::core::advice::{Advice, Assessment, Opinion};
use crate::core::classifier::{BoxFuture, Classifier, ClassifierError, Question, Subject};

/// A model-backed classifier. Cheap to clone; clones share cache, breaker and connections.
#[derive(Clone)]
pub struct ModelClassifier {
    inner: Arc<Inner>,
}

/// Whether a model has answered since the console started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Warmth {
    /// Not asked yet.
    Cold,
    /// The warming request is out and nothing has answered yet.
    Warming,
    /// It has answered once: a cold start is behind it.
    Warm,
    /// The warming request failed, for this reason.
    Failed(String),
}

pub(super) struct Inner {
    warmth: std::sync::Mutex<Warmth>,
    pub(super) endpoint: Endpoint,
    pub(super) limits: Limits,
    mcp_descriptions: BTreeMap<String, String>,
    pub(super) http: reqwest::Client,
    cache: VerdictCache,
    pub(super) breaker: Breaker,
    sessions: SessionBreakers,
    /// One per request that may be in flight.
    pub(super) permits: Semaphore,
    /// Questions waiting for a free slot, to go together in the next one.
    pub(super) waiting: super::batch::Waiting,
}

/// One answer from the model, raw and normalised, for `gatehouse classifier test`.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    pub raw: String,
    /// The answer read strictly, or why it could not be.
    pub assessment: Result<Assessment, String>,
    pub took: Duration,
}

impl ModelClassifier {
    /// A classifier for a resolved setup. Fails only if the TLS backend cannot start.
    pub fn new(ready: Ready) -> Result<ModelClassifier, ClassifierError> {
        let http = crate::plumbing::http::client_builder()
            .connect_timeout(ready.limits.timeout)
            .build()
            .map_err(|e| ClassifierError(format!("cannot start the HTTP client: {e}")))?;
        Ok(ModelClassifier {
            inner: Arc::new(Inner {
                warmth: std::sync::Mutex::new(Warmth::Cold),
                cache: VerdictCache::new(ready.limits.cache_size),
                breaker: Breaker::new(ready.limits.breaker_failures),
                sessions: SessionBreakers::new(
                    ready.limits.breaker_failures,
                    ready.limits.breaker_repeats,
                ),
                permits: Semaphore::new(ready.limits.max_concurrent.max(1)),
                waiting: Default::default(),
                endpoint: ready.endpoint,
                limits: ready.limits,
                mcp_descriptions: ready.mcp_descriptions,
                http,
            }),
        })
    }

    pub fn endpoint(&self) -> &Endpoint {
        &self.inner.endpoint
    }

    /// `provider model`, as the dialog and the status bar name this classifier.
    pub fn name(&self) -> String {
        format!(
            "{} {}",
            self.inner.endpoint.provider, self.inner.endpoint.model
        )
    }

    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// This classifier's assessment of `question` (cached, shared in flight, bounded, timed
    /// out, behind the breaker). An answer that is not the JSON asked for is an unsure
    /// assessment, and counts as a failure for the breaker.
    pub async fn assess(&self, question: &Question) -> Result<Assessment, ClassifierError> {
        self.inner.classify(question).await
    }

    /// Its opinion on `question`, judged against its own threshold.
    pub async fn opinion(&self, question: &Question) -> Opinion {
        match self.assess(question).await {
            Ok(a) => Opinion::judged(self.name(), a, self.inner.limits.threshold()),
            Err(e) => Opinion::failed(self.name(), e.0),
        }
    }

    /// The breaker's state, for the status bar.
    pub fn breaker(&self) -> BreakerState {
        self.inner.breaker.state()
    }

    /// Asks the model again after the breaker opened (the console's re-arm key).
    pub fn rearm(&self) {
        self.inner.breaker.rearm();
        self.inner.sessions.rearm();
    }

    /// How many agent sessions the per-session breaker has turned off.
    pub fn sessions_off(&self) -> usize {
        self.inner.sessions.open()
    }

    /// Where the model is with its cold start, for the status bar.
    pub fn warmth(&self) -> Warmth {
        self.inner
            .warmth
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn set_warmth(&self, warmth: Warmth) {
        self.inner.set_warmth(warmth);
    }

    /// One cheap request so that a cold local model loads before the first real call, given
    /// `warm_timeout` (a model loading its weights can take minutes), not the request timeout.
    /// Shows as warming until the model (or any real question) answers; a failure is only
    /// shown, it does not count for the breaker.
    pub async fn warm(&self) {
        self.set_warmth(Warmth::Warming);
        let inner = &self.inner;
        let result = inner
            .endpoint
            .ask(&inner.http, &Prompt::warm(), inner.limits.warm_timeout)
            .await;
        match result {
            Ok(_) => self.set_warmth(Warmth::Warm),
            Err(err) => {
                let mut warmth = inner.warmth.lock().unwrap_or_else(|p| p.into_inner());
                if *warmth != Warmth::Warm {
                    *warmth = Warmth::Failed(err.to_string());
                }
            }
        }
    }

    /// How many verdicts the cache holds.
    pub fn cached(&self) -> usize {
        self.inner.cache.len()
    }

    /// How many callers wait on another caller's request in flight (a single flight).
    pub fn joined(&self) -> usize {
        self.inner.cache.joined()
    }

    /// Asks the model about one shell line once, past the cache and the breaker, and reports
    /// its raw answer, the verdict and the time taken.
    pub async fn probe(&self, line: &str) -> Result<Probe, ProviderError> {
        let started = Instant::now();
        let inner = &self.inner;
        let raw = inner
            .endpoint
            .ask(&inner.http, &Prompt::shell(line), inner.limits.timeout)
            .await?;
        Ok(Probe {
            assessment: assessment_of(&raw).map_err(|e| e.to_string()),
            raw,
            took: started.elapsed(),
        })
    }
}

/// Alone, a model classifier's advice is its one opinion; a failure is an error.
impl Classifier for ModelClassifier {
    fn classify(&self, question: Arc<Question>) -> BoxFuture<Result<Advice, ClassifierError>> {
        let this = self.clone();
        Box::pin(async move {
            let assessment = this.assess(&question).await?;
            let threshold = this.inner.limits.threshold();
            Ok(Advice {
                opinions: vec![Opinion::judged(this.name(), assessment, threshold)],
            })
        })
    }

    fn reviews_allow_all(&self) -> bool {
        self.inner.limits.review == super::AllowAllReview::Assess
    }
}

impl Inner {
    pub(super) fn set_warmth(&self, warmth: Warmth) {
        *self.warmth.lock().unwrap_or_else(|p| p.into_inner()) = warmth;
    }

    /// The model answered (so it is warm): the assessment in `raw`, if it is one.
    fn answered(&self, raw: &str) -> Result<Assessment, super::answer::Invalid> {
        self.set_warmth(Warmth::Warm);
        assessment_of(raw)
    }

    /// The breakers come first, cached answers included: a tripped breaker (overall, or the
    /// call's agent session's) hands the call to the human at once.
    async fn classify(
        self: &Arc<Self>,
        question: &Question,
    ) -> Result<Assessment, ClassifierError> {
        let subject: &Subject = &question.subject;
        let session = format!("{}\u{0}{}", question.call.agent, question.call.session);
        self.breaker.check()?;
        self.sessions.asked(&session, subject)?;
        let prompt = Prompt::for_subject(subject, &self.mcp_descriptions);
        // An answer given with the user's words depends on them too: it is neither taken
        // from the cache nor kept there.
        let result = match self.user_message(question) {
            Some(words) => self.ask(prompt.with_context(&words)).await,
            None => self.cache.get_or_ask(subject, || self.ask(prompt)).await,
        };
        match &result {
            Ok(assessment) if !assessment.is_stand_in() => self.sessions.succeeded(&session),
            Ok(assessment) => self.sessions.failed(&session, &assessment.rationale),
            Err(err) => self.sessions.failed(&session, &err.0),
        }
        result
    }

    /// The user's latest message, where `context = "user-message"` and the call's agent
    /// names a transcript that has one.
    fn user_message(&self, question: &Question) -> Option<String> {
        if self.limits.context != super::Context::UserMessage {
            return None;
        }
        let path = question.call.transcript_path.as_deref()?;
        super::context::latest_user_message(std::path::Path::new(path))
    }

    /// Sends one prompt on a request slot the caller holds, and reads its one answer.
    pub(super) async fn send(&self, prompt: Prompt) -> Result<Assessment, ClassifierError> {
        // It may have opened while this request waited for a slot.
        self.breaker.check()?;
        match self
            .endpoint
            .ask(&self.http, &prompt, self.limits.timeout)
            .await
        {
            Ok(raw) => match self.answered(&raw) {
                Ok(assessment) => {
                    self.breaker.succeeded();
                    Ok(assessment)
                }
                Err(invalid) => {
                    let message = invalid.to_string();
                    self.breaker.failed(&message);
                    Ok(Assessment::unsure(message))
                }
            },
            Err(err) => {
                let message = err.to_string();
                self.breaker.failed(&message);
                Err(ClassifierError(message))
            }
        }
    }
}
