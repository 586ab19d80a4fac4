//! Decisions per second through the console's socket: 32 concurrent clients, each sending
//! statically allowed calls (a `Read`), one connection per call as hooks do, with a real audit
//! log. Run with `cargo bench --bench socket`; the items/s column is decisions per second.

use std::path::PathBuf;

use divan::Bencher;
use divan::counter::ItemsCount;
use gatehouse::core::audit::Audit;
use gatehouse::core::barrier::{Barrier, Settings};
use gatehouse::core::call::{Agent, Call};
use gatehouse::server;
use gatehouse::wire as protocol;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;

const CLIENTS: usize = 32;
const CALLS_PER_CLIENT: usize = 100;

fn main() {
    divan::main();
}

fn read_call() -> Call {
    Call {
        agent: Agent::new("claude-code"),
        session: "bench".into(),
        cwd: "/tmp".into(),
        tool: "Read".into(),
        kind: Some(gatehouse::agents::claude::kind_of("Read")),
        subagent: None,
        input: serde_json::json!({"file_path": "/etc/hostname"}),
        tool_use_id: Some("toolu_bench".into()),
        stage: Default::default(),
        caps: Default::default(),
        transcript_path: None,
        path_key: None,
        remote: None,
        hook_timeout_secs: None,
    }
}

async fn one_call(socket: &PathBuf, line: &[u8]) {
    let mut stream = UnixStream::connect(socket).await.unwrap();
    stream.write_all(line).await.unwrap();
    let mut answer = String::new();
    BufReader::new(stream).read_line(&mut answer).await.unwrap();
    assert!(answer.contains("\"allow\""), "{answer}");
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn static_calls_from_32_clients(bencher: Bencher) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("run/gatehouse.sock");
    let audit = Audit::open(&dir.path().join("audit.jsonl")).unwrap();
    let (barrier, _prompter) = Barrier::new(Settings::default(), audit, None);
    let bound = runtime.block_on(async { server::bind(&socket).unwrap() });
    runtime.spawn(server::run(bound.listener, barrier, std::future::pending()));
    let line = protocol::request_line(&read_call());

    bencher
        .counter(ItemsCount::new(CLIENTS * CALLS_PER_CLIENT))
        .bench_local(|| {
            runtime.block_on(async {
                let clients: Vec<_> = (0..CLIENTS)
                    .map(|_| {
                        let socket = socket.clone();
                        let line = line.clone();
                        tokio::spawn(async move {
                            for _ in 0..CALLS_PER_CLIENT {
                                one_call(&socket, &line).await;
                            }
                        })
                    })
                    .collect();
                for client in clients {
                    client.await.unwrap();
                }
            })
        });
    drop(bound.file);
}
