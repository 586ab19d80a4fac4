//! `gatehouse classifier eval` run as a process against loopback models in both wire formats:
//! lines auto mode would not race are counted and never sent, the raced ones are tallied, and
//! the summary comes last; `--from-audit` turns the human's answers into such a file.

use std::process::{Command, Output};

use gatehouse::classifier::provider::Provider;

use super::reply;
use super::server::{ModelServer, said};

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
                "eval: 5 lines, 3 raced, 2 allowed, 1 false allows, 1 unsure, median "
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
    assert_eq!(
        stdout,
        "command\tlabel\tsource\nmytool --list\tread_only\taudit\nmytool\\tsync\twrite\taudit\n"
    );
}
