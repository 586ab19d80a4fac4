//! Finding the API, and the 2.x calls, against loopback servers that answer each route as
//! scripted: a 2.x server (HTML where 1.x had JSON), something that is no OpenCode, a reply's
//! address and body, ids that would steer that address, and a listing without end.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::*;
use crate::agents::opencode::client::Server;

/// What a scripted server saw: each request's first line and body.
type Seen = Arc<Mutex<Vec<(String, String)>>>;

/// A server answering each `METHOD PATH` of `routes` with its status and body (404 else).
async fn scripted(routes: &[(&str, u16, &str)]) -> (Client, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let routes: HashMap<String, (u16, String)> = routes
        .iter()
        .map(|(route, status, body)| (route.to_string(), (*status, body.to_string())))
        .collect();
    let seen: Seen = Arc::default();
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            // Head, then as much body as content-length says.
            let (head, mut body) = loop {
                let n = stream.read(&mut chunk).await.unwrap_or(0);
                if n == 0 {
                    break (String::new(), Vec::new());
                }
                buf.extend_from_slice(&chunk[..n]);
                if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&buf[..at]).to_string();
                    break (head, buf[at + 4..].to_vec());
                }
            };
            let length = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                })
                .unwrap_or(0);
            while body.len() < length {
                let n = stream.read(&mut chunk).await.unwrap_or(0);
                if n == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..n]);
            }
            let first = head.lines().next().unwrap_or_default().to_string();
            let route = first
                .rsplit_once(' ')
                .map(|(r, _)| r.to_string())
                .unwrap_or_default();
            log.lock()
                .unwrap()
                .push((route.clone(), String::from_utf8_lossy(&body).to_string()));
            let (status, text) = routes
                .get(&route)
                .cloned()
                .unwrap_or((404, "{}".to_string()));
            let kind = if text.starts_with('<') {
                "text/html"
            } else {
                "application/json"
            };
            let reply = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: {kind}\r\ncontent-length: {}\r\n\
                 connection: close\r\n\r\n{text}",
                text.len()
            );
            let _ = stream.write_all(reply.as_bytes()).await;
        }
    });
    let client = Client::new(Server { url, auth: None }).unwrap();
    (client, seen)
}

const WEB_APP: &str = "<!doctype html><html><body>OpenCode</body></html>";

#[tokio::test]
async fn a_server_answering_the_1x_list_with_its_web_app_is_spoken_to_in_2x() {
    let (client, _) = scripted(&[
        ("GET /permission", 200, WEB_APP),
        ("GET /api/health", 200, r#"{"healthy":true}"#),
    ])
    .await;
    assert_eq!(client.detect().await.unwrap(), Api::V2);
}

#[tokio::test]
async fn a_server_serving_both_is_spoken_to_in_1x_as_1_18_is() {
    let (client, _) = scripted(&[
        ("GET /permission", 200, "[]"),
        ("GET /api/health", 200, r#"{"healthy":true}"#),
    ])
    .await;
    assert_eq!(client.detect().await.unwrap(), Api::V1);
}

#[tokio::test]
async fn a_server_speaking_neither_is_an_error_naming_both_routes() {
    let (client, _) = scripted(&[
        ("GET /permission", 200, WEB_APP),
        ("GET /api/health", 200, WEB_APP),
    ])
    .await;
    let err = client.detect().await.unwrap_err().to_string();
    assert!(err.contains("neither OpenCode API"), "{err}");
    assert!(
        err.contains("GET /permission") && err.contains("GET /api/health"),
        "{err}"
    );
    let (client, _) = scripted(&[("GET /api/health", 401, "{}")]).await;
    assert!(matches!(
        client.detect().await,
        Err(ClientError::Unauthorized)
    ));
}

#[tokio::test]
async fn a_reply_goes_to_the_session_route_with_its_answer_and_message() {
    let route = "POST /api/session/ses_1/permission/per_1/reply";
    let (client, seen) = scripted(&[(route, 204, "")]).await;
    let reject = Reply::Reject {
        message: "not the build folder".into(),
    };
    assert_eq!(
        client.reply_v2("ses_1", "per_1", &reject).await.unwrap(),
        Sent::Taken
    );
    assert_eq!(
        client
            .reply_v2("ses_1", "per_1", &Reply::Once)
            .await
            .unwrap(),
        Sent::Taken
    );
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen[0].0, route);
    let body: Value = serde_json::from_str(&seen[0].1).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"reply": "reject", "message": "not the build folder"})
    );
    let body: Value = serde_json::from_str(&seen[1].1).unwrap();
    assert_eq!(body, serde_json::json!({"reply": "once"}));
    // A request no longer pending is gone, not an error.
    assert_eq!(
        client
            .reply_v2("ses_1", "per_2", &Reply::Once)
            .await
            .unwrap(),
        Sent::Gone
    );
}

#[tokio::test]
async fn a_session_or_request_id_that_could_steer_the_address_is_refused_before_any_request() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let client = Client::new(Server { url, auth: None }).unwrap();
    for (session, id) in [
        ("ses_1", "../../permission/saved/x"),
        ("../../api/pty", "per_1"),
        ("ses_1/permission/per_2", "per_1"),
        ("", "per_1"),
        ("ses_1", "per?x=1"),
    ] {
        let err = client
            .reply_v2(session, id, &Reply::Once)
            .await
            .unwrap_err();
        assert!(
            matches!(err, ClientError::BadBody { .. }),
            "{session:?} {id:?}: {err}"
        );
    }
    let waiting = tokio::time::timeout(Duration::ZERO, listener.accept()).await;
    assert!(waiting.is_err(), "a request was made");
}

#[tokio::test]
async fn the_2x_listing_reads_its_location_and_a_bad_one_is_an_error() {
    let listing = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/opencode-v2/api-permission-request.json"
    ));
    let (client, _) = scripted(&[("GET /api/permission/request", 200, listing)]).await;
    let (directory, pending) = client.pending_v2().await.unwrap();
    assert_eq!(directory, "/home/dev/project");
    assert_eq!(pending[0].id, "per_22be78faa001nG0B4Pz45PZW8u");
    let (client, _) = scripted(&[("GET /api/permission/request", 200, WEB_APP)]).await;
    assert!(matches!(
        client.pending_v2().await,
        Err(ClientError::BadBody { .. })
    ));
}

#[tokio::test]
async fn a_reply_answered_with_the_web_app_is_not_taken_for_a_reply() {
    // OpenCode answers a route it does not serve with its web app, 200 (seen on 1.18.33).
    let route = "POST /api/session/ses_1/permission/per_1/reply";
    let (client, _) = scripted(&[(route, 200, WEB_APP)]).await;
    let err = client
        .reply_v2("ses_1", "per_1", &Reply::Once)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("web app"), "{err}");
    let (client, _) = scripted(&[("POST /permission/per_1/reply", 200, WEB_APP)]).await;
    assert!(client.reply("per_1", None, &Reply::Once).await.is_err());
}
