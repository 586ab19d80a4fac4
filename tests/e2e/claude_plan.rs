//! Plan review with the real Claude Code CLI (2.1.328), its scripted model calling
//! `ExitPlanMode` in plan mode: the hook gatehouse installed asks the console, the call is a
//! plan dialog, and a deny's reason reaches the model as its feedback on the plan. An allow lets
//! the plan through to Claude Code's own approval prompt, which still decides.
//!
//! Claude Code offers `ExitPlanMode` under `-p` only to a host that answers its prompts
//! (`--permission-prompt-tool`, as the Agent SDK passes): otherwise the tool is "disabled for
//! this session", and with tool search on it is not among the tools listed. So Claude Code
//! runs here through a two-line wrapper that names a prompt tool and turns search off; the
//! hook answers first, so the prompt tool is never asked. The model's own `plan`
//! argument is dropped by Claude Code, which hands its hooks the text of the session's plan
//! file instead: the scripted model writes none, so the dialog says no plan text came.

use crate::common;

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;

use gatehouse::core::prompter::HumanAnswer;
use serde_json::{Value, json};

use super::claude::{Project, ScriptedConsole, claude};

/// Claude Code as an SDK host runs it: with a permission prompt tool named (the MCP server
/// `prompt_host.py` beside this file), and every tool listed up front rather than found by
/// search, so the scripted model sees `ExitPlanMode` among its tools.
fn sdk_host(project: &Project) -> std::path::PathBuf {
    let wrapper = project.at.path().join("claude-sdk-host");
    let host = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/prompt_host.py");
    let servers = json!({"mcpServers": {"host": {"command": "python3", "args": [host]}}});
    let script = format!(
        "#!/bin/sh\nENABLE_TOOL_SEARCH=false exec '{}' \"$@\" --mcp-config '{servers}' \
         --permission-prompt-tool mcp__host__prompt\n",
        project.claude
    );
    std::fs::write(&wrapper, script).unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    wrapper
}

fn exit_plan_mode(project: &Project) -> Value {
    let settings = project.at.path().join("empty-settings.json");
    let wrapper = sdk_host(project);
    let flags = [
        ("--claude", wrapper.as_os_str()),
        ("--settings", settings.as_os_str()),
        ("--permission-mode", OsStr::new("plan")),
    ];
    let tool = json!({"name": "ExitPlanMode", "input": {}});
    project.at.drive("claude_e2e.py", &flags, &tool, &[])
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_plans_deny_reason_reaches_the_model_as_feedback() {
    let Some(claude) = claude() else { return };
    let project = Project::new(claude, "");
    let feedback = "the plan must also cover the error path";
    let console = ScriptedConsole::start(
        &project,
        HumanAnswer::Deny {
            reason: feedback.into(),
        },
    );
    let summary = exit_plan_mode(&project);
    drop(console);
    assert_eq!(summary["tool_result_is_error"], true, "{summary}");
    let result = summary["tool_result"].as_str().unwrap_or("");
    assert!(result.contains(feedback), "{summary}");
    let records = common::audit_records(&project.at.path().join("audit.jsonl"));
    let record = records.last().expect("the plan was audited");
    assert_eq!(record["tool"], "ExitPlanMode", "{record}");
    assert_eq!(record["class"], "plan", "{record}");
    assert_eq!(record["decision"], "deny", "{record}");
}

/// What an approval does in Claude Code itself, as measured: `ExitPlanMode` needs the user, so
/// after the hook's allow Claude Code still asks its own prompt (here the host's prompt tool,
/// which refuses; at a terminal, the user), and only that answer leaves its plan mode. The
/// console's approval lets the plan through to it, and the console's own mode change applies
/// to the calls that follow.
#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn an_approved_plan_still_meets_claude_codes_own_prompt() {
    let Some(claude) = claude() else { return };
    approved_plan_meets_claudes_own_prompt(Project::new(claude, ""));
}

/// The console approves the plan `project`'s Claude Code presents through the hook installed
/// there, and Claude Code still asks its own prompt (the host's prompt tool, which refuses).
fn approved_plan_meets_claudes_own_prompt(project: Project) {
    let console = ScriptedConsole::start(
        &project,
        HumanAnswer::AllowPlan {
            mode: None,
            note: None,
        },
    );
    let summary = exit_plan_mode(&project);
    drop(console);
    assert_eq!(
        summary["tool_result"], "the host's prompt was asked",
        "{summary}"
    );
    let records = common::audit_records(&project.at.path().join("audit.jsonl"));
    let record = records
        .last()
        .expect("the hook asked the console about the plan");
    assert_eq!(
        (&record["tool"], &record["class"], &record["decision"]),
        (&json!("ExitPlanMode"), &json!("plan"), &json!("allow")),
        "{record}"
    );
}

/// Whether a `PermissionRequest` hook's allow settles Claude Code's own plan prompt, as
/// measured against 2.1.328: it does not. With gatehouse's hook installed for
/// `PermissionRequest` only, the hook fires for `ExitPlanMode` (the console's plan dialog opens
/// and the human's approval is audited), and Claude Code still asks its own prompt (here the
/// host's prompt tool) and refuses the call on its answer. `ExitPlanMode` says it requires the
/// user's interaction, and neither hook event's allow stands in for that.
#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_plan_approved_through_the_permission_request_hook_still_meets_claudes_own_prompt() {
    let Some(claude) = claude() else { return };
    approved_plan_meets_claudes_own_prompt(Project::hooked(claude, "", "permission-request"));
}
