//! What the proxy does with one permission request: make the call, ask the console as the
//! hook does, and choose the reply among the agent's options.
//!
//! The console is asked with the hook's own flow (`agents::hook::decide`), so every failure
//! is the hook's: no console, a refused request or an untrusted socket → static analysis
//! alone (read-only → allow, denied or doomed → deny, the rest → the editor's prompt); a
//! console lost mid-request → a deny where static analysis denies, else the editor's prompt.
//! Never an allow the console did not give, and never an allow static analysis cannot prove.

use std::sync::Arc;

use serde_json::Value;

use super::permission::{self, Reply};
use super::sessions::Sessions;
use crate::agents::hook::{self, HookSetup};
use crate::core::call::Agent;
use crate::core::decision::Decision;

/// Answers permission requests for one agent.
#[derive(Clone)]
pub struct Gate {
    pub agent: Agent,
    pub setup: Arc<HookSetup>,
    pub sessions: Sessions,
    /// The folder `gatehouse acp` runs in: a call's folder when its session's is unknown.
    pub cwd: String,
}

/// What became of one permission request, for the proxy to act on and log.
#[derive(Debug)]
pub struct Answered {
    pub reply: Reply,
    pub decision: Option<Decision>,
    /// Lines for stderr (the editor's log of the agent).
    pub notes: Vec<String>,
}

impl Gate {
    /// The reply to a permission request with `params`. Params that do not read as ACP go to
    /// the editor, which has the same request to judge.
    pub async fn answer(&self, params: &Value) -> Answered {
        let request = match permission::parse(params) {
            Ok(request) => request,
            Err(why) => {
                return Answered {
                    reply: Reply::ToEditor,
                    decision: None,
                    notes: vec![format!("{} {why}; the editor asks", self.prefix())],
                };
            }
        };
        let session = request.session_id.to_string();
        let cwd = self
            .sessions
            .cwd(&session)
            .unwrap_or_else(|| self.cwd.clone());
        let call = permission::call_of(&request, &self.agent, &cwd);
        let (setup, prefix) = (self.setup.clone(), self.prefix());
        let mut open = self.sessions.open(&session);
        let asking = tokio::task::spawn_blocking(move || hook::decide(&prefix, &call, &setup));
        // A cancelled turn is answered at once; the console's question stays until it is
        // answered or times out, and that answer is dropped here.
        let asked = tokio::select! {
            asked = asking => asked,
            Ok(()) = &mut open.cancelled => {
                return Answered {
                    reply: Reply::Cancel,
                    decision: None,
                    notes: vec![format!(
                        "{} the editor cancelled the turn while the console was asked; \
                         answered cancelled",
                        self.prefix()
                    )],
                };
            }
        };
        let (decision, _, notes) = match asked {
            Ok(decided) => decided,
            // The asking thread failed (a panic): nothing was decided, the editor asks.
            Err(e) => (
                Decision::defer(format!("asking the console failed ({e})")),
                String::new(),
                vec![format!(
                    "{} asking the console failed ({e}); the editor asks",
                    self.prefix()
                )],
            ),
        };
        Answered {
            reply: permission::reply_for(&decision, &request.options),
            decision: Some(decision),
            notes,
        }
    }

    fn prefix(&self) -> String {
        format!("gatehouse acp ({}):", self.agent)
    }
}
