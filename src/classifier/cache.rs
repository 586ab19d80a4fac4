//! Assessments remembered per exact subject, and one request for identical concurrent subjects.
//!
//! The key is the question's whole [`Subject`]: what the model is shown, never a tool name alone. Only
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

use crate::core::advice::Assessment;
use crate::core::classifier::{ClassifierError, Subject};
use crate::core::decision::Verdict;

type Shared = Option<Result<Assessment, ClassifierError>>;

pub struct VerdictCache {
    inner: Mutex<Inner>,
}

struct Inner {
    /// `None` when the cache size is 0: nothing is remembered, flights are still shared.
    lru: Option<LruCache<Subject, Assessment>>,
    flights: HashMap<Subject, Flight>,
    next_flight: u64,
}

struct Flight {
    id: u64,
    result: watch::Receiver<Shared>,
    /// How many callers have joined it to wait for its answer.
    joined: usize,
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
    pub fn get(&self, subject: &Subject) -> Option<Assessment> {
        self.lock().lru.as_mut()?.get(subject).cloned()
    }

    /// How many verdicts are remembered.
    pub fn len(&self) -> usize {
        self.lock().lru.as_ref().map_or(0, LruCache::len)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many callers have joined the requests in flight to wait for their answers.
    pub fn joined(&self) -> usize {
        self.lock().flights.values().map(|f| f.joined).sum()
    }

    /// The verdict for `subject`: remembered, or shared from a request in flight, or asked with
    /// `ask` (called at most once, and only when this caller leads a request).
    pub async fn get_or_ask<F, Fut>(
        &self,
        subject: &Subject,
        ask: F,
    ) -> Result<Assessment, ClassifierError>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Assessment, ClassifierError>>,
    {
        let mut ask = Some(ask);
        loop {
            let role = {
                let mut inner = self.lock();
                if let Some(assessment) = inner.lru.as_mut().and_then(|lru| lru.get(subject)) {
                    return Ok(assessment.clone());
                }
                match inner.flights.get_mut(subject) {
                    Some(flight) => {
                        flight.joined += 1;
                        Role::Follow(flight.result.clone())
                    }
                    None => {
                        let (sender, result) = watch::channel(None);
                        let id = inner.next_flight;
                        inner.next_flight += 1;
                        let flight = Flight {
                            id,
                            result,
                            joined: 0,
                        };
                        inner.flights.insert(subject.clone(), flight);
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
                    if let Ok(assessment) = &result
                        && matches!(assessment.verdict, Verdict::ReadOnly | Verdict::Writes)
                        && let Some(lru) = self.lock().lru.as_mut()
                    {
                        lru.put(subject.clone(), assessment.clone());
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

    fn subject(line: &str) -> Subject {
        Subject::of_line(line)
    }

    fn said(verdict: Verdict) -> Assessment {
        Assessment {
            verdict,
            ..Assessment::unsure("x")
        }
    }

    #[test]
    fn subjects_differ_by_any_word_in_question() {
        let a = subject("frob -l");
        assert_eq!(a, subject("frob -l"));
        assert_ne!(a, subject("frob -l -v"));
    }

    #[tokio::test]
    async fn unsure_and_errors_are_not_remembered_but_verdicts_are() {
        let cache = VerdictCache::new(8);
        let s = subject("frob");
        let _ = cache
            .get_or_ask(&s, || async { Ok(said(Verdict::Unsure)) })
            .await;
        let _ = cache
            .get_or_ask(&s, || async { Err(ClassifierError("down".into())) })
            .await;
        assert_eq!(cache.get(&s), None);
        let _ = cache
            .get_or_ask(&s, || async { Ok(said(Verdict::Writes)) })
            .await;
        assert_eq!(cache.get(&s).map(|a| a.verdict), Some(Verdict::Writes));
    }

    #[tokio::test]
    async fn the_least_recently_used_verdict_goes_first() {
        let cache = VerdictCache::new(2);
        for n in 0..3 {
            let s = subject(&format!("frob {n}"));
            let _ = cache
                .get_or_ask(&s, || async { Ok(said(Verdict::ReadOnly)) })
                .await;
        }
        assert_eq!(cache.len(), 2);
        assert_eq!(cache.get(&subject("frob 0")), None);
    }

    #[tokio::test]
    async fn a_size_of_zero_remembers_nothing() {
        let cache = VerdictCache::new(0);
        let s = subject("frob");
        let _ = cache
            .get_or_ask(&s, || async { Ok(said(Verdict::ReadOnly)) })
            .await;
        assert!(cache.is_empty());
    }
}
