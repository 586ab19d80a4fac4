//! What the console adds around a model call, and what a cache hit costs.
//!
//! The model is the loopback server of the HTTP tests, answering at once. `raw_round_trip` is
//! the floor: reqwest posting an already-built request body and reading the reply, nothing
//! else. `model_call` is the whole classifier path for a subject it has not seen (cache size
//! 0, so every iteration asks): prompt, JSON, single flight, semaphore, breaker, timeout,
//! request, answer parsing. Their difference is the time the console adds around a model call.
//! `cache_hit` is a remembered verdict. Every iteration runs under `block_on` of the same
//! runtime, so the runtime's own cost is in all three alike.

#[path = "../tests/classifier_http/server.rs"]
mod server;

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use gatehouse::classifier::prompt::Prompt;
use gatehouse::classifier::provider::{ApiKey, Endpoint, Provider};
use gatehouse::classifier::setup::Ready;
use gatehouse::classifier::{Limits, ModelClassifier};
use gatehouse::core::barrier::assess_bounded;
use gatehouse::core::call::{Agent, Call};
use gatehouse::core::classifier::{Classifier, Question};
use gatehouse::core::rules::Rules;
use server::{ModelServer, Reply};

fn main() {
    divan::main();
}

struct Rig {
    runtime: tokio::runtime::Runtime,
    server: ModelServer,
}

static RIG: LazyLock<Rig> = LazyLock::new(|| {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let server = runtime.block_on(ModelServer::start(Reply::openai(&server::said(
        "read-only",
    ))));
    Rig { runtime, server }
});

fn classifier(cache_size: usize) -> ModelClassifier {
    ModelClassifier::new(Ready {
        endpoint: endpoint(),
        limits: Limits {
            timeout: Duration::from_secs(5),
            max_concurrent: 4,
            cache_size,
            breaker_failures: 3,
            breaker_repeats: 5,
            threshold_permille: 800,
            ..Limits::default()
        },
        mcp_descriptions: Default::default(),
    })
    .unwrap()
}

fn endpoint() -> Endpoint {
    Endpoint {
        provider: Provider::OpenAi,
        base_url: RIG.server.url.clone(),
        model: "bench".into(),
        api_key: Some(ApiKey("sk-bench".into())),
    }
}

/// The question auto mode would put about the benchmark's line.
fn call() -> Arc<Question> {
    let call = Arc::new(Call {
        agent: Agent::new("claude-code"),
        session: "s".into(),
        cwd: "/tmp".into(),
        tool: "Bash".into(),
        kind: Some(gatehouse::agents::claude::kind_of("Bash")),
        subagent: None,
        input: serde_json::json!({"command": "mytool --list --format json | head -n 20"}),
        tool_use_id: None,
        stage: Default::default(),
        caps: Default::default(),
        transcript_path: None,
        path_key: None,
        remote: None,
        hook_timeout_secs: None,
    });
    let assessment = assess_bounded(&call, &Rules::default(), &[]);
    Arc::new(Question::of(call, &assessment).unwrap())
}

#[divan::bench]
fn raw_round_trip(bencher: divan::Bencher) {
    let endpoint = endpoint();
    let body = endpoint
        .request_body(&Prompt::shell(call().call.shell_line().unwrap()))
        .to_string();
    let http = gatehouse::plumbing::http::client();
    let url = endpoint.url();
    bencher.bench_local(|| {
        RIG.runtime.block_on(async {
            let response = http
                .post(&url)
                .header("content-type", "application/json")
                .bearer_auth("sk-bench")
                .body(body.clone())
                .send()
                .await
                .unwrap();
            response.bytes().await.unwrap()
        })
    });
}

#[divan::bench]
fn model_call(bencher: divan::Bencher) {
    let classifier = classifier(0);
    let call = call();
    bencher.bench_local(|| {
        RIG.runtime
            .block_on(classifier.classify(call.clone()))
            .unwrap()
    });
}

#[divan::bench]
fn cache_hit(bencher: divan::Bencher) {
    let classifier = classifier(1024);
    let call = call();
    RIG.runtime
        .block_on(classifier.classify(call.clone()))
        .unwrap();
    let requests = RIG.server.count();
    bencher.bench_local(|| {
        RIG.runtime
            .block_on(classifier.classify(call.clone()))
            .unwrap()
    });
    assert_eq!(RIG.server.count(), requests, "every iteration was a hit");
}
