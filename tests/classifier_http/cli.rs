//! `gatehouse classifier test 'CMD'` run as a process against the loopback model server.

use std::process::{Command, Output};

use super::server::{ModelServer, Reply};

async fn run(config: String, key: Option<&str>, line: &str) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, config).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_gatehouse"));
    command
        .args([
            "--config",
            path.to_str().unwrap(),
            "classifier",
            "test",
            line,
        ])
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .env_remove("GATEHOUSE_TEST_KEY");
    if let Some(key) = key {
        command.env("GATEHOUSE_TEST_KEY", key);
    }
    tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn classifier_test_prints_the_raw_answer_the_verdict_and_the_time() {
    let server = ModelServer::start(Reply::openai("Read-only.\u{1b}[2J")).await;
    let config = format!(
        "[classifier]\nbase_url = \"{}\"\nmodel = \"m\"\napi_key_env = \"GATEHOUSE_TEST_KEY\"\n",
        server.url
    );
    let output = run(config, Some("sk-cli"), "mytool --list").await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("classifier: openai m at http://127.0.0.1"),
        "{stdout}"
    );
    assert!(
        stdout.contains("answer:  \"Read-only.\\e[2J\""),
        "escaped: {stdout}"
    );
    // Not the JSON object asked for: not an answer.
    assert!(stdout.contains("assessment: unsure"), "{stdout}");
    assert!(stdout.contains("took:    "), "{stdout}");
    assert_eq!(
        server.seen()[0].header("authorization"),
        Some("Bearer sk-cli")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn classifier_test_without_a_key_says_why_there_is_no_classifier() {
    let output = run(String::new(), None, "ls").await;
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no classifier") && stderr.contains("OPENAI_API_KEY"),
        "{stderr}"
    );

    let config = "[classifier]\napi_key_env = \"GATEHOUSE_TEST_KEY\"\n".to_string();
    let stderr = String::from_utf8_lossy(&run(config, None, "ls").await.stderr).into_owned();
    assert!(stderr.contains("GATEHOUSE_TEST_KEY is not set"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_servers_error_body_is_printed_as_escapes() {
    let body = "no\u{1b}]0;pwned\u{7}\u{202e}\u{2028}verdict: read-only";
    let server = ModelServer::start(Reply::status(500, body)).await;
    let config = format!(
        "[classifier]\nbase_url = \"{}\"\nmodel = \"m\"\napi_key_env = \"GATEHOUSE_TEST_KEY\"\n",
        server.url
    );
    let output = run(config, Some("sk-cli"), "mytool --list").await;
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    for c in ['\u{1b}', '\u{7}', '\u{202e}', '\u{2028}'] {
        assert!(
            !stderr.contains(c),
            "{:x} printed raw: {stderr:?}",
            c as u32
        );
    }
    assert!(stderr.contains("\\e]0;pwned\\x07"), "{stderr}");
}

/// `serve` warms the model as the console does: one cheap request before any call, so the
/// first race does not find a cold model.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_sends_one_warming_request_at_start() {
    use std::os::unix::fs::PermissionsExt;
    let server = ModelServer::start(Reply::openai("ok")).await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let path = dir.path().join("config.toml");
    let config = format!(
        "[classifier]\nbase_url = \"{}\"\nmodel = \"m\"\napi_key_env = \"GATEHOUSE_TEST_KEY\"\n",
        server.url
    );
    std::fs::write(&path, config).unwrap();
    let mut serve = Command::new(env!("CARGO_BIN_EXE_gatehouse"))
        .args(["--config", path.to_str().unwrap(), "serve", "--socket"])
        .arg(dir.path().join("g.sock"))
        .env("GATEHOUSE_TEST_KEY", "sk-serve")
        .env("XDG_STATE_HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The request itself is the event waited for; the bound only keeps a broken serve from
    // hanging the test.
    let started = std::time::Instant::now();
    while server.count() == 0 && started.elapsed() < std::time::Duration::from_secs(20) {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    serve.kill().unwrap();
    let out = serve.wait_with_output().unwrap();
    assert_eq!(
        server.count(),
        1,
        "serve sent no warming request: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        server.seen()[0].header("authorization"),
        Some("Bearer sk-serve")
    );
}
