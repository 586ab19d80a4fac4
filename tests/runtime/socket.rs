//! The console's socket end to end, over a real Unix socket: protocol errors, withdrawal on
//! disconnect, the bound past which the static class decides, shutdown, a second console, and
//! many concurrent clients; [`bounds`] has the deadline, the memory bound and huge lines.

use crate::common;

#[path = "socket/bounds.rs"]
mod bounds;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{audit_records, call};
use gatehouse::core::audit::Audit;
use gatehouse::core::barrier::{Barrier, Fallback, Settings};
use gatehouse::core::call::{Call, Stage};
use gatehouse::core::event::Event;
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::Prompter;
use gatehouse::core::rules::{Pattern, Rules};
use gatehouse::headless::Unattended;
use gatehouse::server::budget::CONNECTION_BYTES;
use gatehouse::server::{self, Options};
use gatehouse::wire::socket::SocketError;
use gatehouse::wire::{MAX_LINE, Response, request_line};
use serde_json::json;
use tempfile::TempDir;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

struct Console {
    dir: TempDir,
    socket: PathBuf,
    prompter: Option<Prompter>,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl Console {
    async fn start(mode: Mode, options: Options) -> Console {
        let settings = Settings {
            mode,
            ..Settings::default()
        };
        Console::start_with(settings, options).await
    }

    async fn start_with(settings: Settings, options: Options) -> Console {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("run/gatehouse.sock");
        let audit = Audit::open(&dir.path().join("audit.jsonl")).unwrap();
        let (barrier, prompter) = Barrier::new(settings, audit, None);
        let bound = server::bind(&socket).unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            server::run_with(bound.listener, barrier, options, async {
                let _ = stopped.await;
            })
            .await;
            drop(bound.file);
        });
        Console {
            dir,
            socket,
            prompter: Some(prompter),
            stop: Some(stop),
            task,
        }
    }

    fn audit(&self) -> Vec<serde_json::Value> {
        audit_records(&self.dir.path().join("audit.jsonl"))
    }

    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        (&mut self.task).await.unwrap();
    }
}

fn read_call() -> Call {
    call("Read", json!({"file_path": "/etc/hostname"}))
}

fn write_call() -> Call {
    call("Write", json!({"file_path": "/tmp/x", "content": "hi"}))
}

/// Sends raw bytes as the request and returns the one response line.
async fn exchange(socket: &Path, bytes: &[u8]) -> Response {
    // A blocking connect, as a hook process makes: it waits while the listen queue is full
    // (tokio's non-blocking connect would give up at once with WouldBlock).
    let path = socket.to_path_buf();
    let std_stream = tokio::task::spawn_blocking(move || {
        let stream = std::os::unix::net::UnixStream::connect(path)?;
        stream.set_nonblocking(true)?;
        Ok::<_, std::io::Error>(stream)
    })
    .await
    .unwrap()
    .unwrap();
    let mut stream = UnixStream::from_std(std_stream).unwrap();
    let _ = stream.write_all(bytes).await;
    let mut line = String::new();
    BufReader::new(stream).read_line(&mut line).await.unwrap();
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
}

async fn ask(socket: &Path, call: &Call) -> Response {
    exchange(socket, &request_line(call)).await
}

#[tokio::test]
async fn a_static_call_is_answered_through_the_socket_and_audited() {
    let console = Console::start(Mode::AllowRead, Options::default()).await;
    let response = ask(&console.socket, &read_call()).await;
    assert_eq!(response.decision.as_deref(), Some("allow"));
    assert_eq!(response.decider.as_deref(), Some("rule"));
    assert_eq!(console.audit().len(), 1);
    console.stop().await;
}

#[tokio::test]
async fn bad_lines_get_an_error_and_the_server_stays_up() {
    let console = Console::start(Mode::AllowRead, Options::default()).await;
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"{oops\n".to_vec(), "not valid JSON"),
        (b"\xff\xfe\xfd\n".to_vec(), "not valid UTF-8"),
        (
            b"{\"v\":2,\"call\":{}}\n".to_vec(),
            "version 2 is not supported",
        ),
        (b"{\"call\":{}}\n".to_vec(), "no protocol version"),
        (
            b"{\"v\":1,\"call\":{\"x\":1}}\n".to_vec(),
            "no valid `call`",
        ),
    ];
    for (bytes, expected) in cases {
        let response = exchange(&console.socket, &bytes).await;
        let error = response.error.unwrap_or_default();
        assert!(
            error.contains(expected),
            "{error:?} should say {expected:?}"
        );
        assert_eq!(response.decision, None);
    }
    let response = ask(&console.socket, &read_call()).await;
    assert_eq!(response.decision.as_deref(), Some("allow"));
    assert!(console.audit().len() == 1, "errors are not decisions");
    console.stop().await;
}

#[tokio::test]
async fn a_line_past_the_limit_is_refused_and_the_server_stays_up() {
    // Long enough for 65 MB to cross in a debug build on a busy machine: not the deadline's test.
    let options = Options {
        request_timeout: Duration::from_secs(120),
        ..Options::default()
    };
    let console = Console::start(Mode::AllowRead, options).await;
    let mut huge = br#"{"v":1,"call":{"agent":"claude-code","tool":"Read","input":{"x":""#.to_vec();
    huge.extend(std::iter::repeat_n(b'a', MAX_LINE + 16));
    huge.extend(b"\"}}}\n");
    let response = exchange(&console.socket, &huge).await;
    assert!(response.error.unwrap().contains("longer than"));
    let response = ask(&console.socket, &read_call()).await;
    assert_eq!(response.decision.as_deref(), Some("allow"));
    console.stop().await;
}

#[tokio::test]
async fn a_peer_that_disconnects_withdraws_its_call() {
    let mut console = Console::start(Mode::AllowRead, Options::default()).await;
    let mut prompter = console.prompter.take().unwrap();
    let mut stream = UnixStream::connect(&console.socket).await.unwrap();
    stream
        .write_all(&request_line(&write_call()))
        .await
        .unwrap();
    let id = loop {
        if let Event::Opened(dialog) = prompter.next_event().await.unwrap() {
            break dialog.id;
        }
    };
    drop(stream);
    let withdrawn = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Event::Withdrawn { id } = prompter.next_event().await.unwrap() {
                break id;
            }
        }
    })
    .await
    .expect("the dialog is withdrawn");
    assert_eq!(withdrawn, id);
    assert!(prompter.open_dialogs().is_empty());
    let audit = console.audit();
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0]["decision"], "withdrawn");
    console.stop().await;
}

#[tokio::test]
async fn past_the_connection_bound_the_static_class_decides_and_only_a_call_for_a_human_is_deferred()
 {
    let options = Options {
        max_pending_bytes: 2 * CONNECTION_BYTES + 2048,
        ..Options::default()
    };
    let settings = Settings {
        mode: Mode::AllowRead,
        rules: Rules {
            denied_commands: vec![Pattern::new("git push")],
            ..Rules::default()
        },
        ..Settings::default()
    };
    let mut console = Console::start_with(settings, options).await;
    let mut prompter = console.prompter.take().unwrap();
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut stream = UnixStream::connect(&console.socket).await.unwrap();
        stream
            .write_all(&request_line(&write_call()))
            .await
            .unwrap();
        held.push(stream);
        while !matches!(prompter.next_event().await.unwrap(), Event::Opened(_)) {}
    }
    let busy = |call: Call| {
        let socket = console.socket.clone();
        async move {
            tokio::time::timeout(Duration::from_secs(3), ask(&socket, &call))
                .await
                .expect("a prompt answer, not a hang")
        }
    };
    let read = busy(read_call()).await;
    assert_eq!(read.decision.as_deref(), Some("allow"), "{read:?}");
    assert_eq!(read.decider.as_deref(), Some("rule"));
    let denied = busy(call("Bash", json!({"command": "git push -f"}))).await;
    assert_eq!(denied.decision.as_deref(), Some("deny"), "{denied:?}");
    assert!(denied.reason.unwrap().contains("git push"));
    let write = busy(write_call()).await;
    assert_eq!(write.decision.as_deref(), Some("defer"), "{write:?}");
    assert_eq!(write.decider.as_deref(), Some("busy"));
    assert!(write.reason.unwrap().contains("busy"));
    let audit = console.audit();
    let deciders: Vec<(&str, &str)> = audit
        .iter()
        .map(|r| {
            (
                r["decision"].as_str().unwrap(),
                r["decider"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        deciders,
        [("allow", "rule"), ("deny", "rule"), ("defer", "busy")],
        "each is audited: {audit:?}"
    );
    drop(held);
    console.stop().await;
}

#[tokio::test]
async fn shutdown_answers_open_calls_with_the_fallback_and_removes_the_socket() {
    let mut console = Console::start(Mode::AllowRead, Options::default()).await;
    let mut prompter = console.prompter.take().unwrap();
    let socket = console.socket.clone();
    let waiting = tokio::spawn(async move { ask(&socket, &write_call()).await });
    while !matches!(prompter.next_event().await.unwrap(), Event::Opened(_)) {}
    let socket = console.socket.clone();
    let _ = console.stop.take().unwrap().send(());
    let response = waiting.await.unwrap();
    assert_eq!(response.decision.as_deref(), Some("defer"));
    assert_eq!(response.decider.as_deref(), Some("shutdown"));
    (&mut console.task).await.unwrap();
    assert!(!socket.exists(), "the socket file is removed");
}

#[tokio::test]
async fn a_second_console_on_a_live_socket_refuses_to_start() {
    let console = Console::start(Mode::AllowRead, Options::default()).await;
    let err = server::bind(&console.socket).unwrap_err();
    assert!(matches!(err, SocketError::AlreadyRunning { .. }), "{err}");
    assert!(err.to_string().contains("already listening"));
    let response = ask(&console.socket, &read_call()).await;
    assert_eq!(
        response.decision.as_deref(),
        Some("allow"),
        "the first one is untouched"
    );
    console.stop().await;
}

#[tokio::test]
async fn a_console_refuses_a_socket_folder_open_to_others() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let open = dir.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let err = server::bind(&open.join("gatehouse.sock")).unwrap_err();
    assert!(matches!(err, SocketError::OpenFolder { .. }), "{err}");
    assert!(!open.join("gatehouse.sock").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_four_clients_times_one_hundred_calls_are_each_answered_once_and_audited_once() {
    let mut console = Console::start(Mode::AllowRead, Options::default()).await;
    let prompter = console.prompter.take().unwrap();
    let (stop_answering, stopped) = oneshot::channel();
    let policy = Unattended {
        on_ask: Fallback::Deny,
        classifier: false,
    };
    let answering = tokio::spawn(gatehouse::headless::answer(
        prompter,
        policy,
        stopped,
        std::io::sink(),
    ));
    let mut clients = Vec::new();
    for client in 0..64 {
        let socket = console.socket.clone();
        clients.push(tokio::spawn(async move {
            let mut counts = (0, 0);
            for i in 0..100 {
                // Every tenth call needs a human; the unattended answerer denies it.
                let needs_human = (client + i) % 10 == 0;
                let call = if needs_human {
                    write_call()
                } else {
                    read_call()
                };
                let response = ask(&socket, &call).await;
                match (needs_human, response.decision.as_deref()) {
                    (false, Some("allow")) => counts.0 += 1,
                    (true, Some("deny")) => counts.1 += 1,
                    other => panic!("unexpected answer {other:?}: {response:?}"),
                }
            }
            counts
        }));
    }
    let (mut allowed, mut denied) = (0, 0);
    for client in clients {
        let (a, d) = client.await.unwrap();
        allowed += a;
        denied += d;
    }
    assert_eq!(allowed + denied, 6400);
    assert_eq!(denied, 640);
    let audit = console.audit();
    assert_eq!(audit.len(), 6400, "each call audited exactly once");
    let ids: HashSet<u64> = audit.iter().map(|r| r["id"].as_u64().unwrap()).collect();
    assert_eq!(ids.len(), 6400);
    let _ = stop_answering.send(());
    answering.await.unwrap();
    console.stop().await;
}

#[tokio::test]
async fn a_client_that_sends_nothing_is_told_so_and_dropped() {
    let options = Options {
        request_timeout: Duration::from_millis(100),
        ..Options::default()
    };
    let console = Console::start(Mode::AllowRead, options).await;
    let response = exchange(&console.socket, b"").await;
    assert!(response.error.unwrap().contains("no request line arrived"));
    console.stop().await;
}

/// Only root can act as another user; elsewhere the folder checks above are what is tested.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_of_another_user_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    if gatehouse::wire::socket::my_uid() != 0 || !Path::new("/usr/bin/python3").exists() {
        eprintln!("skipped: needs root and /usr/bin/python3 to connect as another user");
        return;
    }
    // A listener the test binds itself in a folder others may enter: the console would refuse
    // such a folder, so this is the peer check alone, as if the folder check were bypassed.
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let socket = dir.path().join("open.sock");
    let listener = tokio::net::UnixListener::bind(&socket).unwrap();
    std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o777)).unwrap();
    let audit_path = dir.path().join("audit.jsonl");
    let (barrier, _prompter) =
        Barrier::new(Settings::default(), Audit::open(&audit_path).unwrap(), None);
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(server::run(listener, barrier, async {
        let _ = stopped.await;
    }));
    let line = String::from_utf8(request_line(&read_call())).unwrap();
    // The console may answer and close before the request is sent: a failed send is fine.
    let script = "import socket,sys\n\
        s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])\n\
        try: s.sendall(sys.argv[2].encode())\n\
        except OSError: pass\n\
        print(s.makefile().readline(), end='')";
    let socket_arg = socket.clone();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new("/usr/bin/python3")
            .args(["-c", script])
            .arg(&socket_arg)
            .arg(line)
            .uid(65534)
            .gid(65534)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let answer: Response = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert!(
        answer
            .error
            .unwrap()
            .contains("uid 65534 may not use this console")
    );
    assert_eq!(answer.decision, None);
    assert!(
        audit_records(&audit_path).is_empty(),
        "nothing was submitted"
    );
    let _ = stop.send(());
    server.await.unwrap();
}

#[tokio::test]
async fn the_consoles_own_requests_share_the_door_and_one_it_cannot_carry_out_says_why() {
    let console = Console::start(Mode::AllowRead, Options::default()).await;
    let cases: [(&[u8], &str); 3] = [
        (b"{\"v\":1,\"pair\":{}}\n", "--web"),
        (
            b"{\"v\":1,\"attach\":{\"agent\":\"opencode\",\"url\":\"http://127.0.0.1:1\"}}\n",
            "does not attach",
        ),
        (
            b"{\"v\":1,\"pair\":{},\"call\":{\"agent\":\"a\",\"tool\":\"t\"}}\n",
            "more than one",
        ),
    ];
    for (line, expected) in cases {
        let response = exchange(&console.socket, line).await;
        let error = response.error.unwrap_or_default();
        assert!(
            error.contains(expected),
            "{error:?} should say {expected:?}"
        );
        assert_eq!(response.decision, None);
    }
    assert!(console.audit().is_empty(), "nothing was submitted");
    console.stop().await;
}

#[tokio::test]
async fn an_after_tool_answer_is_settled_and_audited_by_the_barrier() {
    let console = Console::start(Mode::AllowRead, Options::default()).await;
    let after = Call {
        stage: Stage::AfterTool,
        ..call("run_shell_command", json!({"command": "ls"}))
    };
    let response = ask(&console.socket, &after).await;
    assert_eq!(response.decision.as_deref(), Some("allow"));
    assert_eq!(response.decider.as_deref(), Some("note"));
    let audit = console.audit();
    assert_eq!(audit.len(), 1, "{audit:?}");
    assert_eq!(audit[0]["class"], "after-tool");
    assert_eq!(audit[0]["decider"], "note");
    assert_eq!(audit[0]["reason"], "no note was kept for this call");
    assert_eq!(audit[0]["subject"], "ls");
    console.stop().await;
}
