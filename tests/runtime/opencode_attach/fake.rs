//! A loopback server that speaks the part of `opencode serve`'s API gatehouse uses, as
//! `shared/realclients/README.md` records it: `/global/event` (server-sent events, wrapped
//! with their directory, `server.connected` first, nothing replayed), `GET /project`, `GET
//! /permission[?directory=]`, `POST /permission/<id>/reply[?directory=]` (200 `true`, then
//! `permission.replied` on the streams; 404 once the request is gone), and HTTP Basic auth on
//! every route when it has a password. Plain HTTP/1.1, one request per connection.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, mpsc};

/// One reply the server took.
#[derive(Debug, Clone, PartialEq)]
pub struct Replied {
    pub id: String,
    pub directory: Option<String>,
    pub body: Value,
}

#[derive(Default)]
struct State {
    /// Pending requests by instance directory (`None`: the server's own).
    pending: Vec<(Option<String>, Value)>,
    worktrees: Vec<String>,
    replies: Vec<Replied>,
    streams: Vec<mpsc::UnboundedSender<String>>,
    /// How many times `/global/event` was opened.
    subscribed: usize,
    password: Option<String>,
    unauthorized: usize,
}

#[derive(Clone)]
pub struct Fake {
    pub url: String,
    state: Arc<Mutex<State>>,
    changed: Arc<Notify>,
}

impl Fake {
    pub async fn start(password: Option<&str>) -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let fake = Fake {
            url,
            state: Arc::new(Mutex::new(State {
                password: password.map(str::to_string),
                worktrees: vec!["/home/dev/project".into()],
                ..State::default()
            })),
            changed: Arc::new(Notify::new()),
        };
        let server = fake.clone();
        accept_each(listener, move |stream| {
            let server = server.clone();
            async move { server.serve(stream).await }
        });
        fake
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap()
    }

    /// Makes `permission` pending in `directory` without telling any stream (asked before
    /// anyone subscribed).
    pub fn pend(&self, directory: Option<&str>, permission: Value) {
        self.state()
            .pending
            .push((directory.map(str::to_string), permission));
        self.changed.notify_waiters();
    }

    /// Makes `permission` pending in `directory` and sends `permission.asked` to every stream.
    pub fn ask(&self, directory: &str, permission: Value) {
        self.pend(Some(directory), permission.clone());
        self.broadcast(directory, "permission.asked", permission);
    }

    /// Answers `id` as someone else would (OpenCode's own screen): gone, and announced.
    pub fn answer_elsewhere(&self, id: &str) {
        let directory = {
            let mut state = self.state();
            let at = state.pending.iter().position(|(_, p)| p["id"] == id);
            at.map(|at| state.pending.remove(at).0)
        };
        let replied = json!({"sessionID": "ses_1", "requestID": id, "reply": "once"});
        let directory = directory.flatten().unwrap_or_default();
        self.broadcast(&directory, "permission.replied", replied);
    }

    fn broadcast(&self, directory: &str, kind: &str, properties: Value) {
        let event = json!({
            "directory": directory,
            "project": "p1",
            "payload": {"id": "evt_1", "type": kind, "properties": properties},
        });
        let mut state = self.state();
        state
            .streams
            .retain(|stream| stream.send(event.to_string()).is_ok());
    }

    /// Ends every open event stream (the connection closes), as a restarting server would.
    pub fn drop_streams(&self) {
        self.state().streams.clear();
    }

    pub fn replies(&self) -> Vec<Replied> {
        self.state().replies.clone()
    }

    pub fn subscribed(&self) -> usize {
        self.state().subscribed
    }

    pub fn unauthorized(&self) -> usize {
        self.state().unauthorized
    }

    /// Waits (up to ten seconds) until `done` holds of what the server has seen.
    pub async fn until(&self, what: &str, done: impl Fn(&Fake) -> bool) {
        until(&self.changed, what, || done(self)).await
    }

    async fn serve(&self, mut stream: TcpStream) {
        let Some((method, target, headers, body)) = read_request(&mut stream).await else {
            return;
        };
        let (path, query) = match target.split_once('?') {
            Some((path, query)) => (path.to_string(), Some(query.to_string())),
            None => (target.clone(), None),
        };
        let directory = query.as_deref().and_then(|q| {
            q.split('&')
                .find_map(|kv| kv.strip_prefix("directory="))
                .map(|d| d.replace("%2F", "/").replace("%2f", "/"))
        });
        if !self.authorized(&headers) {
            self.state().unauthorized += 1;
            self.changed.notify_waiters();
            let _ = respond(&mut stream, 401, "Unauthorized").await;
            return;
        }
        match (method.as_str(), path.as_str()) {
            ("GET", "/global/event") => self.stream_events(stream).await,
            ("GET", "/project") => {
                let worktrees = self.state().worktrees.clone();
                let mut projects = vec![json!({"id": "global", "worktree": "/"})];
                projects.extend(worktrees.iter().map(|w| json!({"id": "p1", "worktree": w})));
                let _ = respond(&mut stream, 200, &Value::from(projects).to_string()).await;
            }
            ("GET", "/permission") => {
                let list: Vec<Value> = self
                    .state()
                    .pending
                    .iter()
                    .filter(|(d, _)| *d == directory)
                    .map(|(_, p)| p.clone())
                    .collect();
                let _ = respond(&mut stream, 200, &Value::from(list).to_string()).await;
            }
            ("POST", path) if path.starts_with("/permission/") && path.ends_with("/reply") => {
                let id = path["/permission/".len()..path.len() - "/reply".len()].to_string();
                let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                let found = {
                    let mut state = self.state();
                    let at = state
                        .pending
                        .iter()
                        .position(|(_, p)| p["id"] == id.as_str());
                    let found = at.map(|at| state.pending.remove(at));
                    if found.is_some() {
                        state.replies.push(Replied {
                            id: id.clone(),
                            directory: directory.clone(),
                            body: body.clone(),
                        });
                    }
                    found
                };
                self.changed.notify_waiters();
                match found {
                    Some((dir, _)) => {
                        let _ = respond(&mut stream, 200, "true").await;
                        let reply = body["reply"].clone();
                        let replied =
                            json!({"sessionID": "ses_1", "requestID": id, "reply": reply});
                        self.broadcast(&dir.unwrap_or_default(), "permission.replied", replied);
                    }
                    None => {
                        let gone = json!({"_tag": "PermissionNotFoundError", "requestID": id});
                        let _ = respond(&mut stream, 404, &gone.to_string()).await;
                    }
                }
            }
            _ => {
                let _ = respond(&mut stream, 404, "{}").await;
            }
        }
    }

    fn authorized(&self, headers: &HashMap<String, String>) -> bool {
        signed_in(headers, self.state().password.as_deref())
    }

    async fn stream_events(&self, mut stream: TcpStream) {
        let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: \
                    no-cache\r\nconnection: close\r\n\r\n";
        if stream.write_all(head.as_bytes()).await.is_err() {
            return;
        }
        let connected = json!({"payload": {"type": "server.connected", "properties": {}}});
        let _ = stream
            .write_all(format!("data: {connected}\n\n").as_bytes())
            .await;
        let (send, mut events) = mpsc::unbounded_channel();
        {
            let mut state = self.state();
            state.streams.push(send);
            state.subscribed += 1;
        }
        self.changed.notify_waiters();
        while let Some(event) = events.recv().await {
            // Cut each event in two writes, as a real stream may.
            let text = format!("data: {event}\n\n");
            let (a, b) = text.split_at(text.len() / 2);
            if stream.write_all(a.as_bytes()).await.is_err()
                || stream.write_all(b.as_bytes()).await.is_err()
            {
                return;
            }
        }
    }
}

/// Hands every connection `listener` accepts to `serve`, each in a task of its own.
pub(super) fn accept_each<F, Fut>(listener: TcpListener, serve: F)
where
    F: Fn(TcpStream) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(serve(stream));
        }
    });
}

/// Waits (up to ten seconds, woken by `changed`) until `done` holds.
pub(super) async fn until(changed: &Notify, what: &str, done: impl Fn() -> bool) {
    let wait = async {
        loop {
            let notified = changed.notified();
            if done() {
                return;
            }
            notified.await;
        }
    };
    if tokio::time::timeout(Duration::from_secs(10), wait)
        .await
        .is_err()
    {
        panic!("the fake OpenCode server never saw {what}");
    }
}

/// Whether `headers` sign in as `opencode` with `password` (anything goes without one).
pub(super) fn signed_in(headers: &HashMap<String, String>, password: Option<&str>) -> bool {
    let Some(password) = password else {
        return true;
    };
    let expected = format!("Basic {}", base64(&format!("opencode:{password}")));
    headers.get("authorization") == Some(&expected)
}

pub(super) type Request = (String, String, HashMap<String, String>, Vec<u8>);

pub(super) async fn read_request(stream: &mut TcpStream) -> Option<Request> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_string();
    let target = first.next()?.to_string();
    let headers: HashMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .get("content-length")
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some((method, target, headers, body))
}

pub(super) async fn respond(
    stream: &mut TcpStream,
    status: u16,
    body: &str,
) -> std::io::Result<()> {
    let text = format!(
        "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(text.as_bytes()).await
}

fn base64(text: &str) -> String {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes = text.as_bytes();
    let mut out = String::new();
    for group in bytes.chunks(3) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= group.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
