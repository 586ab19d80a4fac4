use super::*;
use crate::agents::opencode::event::StreamEvent;
use crate::core::classify::assess;
use crate::core::route::Class;
use crate::core::rules::Rules;

macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/opencode/",
            $name
        ))
    };
}

fn request(text: &str) -> (Option<String>, Permission) {
    match StreamEvent::parse(text).unwrap() {
        StreamEvent::Asked {
            directory,
            permission,
        } => (directory, *permission),
        other => panic!("not a request: {other:?}"),
    }
}

fn call_of(text: &str) -> Call {
    let (directory, permission) = request(text);
    to_call(
        &permission,
        directory.as_deref().or(Some("/home/dev/project")),
    )
}

#[test]
fn a_shell_request_becomes_a_shell_call_of_its_whole_command_line() {
    let call = call_of(fixture!("global-event-permission-asked-bash.json"));
    assert_eq!(call.agent.as_str(), "opencode");
    assert_eq!(call.tool, "bash");
    assert_eq!(call.kind, Some(ToolKind::Shell));
    assert_eq!(call.shell_line(), Some("rm -rf build && echo removed"));
    assert_eq!(call.session, "ses_dd4187cc4ffe3hZdC4tLpyxwdQ");
    assert_eq!(call.cwd, "/home/dev/project");
    assert_eq!(call.tool_use_id.as_deref(), Some("call_e2e_1"));
    assert_eq!(call.stage, Stage::Question);
    assert_eq!(call.caps, CAPS);
    assert_eq!(assess(&call, &Rules::default(), &[]).class, Class::Writer);
}

#[test]
fn a_shell_request_without_its_command_is_never_rebuilt_from_its_patterns() {
    // `patterns` drop redirections: `echo hi > f` would read as the harmless `echo hi`.
    let (_, mut permission) = request(fixture!("permission-asked-bash.json"));
    permission.metadata = json!({});
    permission.patterns = vec!["echo hi".into()];
    let call = to_call(&permission, None);
    assert_eq!(call.kind, Some(ToolKind::Other));
    assert_eq!(call.shell_line(), None);
    assert_ne!(assess(&call, &Rules::default(), &[]).class, Class::ReadOnly);
}

#[test]
fn writes_and_edits_become_writer_calls_on_their_file_with_the_diff() {
    for text in [
        fixture!("permission-asked-edit.json"),
        fixture!("permission-asked-write.json"),
    ] {
        let call = call_of(text);
        assert_eq!(call.tool, "edit");
        assert_eq!(call.kind, Some(ToolKind::Edit));
        let path = call.file_path().unwrap();
        assert!(path.starts_with("/home/dev/project/"), "{path}");
        assert!(call.input["diff"].as_str().unwrap().contains("+++ "));
        assert_eq!(assess(&call, &Rules::default(), &[]).class, Class::Writer);
    }
}

#[test]
fn a_read_names_its_file_from_the_pattern_against_the_directory() {
    let call = call_of(fixture!("permission-asked-read.json"));
    assert_eq!(call.tool, "read");
    assert_eq!(call.kind, Some(ToolKind::Read));
    assert_eq!(call.file_path(), Some("/home/dev/project/config.txt"));
    assert_eq!(assess(&call, &Rules::default(), &[]).class, Class::ReadOnly);
}

#[test]
fn a_pattern_that_climbs_out_resolves_to_where_it_lands() {
    assert_eq!(
        resolve("/home/dev/project", "../../../etc/hostname"),
        "/etc/hostname"
    );
    assert_eq!(resolve("/home/dev/project", "/etc/x"), "/etc/x");
    assert_eq!(resolve("/p", "./a/./b"), "/p/a/b");
}

#[test]
fn leaving_the_project_stays_an_unknown_tool_that_asks() {
    let call = call_of(fixture!("permission-asked-external_directory.json"));
    assert_eq!(call.tool, "external_directory");
    assert_eq!(call.kind, Some(ToolKind::Other));
    assert_eq!(call.input["metadata"]["filepath"], "/etc/hostname");
    let class = assess(&call, &Rules::default(), &[]).class;
    assert!(!matches!(class, Class::ReadOnly), "{class:?}");
}

#[test]
fn an_allow_is_once_and_a_deny_is_a_reject_carrying_its_reason() {
    assert_eq!(
        Reply::of(&Decision::allow(), Decider::Human),
        Some(Reply::Once)
    );
    let reject = Reply::of(&Decision::deny("use make clean"), Decider::Human).unwrap();
    assert_eq!(
        reject.body(),
        json!({"reply": "reject", "message": "use make clean"})
    );
    assert_eq!(Reply::Once.body(), json!({"reply": "once"}));
}

#[test]
fn a_deny_with_no_reason_still_sends_a_message_so_the_run_goes_on() {
    let Some(Reply::Reject { message }) = Reply::of(&Decision::deny("  "), Decider::Human) else {
        panic!("a deny must reject");
    };
    assert!(!message.trim().is_empty());
}

#[test]
fn a_deny_is_a_reject_whoever_decided_it_but_the_console_quitting_answers_nothing() {
    for decider in Decider::ALL {
        let reply = Reply::of(&Decision::deny("no"), decider);
        if decider == Decider::Shutdown {
            assert_eq!(reply, None);
        } else {
            assert!(matches!(reply, Some(Reply::Reject { .. })), "{decider}");
        }
    }
    assert_eq!(Reply::of(&Decision::allow(), Decider::Shutdown), None);
}

#[test]
fn a_defer_leaves_the_request_to_opencodes_own_prompt() {
    assert_eq!(Reply::of(&Decision::defer("busy"), Decider::Busy), None);
}
