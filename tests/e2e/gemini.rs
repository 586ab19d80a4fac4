//! End to end with the real Gemini CLI 0.61.0, driven by a scripted model on loopback
//! (`../shared/realclients/gemini_e2e.py`). `gatehouse install gemini` writes the hooks and the
//! policy into a throw-away home; those installed files are what Gemini runs with.
//!
//! These run only with `GATEHOUSE_E2E=1` (`.ci/e2e` installs the client): a plain `cargo test`
//! never downloads anything. Without node, npm or python3 they skip, saying so.

use crate::common;

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};

use common::e2e::{self, AgentHome, client};

fn gemini() -> Option<String> {
    client("Gemini CLI", "install_gemini.sh")
}

struct Setup {
    at: AgentHome,
    gemini: String,
}

impl Setup {
    fn new(gemini: String, config: &str) -> Setup {
        let at = AgentHome::new(config);
        std::fs::write(at.project().join("notes.txt"), "hello from e2e\n").unwrap();
        let setup = Setup { at, gemini };
        let printed = e2e::succeed(
            setup
                .at
                .gatehouse(&["install", "gemini"])
                .env("HOME", setup.at.home())
                .env_remove("GEMINI_CLI_HOME"),
        );
        assert!(printed.contains("still refuses"), "{printed}");
        // The fake model needs API-key auth; the rest of the settings is what we installed.
        let path = setup.at.home().join(".gemini/settings.json");
        let mut settings: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        settings["security"] = json!({"auth": {"selectedType": "gemini-api-key"}});
        std::fs::write(&path, settings.to_string()).unwrap();
        setup
    }

    fn socket(&self) -> PathBuf {
        e2e::socket(self.at.path())
    }

    fn run(&self, tool: Value) -> Value {
        let settings = self.at.home().join(".gemini/settings.json");
        let policy = self.at.home().join(".gemini/policies/gatehouse.toml");
        let flags = [
            ("--gemini", self.gemini.as_ref()),
            ("--settings", settings.as_os_str()),
            ("--policy", policy.as_os_str()),
        ];
        self.at.drive("gemini_e2e.py", &flags, &tool, &[])
    }
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn serve_on_ask_deny_refuses_rm_rf_build_with_our_reason_and_lets_a_read_pass() {
    let Some(gemini) = gemini() else { return };
    let setup = Setup::new(gemini, "");
    let _serve = setup.at.serve(&["--on-ask", "deny"]);
    let summary = setup.run(json!({"name": "run_shell_command",
        "args": {"command": "rm -rf build", "description": "clean"}}));
    let result = summary["tool_result"].as_str().unwrap_or("");
    assert!(summary["tool_declared"] == true, "{summary}");
    assert!(
        result.starts_with("Tool execution blocked: gatehouse"),
        "{summary}"
    );
    assert!(setup.at.path().join("project/build/out.o").exists());

    let notes = setup.at.path().join("project/notes.txt");
    let summary = setup.run(json!({"name": "read_file", "args": {"file_path": notes}}));
    assert!(
        summary["tool_result"]
            .to_string()
            .contains("hello from e2e"),
        "{summary}"
    );
    let audit = std::fs::read_to_string(setup.at.path().join("audit.jsonl")).unwrap();
    assert!(audit.contains("\"agent\":\"gemini-cli\""), "{audit}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn an_allow_with_a_note_runs_the_call_and_the_note_arrives_after_the_output() {
    let Some(gemini) = gemini() else { return };
    // A console whose human allows with a note: the headless console in the test process.
    let setup = Setup::new(gemini, "");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let socket = setup.socket();
    let audit = setup.at.path().join("audit-note.jsonl");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = runtime.spawn(async move {
        use gatehouse::core::audit::Audit;
        use gatehouse::core::barrier::{Barrier, Settings};
        use gatehouse::core::event::Event;
        use gatehouse::core::prompter::HumanAnswer;
        let (barrier, mut prompter) =
            Barrier::new(Settings::default(), Audit::open(&audit).unwrap(), None);
        let bound = gatehouse::server::bind(&socket).unwrap();
        let human = tokio::spawn(async move {
            while let Some(event) = prompter.next_event().await {
                if let Event::Opened(dialog) = event {
                    let note = Some("gatehouse note: check the listing".to_string());
                    prompter.answer(dialog.id, HumanAnswer::Allow { note });
                }
            }
        });
        gatehouse::server::run(bound.listener, barrier, async {
            let _ = stopped.await;
        })
        .await;
        human.abort();
    });
    while !setup.socket().exists() {
        std::thread::sleep(Duration::from_millis(10));
    }
    let summary = setup.run(json!({"name": "run_shell_command",
        "args": {"command": "touch made.txt", "description": "make a file"}}));
    let _ = stop.send(());
    let _ = runtime.block_on(server);
    assert!(
        setup.at.path().join("project/made.txt").exists(),
        "{summary}"
    );
    let notes = summary["hook_notes"].to_string();
    assert!(notes.contains("check the listing"), "{summary}");
}
