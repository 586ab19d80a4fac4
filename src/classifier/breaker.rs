//! The circuit breaker: after a number of failures in a row (errors, bad answers, timeouts) it
//! opens and the model is no longer asked, so every race is left to the human at once. It stays
//! open until the console re-arms it; it never closes by itself, so a broken setup shows.

use std::sync::{Mutex, MutexGuard};

use crate::core::classifier::ClassifierError;

/// What the status bar shows about the breaker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BreakerState {
    /// The model is asked; `failures` in a row so far (0 after any answer).
    Closed { failures: u32 },
    /// The model is not asked until [`Breaker::rearm`].
    Open { failures: u32, last_error: String },
}

impl BreakerState {
    pub fn is_open(&self) -> bool {
        matches!(self, BreakerState::Open { .. })
    }
}

#[derive(Debug)]
pub struct Breaker {
    limit: u32,
    state: Mutex<BreakerState>,
}

impl Breaker {
    /// A closed breaker that opens after `limit` failures in a row (at least one).
    pub fn new(limit: u32) -> Breaker {
        Breaker {
            limit: limit.max(1),
            state: Mutex::new(BreakerState::Closed { failures: 0 }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, BreakerState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn state(&self) -> BreakerState {
        self.lock().clone()
    }

    /// Whether the model may be asked now; the error says why not and how to re-arm.
    pub fn check(&self) -> Result<(), ClassifierError> {
        match &*self.lock() {
            BreakerState::Closed { .. } => Ok(()),
            BreakerState::Open {
                failures,
                last_error,
            } => Err(ClassifierError(format!(
                "the classifier is off after {failures} failures in a row (last: {last_error}); \
                 re-arm it from the console"
            ))),
        }
    }

    /// The model answered: the count of failures in a row starts again.
    pub fn succeeded(&self) {
        let mut state = self.lock();
        if let BreakerState::Closed { failures } = &mut *state {
            *failures = 0;
        }
    }

    /// The model failed; the breaker opens at the limit.
    pub fn failed(&self, error: &str) {
        let mut state = self.lock();
        let failures = match &*state {
            BreakerState::Closed { failures } | BreakerState::Open { failures, .. } => failures + 1,
        };
        *state = if failures >= self.limit {
            BreakerState::Open {
                failures,
                last_error: error.to_string(),
            }
        } else {
            BreakerState::Closed { failures }
        };
    }

    /// Closes the breaker: the model is asked again.
    pub fn rearm(&self) {
        *self.lock() = BreakerState::Closed { failures: 0 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_breaker_opens_at_the_limit_and_only_rearming_closes_it() {
        let breaker = Breaker::new(2);
        breaker.failed("a");
        assert!(breaker.check().is_ok());
        breaker.failed("b");
        let err = breaker.check().unwrap_err();
        assert!(err.0.contains("2 failures") && err.0.contains("b"), "{err}");
        breaker.succeeded();
        assert!(breaker.state().is_open(), "a late answer does not close it");
        breaker.rearm();
        assert_eq!(breaker.state(), BreakerState::Closed { failures: 0 });
    }

    #[test]
    fn an_answer_between_failures_restarts_the_count() {
        let breaker = Breaker::new(2);
        breaker.failed("a");
        breaker.succeeded();
        breaker.failed("b");
        assert_eq!(breaker.state(), BreakerState::Closed { failures: 1 });
    }
}
