//! The classifier the barrier races against the human: a model behind the cache, the single
//! flight, a bound on concurrent requests, a per-request timeout and the circuit breaker.
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
use super::settings::Limits;
use super::setup::Ready;
use crate::core::advice::{Advice, Assessment, Opinion};
use crate::core::classifier::{BoxFuture, Classifier, ClassifierError, Question, Subject};

/// A model-backed classifier. Cheap to clone; clones share cache, breaker and connections.
#[derive(Clone)]
pub struct ModelClassifier {
    inner: Arc<Inner>,
}

struct Inner {
    endpoint: Endpoint,
    limits: Limits,
    mcp_descriptions: BTreeMap<String, String>,
    http: reqwest::Client,
    cache: VerdictCache,
    breaker: Breaker,
    permits: Semaphore,
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
        let http = reqwest::Client::builder()
            .user_agent(concat!("gatehouse/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(ready.limits.timeout)
            .build()
            .map_err(|e| ClassifierError(format!("cannot start the HTTP client: {e}")))?;
        Ok(ModelClassifier {
            inner: Arc::new(Inner {
                cache: VerdictCache::new(ready.limits.cache_size),
                breaker: Breaker::new(ready.limits.breaker_failures),
                permits: Semaphore::new(ready.limits.max_concurrent.max(1)),
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
    }

    /// How many verdicts the cache holds.
    pub fn cached(&self) -> usize {
        self.inner.cache.len()
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
}

impl Inner {
    async fn classify(&self, question: &Question) -> Result<Assessment, ClassifierError> {
        let subject: &Subject = &question.subject;
        let prompt = Prompt::for_subject(subject, &self.mcp_descriptions);
        self.cache.get_or_ask(subject, || self.ask(prompt)).await
    }

    /// One request, if the breaker allows, once a permit is free.
    async fn ask(&self, prompt: Prompt) -> Result<Assessment, ClassifierError> {
        self.breaker.check()?;
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| ClassifierError("the classifier is shutting down".into()))?;
        // It may have opened while this request waited for a permit.
        self.breaker.check()?;
        match self
            .endpoint
            .ask(&self.http, &prompt, self.limits.timeout)
            .await
        {
            Ok(raw) => match assessment_of(&raw) {
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
