//! The breaker per agent session: besides the overall breaker (failures in a row from any
//! session), each session has its own count of failures and invalid answers in a row, and of
//! the same subject asked again and again (an agent in a loop). A session that trips is no
//! longer sent to the model; its dialogs all go to the human, saying why, until the console
//! re-arms. Other sessions go on being asked.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::num::NonZeroUsize;
use std::sync::{Mutex, MutexGuard};

use lru::LruCache;

use crate::core::classifier::{ClassifierError, Subject};

/// How many sessions are remembered; the least recent is forgotten first.
const SESSIONS: usize = 1_024;

#[derive(Debug, Default)]
struct Session {
    failures: u32,
    last: Option<u64>,
    repeats: u32,
    open: Option<String>,
}

pub struct SessionBreakers {
    failures: u32,
    repeats: u32,
    sessions: Mutex<LruCache<String, Session>>,
}

impl SessionBreakers {
    /// Trips a session after `failures` failures in a row, or on the `repeats`-th time in a
    /// row it asks about the same subject (both at least 1).
    pub fn new(failures: u32, repeats: u32) -> SessionBreakers {
        SessionBreakers {
            failures: failures.max(1),
            repeats: repeats.max(1),
            sessions: Mutex::new(LruCache::new(NonZeroUsize::new(SESSIONS).expect("not 0"))),
        }
    }

    fn lock(&self) -> MutexGuard<'_, LruCache<String, Session>> {
        self.sessions.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records that `session` asks about `subject`; the error says why it may not.
    pub fn asked(&self, session: &str, subject: &Subject) -> Result<(), ClassifierError> {
        let mut hasher = DefaultHasher::new();
        subject.hash(&mut hasher);
        let hash = hasher.finish();
        let mut sessions = self.lock();
        let entry = sessions.get_or_insert_mut(session.to_string(), Session::default);
        if entry.open.is_none() {
            entry.repeats = if entry.last == Some(hash) {
                entry.repeats + 1
            } else {
                1
            };
            entry.last = Some(hash);
            if entry.repeats >= self.repeats {
                entry.open = Some(format!(
                    "it asked about the same call {} times in a row (an agent in a loop?)",
                    entry.repeats
                ));
            }
        }
        match &entry.open {
            Some(why) => Err(ClassifierError(format!(
                "the classifier is off for this agent session: {why}; re-arm it from the console"
            ))),
            None => Ok(()),
        }
    }

    /// The model answered `session` well: its failures in a row start again.
    pub fn succeeded(&self, session: &str) {
        if let Some(entry) = self.lock().get_mut(session) {
            entry.failures = 0;
        }
    }

    /// The model failed `session` (an error, a timeout, an invalid answer).
    pub fn failed(&self, session: &str, error: &str) {
        let mut sessions = self.lock();
        let entry = sessions.get_or_insert_mut(session.to_string(), Session::default);
        entry.failures += 1;
        if entry.failures >= self.failures && entry.open.is_none() {
            entry.open = Some(format!(
                "{} failures in a row (last: {error})",
                entry.failures
            ));
        }
    }

    /// How many sessions are tripped, for the status bar.
    pub fn open(&self) -> usize {
        self.lock().iter().filter(|(_, s)| s.open.is_some()).count()
    }

    /// Forgets every session's counts: all are asked again.
    pub fn rearm(&self) {
        self.lock().clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_subject_asked_again_and_again_trips_only_that_session_until_rearmed() {
        let breakers = SessionBreakers::new(3, 3);
        let same = Subject::of_line("frob --list");
        assert!(breakers.asked("a", &same).is_ok());
        assert!(breakers.asked("a", &same).is_ok());
        let err = breakers.asked("a", &same).unwrap_err();
        assert!(err.0.contains("3 times in a row"), "{err}");
        assert!(breakers.asked("a", &Subject::of_line("other")).is_err());
        assert!(breakers.asked("b", &same).is_ok());
        assert_eq!(breakers.open(), 1);
        breakers.rearm();
        assert!(breakers.asked("a", &same).is_ok());
    }

    #[test]
    fn another_subject_between_repeats_restarts_the_count() {
        let breakers = SessionBreakers::new(3, 2);
        let (x, y) = (Subject::of_line("frob x"), Subject::of_line("frob y"));
        for subject in [&x, &y, &x, &y] {
            assert!(breakers.asked("a", subject).is_ok());
        }
    }

    #[test]
    fn failures_in_a_row_trip_a_session_and_an_answer_between_them_restarts_the_count() {
        let breakers = SessionBreakers::new(2, 100);
        let s = Subject::of_line("frob");
        breakers.failed("a", "x");
        breakers.succeeded("a");
        breakers.failed("a", "y");
        assert!(breakers.asked("a", &s).is_ok());
        breakers.failed("a", "z");
        let err = breakers.asked("a", &s).unwrap_err();
        assert!(err.0.contains("2 failures") && err.0.contains('z'), "{err}");
    }
}
