//! End to end with the real Codex CLI 0.169.0, driven by a scripted model on loopback
//! (`../shared/realclients/codex_e2e.py`). The hooks are put in place by `gatehouse install
//! codex` in a throw-away home, and that installed `hooks.json` is the one Codex runs.
//!
//! `codex_e2e.py` gives Codex a home of its own and writes the trust entries there by Codex's
//! hash recipe; the test first checks that the entries our installer wrote carry exactly those
//! hashes.
//!
//! These run only with `GATEHOUSE_E2E=1` (`.ci/e2e` installs the client): a plain `cargo test`
//! never downloads anything. Without node, npm or python3 they skip, saying so.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

use common::e2e::{self, AgentHome, client, shared};

fn codex() -> Option<String> {
    client("Codex", "install_codex.sh")
}

/// A throw-away home with gatehouse's Codex hooks installed, a project with `build/`, and a
/// private gatehouse config and socket.
struct Setup {
    at: AgentHome,
    codex: String,
}

impl Setup {
    fn new(codex: String) -> Setup {
        let at = AgentHome::new("");
        std::fs::create_dir_all(at.path().join("outside")).unwrap();
        let setup = Setup { at, codex };
        e2e::succeed(
            setup
                .at
                .gatehouse(&["install", "codex"])
                .env("HOME", setup.at.home())
                .env("CODEX_HOME", setup.at.home().join(".codex")),
        );
        setup
    }

    fn hooks(&self) -> PathBuf {
        self.at.home().join(".codex/hooks.json")
    }

    fn run(&self, tool: Value, extra: &[&str]) -> Value {
        let hooks = self.hooks();
        let flags = [
            ("--codex", self.codex.as_ref()),
            ("--hooks", hooks.as_os_str()),
        ];
        self.at.drive("codex_e2e.py", &flags, &tool, extra)
    }
}

/// The trusted hashes in a config.toml, in file order.
fn hashes(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("trusted_hash = "))
        .map(|h| h.trim_matches('"').to_string())
        .collect()
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn the_installers_trust_entries_carry_the_hashes_codex_checks() {
    let Some(codex) = codex() else { return };
    let setup = Setup::new(codex);
    let ours = std::fs::read_to_string(setup.at.home().join(".codex/config.toml")).unwrap();
    let script = format!(
        "import sys; sys.path.insert(0, {:?}); import codex_e2e; print(codex_e2e.trust_entries({:?}))",
        shared().to_str().unwrap(),
        setup.hooks().to_str().unwrap()
    );
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .output()
        .unwrap();
    let theirs = String::from_utf8(out.stdout).unwrap();
    assert_eq!(hashes(&ours).len(), 2, "{ours}");
    assert_eq!(hashes(&ours), hashes(&theirs), "{ours}\n{theirs}");
    let key = format!("{}:pre_tool_use:0:0", setup.hooks().display());
    assert!(
        ours.contains(&key) && theirs.contains(&key),
        "{ours}\n{theirs}"
    );
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn serve_on_ask_deny_refuses_rm_rf_build_with_our_reason_reaching_the_model() {
    let Some(codex) = codex() else { return };
    let setup = Setup::new(codex);
    let _serve = setup.at.serve(&["--on-ask", "deny"]);
    let summary = setup.run(
        json!({"name": "exec_command", "input": {"cmd": "rm -rf build"}}),
        &[],
    );
    let output = summary["tool_output"].as_str().unwrap_or("");
    assert!(
        output.contains("Command blocked by PreToolUse hook: "),
        "{summary}"
    );
    assert!(output.contains("gatehouse"), "{summary}");
    assert!(setup.at.path().join("project/build/out.o").exists());
    let audit = std::fs::read_to_string(setup.at.path().join("audit.jsonl")).unwrap();
    assert!(audit.contains("\"agent\":\"codex\""), "{audit}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn an_allowed_escalation_runs_through_permission_request_without_the_reviewer() {
    let Some(codex) = codex() else { return };
    let setup = Setup::new(codex);
    let _serve = setup.at.serve(&["--mode", "allow-all"]);
    let target = setup.at.path().join("outside/x.txt");
    let cmd = format!("echo hi > {}", target.display());
    let tool = json!({"name": "exec_command", "input": {"cmd": cmd,
        "sandbox_permissions": "require_escalated", "justification": "write outside"}});
    let summary = setup.run(tool, &["--approve-for-me"]);
    assert!(target.exists(), "{summary}");
    assert!(
        summary["reviewer"].is_null(),
        "the reviewer was asked: {summary}"
    );
    let runs = summary["hook_runs"].to_string();
    assert!(runs.contains("PermissionRequest"), "{summary}");
}
