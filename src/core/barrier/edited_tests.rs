use super::*;
use crate::core::call::test_call;
use crate::core::classify::assess;
use crate::core::rules::{Pattern, Rules};
use serde_json::json;

fn judged(line: &str, input: InputEffect) -> EditEnd {
    let rules = Rules {
        denied_commands: vec![Pattern::new("git push")],
        ..Rules::default()
    };
    let call = test_call("Bash", json!({"command": line}));
    end_of(&assess(&call, &rules, &[]), input)
}

#[test]
fn an_edited_call_changes_only_the_command_and_only_a_shell_call_has_one() {
    let call = test_call(
        "Bash",
        json!({"command": "rm -rf build", "description": "clean"}),
    );
    let edited = edited_call(&call, ToolKind::Shell, "rm -rf dist").unwrap();
    assert_eq!(
        edited.input,
        json!({"command": "rm -rf dist", "description": "clean"})
    );
    assert_eq!(edited.session, call.session);
    let write = test_call("Write", json!({"file_path": "a", "content": "x"}));
    assert_eq!(edited_call(&write, ToolKind::Edit, "ls"), None);
    let no_line = test_call("Bash", json!({"script": "ls"}));
    assert_eq!(edited_call(&no_line, ToolKind::Shell, "ls"), None);
}

#[test]
fn a_denied_edited_line_is_refused_whatever_the_agent_can_carry() {
    for input in [InputEffect::Replaced, InputEffect::Fixed] {
        assert_eq!(judged("git push -f", input), EditEnd::Refused);
        assert_eq!(judged("cd x && git push", input), EditEnd::Refused);
    }
}

#[test]
fn an_edited_line_runs_instead_only_where_the_agent_takes_a_changed_input() {
    assert_eq!(
        judged("rm -rf dist", InputEffect::Replaced),
        EditEnd::RunsInstead
    );
    assert_eq!(
        judged("rm -rf dist", InputEffect::Fixed),
        EditEnd::DeniedWithLine
    );
    assert_eq!(judged("ls", InputEffect::Fixed), EditEnd::DeniedWithLine);
}
