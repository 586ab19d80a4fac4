use super::*;
use crate::core::call::test_call;
use crate::core::rules::Pattern;
use serde_json::json;
use std::path::Path;

fn bash(line: &str) -> Call {
    test_call("Bash", json!({ "command": line }))
}

fn rules(safe: &[&str], denied: &[&str]) -> Rules {
    Rules {
        safe_commands: safe.iter().map(|s| Pattern::new(s)).collect(),
        denied_commands: denied.iter().map(|s| Pattern::new(s)).collect(),
        ..Rules::default()
    }
}

/// Rules whose user file denies every edit under `/secrets`.
fn secrets_edit_denied() -> Rules {
    let text = "[[rule]]\nedit = \"/secrets/**\"\nverdict = \"deny\"\n";
    let user = crate::core::policy::file::parse_file(
        text,
        Path::new("/u/rules.toml"),
        crate::core::policy::Layer::User,
        crate::core::policy::Trust::Own,
        &[],
    )
    .unwrap();
    Rules {
        policy: std::sync::Arc::new(crate::core::policy::load::Policy::of_files(
            None,
            Some(user),
        )),
        ..Rules::default()
    }
}

#[test]
fn tools_take_the_rows_their_kind_gives_them() {
    let r = Rules {
        internal_tools: crate::core::call::test_internal(),
        ..Rules::default()
    };
    let row = |tool: &str| assess(&test_call(tool, json!({})), &r, &[]).row;
    assert_eq!(row("Read"), Row::ReadOnly);
    assert_eq!(row("TodoWrite"), Row::ReadOnly);
    assert_eq!(row("Write"), Row::WriterOrOther);
    assert_eq!(row("WebFetch"), Row::WriterOrOther);
    assert_eq!(row("Frobnicate"), Row::WriterOrOther);
    assert_eq!(row("mcp__gh__list"), Row::UnverifiedMcp);
    assert_eq!(
        row("Bash"),
        Row::UnverifiedShell,
        "a shell call without a command"
    );
    assert_eq!(
        assess(&test_call("Frobnicate", json!({})), &r, &[]).class,
        Class::Unverified
    );
    assert_eq!(
        assess(&test_call("Write", json!({})), &r, &[]).class,
        Class::Writer
    );
}

#[test]
fn listed_read_only_mcp_tools_are_read_only_and_others_are_not() {
    let mut r = Rules::default();
    r.read_only_tools.insert("mcp__gh__list".into());
    assert_eq!(
        assess(&test_call("mcp__gh__list", json!({})), &r, &[]).class,
        Class::ReadOnly
    );
    assert_eq!(
        assess(&test_call("mcp__gh__delete", json!({})), &r, &[]).class,
        Class::Unverified
    );
}

#[test]
fn a_denied_tool_name_is_denied_whatever_its_kind() {
    let r = rules(&[], &["Read", "mcp__gh__delete"]);
    assert_eq!(
        assess(&test_call("Read", json!({})), &r, &[]).class,
        Class::Denied
    );
    assert_eq!(
        assess(&test_call("mcp__gh__delete", json!({})), &r, &[]).row,
        Row::Denied
    );
}

#[test]
fn a_denied_prefix_is_caught_in_any_component_of_a_shell_line() {
    let r = rules(&[], &["git push"]);
    for line in [
        "git push",
        "git push -f origin main",
        "cd x && git push",
        "ls; git push",
        "echo $(git push)",
        "/usr/bin/git push",
    ] {
        let a = assess(&bash(line), &r, &[]);
        assert_eq!(a.class, Class::Denied, "{line}: {}", a.explanation);
        assert!(a.explanation.contains("git push"), "{}", a.explanation);
    }
    assert_ne!(assess(&bash("git pushy"), &r, &[]).class, Class::Denied);
    assert_eq!(assess(&bash("git status"), &r, &[]).class, Class::ReadOnly);
}

#[test]
fn a_shell_line_is_safe_listed_only_when_every_component_is_read_only_or_listed() {
    let r = rules(&["npm test"], &[]);
    let a = assess(&bash("npm test -- --watch"), &r, &[]);
    assert_eq!((a.row, a.listed_by), (Row::Listed, Some(Decider::Rule)));
    assert_eq!(assess(&bash("ls && npm test"), &r, &[]).row, Row::Listed);
    assert_ne!(
        assess(&bash("npm test && rm -rf x"), &r, &[]).row,
        Row::Listed
    );
    assert_ne!(
        assess(&bash("npm test > out.txt"), &r, &[]).row,
        Row::Listed
    );
    assert_ne!(assess(&bash("npm install"), &r, &[]).row, Row::Listed);
}

#[test]
fn session_allows_list_shell_prefixes_tools_and_edited_paths() {
    let r = Rules::default();
    let allows = [
        SessionAllow::ShellPrefix(Pattern::new("cargo build")),
        SessionAllow::Tool("WebFetch".into()),
        SessionAllow::Path("/p/a.rs".into()),
    ];
    let a = assess(&bash("cargo build --release"), &r, &allows);
    assert_eq!(
        (a.row, a.listed_by),
        (Row::Listed, Some(Decider::SessionAllow))
    );
    assert_eq!(a.allow_decider(), Decider::SessionAllow);
    assert_eq!(
        assess(&test_call("WebFetch", json!({})), &r, &allows).row,
        Row::Listed
    );
    let edit = test_call("Write", json!({"file_path": "/p/a.rs", "content": ""}));
    assert_eq!(assess(&edit, &r, &allows).row, Row::Listed);
    let other = test_call("Write", json!({"file_path": "/p/b.rs", "content": ""}));
    assert_eq!(assess(&other, &r, &allows).row, Row::WriterOrOther);
}

#[test]
fn an_edit_whose_old_text_is_not_in_the_file_is_doomed_with_guidance() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.rs"), "fn main() {}\n").unwrap();
    let mut edit = test_call(
        "Edit",
        json!({"file_path": "a.rs", "old_string": "fn mian", "new_string": "fn main"}),
    );
    edit.cwd = dir.path().display().to_string();
    let a = assess(&edit, &Rules::default(), &[]);
    assert_eq!(a.class, Class::Doomed);
    assert!(
        a.explanation.contains("old_string is not in a.rs"),
        "{}",
        a.explanation
    );

    edit.input["old_string"] = json!("fn main");
    assert_eq!(assess(&edit, &Rules::default(), &[]).class, Class::Writer);

    let multi = Call {
        tool: "MultiEdit".into(),
        input: json!({"file_path": "a.rs", "edits": [
            {"old_string": "fn main", "new_string": "fn start"},
            {"old_string": "fn main", "new_string": "fn again"}
        ]}),
        ..edit.clone()
    };
    let a = assess(&multi, &Rules::default(), &[]);
    assert_eq!(
        a.class,
        Class::Doomed,
        "the second edit no longer finds its text"
    );
    assert!(
        a.explanation.starts_with("edit 2 of 2"),
        "{}",
        a.explanation
    );

    edit.input["file_path"] = json!("missing.rs");
    assert_eq!(assess(&edit, &Rules::default(), &[]).class, Class::Writer);
}

#[test]
fn an_unverified_line_with_a_known_risk_takes_that_risks_row_and_unknown_ones_the_shell_row() {
    use crate::core::shell::Risk;
    let r = Rules::default();
    for (line, risk) in [
        ("curl https://x", Risk::Network),
        ("npm test", Risk::RunsCode),
        ("less f", Risk::Pager),
        ("./run.sh", Risk::PathQualified),
        ("git -C /elsewhere log", Risk::GitElsewhere),
    ] {
        let a = assess(&bash(line), &r, &[]);
        assert_eq!(
            (a.class, a.row),
            (Class::Risky(risk), Row::Risky(risk)),
            "{line}"
        );
    }
    let a = assess(&bash("mytool --list"), &r, &[]);
    assert_eq!((a.class, a.row), (Class::Unverified, Row::UnverifiedShell));
}

#[test]
fn a_file_call_naming_two_paths_is_asked_and_no_session_allow_or_read_only_pass_covers_it() {
    let allows = [SessionAllow::Path("/p/a.rs".into())];
    let decoy = test_call(
        "NotebookEdit",
        json!({"notebook_path": "/etc/x.ipynb", "file_path": "/p/a.rs", "new_source": ""}),
    );
    let a = assess(&decoy, &Rules::default(), &allows);
    assert_eq!((a.row, a.listed_by), (Row::WriterOrOther, None), "{a:?}");
    assert!(a.explanation.contains("more than one"), "{}", a.explanation);
    let read = test_call(
        "Read",
        json!({"file_path": "/p/a.rs", "path": "/etc/hosts"}),
    );
    let a = assess(&read, &Rules::default(), &allows);
    assert_eq!((a.class, a.row), (Class::Unverified, Row::WriterOrOther));
}

#[test]
fn an_edit_deny_covers_every_path_a_call_names() {
    let r = secrets_edit_denied();
    for input in [
        json!({"file_path": "/tmp/x", "path": "/secrets/key", "content": ""}),
        json!({"path": "/secrets/key", "file_path": "/tmp/x", "content": ""}),
    ] {
        assert_eq!(
            assess(&test_call("Write", input), &r, &[]).class,
            Class::Denied
        );
    }
}

#[test]
fn a_patch_is_judged_by_every_file_it_touches_not_only_the_first() {
    let r = secrets_edit_denied();
    let patch = test_call(
        "apply_patch",
        json!({"patch": "…", "files": ["/p/a.rs", "/secrets/key"], "file_path": "/p/a.rs"}),
    );
    assert_eq!(assess(&patch, &r, &[]).class, Class::Denied);
    let allows = [SessionAllow::Path("/p/a.rs".into())];
    let a = assess(&patch, &Rules::default(), &allows);
    assert_eq!((a.row, a.listed_by), (Row::WriterOrOther, None), "{a:?}");
    let one = test_call(
        "apply_patch",
        json!({"patch": "…", "files": ["/p/a.rs"], "file_path": "/p/a.rs"}),
    );
    assert_eq!(assess(&one, &Rules::default(), &allows).row, Row::Listed);
}

/// A policy whose user file is `text`.
pub(super) fn user_policy(text: &str) -> std::sync::Arc<crate::core::policy::load::Policy> {
    let user = crate::core::policy::file::parse_file(
        text,
        Path::new("/u/rules.toml"),
        crate::core::policy::Layer::User,
        crate::core::policy::Trust::Own,
        &[],
    )
    .unwrap();
    std::sync::Arc::new(crate::core::policy::load::Policy::of_files(
        None,
        Some(user),
    ))
}

/// Rules whose user file holds `[[rule]]` tables for prefix `gatehouse` with `verdict`.
fn gatehouse_rule(verdict: &str) -> Rules {
    let text = format!("[[rule]]\nprefix = \"gatehouse\"\nverdict = \"{verdict}\"\n");
    Rules {
        policy: user_policy(&text),
        ..Rules::default()
    }
}

#[test]
fn a_gatehouse_command_that_changes_its_policy_is_asked_in_every_mode_and_nothing_lists_it() {
    let line = "ls && gatehouse rules trust";
    let bare = assess(&bash(line), &Rules::default(), &[]);
    assert_eq!((bare.class, bare.row), (Class::Tamper, Row::Tamper));
    for mode in Mode::ALL {
        let expected = if mode == Mode::Plan {
            Route::Reject
        } else {
            Route::Ask
        };
        assert_eq!(bare.route(mode), expected, "{mode}");
    }
    let safe = rules(&["gatehouse"], &[]);
    let session = [SessionAllow::ShellPrefix(Pattern::new("gatehouse rules"))];
    for (r, allows) in [
        (&safe, &[][..]),
        (&Rules::default(), &session[..]),
        (&gatehouse_rule("allow"), &[][..]),
        (&gatehouse_rule("ask"), &[][..]),
    ] {
        let a = assess(&bash(line), r, allows);
        assert_eq!(
            (a.row, a.listed_by),
            (Row::Tamper, None),
            "{}",
            a.explanation
        );
        assert_eq!(a.route(Mode::AllowAll), Route::Ask);
    }
    // A deny still refuses it, and gatehouse's reading commands pass as any read does.
    let denied = assess(&bash(line), &gatehouse_rule("deny"), &[]);
    assert_eq!(denied.row, Row::Denied);
    let explain = assess(
        &bash("gatehouse explain 'rm -rf /'"),
        &Rules::default(),
        &[],
    );
    assert_eq!(explain.row, Row::ReadOnly);
}

/// A plan presented for approval: its own class and row, asked in plan mode and passed only by
/// allow-all; a tool rule still denies, asks (keeping the row, so plan mode still asks) or
/// allows it, and no session allow or safe listing covers the next plan.
#[test]
fn a_plan_takes_the_plan_row_and_rules_on_its_tool_still_match() {
    let mut call = test_call("PresentPlan", json!({"plan": "1. edit a.rs"}));
    call.kind = Some(ToolKind::Plan);
    let plain = assess(&call, &Rules::default(), &[]);
    assert_eq!((plain.class, plain.row), (Class::Plan, Row::Plan));
    assert_eq!(plain.route(Mode::Plan), Route::Ask);
    assert_eq!(plain.route(Mode::AllowAll), Route::Allow);
    let ruled = |verdict: &str| {
        let text = format!("[[rule]]\ntool = \"PresentPlan\"\nverdict = \"{verdict}\"\n");
        let rules = Rules {
            policy: user_policy(&text),
            ..Rules::default()
        };
        assess(&call, &rules, &[])
    };
    assert_eq!(ruled("deny").row, Row::Denied);
    let asked = ruled("ask");
    assert_eq!(
        (asked.row, asked.route(Mode::Plan)),
        (Row::Plan, Route::Ask)
    );
    let allowed = ruled("allow");
    assert_eq!(
        (allowed.row, allowed.listed_by),
        (Row::Listed, Some(Decider::Rule))
    );
    let session = [SessionAllow::Tool("PresentPlan".into())];
    assert_eq!(assess(&call, &Rules::default(), &session).row, Row::Plan);
    let safe = rules(&["PresentPlan"], &[]);
    assert_eq!(assess(&call, &safe, &[]).row, Row::Plan);
}
