//! Protocol v1 between a hook and the console: one JSON object per line, one request then one
//! response per connection.
//!
//! ```text
//! → {"v":1,"call":{"agent":"claude-code","tool":"Bash","input":{…},…}}
//! ← {"v":1,"decision":"allow"|"deny"|"defer","reason":"…","note":"…","decider":"human"}
//! ← {"v":1,"error":"…"}
//! ```
//!
//! A client keeps its end open until the answer arrives: a connection closed early (even
//! half-closed) withdraws the call.
//!
//! Both sides use these types: the server to parse requests and write answers, the hook's
//! synchronous client to write requests and read answers. A response the client cannot read
//! as a decision becomes `defer`, never `allow`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::core::call::Call;
use crate::core::decision::{Decider, Decision};

/// The one protocol version this build speaks.
pub const VERSION: u64 = 1;

/// The most the hook reads from the agent on stdin (the agent-side bound): past it the hook
/// defers without asking anyone.
pub const MAX_STDIN: usize = 64 * 1024 * 1024;

/// The longest request line the server reads, newline excluded: the agent-side bound plus
/// room for the fields the hook adds. The invariant: a call the hook built from at most
/// [`MAX_STDIN`] bytes of agent JSON fits, because re-serialising a string never makes it
/// longer than the agent's own JSON for it (serde_json escapes only `"`, `\\` and controls,
/// which the agent had to escape too). A line that still does not fit (a dialect that
/// rewrites its input) is decided by the hook statically, never sent.
pub const MAX_LINE: usize = MAX_STDIN + 1024 * 1024;

// The room past the agent-side bound covers what the hook adds (tested in `agents::hook`).
const _: () = assert!(MAX_LINE >= MAX_STDIN + 4096);

/// Why a request line was refused. The text goes back to the client as `{"v":1,"error":…}`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    #[error("request line is longer than {0} bytes")]
    TooLong(usize),
    #[error("request is not valid UTF-8")]
    NotUtf8,
    #[error("request is not valid JSON: {0}")]
    BadJson(String),
    #[error("request has no protocol version `v`; send {{\"v\":1,\"call\":{{…}}}}")]
    NoVersion,
    #[error("protocol version {0} is not supported; this console speaks version 1")]
    UnknownVersion(String),
    #[error("request has no valid `call`: {0}")]
    BadCall(String),
    #[error(
        "the console is holding as much as its memory bound allows (max_pending_mib); it \
         could not take this request"
    )]
    OverBudget,
    #[error("connection closed before a full request line arrived")]
    Empty,
    #[error("no request line arrived within {0:?}")]
    Slow(std::time::Duration),
}

/// A request as sent on the wire.
#[derive(Debug, Serialize)]
pub struct Request<'a> {
    pub v: u64,
    pub call: &'a Call,
}

/// Parses one request line (without its newline) into a call.
pub fn parse_request(line: &[u8]) -> Result<Call, ProtocolError> {
    if line.len() > MAX_LINE {
        return Err(ProtocolError::TooLong(MAX_LINE));
    }
    let text = std::str::from_utf8(line).map_err(|_| ProtocolError::NotUtf8)?;
    if text.trim().is_empty() {
        return Err(ProtocolError::Empty);
    }
    let mut value: Value =
        serde_json::from_str(text).map_err(|e| ProtocolError::BadJson(e.to_string()))?;
    let Some(object) = value.as_object_mut() else {
        return Err(ProtocolError::BadJson("expected a JSON object".into()));
    };
    match object.get("v") {
        None => return Err(ProtocolError::NoVersion),
        Some(v) if v.as_u64() == Some(VERSION) => {}
        Some(v) => return Err(ProtocolError::UnknownVersion(v.to_string())),
    }
    let call = object.remove("call").unwrap_or(Value::Null);
    let mut call: Call =
        serde_json::from_value(call).map_err(|e| ProtocolError::BadCall(e.to_string()))?;
    if call.kind.is_none() {
        // A hook older than the field: its agent's dialect names the kind.
        call.kind = Some(crate::agents::registry::kind_of(&call.agent, &call.tool));
    }
    Ok(call)
}

/// Serialises a request line, newline included.
pub fn request_line(call: &Call) -> Vec<u8> {
    let mut line = serde_json::to_vec(&Request { v: VERSION, call })
        .expect("a call always serialises to JSON");
    line.push(b'\n');
    line
}

/// A response as it travels on the wire: a decision, or an error.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Response {
    pub v: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decider: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Response {
    /// The response for a binding decision. `decider` is `None` where no barrier decided (a
    /// console too busy to take the call).
    pub fn decided(decision: &Decision, decider: Option<Decider>) -> Response {
        let (reason, note) = match decision {
            Decision::Allow { note } => (None, note.clone()),
            Decision::Deny { reason } => (Some(reason.clone()), None),
            Decision::Defer { reason } => (reason.clone(), None),
        };
        Response {
            v: VERSION,
            decision: Some(decision.name().to_string()),
            reason,
            note,
            decider: decider.map(|d| d.name().to_string()),
            error: None,
        }
    }

    pub fn error(message: impl Into<String>) -> Response {
        Response {
            v: VERSION,
            error: Some(message.into()),
            ..Response::default()
        }
    }

    /// The response line, newline included.
    pub fn to_line(&self) -> Vec<u8> {
        let mut line = serde_json::to_vec(self).expect("a response always serialises to JSON");
        line.push(b'\n');
        line
    }

    /// The decision this response carries, as the client must act on it. Errors, unknown
    /// versions and unknown decisions become `defer` with a reason saying why: never `allow`.
    pub fn decision(&self) -> Decision {
        if self.v != VERSION {
            return Decision::defer(format!(
                "gatehouse console answered in protocol version {}",
                self.v
            ));
        }
        if let Some(error) = &self.error {
            return Decision::defer(format!("gatehouse console refused the request: {error}"));
        }
        match self.decision.as_deref() {
            Some("allow") => Decision::Allow {
                note: self.note.clone().filter(|n| !n.is_empty()),
            },
            Some("deny") => Decision::deny(
                self.reason
                    .clone()
                    .filter(|r| !r.trim().is_empty())
                    .unwrap_or_else(|| "denied by gatehouse".to_string()),
            ),
            Some("defer") => Decision::Defer {
                reason: self.reason.clone(),
            },
            other => Decision::defer(format!(
                "gatehouse console sent an unknown decision {other:?}"
            )),
        }
    }
}

#[cfg(test)]
#[path = "protocol_tests.rs"]
mod tests;
