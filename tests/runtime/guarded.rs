//! Guarded calls through the real `gatehouse hook claude` and `gatehouse serve`: an edit of an
//! agent's hook settings and a shell write of a `.gatehouse.toml` are asked in allow-all; a
//! shell read of a credential and Claude's Read tool on one are asked in allow-read and auto,
//! and a loopback model that says "read-only" to everything is never asked about them.
//! `--on-ask deny` is the answer of a dialog nobody is watching, so "asked" shows as that deny.

use crate::common;

use std::sync::Arc;

use crate::auto_e2e::server::{ModelServer, Reply, said};
use common::fixture;
use common::place::Place;
use common::rig::asked_of_the_human_and_never_raced;
use gatehouse::core::mode::Mode;
use serde_json::{Value, json};

/// A recorded PreToolUse payload of `tool`, with its `tool_input` replaced.
fn payload(fixture_name: &str, tool: &str, input: Value) -> Vec<u8> {
    let mut value: Value = serde_json::from_slice(&fixture(fixture_name)).unwrap();
    value["tool_name"] = json!(tool);
    value["tool_input"] = input;
    serde_json::to_vec(&value).unwrap()
}

fn bash(line: &str) -> Vec<u8> {
    payload(
        "claude-code/pretooluse-bash.json",
        "Bash",
        json!({ "command": line }),
    )
}

fn file_tool(tool: &str, input: Value) -> Vec<u8> {
    payload("claude-code/pretooluse-read.json", tool, input)
}

/// The hook's decision and reason.
fn decide(place: &Place, stdin: &[u8]) -> (String, String) {
    let (value, stderr) = place.hook(stdin);
    let specific = &value["hookSpecificOutput"];
    assert_eq!(specific["hookEventName"], "PreToolUse", "{value} {stderr}");
    (
        specific["permissionDecision"].as_str().unwrap().to_string(),
        specific["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .to_string(),
    )
}

/// Each record's subject, decision, class and route.
fn summary(place: &Place) -> Vec<[String; 4]> {
    place
        .audit()
        .iter()
        .map(|r| {
            ["subject", "decision", "class", "route"]
                .map(|k| r[k].as_str().unwrap_or("").to_string())
        })
        .collect()
}

#[test]
fn in_allow_all_an_edit_of_claude_hook_settings_and_a_shell_write_of_gatehouse_toml_are_asked() {
    let place = Place::new("").without_api_keys();
    let serve = place.serve(&["--mode", "allow-all", "--on-ask", "deny"]);
    let settings = "/home/dev/.claude/settings.json";
    let edit = file_tool(
        "Edit",
        json!({"file_path": settings, "old_string": "gatehouse", "new_string": "true"}),
    );
    let write = file_tool("Write", json!({"file_path": settings, "content": "{}"}));
    for stdin in [edit, write, bash("echo x > .gatehouse.toml")] {
        let (decision, reason) = decide(&place, &stdin);
        assert_eq!(decision, "deny", "{reason}");
        assert!(reason.contains("no one is watching"), "{reason}");
    }
    // Beside them, allow-all lets the agent work.
    let (decision, reason) = decide(&place, &bash("echo x > notes.txt"));
    assert_eq!(decision, "allow", "{reason}");
    let (code, log) = serve.stop();
    assert_eq!(code, Some(0), "{log}");
    let rows = summary(&place);
    let tamper: Vec<&[String; 4]> = rows.iter().filter(|r| r[2] == "tamper").collect();
    assert_eq!(tamper.len(), 3, "{rows:?}");
    assert!(
        tamper.iter().all(|r| r[1] == "deny" && r[3] == "ask"),
        "{rows:?}"
    );
    assert!(tamper[2][0] == "echo x > .gatehouse.toml", "{rows:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_credential_read_is_asked_in_allow_read_and_auto_and_a_yes_saying_model_never_sees_it() {
    let model = ModelServer::start(Reply::openai(&said("read-only"))).await;
    let config = format!(
        "\n[classifier]\nprovider = \"openai\"\nbase_url = {:?}\n\
         model = \"local-model\"\napi_key_env = \"\"\ntimeout_ms = 5000",
        model.url
    );
    for mode in ["allow-read", "auto"] {
        let place = Arc::new(Place::new(&config).without_api_keys());
        let serve_place = place.clone();
        let serve = tokio::task::spawn_blocking(move || {
            serve_place.serve(&["--mode", mode, "--on-ask", "deny"])
        })
        .await
        .unwrap();
        let calls = [
            bash("cat ~/.aws/credentials"),
            bash("printenv"),
            bash("mytool --show ~/.aws/credentials"),
            file_tool("Read", json!({"file_path": "/home/dev/.aws/credentials"})),
            file_tool("Read", json!({"file_path": "/home/dev/project/.env"})),
            file_tool("Grep", json!({"pattern": "token", "path": "/home/dev"})),
        ];
        let asked = place.clone();
        let answers = tokio::task::spawn_blocking(move || {
            calls.iter().map(|c| decide(&asked, c)).collect::<Vec<_>>()
        })
        .await
        .unwrap();
        for (decision, reason) in &answers {
            assert_eq!(decision, "deny", "{mode}: {reason}");
            assert!(reason.contains("no one is watching"), "{mode}: {reason}");
        }
        let readme = file_tool("Read", json!({"file_path": "/home/dev/project/README.md"}));
        let plain = place.clone();
        let (decision, _) = tokio::task::spawn_blocking(move || decide(&plain, &readme))
            .await
            .unwrap();
        assert_eq!(decision, "allow", "{mode}: an ordinary read still passes");
        let (code, log) = tokio::task::spawn_blocking(move || serve.stop())
            .await
            .unwrap();
        assert_eq!(code, Some(0), "{log}");
        let rows = summary(&place);
        let credential: Vec<&[String; 4]> = rows
            .iter()
            .filter(|r| r[2] == "unverified (credential)")
            .collect();
        assert_eq!(credential.len(), 6, "{mode}: {rows:?}");
        assert!(
            credential.iter().all(|r| r[1] == "deny" && r[3] == "ask"),
            "{mode}: {rows:?}"
        );
    }
    let questions: Vec<_> = model
        .seen()
        .into_iter()
        .filter(|seen| !seen.user_text().contains(r#""ask":[]"#))
        .collect();
    assert!(questions.is_empty(), "the model was asked: {questions:?}");
}

#[tokio::test]
async fn at_the_barrier_credential_reads_and_own_file_writes_are_asked_and_never_raced() {
    asked_of_the_human_and_never_raced(
        &[Mode::Auto, Mode::AutoMcp, Mode::AllowRead],
        &[
            "mytool ~/.aws/credentials",
            "cat ~/.ssh/id_rsa",
            "echo $GITHUB_TOKEN",
            "gh auth token",
            "env",
        ],
        "credential read",
    )
    .await;
    asked_of_the_human_and_never_raced(
        &[Mode::Auto, Mode::AutoMcp, Mode::AllowRead, Mode::AllowAll],
        &[
            "echo x > .gatehouse.toml",
            "mytool --fix sub/.gatehouse.toml",
            "rm -f .gatehouse.toml",
        ],
        "write of gatehouse's own file",
    )
    .await;
}

/// A Bash payload made in `cwd`.
fn bash_in(cwd: &std::path::Path, line: &str) -> Vec<u8> {
    let mut value: Value = serde_json::from_slice(&bash(line)).unwrap();
    value["cwd"] = json!(cwd);
    serde_json::to_vec(&value).unwrap()
}

#[test]
fn a_project_file_adds_sensitive_paths_even_untrusted_and_they_hold_only_under_it() {
    let place = Place::new("sensitive_paths = [\"*.token\"]").without_api_keys();
    let project = place.path().join("repo");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::write(
        project.join(".gatehouse.toml"),
        "sensitive_paths = [\"*.vault\"]\n",
    )
    .unwrap();
    let elsewhere = place.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let serve = place.serve(&["--mode", "allow-read", "--on-ask", "deny"]);
    let decision = |cwd: &std::path::Path, line: &str| decide(&place, &bash_in(cwd, line)).0;
    assert_eq!(
        decision(&project, "cat db.vault"),
        "deny",
        "the project's pattern"
    );
    assert_eq!(
        decision(&project, "cat api.token"),
        "deny",
        "the config's pattern"
    );
    assert_eq!(
        decision(&project, "cat ~/.ssh/id_rsa"),
        "deny",
        "a built-in"
    );
    assert_eq!(decision(&project, "cat notes.txt"), "allow");
    assert_eq!(
        decision(&elsewhere, "cat db.vault"),
        "allow",
        "not under the project"
    );
    assert_eq!(decision(&elsewhere, "cat api.token"), "deny");
    let (code, log) = serve.stop();
    assert_eq!(code, Some(0), "{log}");
}
