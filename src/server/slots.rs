//! The server's count of open connections, kept under the process's descriptor limit so that
//! peers can never take the descriptors the console needs for its own files (the audit log,
//! policy files, the web console). The memory bound ([`super::budget`]) limits what
//! connections hold; this limits how many there are.
//!
//! A connection that has not yet sent its request line is *waiting*. At the bound, a new
//! connection takes the place of the one that has waited longest, which is told so and closed:
//! a peer that connects and sends nothing (or trickles) cannot keep a hook, which sends its line
//! at once, from being heard. When every connection holds a call (open dialogs), there is no
//! place to take, and the new connection is answered at once without one (the busy path).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::{Notify, oneshot};

/// Open connections, counted.
#[derive(Debug)]
pub struct Slots {
    bound: usize,
    state: Mutex<State>,
    /// Told whenever a place is freed.
    freed: Notify,
}

#[derive(Debug, Default)]
struct State {
    open: usize,
    /// The connections still waiting for their request line, oldest first, each with the
    /// sender that tells it to give up its place.
    waiting: BTreeMap<u64, oneshot::Sender<()>>,
    /// Connections told to give up their place that have not closed yet.
    evicted: BTreeSet<u64>,
    next: u64,
}

/// One open connection's place; dropping it frees the place.
#[derive(Debug)]
pub struct Slot {
    slots: Arc<Slots>,
    id: u64,
}

/// Completes when a newer connection took this one's place before its request line arrived.
pub type Evicted = oneshot::Receiver<()>;

impl Slots {
    /// At most `bound` connections (at least one).
    pub fn new(bound: usize) -> Arc<Slots> {
        Arc::new(Slots {
            bound: bound.max(1),
            state: Mutex::default(),
            freed: Notify::new(),
        })
    }

    /// The bound for a process that may open `descriptors` files: what is left after a quarter
    /// for the web console and a reserve for the console's own files (at least 24, or an
    /// eighth), never more than `most`.
    pub fn bound_for(descriptors: usize, most: usize) -> usize {
        let reserve = (descriptors / 8).max(24);
        descriptors
            .saturating_sub(descriptors / 4 + reserve)
            .clamp(1, most.max(1))
    }

    /// A place for a new connection: a free one, or the place of the connection that has
    /// waited longest for its request line (told at once through its [`Evicted`]). `None`
    /// when every place holds a call, or evicted connections have not closed yet.
    pub fn take(self: &Arc<Self>) -> Option<(Slot, Evicted)> {
        let mut state = self.lock();
        if state.open >= self.bound {
            // Evicted connections hold their descriptor until their task runs: a quarter more
            // than the bound (at least one) may be open at once while they close.
            if state.open >= self.bound + (self.bound / 4).max(1) {
                return None;
            }
            let (old, evict) = state.waiting.pop_first()?;
            let _ = evict.send(());
            state.evicted.insert(old);
        }
        let id = state.next;
        state.next += 1;
        state.open += 1;
        let (evict, evicted) = oneshot::channel();
        state.waiting.insert(id, evict);
        drop(state);
        Some((
            Slot {
                slots: self.clone(),
                id,
            },
            evicted,
        ))
    }

    /// [`Slots::take`], waiting up to `patience` for connections already told to give up
    /// their place to close when that is all that stands in the way (on a loaded machine
    /// their tasks may not have run yet).
    pub async fn take_soon(self: &Arc<Self>, patience: Duration) -> Option<(Slot, Evicted)> {
        let waiting = async {
            loop {
                let freed = self.freed.notified();
                tokio::pin!(freed);
                freed.as_mut().enable();
                if let Some(place) = self.take() {
                    return Some(place);
                }
                if self.lock().evicted.is_empty() {
                    return None;
                }
                freed.await;
            }
        };
        tokio::time::timeout(patience, waiting).await.ok().flatten()
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.lock().open
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Slot {
    /// The request line arrived: this connection's place is no longer taken for a newer one.
    pub fn heard(&self) {
        self.slots.lock().waiting.remove(&self.id);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut state = self.slots.lock();
        state.waiting.remove(&self.id);
        state.evicted.remove(&self.id);
        state.open -= 1;
        drop(state);
        self.slots.freed.notify_waiters();
    }
}

/// The number of files this process may open (its soft limit), or `usize::MAX` when unlimited.
pub fn descriptors() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `limit` is valid for writes of an rlimit.
    let got = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    match got {
        true if limit.rlim_cur != libc::RLIM_INFINITY => {
            usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
        }
        _ => usize::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_leaves_the_web_and_the_consoles_files_their_descriptors() {
        assert_eq!(Slots::bound_for(64, usize::MAX), 24);
        assert_eq!(Slots::bound_for(20_000, usize::MAX), 12_500);
        assert_eq!(Slots::bound_for(1_048_576, 50_000), 50_000);
        assert_eq!(Slots::bound_for(16, usize::MAX), 1);
    }

    #[test]
    fn at_the_bound_the_longest_waiting_connection_gives_way_and_a_heard_one_never_does() {
        let slots = Slots::new(2);
        let (first, mut first_evicted) = slots.take().unwrap();
        let (second, mut second_evicted) = slots.take().unwrap();
        first.heard();
        let (third, _) = slots.take().expect("the waiting second gives way");
        assert!(second_evicted.try_recv().is_ok(), "told to go");
        assert!(first_evicted.try_recv().is_err(), "a heard one stays");
        drop(second);
        third.heard();
        assert!(slots.take().is_none(), "every place holds a call");
        drop(first);
        assert!(slots.take().is_some());
    }
}
