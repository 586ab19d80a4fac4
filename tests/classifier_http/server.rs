//! A model server on loopback for tests and benchmarks: plain HTTP/1.1 with keep-alive over
//! `tokio::net::TcpListener`, answering in either provider's exact wire format. It records each
//! request (path, headers, JSON body), counts them, and notices a client that hangs up while
//! it is still composing an answer (a cancelled request).
#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    /// Lowercase names.
    pub headers: Vec<(String, String)>,
    pub body: Value,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The user message's text, in either provider's request shape.
    pub fn user_text(&self) -> String {
        self.body["messages"]
            .as_array()
            .and_then(|m| m.iter().find(|m| m["role"] == "user"))
            .and_then(|m| m["content"].as_str())
            .unwrap_or_default()
            .to_string()
    }
}

/// The model's JSON answer with `verdict`: low risk and 0.95 confidence for `read-only`,
/// medium risk otherwise.
pub fn said(verdict: &str) -> String {
    let risk = if verdict == "read-only" {
        "low"
    } else {
        "medium"
    };
    json!({
        "verdict": verdict,
        "risk": risk,
        "categories": ["none"],
        "rationale": "A scripted answer.",
        "confidence": 0.95,
    })
    .to_string()
}

/// What the server answers.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub body: String,
    pub delay: Duration,
}

impl Reply {
    /// A chat completion whose message says `text`, as OpenAI sends it.
    pub fn openai(text: &str) -> Reply {
        Reply::ok(json!({
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": "test-model",
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop"
            }],
            "usage": {"prompt_tokens": 90, "completion_tokens": 2, "total_tokens": 92}
        }))
    }

    /// A message whose one text block says `text`, as the Messages API sends it.
    pub fn anthropic(text: &str) -> Reply {
        Reply::ok(json!({
            "id": "msg_01",
            "type": "message",
            "role": "assistant",
            "model": "test-model",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": null,
            "usage": {"input_tokens": 90, "output_tokens": 2}
        }))
    }

    fn ok(body: Value) -> Reply {
        Reply {
            status: 200,
            body: body.to_string(),
            delay: Duration::ZERO,
        }
    }

    pub fn status(status: u16, body: &str) -> Reply {
        Reply {
            status,
            body: body.to_string(),
            delay: Duration::ZERO,
        }
    }

    pub fn after(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }
}

pub struct ModelServer {
    /// `http://127.0.0.1:PORT`, the base URL to configure.
    pub url: String,
    state: Arc<State>,
}

/// Picks the reply to each request from what it asks.
pub type Script = Arc<dyn Fn(&Seen) -> Reply + Send + Sync>;

struct State {
    reply: Mutex<Reply>,
    script: Mutex<Option<Script>>,
    seen: Mutex<Vec<Seen>>,
    count: AtomicUsize,
    hung_up: AtomicUsize,
}

impl ModelServer {
    pub async fn start(reply: Reply) -> ModelServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(State {
            reply: Mutex::new(reply),
            script: Mutex::new(None),
            seen: Mutex::new(Vec::new()),
            count: AtomicUsize::new(0),
            hung_up: AtomicUsize::new(0),
        });
        let accepting = state.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let _ = stream.set_nodelay(true);
                tokio::spawn(serve(stream, accepting.clone()));
            }
        });
        ModelServer { url, state }
    }

    pub fn set_reply(&self, reply: Reply) {
        *self.state.reply.lock().unwrap() = reply;
    }

    /// A server that answers each request as `script` says, from the request it saw.
    pub async fn scripted(script: impl Fn(&Seen) -> Reply + Send + Sync + 'static) -> ModelServer {
        let server = ModelServer::start(Reply::status(500, "unscripted")).await;
        *server.state.script.lock().unwrap() = Some(Arc::new(script));
        server
    }

    /// How many requests arrived.
    pub fn count(&self) -> usize {
        self.state.count.load(Ordering::SeqCst)
    }

    /// How many clients hung up before their answer was sent.
    pub fn hung_up(&self) -> usize {
        self.state.hung_up.load(Ordering::SeqCst)
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.state.seen.lock().unwrap().clone()
    }
}

/// Serves one connection, request after request, until the client closes it.
async fn serve(mut stream: TcpStream, state: Arc<State>) {
    let mut buffer = Vec::new();
    loop {
        let Some(seen) = read_request(&mut stream, &mut buffer).await else {
            return;
        };
        let script = state.script.lock().unwrap().clone();
        let reply = match script {
            Some(script) => script(&seen),
            None => state.reply.lock().unwrap().clone(),
        };
        state.seen.lock().unwrap().push(seen);
        state.count.fetch_add(1, Ordering::SeqCst);
        if !reply.delay.is_zero() {
            let mut probe = [0u8; 1];
            tokio::select! {
                _ = tokio::time::sleep(reply.delay) => {}
                read = stream.read(&mut probe) => {
                    if matches!(read, Ok(0) | Err(_)) {
                        state.hung_up.fetch_add(1, Ordering::SeqCst);
                    }
                    return;
                }
            }
        }
        // One write, and no Nagle delay: the answer leaves at once.
        let response = format!(
            "HTTP/1.1 {} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{}",
            reply.status,
            reply.body.len(),
            reply.body
        );
        if stream.write_all(response.as_bytes()).await.is_err() {
            state.hung_up.fetch_add(1, Ordering::SeqCst);
            return;
        }
    }
}

async fn read_request(stream: &mut TcpStream, buffer: &mut Vec<u8>) -> Option<Seen> {
    let head_end = loop {
        if let Some(at) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_string();
    let path = first.next()?.to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let body_start = head_end + 4;
    while buffer.len() < body_start + length {
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
    let body =
        serde_json::from_slice(&buffer[body_start..body_start + length]).unwrap_or(Value::Null);
    buffer.drain(..body_start + length);
    Some(Seen {
        method,
        path,
        headers,
        body,
    })
}
