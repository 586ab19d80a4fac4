//! Refused web requests in the audit log without letting anyone fill the disk with them (an
//! audit that cannot be written turns allows into denies). Each peer (as the listener counts
//! them) gets [`DETAILED`] records a minute, and everyone together [`DETAILED_IN_ALL`]; the
//! rest are counted and summed up in one record per peer when its minute is over (or when
//! the web console stops): "N more refused requests from X in the last minute". A record's
//! path is cut to [`MAX_PATH`] characters.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::listen::peer_key;

/// Records written one by one per peer per window.
pub const DETAILED: u32 = 10;

/// Records written one by one per window from all peers together.
pub const DETAILED_IN_ALL: u32 = 100;

/// The window.
pub const WINDOW: Duration = Duration::from_secs(60);

/// The longest path written, in characters.
pub const MAX_PATH: usize = 200;

/// Peers counted apart; past this, the rest are counted together.
const MOST_PEERS: usize = 1024;

/// A refused request as the audit log holds it.
#[derive(Debug, Serialize)]
pub struct Refused {
    pub time: String,
    pub web: &'static str,
    pub status: u16,
    pub why: String,
    pub path: String,
    pub from: String,
}

/// The refused requests of one peer that were not written one by one.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Summary {
    pub time: String,
    pub web: &'static str,
    /// The peer, as counted: its address, a /64, or `127.0.0.1` for all of loopback.
    pub from: String,
    pub refused: u64,
    pub seconds: u64,
    pub why: String,
}

#[derive(Debug)]
struct Window {
    started: Instant,
    written: u32,
    unwritten: u64,
}

#[derive(Debug, Default)]
struct State {
    peers: HashMap<IpAddr, Window>,
    started: Option<Instant>,
    written: u32,
}

/// What to write for one refused request.
#[derive(Debug)]
pub enum Note {
    /// Its own record, after the summaries of windows that ended.
    Write(Vec<Summary>, Box<Refused>),
    /// Counted, not written; the summaries of windows that ended, if any.
    Counted(Vec<Summary>),
}

/// The refused requests of the current windows.
#[derive(Debug, Default)]
pub struct Refusals {
    state: Mutex<State>,
}

impl Refusals {
    /// Counts one refused request from `from` at `now`.
    pub fn note(&self, status: u16, why: &str, path: &str, from: SocketAddr, now: Instant) -> Note {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let mut summaries = ended(&mut state, now);
        if state
            .started
            .is_none_or(|at| now.duration_since(at) >= WINDOW)
        {
            state.started = Some(now);
            state.written = 0;
        }
        let mut key = peer_key(from.ip());
        if !state.peers.contains_key(&key) && state.peers.len() >= MOST_PEERS {
            key = IpAddr::from([0, 0, 0, 0]);
        }
        let all_written = state.written;
        let window = state.peers.entry(key).or_insert(Window {
            started: now,
            written: 0,
            unwritten: 0,
        });
        if window.written >= DETAILED || all_written >= DETAILED_IN_ALL {
            window.unwritten += 1;
            summaries.sort_by(|a, b| a.from.cmp(&b.from));
            return Note::Counted(summaries);
        }
        window.written += 1;
        state.written += 1;
        Note::Write(
            summaries,
            Box::new(Refused {
                time: crate::core::audit::now_rfc3339(),
                web: "refused",
                status,
                why: why.to_string(),
                path: crate::core::escape::visible_cut(path, MAX_PATH),
                from: from.to_string(),
            }),
        )
    }

    /// The summaries of the windows over at `now`; with `now` as `None`, of every window
    /// (the web console stops).
    pub fn flush(&self, now: Option<Instant>) -> Vec<Summary> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        match now {
            Some(now) => ended(&mut state, now),
            None => {
                let all = std::mem::take(&mut state.peers);
                all.into_iter()
                    .filter_map(|(key, window)| summary(key, &window))
                    .collect()
            }
        }
    }
}

/// Removes the windows over at `now` and returns the summaries of those with requests left
/// unwritten.
fn ended(state: &mut State, now: Instant) -> Vec<Summary> {
    let mut out = Vec::new();
    state.peers.retain(|key, window| {
        let over = now.duration_since(window.started) >= WINDOW;
        if over {
            out.extend(summary(*key, window));
        }
        !over
    });
    out
}

fn summary(key: IpAddr, window: &Window) -> Option<Summary> {
    (window.unwritten > 0).then(|| Summary {
        time: crate::core::audit::now_rfc3339(),
        web: "refused-more",
        from: key.to_string(),
        refused: window.unwritten,
        seconds: WINDOW.as_secs(),
        why: format!(
            "{} more refused requests from {key} in the last minute, past the {DETAILED} \
             written one by one",
            window.unwritten
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(ip: &str) -> SocketAddr {
        SocketAddr::new(ip.parse().unwrap(), 40000)
    }

    fn written(note: &Note) -> bool {
        matches!(note, Note::Write(..))
    }

    #[test]
    fn a_flood_from_one_peer_is_written_ten_times_a_minute_then_summed_up() {
        let refusals = Refusals::default();
        let now = Instant::now();
        let path = "/x".repeat(50_000);
        let notes: Vec<Note> = (0..1000)
            .map(|_| refusals.note(401, "no device token", &path, from("127.0.0.2"), now))
            .collect();
        assert_eq!(
            notes.iter().filter(|n| written(n)).count(),
            DETAILED as usize
        );
        let Note::Write(_, first) = &notes[0] else {
            panic!("the first is written")
        };
        assert!(
            first.path.chars().count() <= MAX_PATH + 1,
            "{}",
            first.path.len()
        );
        // Another peer still has its own ten.
        assert!(written(&refusals.note(
            401,
            "x",
            "/",
            from("10.0.0.9"),
            now
        )));
        // A minute on, the flood's count comes out with the next refusal.
        let later = now + WINDOW;
        let Note::Write(summaries, _) = refusals.note(401, "x", "/", from("127.0.0.1"), later)
        else {
            panic!("a new window writes again")
        };
        assert_eq!(summaries.len(), 1, "{summaries:?}");
        assert_eq!(summaries[0].refused, 1000 - DETAILED as u64);
        assert_eq!(summaries[0].from, "127.0.0.1");
    }

    #[test]
    fn many_peers_together_write_no_more_than_the_overall_bound() {
        let refusals = Refusals::default();
        let now = Instant::now();
        let written_count = (0..5000u32)
            .map(|n| {
                let ip = std::net::Ipv4Addr::from(0x0a00_0000 + n);
                refusals.note(401, "x", "/", SocketAddr::new(ip.into(), 1), now)
            })
            .filter(written)
            .count();
        assert_eq!(written_count, DETAILED_IN_ALL as usize);
        let summed: u64 = refusals.flush(None).iter().map(|s| s.refused).sum();
        assert_eq!(summed, 5000 - DETAILED_IN_ALL as u64);
    }
}
