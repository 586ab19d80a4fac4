//! One-time pairing codes. A code is good once and for [`CODE_LIFETIME`]; redeeming compares
//! in constant time against every live code. Attempts are rate-limited as a whole (not per
//! address, which a guesser can change): past [`ATTEMPTS_PER_WINDOW`] in a window, every
//! attempt is refused until the window passes, a right code included.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use subtle::ConstantTimeEq;

use super::WebError;

/// How long a pairing code is good for.
pub const CODE_LIFETIME: Duration = Duration::from_secs(120);

/// How many pairing attempts are taken per [`WINDOW`].
pub const ATTEMPTS_PER_WINDOW: usize = 10;

/// The rate limit's window.
pub const WINDOW: Duration = Duration::from_secs(60);

/// What redeeming a code came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redeemed {
    /// The code was live; it is now spent.
    Paired,
    /// No live code is this one: wrong, spent, or expired.
    Refused,
    /// Too many attempts lately: not even looked at.
    Limited,
}

#[derive(Debug, Default)]
struct State {
    codes: Vec<(String, Instant)>,
    attempts: Vec<Instant>,
}

/// The live codes and the recent attempts.
#[derive(Debug, Default)]
pub struct Codes {
    state: Mutex<State>,
}

impl Codes {
    /// A new code, good once until `now` + [`CODE_LIFETIME`].
    pub fn issue(&self, now: Instant) -> Result<String, WebError> {
        let code = super::random_hex(16)?;
        let mut state = self.lock();
        state.codes.retain(|(_, until)| *until > now);
        state.codes.push((code.clone(), now + CODE_LIFETIME));
        Ok(code)
    }

    /// Spends `code` if it is live at `now`.
    pub fn redeem(&self, code: &str, now: Instant) -> Redeemed {
        let mut state = self.lock();
        state.attempts.retain(|at| now.duration_since(*at) < WINDOW);
        if state.attempts.len() >= ATTEMPTS_PER_WINDOW {
            return Redeemed::Limited;
        }
        state.attempts.push(now);
        state.codes.retain(|(_, until)| *until > now);
        let mut found = None;
        for (n, (live, _)) in state.codes.iter().enumerate() {
            if bool::from(live.as_bytes().ct_eq(code.as_bytes())) {
                found = Some(n);
            }
        }
        match found {
            Some(n) => {
                state.codes.remove(n);
                Redeemed::Paired
            }
            None => Redeemed::Refused,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_pairs_once() {
        let codes = Codes::default();
        let now = Instant::now();
        let code = codes.issue(now).unwrap();
        assert_eq!(codes.redeem(&code, now), Redeemed::Paired);
        assert_eq!(codes.redeem(&code, now), Redeemed::Refused);
    }

    #[test]
    fn a_code_expires_after_two_minutes() {
        let codes = Codes::default();
        let now = Instant::now();
        let code = codes.issue(now).unwrap();
        let late = now + CODE_LIFETIME + Duration::from_millis(1);
        assert_eq!(codes.redeem(&code, late), Redeemed::Refused);
    }

    #[test]
    fn guessing_is_cut_off_and_then_even_the_right_code_waits() {
        let codes = Codes::default();
        let now = Instant::now();
        let code = codes.issue(now).unwrap();
        for _ in 0..ATTEMPTS_PER_WINDOW {
            assert_eq!(codes.redeem("0000", now), Redeemed::Refused);
        }
        assert_eq!(codes.redeem(&code, now), Redeemed::Limited);
        let later = now + WINDOW;
        assert_eq!(codes.redeem(&code, later), Redeemed::Paired);
    }
}
