//! The console's socket against a flood of connections from its own user, on the real binary
//! with few descriptors: connections are counted under the descriptor limit, so the console
//! keeps descriptors for its files, and a hook that comes past the bound is answered at once,
//! its static class applied (a denied command stays denied), never left waiting to defer.

use crate::common;

use common::place::Place;
use common::{bash_payload_in, decision_of};

/// Opens up to `count` connections to `socket` without waiting on a full listen queue (a
/// connection the kernel has no room for is not made), and keeps them.
fn flood(socket: &std::path::Path, count: usize) -> Vec<std::os::unix::net::UnixStream> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut held = Vec::new();
        for _ in 0..count {
            if let Ok(stream) = tokio::net::UnixStream::connect(socket).await {
                held.push(stream.into_std().unwrap());
            }
        }
        held
    })
}

#[test]
fn a_flood_of_idle_connections_leaves_the_console_its_descriptors_and_a_denied_command_denied() {
    // A hook left waiting would wait for the ask timeout and 5 s more, then decide alone.
    let place = Place::new("ask_timeout_secs = 2\ndenied_commands = [\"git push\"]");
    let project = place.path().join("repo");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::write(
        project.join(".gatehouse.toml"),
        "denied_commands = [\"make deploy\"]\n",
    )
    .unwrap();
    let serve = place.serve_with(&[], |command| common::limit_descriptors(command, 64));
    let held = flood(&place.socket(), 400);
    assert!(held.len() > 64, "{} connections", held.len());
    // The flood waiting in the listen queue is worked through at once: all but the newest
    // few give up their place to newer ones (or are answered busy) and are told so, rather
    // than each holding a descriptor for the 2 s a request line may take. Once this one is
    // told, the queue has room for the hooks.
    let told = {
        use std::io::BufRead;
        let stream = &held[held.len() - 40];
        stream.set_nonblocking(false).unwrap();
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(stream)
            .read_line(&mut line)
            .unwrap();
        line
    };
    assert!(!told.contains("within 2s"), "{told}");

    // Each answered by the console itself (a static fallback says "without the console").
    for (line, expected) in [
        ("git push origin main", "deny"),
        ("ls", "allow"),
        ("make deploy", "deny"),
    ] {
        let (out, err) = place.hook(&bash_payload_in(&project, line));
        let (decision, reason) = decision_of(&out);
        assert_eq!(decision, expected, "{line}: {out} {err}");
        assert!(!reason.contains("without"), "{line}: {reason}");
    }
    let audit = place.audit();
    let subjects: Vec<&str> = audit.iter().filter_map(|r| r["subject"].as_str()).collect();
    assert_eq!(subjects, ["git push origin main", "ls", "make deploy"]);
    drop(held);
    let (_, log) = serve.stop();
    let failures = log.matches("accepting a connection failed").count();
    assert!(failures <= 2, "{failures} accept failures logged:\n{log}");
}
