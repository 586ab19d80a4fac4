//! Protocol v1 between the console and what talks to it over its socket: one JSON object per
//! line, one request then one response per connection.
//!
//! ```text
//! → {"v":1,"call":{"agent":"claude-code","tool":"Bash","kind":"shell","input":{…},…}}
//! ← {"v":1,"decision":"allow"|"deny"|"defer","reason":"…","note":"…","decider":"human"}
//! ← {"v":1,"error":"…"}
//! → {"v":1,"attach":{…}}  {"v":1,"detach":{…}}  {"v":1,"pair":{}}     (see [`control`])
//! ```
//!
//! A client keeps its end open until the answer arrives: a connection closed early (even
//! half-closed) withdraws the call.
//!
//! This module is the one contract between the two sides. Every line on the socket is parsed
//! here, once, into a typed [`Request`]; the server only matches on it. The hook's synchronous
//! client (in the agents' hook flow) writes requests and reads [`Answer`]s. Both hold the core's
//! [`Decision`] and [`Decider`] from end to end; words exist only in the line itself. An
//! answer the client cannot read as a decision becomes `defer`, never `allow`. Where the socket
//! lives and who may use it is in [`socket`].

pub mod control;
pub mod socket;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::core::call::{Call, Stage};
use crate::core::decision::{Decider, Decision};
use control::Target;

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
    #[error("request has no valid `{0}`: {1}")]
    BadControl(&'static str, String),
    #[error("request names more than one of `call`, `attach`, `detach` and `pair`")]
    Ambiguous,
    #[error(
        "the console is holding as much as its memory bound allows (max_pending_mib); it \
         could not take this request"
    )]
    OverBudget,
    #[error("connection closed before a full request line arrived")]
    Empty,
    #[error("no request line arrived within {0:?}")]
    Slow(std::time::Duration),
    #[error(
        "no request line arrived before the console ran out of room for connections; a newer \
         one took this one's place (send the request as soon as you connect)"
    )]
    Evicted,
}

/// One request on the console's socket: a hook's call, or one of the console's own requests
/// ([`control`]). Made once per connection and taken apart at once, so the call is not boxed.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum Request {
    /// A hook asks about one tool call.
    Call(Call),
    /// `gatehouse attach`: attach to an agent's server.
    Attach(Target),
    /// `gatehouse detach`: let go of it.
    Detach(Target),
    /// `gatehouse pair`: a one-time pairing link for the web page.
    Pair,
}

/// The keys that name a request, each line naming exactly one.
const KEYS: [&str; 4] = ["call", "attach", "detach", "pair"];

/// A request line as it travels: the version beside the one key that names the request.
#[derive(Serialize)]
struct Line<'a> {
    v: u64,
    #[serde(flatten)]
    body: Body<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Body<'a> {
    Call(&'a Call),
    Attach(&'a Target),
    Detach(&'a Target),
    Pair {},
}

impl Request {
    /// The request line, newline included.
    pub fn to_line(&self) -> Vec<u8> {
        let body = match self {
            Request::Call(call) => Body::Call(call),
            Request::Attach(target) => Body::Attach(target),
            Request::Detach(target) => Body::Detach(target),
            Request::Pair => Body::Pair {},
        };
        line_of(body)
    }
}

fn line_of(body: Body<'_>) -> Vec<u8> {
    let mut line = serde_json::to_vec(&Line { v: VERSION, body })
        .expect("a request always serialises to JSON");
    line.push(b'\n');
    line
}

/// The request line of a hook's call, newline included (without copying the call).
pub fn request_line(call: &Call) -> Vec<u8> {
    line_of(Body::Call(call))
}

/// Parses one request line (without its newline): the only place a line is read.
pub fn parse_request(line: &[u8]) -> Result<Request, ProtocolError> {
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
    let mut named = KEYS.into_iter().filter(|key| object.contains_key(*key));
    let key = match (named.next(), named.next()) {
        (_, Some(_)) => return Err(ProtocolError::Ambiguous),
        (Some(key), None) => key,
        // No key at all reads as a call that is missing, as a hook's line would.
        (None, None) => "call",
    };
    let body = object.remove(key).unwrap_or(Value::Null);
    let target = |key: &'static str, body: Value| {
        serde_json::from_value(body).map_err(|e| ProtocolError::BadControl(key, e.to_string()))
    };
    match key {
        "attach" => target(key, body).map(Request::Attach),
        "detach" => target(key, body).map(Request::Detach),
        "pair" => Ok(Request::Pair),
        _ => parse_call(body).map(Request::Call),
    }
}

/// A hook's call. A hook from before the typed stage names it only in `event`.
fn parse_call(body: Value) -> Result<Call, ProtocolError> {
    let stage = match body.get("stage") {
        Some(_) => None,
        None => body
            .get("event")
            .and_then(Value::as_str)
            .and_then(Stage::of_older_event),
    };
    let mut call: Call =
        serde_json::from_value(body).map_err(|e| ProtocolError::BadCall(e.to_string()))?;
    if let Some(stage) = stage {
        call.stage = stage;
    }
    // The label is shown beside the agent's name and matched by rules: one plain word only.
    if let Some(remote) = &call.remote
        && !crate::core::origin::Remote::valid_label(&remote.host)
    {
        return Err(ProtocolError::BadCall(format!(
            "the host label {:?} is not one word of letters, digits, `-`, `_`, `.` or `@`; \
             install the hook again with a plain --host",
            crate::core::escape::visible_cut(&remote.host, 80)
        )));
    }
    Ok(call)
}

/// What the console answers a hook: a binding decision (and who made it, where a barrier
/// decided), or a refusal of the request itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Decided {
        decision: Decision,
        /// `None` where no barrier decided (a console too busy to take the call, a note
        /// collected after the tool ran).
        decider: Option<Decider>,
    },
    /// The request was refused (too long, malformed, not ours to serve): no decision.
    Refused(String),
}

impl Answer {
    /// The answer line, newline included.
    pub fn to_line(&self) -> Vec<u8> {
        Response::from(self).to_line()
    }

    /// Reads one answer line. Unknown versions, unknown decisions and unknown deciders are
    /// read as what is safe (`defer`, no decider), never as an allow; only a line that is not
    /// a JSON object of this shape is an error.
    pub fn from_line(line: &[u8]) -> Result<Answer, serde_json::Error> {
        let response: Response = serde_json::from_slice(line)?;
        Ok(match &response.error {
            Some(error) => Answer::Refused(error.clone()),
            _ => Answer::Decided {
                decision: response.decision(),
                decider: response.decider.as_deref().and_then(Decider::from_name),
            },
        })
    }

    /// The decision to act on: a refusal is `defer`, saying why.
    pub fn decision(&self) -> Decision {
        match self {
            Answer::Decided { decision, .. } => decision.clone(),
            Answer::Refused(error) => {
                Decision::defer(format!("gatehouse console refused the request: {error}"))
            }
        }
    }
}

impl From<&Answer> for Response {
    fn from(answer: &Answer) -> Response {
        match answer {
            Answer::Decided { decision, decider } => Response::decided(decision, *decider),
            Answer::Refused(error) => Response::error(error.clone()),
        }
    }
}

/// An answer line as it travels on the wire: a decision, or an error. [`Answer`] is what the
/// two sides hold; this is its JSON form (tests read it to check the bytes).
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
    /// With the decision `allow-edited`: the whole input the agent is to run instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<serde_json::Value>,
}

/// The decision word of an allow that carries an edited input. A hook too old to know it
/// reads an unknown decision and defers, so it can never run the original by mistake.
pub const ALLOW_EDITED: &str = "allow-edited";

impl Response {
    /// The response for a binding decision. `decider` is `None` where no barrier decided (a
    /// console too busy to take the call).
    pub fn decided(decision: &Decision, decider: Option<Decider>) -> Response {
        let (reason, note, input) = match decision {
            Decision::Allow { note, input } => (None, note.clone(), input.clone()),
            Decision::Deny { reason } => (Some(reason.clone()), None, None),
            Decision::Defer { reason } => (reason.clone(), None, None),
        };
        let name = match input {
            Some(_) => ALLOW_EDITED,
            None => decision.name(),
        };
        Response {
            v: VERSION,
            decision: Some(name.to_string()),
            input,
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
                input: None,
            },
            // An edited allow without its input would run the original: refused instead.
            Some(ALLOW_EDITED) => match &self.input {
                Some(input) if input.is_object() => Decision::Allow {
                    note: self.note.clone().filter(|n| !n.is_empty()),
                    input: Some(input.clone()),
                },
                _ => Decision::deny(
                    "gatehouse console allowed an edited call but sent no edited input, so \
                     the call was refused",
                ),
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
#[path = "tests.rs"]
mod tests;
