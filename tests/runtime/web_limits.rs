//! The web listener within bounds, over real loopback TCP: idle and slow connections are
//! timed out, one peer's connections are capped and the whole never takes the descriptors the
//! console's socket needs; refused requests cannot flood the audit log; one device cannot
//! open streams by the thousand; a device's mode switch is audited; and nobody's wrong
//! pairing codes lock out the right one.

use crate::common;

use std::time::Duration;

use gatehouse::core::mode::Mode;
use gatehouse::web;
use gatehouse::web::listen::Limits;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A guard against a test hanging: the events below are awaited, never slept for.
const GUARD: Duration = Duration::from_secs(20);

use common::web_rig::WebRig as Web;

async fn web_with(limits: Limits) -> Web {
    common::web_rig::start(limits).await
}

fn audit_lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Reads until the server closes the connection; what it sent before.
async fn until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let mut got = Vec::new();
    tokio::time::timeout(GUARD, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await
    .expect("the server closed the connection");
    got
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_slow_and_surplus_connections_are_closed_by_the_web_listener() {
    let web = web_with(Limits {
        per_peer: 3,
        header_read: Duration::from_millis(500),
        request: Duration::from_millis(500),
        ..Limits::default()
    })
    .await;
    let addr = web.running.addr;

    // Three idle connections are what one peer may hold; a fourth is closed at once.
    let mut idle = Vec::new();
    for _ in 0..3 {
        idle.push(TcpStream::connect(addr).await.unwrap());
    }
    let mut surplus = TcpStream::connect(addr).await.unwrap();
    assert!(until_closed(&mut surplus).await.is_empty());

    // A connection that sends nothing is closed when its head is late.
    for stream in &mut idle {
        until_closed(stream).await;
    }

    // A request whose body never finishes is answered 408 and closed.
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(
        b"POST /api/pair HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\n\r\n{\"code\":",
    )
    .await
    .unwrap();
    let answer = String::from_utf8_lossy(&until_closed(&mut slow).await).into_owned();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");

    // The console still answers, each refusal in the audit log.
    let http = gatehouse::plumbing::http::client();
    let page = http.get(format!("http://{addr}/")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let lines = audit_lines(&web.audit_log);
    let whys: Vec<&str> = lines.iter().filter_map(|l| l["why"].as_str()).collect();
    assert!(
        whys.contains(&"too many connections from this peer"),
        "{lines:?}"
    );
    assert!(whys.contains(&"the request took too long"), "{lines:?}");
    web.running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_refused_requests_is_written_ten_at_a_time_and_summed_up_with_paths_cut() {
    let web = web_with(Limits::default()).await;
    let addr = web.running.addr;
    let http = gatehouse::plumbing::http::client();
    let long = "a".repeat(8 * 1024);
    for n in 0..400 {
        // A Host that names another site: refused, with the path it asked for.
        let response = http
            .get(format!("http://{addr}/{long}{n}"))
            .header("Host", "rebound.example")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 421);
    }
    // The first ten one by one, paths cut.
    let lines = audit_lines(&web.audit_log);
    let refused: Vec<&Value> = lines.iter().filter(|l| l["web"] == "refused").collect();
    assert_eq!(refused.len(), 10, "{}", lines.len());
    for line in &refused {
        assert!(
            line["path"].as_str().unwrap().chars().count() <= 201,
            "{line}"
        );
    }
    let size = std::fs::metadata(&web.audit_log).unwrap().len();
    assert!(size < 16 * 1024, "{size} bytes of audit for 400 refusals");
    // The rest, summed up when the web console stops.
    web.running.stop().await;
    let lines = audit_lines(&web.audit_log);
    let more: Vec<&Value> = lines
        .iter()
        .filter(|l| l["web"] == "refused-more")
        .collect();
    assert_eq!(more.len(), 1, "{lines:?}");
    assert_eq!(more[0]["refused"], 390);
    assert_eq!(more[0]["from"], "127.0.0.1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_device_holds_a_few_live_streams_its_mode_switch_is_audited_and_guesses_lock_no_one_out()
{
    let web = web_with(Limits::default()).await;
    let base = format!("http://{}", web.running.addr);
    let http = gatehouse::plumbing::http::client();

    // Eleven wrong codes from this peer: it is told to wait, yet the right code still pairs.
    for n in 0..11 {
        let status = http
            .post(format!("{base}/api/pair"))
            .json(&json!({ "code": format!("{n:032x}") }))
            .send()
            .await
            .unwrap()
            .status();
        assert_eq!(status, if n < 10 { 403 } else { 429 }, "attempt {n}");
    }
    let link = web.running.hub.pair_link().unwrap();
    let code = link.link.split("#pair=").nth(1).unwrap();
    let token = common::pair_device(&http, &base, code, "phone").await;

    let mut streams = Vec::new();
    for _ in 0..web::STREAMS_PER_DEVICE {
        let live = http
            .get(format!("{base}/api/events"))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        assert_eq!(live.status(), 200);
        streams.push(live);
    }
    let one_more = http
        .get(format!("{base}/api/events"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(one_more.status(), 429);

    let switched = http
        .post(format!("{base}/api/mode"))
        .bearer_auth(&token)
        .json(&json!({ "mode": "block-all" }))
        .send()
        .await
        .unwrap();
    assert_eq!(switched.status(), 200);
    assert_eq!(web.running.hub.devices().list().unwrap().len(), 1);
    let lines = audit_lines(&web.audit_log);
    let mode = lines
        .iter()
        .find(|l| l["web"] == "mode")
        .expect("the switch is audited");
    assert_eq!(mode["device"], "phone");
    assert_eq!(mode["mode"], Mode::BlockAll.name());
    assert_eq!(mode["was"], Mode::AllowRead.name());
    drop(streams);
    tokio::time::timeout(GUARD, web.running.stop())
        .await
        .expect("stops");
}

/// A child process killed when dropped, so that a failed assertion leaves no console behind.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_web_never_takes_the_descriptors_the_console_socket_needs() {
    use common::place::Place;
    use std::process::Stdio;

    // A short ask timeout: a hook whose console cannot take its call gives up after 2 + 5 s.
    let place = Place::new("ask_timeout_secs = 2\ndenied_commands = [\"git push\"]");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let web = format!("127.0.0.1:{port}");
    let mut command = place.command(&["serve", "--web", &web]);
    common::limit_descriptors(&mut command, 64);
    let _serve = Killed(
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    common::e2e::wait_for_socket(place.path());
    let read = common::fixture("claude-code/pretooluse-read.json");
    let decision = |out: &Value| {
        out["hookSpecificOutput"]["permissionDecision"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    // Answered by the console: the web listener is up.
    assert_eq!(decision(&place.hook(&read).0), "allow");

    // Another user's idle connections, more than the console has descriptors (those the
    // kernel's backlog has no room for are simply not made).
    let addr: std::net::SocketAddr = web.parse().unwrap();
    let held: Vec<std::net::TcpStream> = (0..200)
        .filter_map(|_| std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(1)).ok())
        .collect();
    assert!(held.len() > 64, "{} connections", held.len());
    let (out, err) = place.hook(&read);
    assert_eq!(decision(&out), "allow", "{out} {err}");
    let reason = out["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap_or("");
    assert!(
        !reason.contains("without"),
        "the console answered: {reason}"
    );
    let mut payload: Value = serde_json::from_slice(&read).unwrap();
    payload["tool_name"] = json!("Bash");
    payload["tool_input"] = json!({ "command": "git push" });
    let (out, err) = place.hook(&serde_json::to_vec(&payload).unwrap());
    assert_eq!(decision(&out), "deny", "{out} {err}");
    drop(held);
}
