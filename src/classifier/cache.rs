//! Verdicts remembered per exact subject, and one request for identical concurrent subjects.
//!
//! The key is the tool name with the full input JSON, never the tool name alone. Only
//! `read-only` and `writes` are remembered: `unsure` and errors are asked again next time.
//! While a subject is being asked, later callers with the same subject wait for that request
//! (a single flight) instead of sending their own. If the caller that leads the request is
//! dropped (its dialog was answered), its request is cancelled with it and a waiting caller
//! takes over with a fresh request: a cancelled flight never answers for the others.

use std::collections::HashMap;
use std::future::Future;
use std::num::NonZeroUsize;
use std::sync::{Mutex, MutexGuard};

use lru::LruCache;
use tokio::sync::watch;

use crate::core::call::Call;
use crate::core::classifier::ClassifierError;
use crate::core::decision::Verdict;

/// The exact thing a verdict is about: tool and full input, unambiguously encoded.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Subject(String);

impl Subject {
    pub fn of(call: &Call) -> Subject {
        Subject(serde_json::json!([call.tool, call.input]).to_string())
    }
}

type Shared = Option<Result<Verdict, ClassifierError>>;

pub struct VerdictCache {
    inner: Mutex<Inner>,
}

struct Inner {
    /// `None` when the cache size is 0: nothing is remembered, flights are still shared.
    lru: Option<LruCache<Subject, Verdict>>,
    flights: HashMap<Subject, Flight>,
    next_flight: u64,
}

struct Flight {
    id: u64,
    result: watch::Receiver<Shared>,
}

enum Role {
    Lead(watch::Sender<Shared>, u64),
    Follow(watch::Receiver<Shared>),
}

impl VerdictCache {
    pub fn new(size: usize) -> VerdictCache {
        VerdictCache {
            inner: Mutex::new(Inner {
                lru: NonZeroUsize::new(size).map(LruCache::new),
                flights: HashMap::new(),
                next_flight: 0,
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The remembered verdict for `subject`, if any.
    pub fn get(&self, subject: &Subject) -> Option<Verdict> {
        self.lock().lru.as_mut()?.get(subject).copied()
    }

    /// How many verdicts are remembered.
    pub fn len(&self) -> usize {
        self.lock().lru.as_ref().map_or(0, LruCache::len)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The verdict for `subject`: remembered, or shared from a request in flight, or asked with
    /// `ask` (called at most once, and only when this caller leads a request).
    pub async fn get_or_ask<F, Fut>(
        &self,
        subject: &Subject,
        ask: F,
    ) -> Result<Verdict, ClassifierError>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Verdict, ClassifierError>>,
    {
        let mut ask = Some(ask);
        loop {
            let role = {
                let mut inner = self.lock();
                if let Some(verdict) = inner.lru.as_mut().and_then(|lru| lru.get(subject)) {
                    return Ok(*verdict);
                }
                match inner.flights.get(subject) {
                    Some(flight) => Role::Follow(flight.result.clone()),
                    None => {
                        let (sender, result) = watch::channel(None);
                        let id = inner.next_flight;
                        inner.next_flight += 1;
                        inner.flights.insert(subject.clone(), Flight { id, result });
                        Role::Lead(sender, id)
                    }
                }
            };
            match role {
                Role::Follow(mut result) => {
                    // An error here means the leader was dropped unanswered: loop and lead.
                    if let Ok(shared) = result.wait_for(Option::is_some).await {
                        return shared.clone().expect("waited for a result");
                    }
                }
                Role::Lead(sender, id) => {
                    let _landing = Landing {
                        cache: self,
                        subject,
                        id,
                    };
                    let ask = ask.take().expect("a caller leads at most one flight");
                    let result = ask().await;
                    if let Ok(verdict @ (Verdict::ReadOnly | Verdict::Writes)) = result
                        && let Some(lru) = self.lock().lru.as_mut()
                    {
                        lru.put(subject.clone(), verdict);
                    }
                    let _ = sender.send(Some(result.clone()));
                    return result;
                }
            }
        }
    }
}

/// Removes a flight from the table when its leader finishes or is dropped; a newer flight for
/// the same subject is left alone.
struct Landing<'a> {
    cache: &'a VerdictCache,
    subject: &'a Subject,
    id: u64,
}

impl Drop for Landing<'_> {
    fn drop(&mut self) {
        let mut inner = self.cache.lock();
        if inner
            .flights
            .get(self.subject)
            .is_some_and(|f| f.id == self.id)
        {
            inner.flights.remove(self.subject);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::call::test_call;
    use serde_json::json;

    fn subject(tool: &str, input: serde_json::Value) -> Subject {
        Subject::of(&test_call(tool, input))
    }

    #[test]
    fn subjects_differ_by_any_part_of_the_input_and_not_by_session() {
        let a = subject("Bash", json!({"command": "ls"}));
        assert_eq!(a, subject("Bash", json!({"command": "ls"})));
        assert_ne!(a, subject("Bash", json!({"command": "ls -l"})));
        assert_ne!(a, subject("mcp__s__t", json!({"command": "ls"})));
    }

    #[tokio::test]
    async fn unsure_and_errors_are_not_remembered_but_verdicts_are() {
        let cache = VerdictCache::new(8);
        let s = subject("Bash", json!({"command": "x"}));
        let _ = cache.get_or_ask(&s, || async { Ok(Verdict::Unsure) }).await;
        let _ = cache
            .get_or_ask(&s, || async { Err(ClassifierError("down".into())) })
            .await;
        assert_eq!(cache.get(&s), None);
        let _ = cache.get_or_ask(&s, || async { Ok(Verdict::Writes) }).await;
        assert_eq!(cache.get(&s), Some(Verdict::Writes));
    }

    #[tokio::test]
    async fn the_least_recently_used_verdict_goes_first() {
        let cache = VerdictCache::new(2);
        for n in 0..3 {
            let s = subject("Bash", json!({ "command": n.to_string() }));
            let _ = cache
                .get_or_ask(&s, || async { Ok(Verdict::ReadOnly) })
                .await;
        }
        assert_eq!(cache.len(), 2);
        assert_eq!(cache.get(&subject("Bash", json!({"command": "0"}))), None);
    }

    #[tokio::test]
    async fn a_size_of_zero_remembers_nothing() {
        let cache = VerdictCache::new(0);
        let s = subject("Bash", json!({"command": "x"}));
        let _ = cache
            .get_or_ask(&s, || async { Ok(Verdict::ReadOnly) })
            .await;
        assert!(cache.is_empty());
    }
}
