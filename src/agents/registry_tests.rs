use super::*;
use crate::agents::dialect::EventSpec;
use crate::core::call::Stage;
use crate::core::caps::{AllowEffect, NoteEffect};
use crate::core::decision::Decision;

#[test]
fn every_agent_has_its_own_names() {
    let mut words = Vec::new();
    for dialect in all() {
        let names = dialect.names();
        words.push(names.cli);
        words.extend(names.aliases);
        assert_eq!(find(names.cli).unwrap().names(), names);
        assert_eq!(by_agent(&Agent::new(names.agent)).unwrap().names(), names);
    }
    let mut unique = words.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), words.len(), "{words:?}");
    assert!(find("aider").is_none());
}

#[test]
fn every_event_name_is_unique_within_its_agent_and_says_what_it_can_do() {
    for dialect in all() {
        let events = dialect.table().events;
        assert!(!events.is_empty(), "{}", dialect.names().cli);
        for (i, event) in events.iter().enumerate() {
            assert_eq!(dialect.table().event(event.name), Some(&events[i]));
        }
        assert!(
            events.iter().any(|e| e.stage != Stage::AfterTool),
            "{} asks nothing",
            dialect.names().cli
        );
    }
}

#[test]
fn only_events_that_can_grant_say_so() {
    let caps = |cli: &str, event: &str| find(cli).unwrap().table().event(event).unwrap().caps;
    assert_eq!(caps("codex", "PreToolUse").allow, AllowEffect::Pass);
    assert_eq!(caps("gemini", "BeforeTool").allow, AllowEffect::Pass);
    assert_eq!(caps("claude", "PreToolUse").allow, AllowEffect::Grant);
    assert_eq!(
        caps("claude", "PermissionRequest").allow,
        AllowEffect::Grant
    );
    assert_eq!(caps("codex", "PermissionRequest").allow, AllowEffect::Grant);
    assert_eq!(
        caps("cursor", "beforeShellExecution").allow,
        AllowEffect::Pass
    );
    assert_eq!(caps("grok", "PreToolUse").allow, AllowEffect::Pass);
    assert_eq!(caps("grok", "PreToolUse").note, NoteEffect::None);
    assert_eq!(caps("codex", "PermissionRequest").note, NoteEffect::None);
    assert_eq!(caps("gemini", "BeforeTool").note, NoteEffect::AfterTool);
    assert_eq!(caps("codex", "PreToolUse").note, NoteEffect::Model);
    assert!(!caps("cursor", "beforeReadFile").reason);
}

#[test]
fn a_call_without_a_kind_gets_its_agents_kind_and_an_unknown_agent_never_reads() {
    let claude = Agent::new("claude-code");
    assert_eq!(kind_of(&claude, "Bash"), ToolKind::Shell);
    assert_eq!(kind_of(&claude, "Read"), ToolKind::Read);
    assert_eq!(
        kind_of(&Agent::new("gemini-cli"), "read_file"),
        ToolKind::Read
    );
    assert_eq!(kind_of(&Agent::new("codex"), "apply_patch"), ToolKind::Edit);
    assert_eq!(kind_of(&Agent::new("codex"), "read_file"), ToolKind::Other);
    let unknown = Agent::new("aider");
    assert_eq!(kind_of(&unknown, "Read"), ToolKind::Other);
    assert_eq!(
        kind_of(&unknown, "mcp__fs__read"),
        ToolKind::Mcp {
            server: "fs".into(),
            tool: "read".into()
        }
    );
}

#[test]
fn the_default_internal_tools_are_claude_codes_bookkeeping_and_nothing_that_acts() {
    let internal = internal_tools();
    assert!(internal.iter().any(|t| t == "TodoWrite"));
    for dialect in all() {
        for tool in dialect.internal_tools() {
            assert_eq!(dialect.table().kind_of(tool), ToolKind::Other, "{tool}");
        }
    }
}

#[test]
fn write_and_edit_tools_of_every_agent_edit_files() {
    for tool in [
        "Write",
        "Edit",
        "MultiEdit",
        "apply_patch",
        "write_file",
        "replace",
    ] {
        assert!(edits_files(tool), "{tool}");
    }
    assert!(!edits_files("Bash"));
    assert!(!edits_files("Read"));
}

#[test]
fn display_names_come_from_the_registry() {
    assert_eq!(display_name(&Agent::new("claude-code")), "Claude Code");
    assert_eq!(display_name(&Agent::new("gemini-cli")), "Gemini CLI");
    assert_eq!(display_name(&Agent::new("aider")), "aider");
}

#[test]
fn claude_code_codex_and_gemini_calls_carry_their_transcript_path_for_the_classifier() {
    let fixture = |path: &str| {
        std::fs::read(format!(
            "{}/tests/fixtures/{path}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    let transcript = |cli: &str, path: &str| {
        let parsed = find(cli).unwrap().parse(&fixture(path)).unwrap();
        parsed.call.transcript_path
    };
    let paths = [
        transcript("claude", "claude-code/pretooluse-bash.json"),
        transcript("codex", "codex/pretooluse-bash.json"),
        transcript("gemini", "gemini-cli/beforetool-run_shell_command.json"),
    ];
    let ends = [".claude/projects/", ".codex/sessions/", ".gemini/tmp/"];
    for (path, part) in paths.iter().zip(ends) {
        assert!(
            path.as_deref().is_some_and(|p| p.contains(part)),
            "{path:?}"
        );
    }
}

#[test]
fn every_question_of_every_agent_prints_a_deny_with_its_reason_where_the_caps_say_it_goes() {
    let deny = crate::core::decision::Decision::deny("use make clean");
    for dialect in all() {
        let questions = dialect.table().events.iter();
        let questions =
            questions.filter(|e| matches!(e.stage, Stage::Question | Stage::PermissionFirst));
        for event in questions {
            let said = dialect.render(event, &deny, "");
            let said = said.unwrap_or_else(|| panic!("{} {}", dialect.names().cli, event.name));
            assert_eq!(
                said.contains("use make clean"),
                event.caps.reason,
                "{} {}: {said}",
                dialect.names().cli,
                event.name
            );
        }
    }
}

/// An allow carrying an edited input, as each event would print it (after the hook's check
/// that the event can carry one).
fn edited_output(dialect: &dyn Dialect, event: &EventSpec) -> Option<String> {
    let decision = Decision::Allow {
        note: None,
        input: Some(serde_json::json!({"command": "rm -rf dist"})),
    };
    let decision = crate::agents::hook::deliverable(decision, event.caps);
    dialect.render(event, &decision, "")
}

#[test]
fn an_edited_command_is_printed_only_where_the_event_runs_it_and_refused_elsewhere() {
    use crate::core::caps::InputEffect;
    let mut taking = Vec::new();
    for dialect in all() {
        for event in dialect.table().events {
            if event.stage != Stage::Question {
                continue;
            }
            let out = edited_output(*dialect, event).unwrap_or_default();
            let name = format!("{} {}", dialect.names().cli, event.name);
            match event.caps.input {
                InputEffect::Replaced => {
                    assert!(out.contains("rm -rf dist"), "{name}: {out}");
                    taking.push(name);
                }
                // Refused, never an allow the agent would read as the original's.
                InputEffect::Fixed => {
                    assert!(out.contains("deny"), "{name}: {out}");
                    assert!(!out.contains("rm -rf dist"), "{name}: {out}");
                }
            }
        }
    }
    assert_eq!(
        taking,
        [
            "claude PreToolUse",
            "codex PreToolUse",
            "gemini BeforeTool",
            "crush PreToolUse",
            "copilot preToolUse"
        ]
    );
}
