//! The example agent, registered by one line, everywhere a real agent goes.

use std::path::Path;

use serde_json::json;

use super::Example;
use crate::agents::claude::Claude;
use crate::agents::client::Timeouts;
use crate::agents::dialect::{HookCommand, InstallRequest, Scope, UninstallRequest};
use crate::agents::doctor;
use crate::agents::hook::{self, HookOutput, HookSetup};
use crate::agents::registry::Registry;
use crate::core::call::{Agent, ToolKind};
use crate::core::rules::{Pattern, Rules};

/// Gatehouse's registry would list it the same way: one line.
static REGISTRY: Registry = Registry::new(&[
    &Claude, &Example, // the new agent
]);

/// What `gatehouse hook example` prints for `stdin` with no console running, `git push` a
/// denied command.
fn hook(stdin: &str) -> HookOutput {
    let setup = HookSetup {
        socket: "/nonexistent/gatehouse.sock".into(),
        timeouts: Timeouts::for_ask_timeout(
            std::time::Duration::from_secs(1),
            std::time::Duration::ZERO,
        ),
        rules: Ok(Rules {
            denied_commands: vec![Pattern::new("git push")],
            ..Rules::default()
        }),
        host: None,
        hook_timeout_secs: None,
    };
    let dialect = REGISTRY.find("example").unwrap();
    hook::run(dialect, stdin.as_bytes(), &setup)
}

fn before_tool(tool: &str, args: serde_json::Value) -> String {
    json!({"event": "before_tool", "session": "s1", "cwd": "/", "tool": tool, "args": args})
        .to_string()
}

#[test]
fn the_registry_finds_it_by_its_names_beside_the_others() {
    assert_eq!(REGISTRY.cli_names(), ["claude", "example"]);
    let example = REGISTRY.find("example-agent").unwrap();
    assert_eq!(example.names().display, "Example Agent");
    let agent = Agent::new("example-agent");
    assert_eq!(REGISTRY.display_name(&agent), "Example Agent");
    assert_eq!(REGISTRY.kind_of(&agent, "shell"), ToolKind::Shell);
    assert_eq!(REGISTRY.kind_of(&agent, "Bash"), ToolKind::Other);
    assert_eq!(REGISTRY.internal_tools().last().unwrap(), "todo");
    assert!(REGISTRY.edit_tools().contains(&"write".to_string()));
    assert_eq!(REGISTRY.install_hint(), "gatehouse install claude|example");
}

#[test]
fn its_hook_reads_the_call_decides_it_statically_and_answers_in_its_own_words() {
    let read = hook(&before_tool("read", json!({"path": "/etc/hostname"})));
    assert_eq!(read.stdout.as_deref(), Some(r#"{"verdict":"allow"}"#));
    let push = hook(&before_tool("shell", json!({"command": "git push origin"})));
    let answer: serde_json::Value = serde_json::from_str(&push.stdout.unwrap()).unwrap();
    assert_eq!(answer["verdict"], "deny");
    assert!(answer["message"].as_str().unwrap().contains("not running"));
    let unknown = hook(&before_tool("shell", json!({"command": "make"})));
    assert_eq!(unknown.stdout, None, "a defer leaves the call to the agent");
    let after = json!({"event": "after_tool", "tool": "shell", "args": {"command": "make"}});
    assert_eq!(hook(&after.to_string()).stdout, None, "no console, no note");
}

#[test]
fn its_hook_refuses_input_it_cannot_read_in_its_own_words() {
    for stdin in ["not json", r#"{"event": "on_start", "tool": "shell"}"#] {
        let out = hook(stdin);
        let answer: serde_json::Value = serde_json::from_str(&out.stdout.unwrap()).unwrap();
        assert_eq!(answer["verdict"], "deny", "{stdin}");
        assert!(out.stderr[0].starts_with("gatehouse hook example: "));
    }
}

#[test]
fn gatehouse_agents_shows_its_events_and_where_its_hook_is() {
    // The report runs each agent's program for its version: this one's alone.
    static ALONE: Registry = Registry::new(&[&Example]);
    let table = doctor::capability_table_of(&REGISTRY);
    assert!(table.contains(
        "| Example Agent | `before_tool` | grants: the call runs, skipping the agent's prompt | \
         reaches the model | reaches the model after the output (after-tool hook) | runs the \
         call | from its documentation |"
    ));
    assert!(table.contains("| Example Agent | `after_tool` | not a question"));

    let dir = tempfile::tempdir().unwrap();
    let report = doctor::report_of(&ALONE, dir.path());
    assert!(report.contains(
        "Example Agent (`gatehouse hook example`): not installed (no \
         `gatehouse-example-agent` on PATH)\n  answers: from its documentation only: no \
         version was run against gatehouse\n  hook: not installed (`gatehouse install example`)"
    ));
    let example = REGISTRY.find("example").unwrap();
    let installed = example.install(&install_request(dir.path())).unwrap();
    assert_eq!(
        installed.notes,
        ["the example agent exists only in gatehouse's tests."]
    );
    let hooks = dir.path().join(".example-agent/hooks.json");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&hooks).unwrap()).unwrap();
    let entry = json!([{"command": "/bin/gatehouse hook example", "timeout": 600}]);
    assert_eq!(
        file,
        json!({"hooks": {"before_tool": entry, "after_tool": entry}})
    );
    let report = doctor::report_of(&ALONE, dir.path());
    let line = format!("  hook (project): {} installed, active", hooks.display());
    assert!(report.contains(&line), "{report}");
    // Written without the time limit (as installs before it were): the doctor says so.
    assert!(
        report.contains("written without its time limit (`--timeout`)")
            && report.contains("run `gatehouse install example` again"),
        "{report}"
    );
    let mut request = install_request(dir.path());
    request.command.timeout_secs = Some(660);
    example.install(&request).unwrap();
    let report = doctor::report_of(&ALONE, dir.path());
    assert!(report.contains(&line), "{report}");
    assert!(!report.contains("time limit"), "{report}");

    let uninstall = UninstallRequest {
        scope: Scope::Project,
        project: dir.path().to_path_buf(),
        dry_run: false,
    };
    example.uninstall(&uninstall).unwrap();
    let report = doctor::report_of(&ALONE, dir.path());
    assert!(report.contains("  hook: not installed (`gatehouse install example`)"));
}

fn install_request(project: &Path) -> InstallRequest {
    InstallRequest {
        scope: Scope::Project,
        project: project.to_path_buf(),
        command: HookCommand {
            exe: "/bin/gatehouse".into(),
            socket: None,
            config: None,
            host: None,
            timeout_secs: None,
        },
        timeout_secs: 600,
        dry_run: false,
        event: None,
        keep_reviewer: false,
    }
}
