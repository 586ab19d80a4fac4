//! Control requests on the console's socket: `gatehouse attach` and `gatehouse detach` ask the
//! running console (or `serve`) to attach to an agent's server, or to let go of it.
//!
//! ```text
//! → {"v":1,"attach":{"agent":"opencode","url":"http://127.0.0.1:4096","username":"opencode","password":"…"}}
//! → {"v":1,"detach":{"agent":"opencode","url":"http://127.0.0.1:4096"}}
//! ← {"v":1,"ok":"attached to opencode at http://127.0.0.1:4096"}
//! ← {"v":1,"error":"…"}
//! ```
//!
//! They share the hook's socket, its 0700 folder and its peer check, so only the console's own
//! user can send one; that is also why a password may travel in one. A line is a control
//! request only when it is short and names `attach` or `detach`; anything else is a hook's call.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::protocol::VERSION;

/// The longest line read as a control request; longer lines are hooks' calls.
pub const MAX_CONTROL_LINE: usize = 64 * 1024;

/// The agent server a control request is about.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    /// The agent whose server it is (`opencode`).
    pub agent: String,
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
}

impl fmt::Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Target")
            .field("agent", &self.agent)
            .field("url", &self.url)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "***"))
            .finish()
    }
}

/// One control request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    Attach(Target),
    Detach(Target),
}

/// What carries out control requests in a running console. The server only passes them on.
pub trait Control: Send + Sync {
    /// Attaches to `target`'s server; `Ok` says what was done, in a sentence.
    fn attach(&self, target: Target) -> Result<String, String>;
    /// Lets go of `target`'s server without answering anything it asked.
    fn detach(&self, target: Target) -> Result<String, String>;
}

#[derive(Deserialize)]
struct Wire {
    v: Option<u64>,
    attach: Option<Target>,
    detach: Option<Target>,
}

#[derive(Serialize)]
struct WireOut<'a> {
    v: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    attach: Option<&'a Target>,
    #[serde(skip_serializing_if = "Option::is_none")]
    detach: Option<&'a Target>,
}

/// The answer to a control request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    pub v: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ok: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Answer {
    pub fn of(result: Result<String, String>) -> Answer {
        let (ok, error) = match result {
            Ok(text) => (Some(text), None),
            Err(text) => (None, Some(text)),
        };
        Answer {
            v: VERSION,
            ok,
            error,
        }
    }

    /// The answer line, newline included.
    pub fn to_line(&self) -> Vec<u8> {
        let mut line = serde_json::to_vec(self).expect("an answer always serialises to JSON");
        line.push(b'\n');
        line
    }
}

/// The control request `line` holds, if it is one (version 1, short, naming `attach` or
/// `detach`); `None` for everything else, which is read as a hook's call.
pub fn parse(line: &[u8]) -> Option<Request> {
    if line.len() > MAX_CONTROL_LINE {
        return None;
    }
    let wire: Wire = serde_json::from_slice(line).ok()?;
    if wire.v != Some(VERSION) {
        return None;
    }
    match (wire.attach, wire.detach) {
        (Some(target), None) => Some(Request::Attach(target)),
        (None, Some(target)) => Some(Request::Detach(target)),
        _ => None,
    }
}

/// Carries out `request` with `control`, or says this console takes none.
pub fn answer(control: Option<&dyn Control>, request: Request) -> Answer {
    let Some(control) = control else {
        return Answer::of(Err(
            "this console does not attach to agent servers (the demo does not)".into(),
        ));
    };
    Answer::of(match request {
        Request::Attach(target) => control.attach(target),
        Request::Detach(target) => control.detach(target),
    })
}

/// The request line for `request`, newline included.
pub fn request_line(request: &Request) -> Vec<u8> {
    let (attach, detach) = match request {
        Request::Attach(target) => (Some(target), None),
        Request::Detach(target) => (None, Some(target)),
    };
    let wire = WireOut {
        v: VERSION,
        attach,
        detach,
    };
    let mut line = serde_json::to_vec(&wire).expect("a request always serialises to JSON");
    line.push(b'\n');
    line
}

/// Sends `request` to the console on `socket` and waits for its answer (the command line's
/// side). `Err` says why, for a person.
pub fn send(socket: &Path, request: &Request) -> Result<String, String> {
    let mut stream = UnixStream::connect(socket).map_err(|e| {
        format!(
            "no gatehouse console is listening on {} ({e}); start `gatehouse` or `gatehouse \
             serve` first, or list the server in the config's [[opencode]] tables",
            socket.display()
        )
    })?;
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    stream
        .write_all(&request_line(request))
        .map_err(|e| format!("cannot write to {}: {e}", socket.display()))?;
    let mut line = String::new();
    BufReader::new(&stream)
        .read_line(&mut line)
        .map_err(|e| format!("no answer from the console: {e}"))?;
    let answer: Answer = serde_json::from_str(&line)
        .map_err(|e| format!("the console answered something unreadable ({e}): {line:?}"))?;
    match (answer.ok, answer.error) {
        (_, Some(error)) => Err(error),
        (Some(ok), None) => Ok(ok),
        (None, None) => Err("the console answered neither ok nor an error".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target() -> Target {
        Target {
            agent: "opencode".into(),
            url: "http://127.0.0.1:4096".into(),
            username: Some("opencode".into()),
            password: Some("s3cret".into()),
        }
    }

    #[test]
    fn attach_and_detach_requests_round_trip() {
        for request in [Request::Attach(target()), Request::Detach(target())] {
            let line = request_line(&request);
            assert_eq!(parse(&line[..line.len() - 1]), Some(request));
        }
    }

    #[test]
    fn a_hooks_call_is_never_read_as_a_control_request() {
        let call =
            br#"{"v":1,"call":{"agent":"claude-code","tool":"Bash","input":{"command":"ls"}}}"#;
        assert_eq!(parse(call), None);
        let both = br#"{"v":1,"attach":{"agent":"opencode","url":"u"},"detach":{"agent":"opencode","url":"u"}}"#;
        assert_eq!(parse(both), None);
        let other_version = br#"{"v":2,"attach":{"agent":"opencode","url":"u"}}"#;
        assert_eq!(parse(other_version), None);
    }

    #[test]
    fn a_password_is_never_printed() {
        let text = format!("{:?}", Request::Attach(target()));
        assert!(!text.contains("s3cret"), "{text}");
    }

    #[test]
    fn a_console_without_control_says_so() {
        let answer = answer(None, Request::Detach(target()));
        assert!(answer.error.unwrap().contains("does not attach"));
    }
}
