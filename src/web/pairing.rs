//! One-time pairing codes. A code is good once and for [`CODE_LIFETIME`]; redeeming compares
//! in constant time against every live code.
//!
//! A code is 128 random bits, so guessing is hopeless at any rate the listener lets through;
//! the attempt limit is there so that one peer's failures stay its own. Wrong codes are
//! limited per peer (as the listener counts peers: all of loopback is one, an IPv6 peer its
//! /64): past [`ATTEMPTS_PER_WINDOW`] in a [`WINDOW`] that peer is told to wait. A live code is
//! taken from anyone, limited or not, so nobody's guesses can lock the right code out: not a
//! remote guesser's, and not another local user's on the loopback address a local browser
//! shares with them.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use subtle::ConstantTimeEq;

use super::WebError;
use super::listen::peer_key;

/// How long a pairing code is good for.
pub const CODE_LIFETIME: Duration = Duration::from_secs(120);

/// How many wrong codes one peer may try per [`WINDOW`].
pub const ATTEMPTS_PER_WINDOW: usize = 10;

/// The rate limit's window.
pub const WINDOW: Duration = Duration::from_secs(60);

/// Peers whose attempts are counted at once; past this, a new peer is not counted.
const MOST_PEERS: usize = 4096;

/// What redeeming a code came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redeemed {
    /// The code was live; it is now spent.
    Paired,
    /// No live code is this one: wrong, spent, or expired.
    Refused,
    /// Not a live code, and this peer tried too many lately.
    Limited,
}

#[derive(Debug, Default)]
struct State {
    codes: Vec<(String, Instant)>,
    attempts: HashMap<IpAddr, Vec<Instant>>,
}

/// The live codes and the recent wrong attempts per peer.
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

    /// Spends `code`, sent from `from`, if it is live at `now`.
    pub fn redeem(&self, code: &str, from: IpAddr, now: Instant) -> Redeemed {
        let mut state = self.lock();
        state.codes.retain(|(_, until)| *until > now);
        let mut found = None;
        for (n, (live, _)) in state.codes.iter().enumerate() {
            if bool::from(live.as_bytes().ct_eq(code.as_bytes())) {
                found = Some(n);
            }
        }
        if let Some(n) = found {
            state.codes.remove(n);
            return Redeemed::Paired;
        }
        state.attempts.retain(|_, times| {
            times.retain(|at| now.duration_since(*at) < WINDOW);
            !times.is_empty()
        });
        let peer = peer_key(from);
        if !state.attempts.contains_key(&peer) && state.attempts.len() >= MOST_PEERS {
            return Redeemed::Refused;
        }
        let tried = state.attempts.entry(peer).or_default();
        if tried.len() >= ATTEMPTS_PER_WINDOW {
            return Redeemed::Limited;
        }
        tried.push(now);
        Redeemed::Refused
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_code_pairs_once() {
        let codes = Codes::default();
        let now = Instant::now();
        let code = codes.issue(now).unwrap();
        assert_eq!(codes.redeem(&code, ip("10.0.0.1"), now), Redeemed::Paired);
        assert_eq!(codes.redeem(&code, ip("10.0.0.1"), now), Redeemed::Refused);
    }

    #[test]
    fn a_code_expires_after_two_minutes() {
        let codes = Codes::default();
        let now = Instant::now();
        let code = codes.issue(now).unwrap();
        let late = now + CODE_LIFETIME + Duration::from_millis(1);
        assert_eq!(codes.redeem(&code, ip("10.0.0.1"), late), Redeemed::Refused);
    }

    #[test]
    fn a_guesser_is_cut_off_alone_and_nobody_is_locked_out_of_the_right_code() {
        let codes = Codes::default();
        let now = Instant::now();
        let code = codes.issue(now).unwrap();
        let guesser = ip("127.0.0.5");
        for _ in 0..ATTEMPTS_PER_WINDOW {
            assert_eq!(codes.redeem("0000", guesser, now), Redeemed::Refused);
        }
        assert_eq!(codes.redeem("0000", guesser, now), Redeemed::Limited);
        // All of loopback is one peer: a local browser is limited with the guesser...
        assert_eq!(
            codes.redeem("1111", ip("127.0.0.1"), now),
            Redeemed::Limited
        );
        // ...another peer is not...
        assert_eq!(codes.redeem("1111", ip("10.0.0.2"), now), Redeemed::Refused);
        // ...and the right code pairs from anyone, the limited loopback included.
        assert_eq!(codes.redeem(&code, ip("127.0.0.1"), now), Redeemed::Paired);
        let later = now + WINDOW;
        assert_eq!(codes.redeem("0000", guesser, later), Redeemed::Refused);
    }
}
