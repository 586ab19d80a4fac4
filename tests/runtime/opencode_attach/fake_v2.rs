//! A loopback server that speaks OpenCode 2.x's permission API as the OpenAPI document of
//! 1.18.33 describes it (`tests/fixtures/opencode-v2/README.md`), not a recording: the 1.x
//! list answers the web app's HTML, `GET /api/health` says healthy, `GET /api/event` streams
//! `{"id","type","location","data"}` events (`server.connected` first, nothing replayed),
//! `GET /api/permission/request` lists the server's own location, and
//! `POST /api/session/<s>/permission/<id>/reply` answers 204 and announces
//! `permission.v2.replied` (404 once the request is gone). HTTP Basic auth on every route when
//! it has a password. Every request line is kept, so a test can see no 1.x reply was tried.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, mpsc};

use super::fake::{accept_each, read_request, respond, signed_in, until};

/// One reply the server took.
#[derive(Debug, Clone, PartialEq)]
pub struct Replied {
    pub session: String,
    pub id: String,
    pub body: Value,
}

#[derive(Default)]
struct State {
    pending: Vec<Value>,
    replies: Vec<Replied>,
    streams: Vec<mpsc::UnboundedSender<String>>,
    requests: Vec<String>,
    password: Option<String>,
}

#[derive(Clone)]
pub struct FakeV2 {
    pub url: String,
    pub directory: String,
    state: Arc<Mutex<State>>,
    changed: Arc<Notify>,
}

impl FakeV2 {
    pub async fn start(directory: &str, password: Option<&str>) -> FakeV2 {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let fake = FakeV2 {
            url: format!("http://{}", listener.local_addr().unwrap()),
            directory: directory.to_string(),
            state: Arc::new(Mutex::new(State {
                password: password.map(str::to_string),
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

    /// Makes `request` pending without telling any stream.
    pub fn pend(&self, request: Value) {
        self.state().pending.push(request);
        self.changed.notify_waiters();
    }

    /// Makes `request` pending and sends `permission.v2.asked` to every stream.
    pub fn ask(&self, request: Value) {
        self.pend(request.clone());
        self.broadcast("permission.v2.asked", request);
    }

    fn broadcast(&self, kind: &str, data: Value) {
        let event = json!({
            "id": "evt_1",
            "type": kind,
            "location": {"directory": self.directory},
            "data": data,
        });
        self.state()
            .streams
            .retain(|stream| stream.send(event.to_string()).is_ok());
    }

    pub fn replies(&self) -> Vec<Replied> {
        self.state().replies.clone()
    }

    /// Every request line the server was sent, in order.
    pub fn requests(&self) -> Vec<String> {
        self.state().requests.clone()
    }

    pub fn streams(&self) -> usize {
        self.state().streams.len()
    }

    /// Waits (up to ten seconds) until `done` holds of what the server has seen.
    pub async fn until(&self, what: &str, done: impl Fn(&FakeV2) -> bool) {
        until(&self.changed, what, || done(self)).await
    }

    async fn serve(&self, mut stream: TcpStream) {
        let Some((method, target, headers, body)) = read_request(&mut stream).await else {
            return;
        };
        self.state().requests.push(format!("{method} {target}"));
        self.changed.notify_waiters();
        if !signed_in(&headers, self.state().password.as_deref()) {
            let _ = respond(&mut stream, 401, r#"{"_tag":"UnauthorizedError"}"#).await;
            return;
        }
        let path = target.split('?').next().unwrap_or_default().to_string();
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        match (method.as_str(), parts.as_slice()) {
            ("GET", ["api", "health"]) => {
                let _ = respond(&mut stream, 200, r#"{"healthy":true}"#).await;
            }
            ("GET", ["api", "event"]) => self.stream_events(stream).await,
            ("GET", ["api", "permission", "request"]) => {
                let listing = json!({
                    "location": {
                        "directory": self.directory,
                        "project": {"id": "p1", "directory": self.directory},
                    },
                    "data": self.state().pending.clone(),
                });
                let _ = respond(&mut stream, 200, &listing.to_string()).await;
            }
            ("POST", ["api", "session", session, "permission", id, "reply"]) => {
                self.reply(stream, session, id, &body).await
            }
            // Everything else is the web app, as 2.x serves it for the 1.x routes.
            _ => {
                let html = "<!doctype html><html><head><title>OpenCode</title></head></html>";
                let _ = respond(&mut stream, 200, html).await;
            }
        }
    }

    async fn reply(&self, mut stream: TcpStream, session: &str, id: &str, body: &[u8]) {
        let body: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        let found = {
            let mut state = self.state();
            let at = state
                .pending
                .iter()
                .position(|p| p["id"] == id && p["sessionID"] == session);
            let found = at.map(|at| state.pending.remove(at));
            if found.is_some() {
                state.replies.push(Replied {
                    session: session.to_string(),
                    id: id.to_string(),
                    body: body.clone(),
                });
            }
            found
        };
        self.changed.notify_waiters();
        if found.is_none() {
            let gone =
                json!({"_tag": "PermissionNotFoundError", "requestID": id, "message": "gone"});
            let _ = respond(&mut stream, 404, &gone.to_string()).await;
            return;
        }
        let head = "HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n";
        let _ = stream.write_all(head.as_bytes()).await;
        let replied = json!({"sessionID": session, "requestID": id, "reply": body["reply"]});
        self.broadcast("permission.v2.replied", replied);
    }

    async fn stream_events(&self, mut stream: TcpStream) {
        let head =
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n";
        if stream.write_all(head.as_bytes()).await.is_err() {
            return;
        }
        let hello = json!({"id": "evt_0", "type": "server.connected", "data": {}});
        let _ = stream
            .write_all(format!("data: {hello}\n\n").as_bytes())
            .await;
        let (send, mut events) = mpsc::unbounded_channel();
        self.state().streams.push(send);
        self.changed.notify_waiters();
        while let Some(event) = events.recv().await {
            let text = format!("data: {event}\n\n: heartbeat\n\n");
            if stream.write_all(text.as_bytes()).await.is_err() {
                return;
            }
        }
    }
}
