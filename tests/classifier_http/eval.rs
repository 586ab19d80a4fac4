//! `gatehouse classifier eval` run as a process against loopback models in both wire formats:
//! lines auto mode would not race are counted and never sent, the raced ones are tallied, and
//! the summary comes last; `--from-audit` turns the human's answers into such a file.

use std::process::{Command, Output};

use gatehouse::classifier::provider::Provider;

use super::reply;
use super::server::{ModelServer, Reply, said};

const CORPUS: &str = "command\tlabel\tsource\n\
    ls -la\tread_only\tt\n\
    rm -rf build\twrite\tt\n\
    mytool --list\tread_only\tt\n\
    mytool --sync\twrite\tt\n\
    mytool garbled\\tx\twrite\tt\n";

async fn run(config: String, args: &[&str], files: &[(&str, &str)]) -> (Output, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, config).unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let mut command = Command::new(env!("CARGO_BIN_EXE_gatehouse"));
    command
        .current_dir(dir.path())
        .args(["--config", path.to_str().unwrap(), "classifier", "eval"])
        .args(args)
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY");
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    drop(dir);
    (output, stdout)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eval_sends_only_the_raced_lines_and_prints_the_summary_last() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let server = ModelServer::scripted(move |seen| {
            if seen.user_text().contains("garbled") {
                reply(provider, "no idea")
            } else {
                reply(provider, &said("read-only"))
            }
        })
        .await;
        let config = format!(
            "[classifier]\nprovider = \"{provider}\"\nbase_url = \"{}\"\nmodel = \"m\"\napi_key_env = \"\"\n",
            server.url
        );
        let (output, stdout) = run(config, &["corpus.tsv"], &[("corpus.tsv", CORPUS)]).await;
        assert!(
            output.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let last = stdout.lines().last().unwrap();
        assert!(
            last.starts_with(
                "eval: 5 lines, 3 raced, 2 allowed, 1 false allows, 0 unsure, 1 unreadable, \
                 0 failed, 0 off, median "
            ) && last.ends_with(" ms"),
            "{provider}: {stdout}"
        );
        assert_eq!(
            server.count(),
            3,
            "{provider}: the proven read and the writer are not sent"
        );
        assert!(server.seen().iter().all(|s| !s.user_text().contains("rm")));
    }
}

fn config(provider: Provider, server: &ModelServer, extra: &str) -> String {
    format!(
        "[classifier]\nprovider = \"{provider}\"\nbase_url = \"{}\"\nmodel = \"m\"\n\
         api_key_env = \"\"\n{extra}",
        server.url
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_and_a_tripped_breaker_are_counted_apart_from_unsure_answers() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let server = ModelServer::start(Reply::status(500, "down")).await;
        let corpus = "mytool a\twrite\nmytool b\twrite\nmytool c\twrite\nmytool d\twrite\n";
        let config = config(provider, &server, "breaker_failures = 2\n");
        let (output, stdout) = run(config, &["corpus.tsv"], &[("corpus.tsv", corpus)]).await;
        assert!(output.status.success(), "{provider}: {stdout}");
        let last = stdout.lines().last().unwrap();
        assert!(
            last.starts_with(
                "eval: 4 lines, 4 raced, 0 allowed, 0 false allows, 0 unsure, 0 unreadable, \
                 2 failed, 2 off, "
            ),
            "{provider}: {stdout}"
        );
        assert_eq!(
            server.count(),
            2,
            "{provider}: an open breaker is not asked"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_projects_mode_ceiling_below_auto_means_nothing_races() {
    let provider = Provider::OpenAi;
    let server = ModelServer::start(reply(provider, &said("read-only"))).await;
    let files = [
        ("corpus.tsv", CORPUS),
        (".gatehouse.toml", "mode_ceiling = \"allow-read\"\n"),
    ];
    let (output, stdout) = run(config(provider, &server, ""), &["corpus.tsv"], &files).await;
    assert!(output.status.success(), "{stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(
        last.starts_with("eval: 5 lines, 0 raced, 0 allowed"),
        "{stdout}"
    );
    assert_eq!(server.count(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eval_stops_quietly_when_its_reader_goes_away() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let provider = Provider::OpenAi;
    let server = ModelServer::start(reply(provider, &said("unsure"))).await;
    let dir = tempfile::tempdir().unwrap();
    let corpus: String = (0..50).map(|n| format!("mytool {n}\twrite\n")).collect();
    std::fs::write(dir.path().join("corpus.tsv"), corpus).unwrap();
    std::fs::write(
        dir.path().join("config.toml"),
        config(provider, &server, ""),
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gatehouse"))
        .current_dir(dir.path())
        .args([
            "--config",
            "config.toml",
            "classifier",
            "eval",
            "corpus.tsv",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let status = tokio::task::spawn_blocking(move || {
        // Like `| head -2`: read two lines, then close the pipe.
        let mut lines = BufReader::new(stdout).lines();
        for _ in 0..2 {
            lines.next().unwrap().unwrap();
        }
        drop(lines);
        child.wait_with_output().unwrap()
    })
    .await
    .unwrap();
    let stderr = String::from_utf8_lossy(&status.stderr);
    assert!(status.status.success(), "{:?}: {stderr}", status.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(server.count() < 50, "it stopped asking: {}", server.count());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn from_audit_writes_the_humans_shell_answers_as_a_labelled_file() {
    let audit = [
        r#"{"decider":"human","tool":"Bash","decision":"allow","subject":"mytool --list"}"#,
        r#"{"decider":"human","tool":"Bash","decision":"deny","subject":"mytool\tsync"}"#,
        r#"{"decider":"rule","tool":"Bash","decision":"allow","subject":"ls"}"#,
    ]
    .join("\n");
    let (output, stdout) = run(
        "[classifier]\nprovider = \"none\"\n".into(),
        &["--from-audit", "audit.jsonl"],
        &[("audit.jsonl", &audit)],
    )
    .await;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.ends_with(
            "command\tlabel\tsource\nmytool --list\tread_only\taudit\nmytool\\tsync\twrite\taudit\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.starts_with("# from the audit log: 2 shell calls"),
        "{stdout}"
    );
}
