//! The server's bounds over a real socket: the request deadline from accept, the memory bound
//! instead of a count, thousands of idle peers and open dialogs, and huge lines analysed off
//! the async workers. Thousands of client ends live in a child process (this test binary run
//! again as [`child_clients_hold_connections_when_asked`]), so that both ends fit the limit of
//! open files.

use std::io::{BufRead, BufReader as StdBufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use gatehouse::core::prompter::HumanAnswer;

use super::*;

/// How many connections the child holds, what it sends on each, and where.
const CLIENTS: &str = "GATEHOUSE_TEST_CLIENTS";
const SEND: &str = "GATEHOUSE_TEST_SEND";
const SOCKET: &str = "GATEHOUSE_TEST_SOCKET";

/// Not a test of its own: the child side of the tests below. Opens `CLIENTS` connections to
/// `SOCKET`, sends `SEND` (a request line, or nothing) on each, prints `ready N`, then either
/// reads one answer from each and prints `answers N <how many said no request arrived>`
/// (nothing sent), or holds them until its stdin closes.
#[test]
fn child_clients_hold_connections_when_asked() {
    let Ok(count) = std::env::var(CLIENTS) else {
        return;
    };
    let count: usize = count.parse().unwrap();
    let socket = std::env::var(SOCKET).unwrap();
    let send = std::env::var(SEND).unwrap_or_default();
    let mut streams = Vec::with_capacity(count);
    for _ in 0..count {
        let mut stream = std::os::unix::net::UnixStream::connect(&socket).unwrap();
        if !send.is_empty() {
            stream.write_all(send.as_bytes()).unwrap();
            stream.write_all(b"\n").unwrap();
        }
        streams.push(stream);
    }
    println!("ready {count}");
    if send.is_empty() {
        let told = streams
            .iter()
            .filter(|stream| {
                let mut line = String::new();
                let _ = StdBufReader::new(*stream).read_line(&mut line);
                line.contains("no request line arrived")
            })
            .count();
        println!("answers {count} {told}");
    } else {
        let _ = std::io::stdin().read_to_end(&mut Vec::new());
    }
}

/// The child: this test binary again, as clients of one socket. Killed when dropped.
struct Clients {
    child: Child,
    lines: tokio::sync::mpsc::UnboundedReceiver<String>,
}

impl Clients {
    /// `count` clients of `socket` that send `send` (a request line, or nothing) on each.
    fn spawn(socket: &Path, count: usize, send: &str) -> Clients {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "socket::bounds::child_clients_hold_connections_when_asked",
            ])
            .args(["--nocapture", "--test-threads=1"])
            .env(CLIENTS, count.to_string())
            .env(SOCKET, socket)
            .env(SEND, send)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = tokio::sync::mpsc::unbounded_channel();
        std::thread::spawn(move || {
            for line in StdBufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = sender.send(line);
            }
        });
        Clients { child, lines }
    }

    /// The numbers after `word` on the next line the child prints with it.
    async fn said(&mut self, word: &str) -> Vec<usize> {
        loop {
            let line = self.lines.recv().await.expect("the child ended early");
            // libtest may print the test's name on the same line first.
            if let Some((_, rest)) = line.split_once(&format!("{word} ")) {
                return rest
                    .split_whitespace()
                    .map(|n| n.parse().unwrap())
                    .collect();
            }
        }
    }

    /// Closes the child's stdin, which lets it end and close its connections.
    fn release(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

impl Drop for Clients {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// This process's resident memory, for the figures the tests print.
fn resident_kib() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn bash(command: &str) -> Call {
    call("Bash", json!({ "command": command }))
}

#[tokio::test(start_paused = true)]
async fn a_request_line_must_be_whole_two_seconds_after_accept_however_it_trickles() {
    let console = Console::start(Mode::AllowRead, Options::default()).await;
    let stream = UnixStream::connect(&console.socket).await.unwrap();
    let started = tokio::time::Instant::now();
    let (read, mut write) = stream.into_split();
    let trickle = tokio::spawn(async move {
        // One byte of a valid request every half second: each read succeeds, none completes it.
        for byte in request_line(&read_call()) {
            if write.write_all(&[byte]).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    });
    let mut line = String::new();
    BufReader::new(read).read_line(&mut line).await.unwrap();
    let took = started.elapsed();
    let response: Response = serde_json::from_str(&line).unwrap();
    assert!(
        response
            .error
            .unwrap()
            .contains("no request line arrived within 2s"),
        "{line}"
    );
    assert!(
        took >= Duration::from_secs(2) && took < Duration::from_millis(2600),
        "cut off {took:?} after accept"
    );
    trickle.abort();
    assert!(console.audit().is_empty(), "nothing was submitted");
    console.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_idle_peers_do_not_stop_an_honest_call_and_are_each_cut_off() {
    let mut console = Console::start(Mode::AllowRead, Options::default()).await;
    let mut prompter = console.prompter.take().unwrap();
    let mut idle = Clients::spawn(&console.socket, 10_000, "");
    assert_eq!(idle.said("ready").await, [10_000]);
    let started = Instant::now();
    let response = ask(&console.socket, &bash("ls")).await;
    eprintln!("an ls beside 10,000 idle peers: {:?}", started.elapsed());
    assert_eq!(response.decision.as_deref(), Some("allow"), "{response:?}");
    // A call that needs a human still gets its dialog, not a busy defer.
    let socket = console.socket.clone();
    let write = tokio::spawn(async move { ask(&socket, &write_call()).await });
    let id = loop {
        if let Event::Opened(dialog) = prompter.next_event().await.unwrap() {
            break dialog.id;
        }
    };
    assert!(prompter.answer(id, HumanAnswer::Allow { note: None }));
    let response = write.await.unwrap();
    assert_eq!(response.decision.as_deref(), Some("allow"), "{response:?}");
    assert_eq!(response.decider.as_deref(), Some("human"));
    let answers = idle.said("answers").await;
    assert_eq!(
        answers,
        [10_000, 10_000],
        "every idle peer is told and dropped"
    );
    console.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_dialogs_stay_open_and_an_ls_is_still_answered() {
    let mut console = Console::start(Mode::AllowRead, Options::default()).await;
    let mut prompter = console.prompter.take().unwrap();
    let line = String::from_utf8(request_line(&write_call())).unwrap();
    let before = resident_kib();
    let started = Instant::now();
    let mut writers = Clients::spawn(&console.socket, 10_000, line.trim_end());
    let mut opened = 0;
    while opened < 10_000 {
        if let Event::Opened(_) = prompter.next_event().await.unwrap() {
            opened += 1;
        }
    }
    eprintln!(
        "10,000 dialogs open after {:?}, resident memory grew by {} KiB",
        started.elapsed(),
        resident_kib().saturating_sub(before)
    );
    assert_eq!(prompter.open_dialogs().len(), 10_000);
    let started = Instant::now();
    let response = ask(&console.socket, &bash("ls")).await;
    eprintln!("an ls beside 10,000 open dialogs: {:?}", started.elapsed());
    assert_eq!(response.decision.as_deref(), Some("allow"), "{response:?}");
    assert_eq!(response.decider.as_deref(), Some("rule"), "not busy");
    writers.release();
    let mut withdrawn = 0;
    while withdrawn < 10_000 {
        if let Event::Withdrawn { .. } = prompter.next_event().await.unwrap() {
            withdrawn += 1;
        }
    }
    assert!(prompter.open_dialogs().is_empty());
    console.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_huge_lines_in_flight_do_not_hold_up_an_ls() {
    let mut console = Console::start(Mode::AllowRead, Options::default()).await;
    let mut prompter = console.prompter.take().unwrap();
    // About 300 KB of pipeline: parsing one takes about a second.
    let huge = vec!["cat"; 50_000].join(" | ");
    let mut held = Vec::new();
    for _ in 0..8 {
        let mut stream = UnixStream::connect(&console.socket).await.unwrap();
        // The write completes only once the server has read most of the line.
        stream.write_all(&request_line(&bash(&huge))).await.unwrap();
        held.push(stream);
    }
    let started = Instant::now();
    let response = ask(&console.socket, &bash("ls")).await;
    let took = started.elapsed();
    eprintln!("an ls while 8 lines of 300 KB are analysed: {took:?}");
    assert_eq!(response.decision.as_deref(), Some("allow"), "{response:?}");
    let first = prompter.next_event().await.unwrap();
    let Event::Passed(outcome) = first else {
        panic!("the ls is settled first, before any huge line: {first:?}");
    };
    assert_eq!(
        outcome.call.subject(),
        "ls",
        "the ls is settled before any huge line"
    );
    let mut settled = 0;
    for mut stream in held {
        let mut line = String::new();
        let mut reader = BufReader::new(&mut stream);
        reader.read_line(&mut line).await.unwrap();
        let response: Response = serde_json::from_str(&line).unwrap();
        assert_eq!(
            response.decision.as_deref(),
            Some("allow"),
            "cat | cat reads"
        );
        settled += 1;
    }
    assert_eq!(settled, 8);
    console.stop().await;
}

#[tokio::test]
async fn past_the_memory_bound_a_line_is_refused_and_a_new_peer_is_answered_at_once() {
    let options = Options {
        max_pending_bytes: 2 * CONNECTION_BYTES + 64 * 1024,
        ..Options::default()
    };
    let console = Console::start(Mode::AllowRead, options).await;
    let big = request_line(&call(
        "Write",
        json!({"file_path": "/tmp/x", "content": "x".repeat(200_000)}),
    ));
    let response = exchange(&console.socket, &big).await;
    assert!(
        response.error.unwrap().contains("memory bound"),
        "a line larger than the bound is refused"
    );
    let response = ask(&console.socket, &read_call()).await;
    assert_eq!(
        response.decision.as_deref(),
        Some("allow"),
        "the charge came back"
    );
    console.stop().await;
}
