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

use super::breaker::{Breaker, BreakerState};
use super::cache::{Subject, VerdictCache};
use super::prompt::{Prompt, verdict_of};
use super::provider::{Endpoint, ProviderError};
use super::settings::Limits;
use super::setup::Ready;
use crate::core::call::Call;
use crate::core::classifier::{BoxFuture, Classifier, ClassifierError};
use crate::core::decision::Verdict;

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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    pub raw: String,
    pub verdict: Verdict,
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
            verdict: verdict_of(&raw),
            raw,
            took: started.elapsed(),
        })
    }
}

impl Classifier for ModelClassifier {
    fn classify(&self, call: Arc<Call>) -> BoxFuture<Result<Verdict, ClassifierError>> {
        let inner = self.inner.clone();
        Box::pin(async move { inner.classify(&call).await })
    }
}

impl Inner {
    async fn classify(&self, call: &Call) -> Result<Verdict, ClassifierError> {
        let prompt = Prompt::for_call(call, &self.mcp_descriptions)
            .map_err(|e| ClassifierError(e.to_string()))?;
        let subject = Subject::of(call);
        self.cache.get_or_ask(&subject, || self.ask(prompt)).await
    }

    /// One request, if the breaker allows, once a permit is free.
    async fn ask(&self, prompt: Prompt) -> Result<Verdict, ClassifierError> {
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
            Ok(raw) => {
                self.breaker.succeeded();
                Ok(verdict_of(&raw))
            }
            Err(err) => {
                let message = err.to_string();
                self.breaker.failed(&message);
                Err(ClassifierError(message))
            }
        }
    }
}
