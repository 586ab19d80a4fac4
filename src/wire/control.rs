//! The console's own requests on its socket, beside the hooks' calls: `gatehouse attach` and
//! `gatehouse detach` ask the running console (or `serve`) to attach to an agent's server or
//! to let go of it, and `gatehouse pair` asks it for a one-time pairing link for the web page.
//!
//! ```text
//! → {"v":1,"attach":{"agent":"opencode","url":"http://127.0.0.1:4096","username":"opencode","password":"…"}}
//! → {"v":1,"detach":{"agent":"opencode","url":"http://127.0.0.1:4096"}}
//! → {"v":1,"pair":{}}
//! ← {"v":1,"ok":"attached to opencode at http://127.0.0.1:4096"}
//! ← {"v":1,"ok":"a pairing link","link":{"link":"https://…/#pair=…","fingerprint":"…","expires_secs":120}}
//! ← {"v":1,"error":"…"}
//! ```
//!
//! They travel on the hooks' socket, behind its 0700 folder and its peer check, so only the
//! console's own user can send one; that is also why a password may travel in one. The server
//! only passes them to the console's [`Control`].

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{Request, VERSION};

/// The agent server an attach or detach request is about.
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

/// A one-time pairing link, as `gatehouse pair` prints it and the TUI draws it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    pub link: String,
    /// The certificate's SHA-256 fingerprint, when the page is served over TLS.
    pub fingerprint: Option<String>,
    pub expires_secs: u64,
}

/// What carries out the console's own requests. The server only passes them on; what a
/// console cannot do (the demo attaches to nothing, a console without `--web` pairs nothing)
/// it refuses, saying why.
pub trait Control: Send + Sync {
    /// Attaches to `target`'s server; `Ok` says what was done, in a sentence.
    fn attach(&self, target: Target) -> Result<String, String> {
        let _ = target;
        Err("this console does not attach to agent servers (the demo does not)".into())
    }

    /// Lets go of `target`'s server without answering anything it asked.
    fn detach(&self, target: Target) -> Result<String, String> {
        let _ = target;
        Err("this console does not attach to agent servers (the demo does not)".into())
    }

    /// A fresh pairing link for the web page.
    fn pair(&self) -> Result<Link, String> {
        Err(NO_WEB.into())
    }
}

/// Why a console without a web page cannot pair.
pub const NO_WEB: &str = "this console has no web page to pair with; start it with `gatehouse \
                          --web` or `gatehouse serve --web` (or a [web] table in the config)";

/// A console that carries out none of them.
pub struct NoControl;

impl Control for NoControl {}

/// The answer to one of the console's own requests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    pub v: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ok: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<Link>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Reply {
    pub fn of(result: Result<String, String>) -> Reply {
        match result {
            Ok(text) => Reply::done(text, None),
            Err(text) => Reply::error(text),
        }
    }

    fn done(text: String, link: Option<Link>) -> Reply {
        Reply {
            v: VERSION,
            ok: Some(text),
            link,
            error: None,
        }
    }

    pub fn error(text: impl Into<String>) -> Reply {
        Reply {
            v: VERSION,
            ok: None,
            link: None,
            error: Some(text.into()),
        }
    }

    /// The reply line, newline included.
    pub fn to_line(&self) -> Vec<u8> {
        let mut line = serde_json::to_vec(self).expect("a reply always serialises to JSON");
        line.push(b'\n');
        line
    }

    /// What the sender acts on: the sentence, and the link of a pair request.
    fn result(self) -> Result<(String, Option<Link>), String> {
        match (self.ok, self.error) {
            (_, Some(error)) => Err(error),
            (Some(ok), None) => Ok((ok, self.link)),
            (None, None) => Err("the console answered neither ok nor an error".into()),
        }
    }
}

/// Carries out one of the console's own requests with `control` (the server's side). A hook's
/// call is not one: it goes to the barrier.
pub fn carry_out(control: &dyn Control, request: Request) -> Reply {
    match request {
        Request::Attach(target) => Reply::of(control.attach(target)),
        Request::Detach(target) => Reply::of(control.detach(target)),
        Request::Pair => match control.pair() {
            Ok(link) => Reply::done("a pairing link".into(), Some(link)),
            Err(error) => Reply::error(error),
        },
        Request::Call(_) => Reply::error("a hook's call is answered by the barrier"),
    }
}

/// Sends `request` to the console on `socket` and waits for its reply (the command line's
/// side): the sentence saying what was done, and the link of a pair request. `Err` says why,
/// for a person.
pub fn send(socket: &Path, request: &Request) -> Result<(String, Option<Link>), String> {
    let mut stream = UnixStream::connect(socket).map_err(|e| {
        format!(
            "no gatehouse console is listening on {} ({e}); start `gatehouse` or `gatehouse \
             serve` first",
            socket.display()
        )
    })?;
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    stream
        .write_all(&request.to_line())
        .map_err(|e| format!("cannot write to {}: {e}", socket.display()))?;
    let mut line = String::new();
    BufReader::new(&stream)
        .read_line(&mut line)
        .map_err(|e| format!("no answer from the console: {e}"))?;
    let reply: Reply = serde_json::from_str(&line)
        .map_err(|e| format!("the console answered something unreadable ({e}): {line:?}"))?;
    reply.result()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::parse_request;

    fn target() -> Target {
        Target {
            agent: "opencode".into(),
            url: "http://127.0.0.1:4096".into(),
            username: Some("opencode".into()),
            password: Some("s3cret".into()),
        }
    }

    #[test]
    fn attach_detach_and_pair_requests_round_trip() {
        for request in [
            Request::Attach(target()),
            Request::Detach(target()),
            Request::Pair,
        ] {
            let line = request.to_line();
            assert_eq!(parse_request(&line[..line.len() - 1]), Ok(request));
        }
    }

    #[test]
    fn a_password_is_never_printed() {
        let text = format!("{:?}", Request::Attach(target()));
        assert!(!text.contains("s3cret"), "{text}");
    }

    #[test]
    fn a_console_without_control_says_what_it_cannot_do() {
        let reply = carry_out(&NoControl, Request::Detach(target()));
        assert!(reply.error.unwrap().contains("does not attach"));
        let reply = carry_out(&NoControl, Request::Pair);
        assert!(reply.error.unwrap().contains("--web"));
    }

    #[test]
    fn a_pair_reply_carries_its_link_back() {
        struct Pairs;
        impl Control for Pairs {
            fn pair(&self) -> Result<Link, String> {
                Ok(Link {
                    link: "https://h/#pair=c".into(),
                    fingerprint: None,
                    expires_secs: 120,
                })
            }
        }
        let line = carry_out(&Pairs, Request::Pair).to_line();
        let reply: Reply = serde_json::from_slice(&line).unwrap();
        let (_, link) = reply.result().unwrap();
        assert_eq!(link.unwrap().link, "https://h/#pair=c");
    }
}
