//! The HTTP calls gatehouse makes to an `opencode serve`: subscribe to `/global/event`, list
//! the pending requests of an instance (`GET /permission`) and the projects there are
//! (`GET /project`), and reply to one request. With a password, every call carries HTTP Basic
//! auth, the event stream included.

use std::fmt;
use std::time::Duration;

use reqwest::{StatusCode, Url};
use serde_json::Value;

use super::call::Reply;
use super::event::Permission;

/// Where a server is and how to sign in to it.
#[derive(Clone, PartialEq, Eq)]
pub struct Server {
    /// `http://127.0.0.1:4096`, as `opencode serve` prints it.
    pub url: String,
    /// The user and password, when the server was started with `OPENCODE_SERVER_PASSWORD`.
    pub auth: Option<Auth>,
}

/// HTTP Basic credentials; the password is never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct Auth {
    pub username: String,
    pub password: String,
}

impl fmt::Debug for Auth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:***", self.username)
    }
}

impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("url", &self.url)
            .field("auth", &self.auth)
            .finish()
    }
}

/// What went wrong talking to a server, said so a person can act on it.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("{0:?} is not an http:// or https:// address")]
    BadUrl(String),
    #[error("cannot reach it: {0}")]
    Unreachable(String),
    #[error(
        "it refused the credentials (401): set the password it was started with \
         (OPENCODE_SERVER_PASSWORD) in the variable named by password_env"
    )]
    Unauthorized,
    #[error("{what} answered {status}: {body}")]
    Status {
        what: &'static str,
        status: StatusCode,
        body: String,
    },
    #[error("{what} answered something that is not what OpenCode sends: {why}")]
    BadBody { what: &'static str, why: String },
}

/// What a reply achieved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// The server took it.
    Taken,
    /// The request was no longer pending (answered elsewhere, or swept up by a reject).
    Gone,
}

/// A client of one server.
#[derive(Debug, Clone)]
pub struct Client {
    pub(super) http: reqwest::Client,
    base: Url,
    server: Server,
}

/// How long a plain request (not the stream) may take.
pub(super) const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// The most a listing (`GET /permission`, `GET /project`) may hold: far more than any real
/// server sends, and a server that streams without end is stopped there.
const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// How much of an error body is kept for the message.
const MAX_ERROR_BYTES: usize = 4096;

impl Client {
    pub fn new(server: Server) -> Result<Client, ClientError> {
        let base = Url::parse(&server.url)
            .ok()
            .filter(|url| matches!(url.scheme(), "http" | "https") && url.has_host())
            .ok_or_else(|| ClientError::BadUrl(server.url.clone()))?;
        let mut builder =
            crate::plumbing::http::client_builder().connect_timeout(Duration::from_secs(5));
        if is_loopback(&base) {
            // A proxy for the outside world has no business with a server on this machine.
            builder = builder.no_proxy();
        }
        let http = builder
            .build()
            .map_err(|e| ClientError::Unreachable(format!("cannot start the HTTP client: {e}")))?;
        Ok(Client { http, base, server })
    }

    pub fn server(&self) -> &Server {
        &self.server
    }

    pub(super) fn url(&self, path: &str, directory: Option<&str>) -> Url {
        let mut url = self.base.clone();
        let prefix = url.path().trim_end_matches('/').to_string();
        url.set_path(&format!("{prefix}{path}"));
        if let Some(directory) = directory {
            url.query_pairs_mut().append_pair("directory", directory);
        }
        url
    }

    pub(super) fn get(&self, url: Url) -> reqwest::RequestBuilder {
        self.sign(self.http.get(url))
    }

    pub(super) fn sign(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.server.auth {
            Some(auth) => request.basic_auth(&auth.username, Some(&auth.password)),
            None => request,
        }
    }

    /// Opens `/global/event`: every instance's events, each naming its directory.
    pub async fn subscribe(&self) -> Result<reqwest::Response, ClientError> {
        let request = self
            .get(self.url("/global/event", None))
            .header("accept", "text/event-stream");
        let response = request.send().await.map_err(unreachable)?;
        check("the event stream", response).await
    }

    /// The requests pending in the instance of `directory` (`None`: the server's own).
    pub async fn pending(&self, directory: Option<&str>) -> Result<Vec<Permission>, ClientError> {
        let request = self
            .get(self.url("/permission", directory))
            .timeout(REQUEST_TIMEOUT);
        let response = request.send().await.map_err(unreachable)?;
        let response = check("GET /permission", response).await?;
        json_body("GET /permission", response).await
    }

    /// The worktrees of every project the server knows, `/` (OpenCode's `global`) left out.
    pub async fn worktrees(&self) -> Result<Vec<String>, ClientError> {
        let request = self
            .get(self.url("/project", None))
            .timeout(REQUEST_TIMEOUT);
        let response = request.send().await.map_err(unreachable)?;
        let response = check("GET /project", response).await?;
        let projects: Vec<Value> = json_body("GET /project", response).await?;
        Ok(projects
            .iter()
            .filter_map(|p| p.get("worktree").and_then(Value::as_str))
            .filter(|w| *w != "/")
            .map(str::to_string)
            .collect())
    }

    /// Sends `reply` to request `id` of the instance of `directory`.
    pub async fn reply(
        &self,
        id: &str,
        directory: Option<&str>,
        reply: &Reply,
    ) -> Result<Sent, ClientError> {
        if !is_permission_id(id) {
            return Err(ClientError::BadBody {
                what: "a permission request",
                why: format!("{:?} is not an id OpenCode makes", id),
            });
        }
        let url = self.url(&format!("/permission/{id}/reply"), directory);
        self.post_reply(url, reply).await
    }

    /// Posts `reply` to `url`: taken on success, gone on 404 (no longer pending). A page of
    /// HTML is no success: OpenCode answers a route it does not serve with its web app (200),
    /// and the request is then still pending.
    pub(super) async fn post_reply(&self, url: Url, reply: &Reply) -> Result<Sent, ClientError> {
        let request = self
            .sign(self.http.post(url))
            .timeout(REQUEST_TIMEOUT)
            .json(&reply.body());
        let response = request.send().await.map_err(unreachable)?;
        if response.status() == StatusCode::NOT_FOUND {
            return Ok(Sent::Gone);
        }
        let response = check("the reply", response).await?;
        let html = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim_start().starts_with("text/html"));
        if html {
            return Err(ClientError::BadBody {
                what: "the reply",
                why: "the server answered with its web app, not a reply: it does not serve this \
                      API's reply route (is it another OpenCode version?)"
                    .into(),
            });
        }
        Ok(Sent::Taken)
    }
}

pub(super) fn unreachable(err: reqwest::Error) -> ClientError {
    // The full chain: "error sending request" alone does not say "connection refused".
    let mut text = err.to_string();
    let mut source = std::error::Error::source(&err);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    ClientError::Unreachable(text)
}

pub(super) async fn check(
    what: &'static str,
    response: reqwest::Response,
) -> Result<reqwest::Response, ClientError> {
    let status = response.status();
    if status.is_success() {
        return Ok(response);
    }
    if status == StatusCode::UNAUTHORIZED {
        return Err(ClientError::Unauthorized);
    }
    let body = read_bounded(response, MAX_ERROR_BYTES)
        .await
        .unwrap_or_else(|(start, _)| start);
    let body: String = String::from_utf8_lossy(&body).chars().take(300).collect();
    Err(ClientError::Status { what, status, body })
}

/// A permission id as OpenCode makes them (`per_…`): letters, digits, `_` and `-`. Anything
/// else could steer the reply's address (`../`) and is refused before a request is made.
pub(super) fn is_permission_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The body of `response` read as JSON, refused past [`MAX_BODY_BYTES`].
pub(super) async fn json_body<T: serde::de::DeserializeOwned>(
    what: &'static str,
    response: reqwest::Response,
) -> Result<T, ClientError> {
    let body = read_bounded(response, MAX_BODY_BYTES)
        .await
        .map_err(|(_, why)| ClientError::BadBody { what, why })?;
    serde_json::from_slice(&body).map_err(|e| ClientError::BadBody {
        what,
        why: e.to_string(),
    })
}

/// Reads at most `limit` bytes of a body; past it, or on a broken stream, what was read and
/// why it stopped.
async fn read_bounded(
    mut response: reqwest::Response,
    limit: usize,
) -> Result<Vec<u8>, (Vec<u8>, String)> {
    let mut body = Vec::new();
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                if body.len() + chunk.len() > limit {
                    let room = limit - body.len();
                    body.extend_from_slice(&chunk[..room]);
                    return Err((body, format!("the body is over {limit} bytes")));
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(body),
            Err(e) => return Err((body, e.to_string())),
        }
    }
}

fn is_loopback(url: &Url) -> bool {
    let host = url.host_str().unwrap_or_default();
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    host == "localhost"
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
#[path = "client_tests.rs"]
mod tests;
