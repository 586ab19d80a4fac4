//! What the proxy keeps per ACP session: the folder the editor opened it in (a call is judged
//! there), and the permission questions still open at the console, so that the editor's
//! `session/cancel` answers them `cancelled` at once, as ACP asks of a client.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// The sessions of one proxy, shared by both of its connections.
#[derive(Debug, Clone, Default)]
pub struct Sessions(Arc<Mutex<State>>);

#[derive(Debug, Default)]
struct State {
    folders: HashMap<String, String>,
    /// Each open question's wake-up, by session and a number of its own.
    open: HashMap<String, HashMap<u64, oneshot::Sender<()>>>,
    next: u64,
}

/// One open question: resolves when the editor cancels its session's turn; forgets itself
/// when dropped.
pub struct Open {
    sessions: Sessions,
    session: String,
    id: u64,
    pub cancelled: oneshot::Receiver<()>,
}

impl Drop for Open {
    fn drop(&mut self) {
        if let Ok(mut state) = self.sessions.0.lock()
            && let Some(open) = state.open.get_mut(&self.session)
        {
            open.remove(&self.id);
            if open.is_empty() {
                state.open.remove(&self.session);
            }
        }
    }
}

impl Sessions {
    /// Notes that `session` works in `cwd`.
    pub fn remember(&self, session: &str, cwd: &str) {
        if let Ok(mut state) = self.0.lock() {
            state.folders.insert(session.to_string(), cwd.to_string());
        }
    }

    /// The folder `session` works in, if the editor said.
    pub fn cwd(&self, session: &str) -> Option<String> {
        self.0.lock().ok()?.folders.get(session).cloned()
    }

    /// Opens a question in `session`, to be woken by [`Sessions::cancel`].
    pub fn open(&self, session: &str) -> Open {
        let (wake, cancelled) = oneshot::channel();
        let mut id = 0;
        if let Ok(mut state) = self.0.lock() {
            state.next += 1;
            id = state.next;
            let open = state.open.entry(session.to_string()).or_default();
            open.insert(id, wake);
        }
        Open {
            sessions: self.clone(),
            session: session.to_string(),
            id,
            cancelled,
        }
    }

    /// The editor cancelled `session`'s turn: wakes every question open in it.
    pub fn cancel(&self, session: &str) {
        let woken = self.0.lock().ok().and_then(|mut s| s.open.remove(session));
        for (_, wake) in woken.into_iter().flatten() {
            let _ = wake.send(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancel_wakes_the_open_questions_of_its_session_only() {
        let sessions = Sessions::default();
        let mut a = sessions.open("a");
        let mut b = sessions.open("b");
        sessions.cancel("a");
        assert!(a.cancelled.try_recv().is_ok());
        assert!(b.cancelled.try_recv().is_err());
        drop(b);
        assert!(
            sessions.0.lock().unwrap().open.is_empty(),
            "closed ones are forgotten"
        );
    }
}
