use super::*;
use crate::core::call::{ToolKind, test_call};
use crate::core::classify::assess;
use crate::core::policy::file::parse_file;
use crate::core::policy::load::Policy;
use crate::core::route::{Class, Route, Row};
use crate::core::rules::Rules;
use serde_json::json;
use std::sync::Arc;

fn file(layer: Layer, trust: Trust, text: &str) -> RuleFile {
    let path = PathBuf::from(format!("/etc/{layer}.toml"));
    parse_file(text, &path, layer, trust, &[]).unwrap()
}

fn rules_with(floor: Option<RuleFile>, user: Option<RuleFile>) -> Rules {
    Rules {
        policy: Arc::new(Policy::of_files(floor, user)),
        ..Rules::default()
    }
}

fn bash(line: &str) -> crate::core::call::Call {
    test_call("Bash", json!({ "command": line }))
}

#[test]
fn within_a_file_the_first_matching_rule_wins() {
    let user = file(
        Layer::User,
        Trust::Own,
        r#"
[[rule]]
prefix = "git"
verdict = "allow"
[[rule]]
prefix = "git push"
verdict = "deny"
"#,
    );
    let rules = rules_with(None, Some(user));
    let a = assess(&bash("git push origin"), &rules, &[]);
    assert_eq!(a.row, Row::Listed, "{}", a.explanation);
    assert_eq!(a.rule.unwrap().rule.id, "r1");
}

#[test]
fn across_files_the_strictest_verdict_wins_whichever_file_comes_first() {
    let floor = file(
        Layer::Floor,
        Trust::FloorOnly,
        "[[rule]]\nid = \"no-push\"\nprefix = \"git push\"\nverdict = \"ask\"\n",
    );
    let user = file(
        Layer::User,
        Trust::Own,
        "[[rule]]\nprefix = \"git push\"\nverdict = \"deny\"\nreason = \"push from CI\"\n",
    );
    let rules = rules_with(Some(floor), Some(user));
    let a = assess(&bash("cd x && git push -f"), &rules, &[]);
    assert_eq!(a.class, Class::Denied);
    assert!(
        a.explanation.starts_with("push from CI"),
        "{}",
        a.explanation
    );
    assert!(
        a.explanation.contains("/etc/user.toml"),
        "{}",
        a.explanation
    );
}

#[test]
fn the_floor_and_an_untrusted_project_only_tighten() {
    let text =
        "safe_commands = [\"make\"]\n[[rule]]\nprefix = \"cargo build\"\nverdict = \"allow\"\n";
    let floor = file(Layer::Floor, Trust::FloorOnly, text);
    assert!(floor.rules.is_empty());
    assert_eq!(floor.ignored.len(), 2);
    let untrusted = file(Layer::Project, Trust::Untrusted, text);
    assert_eq!(untrusted.ignored.len(), 2);
    let trusted = file(Layer::Project, Trust::Trusted, text);
    assert_eq!(trusted.rules.len(), 2);
    let rules = rules_with(Some(floor), None);
    assert_ne!(assess(&bash("cargo build"), &rules, &[]).row, Row::Listed);
}

#[test]
fn an_allow_rule_lists_only_the_commands_it_covers_and_never_over_a_denied_command() {
    let user = file(
        Layer::User,
        Trust::Own,
        "[[rule]]\nprefix = \"cargo build\"\nverdict = \"allow\"\n",
    );
    let mut rules = rules_with(None, Some(user));
    assert_eq!(
        assess(&bash("cargo build --release"), &rules, &[]).row,
        Row::Listed
    );
    assert_ne!(
        assess(&bash("cargo build && curl x | sh"), &rules, &[]).row,
        Row::Listed,
        "a second component is not covered"
    );
    assert_eq!(
        assess(&bash("cargo build > out.txt"), &rules, &[]).row,
        Row::WriterOrOther,
        "a writing redirect is outside the command"
    );
    rules.denied_commands = vec![crate::core::rules::Pattern::new("cargo")];
    assert_eq!(
        assess(&bash("cargo build"), &rules, &[]).class,
        Class::Denied
    );
}

#[test]
fn an_allow_rule_for_a_write_tool_is_refused_with_its_line() {
    let err = parse_file(
        "\n[[rule]]\ntool = \"Write\"\nverdict = \"allow\"\n",
        Path::new("/p/.gatehouse.toml"),
        Layer::Project,
        Trust::Trusted,
        &["Write".to_string()],
    )
    .unwrap_err();
    assert_eq!(err.line, Some(2), "{err}");
    assert!(
        err.to_string().starts_with("/p/.gatehouse.toml:2: "),
        "{err}"
    );
    let err = parse_file(
        "[[rule]]\nedit = \"src/**\"\nverdict = \"allow\"\n",
        Path::new("/p/x.toml"),
        Layer::User,
        Trust::Own,
        &[],
    )
    .unwrap_err();
    assert!(err.message.contains("writes files"), "{err}");
}

#[test]
fn a_rule_naming_two_matches_or_none_says_which_and_how_to_fix_it() {
    let bad = |text: &str| {
        parse_file(text, Path::new("/x.toml"), Layer::User, Trust::Own, &[])
            .unwrap_err()
            .to_string()
    };
    let two = bad("[[rule]]\ntool = \"A\"\nprefix = \"b\"\nverdict = \"deny\"\n");
    assert!(two.contains("2 matches: tool, prefix"), "{two}");
    assert!(two.contains("fix: "), "{two}");
    let none = bad("[[rule]]\nverdict = \"deny\"\n");
    assert!(none.contains("nothing to match"), "{none}");
    let verdict = bad("[[rule]]\ntool = \"A\"\nverdict = \"maybe\"\n");
    assert!(verdict.starts_with("/x.toml:3"), "{verdict}");
}

#[test]
fn an_ask_rule_outranks_a_proven_read_and_is_never_raced() {
    let user = file(
        Layer::User,
        Trust::Own,
        "[[rule]]\nprefix = \"cat\"\nverdict = \"ask\"\n",
    );
    let rules = rules_with(None, Some(user));
    let a = assess(&bash("cat README.md"), &rules, &[]);
    assert_eq!(a.row, Row::WriterOrOther);
    assert_ne!(
        a.class,
        Class::ReadOnly,
        "the hook's fallback must not allow it"
    );
    assert_eq!(a.route(crate::core::mode::Mode::Auto), Route::Ask);
    assert!(
        a.explanation.contains("asked by rule r1"),
        "{}",
        a.explanation
    );
}

#[test]
fn edit_globs_tighten_writes_below_the_project_root() {
    let mut project = file(
        Layer::Project,
        Trust::Untrusted,
        "[[rule]]\nedit = \"secrets/**\"\nverdict = \"deny\"\nreason = \"secrets are read-only\"\n",
    );
    project.root = Some(PathBuf::from("/repo"));
    let files = [&project];
    let subject = |path: &'static str| Subject {
        tool: "Write",
        kind: &ToolKind::Edit,
        path: Some(Path::new(path)),
        root: Some(Path::new("/repo")),
        home: None,
        host: None,
    };
    let hit = judge(&files, &subject("/repo/secrets/a/key.pem"), &[]);
    assert_eq!(hit.strictest().map(|h| h.rule.ruling), Some(Ruling::Deny));
    let miss = judge(&files, &subject("/repo/src/main.rs"), &[]);
    assert!(miss.strictest().is_none());
}

#[test]
fn a_mode_ceiling_caps_the_route_of_every_call_under_it() {
    let floor = file(
        Layer::Floor,
        Trust::FloorOnly,
        "mode_ceiling = \"allow-read\"\n",
    );
    let rules = rules_with(Some(floor), None);
    let a = assess(
        &test_call("Write", json!({"file_path": "/tmp/x"})),
        &rules,
        &[],
    );
    use crate::core::mode::Mode;
    assert_eq!(a.route(Mode::AllowAll), Route::Ask);
    assert_eq!(a.route(Mode::BlockAll), Route::Ask);
    assert_eq!(a.route(Mode::Plan), Route::Reject);
}
