//! Rule patterns and session allows: matching, breadth, hits and revoking.

use super::*;
use crate::core::shell::Safety;

fn command(words: &[&str]) -> Command {
    Command {
        words: words.iter().map(|w| w.to_string()).collect(),
        origins: vec![crate::core::shell::Origin::Plain; words.len()],
        is_static: true,
        safety: Safety::Writer,
        obstacle: crate::core::shell::Obstacle::Unknown,
        why: String::new(),
    }
}

#[test]
fn a_prefix_matches_at_word_boundaries_only() {
    let push = Pattern::new("git push");
    assert!(push.matches_command(&command(&["git", "push"])));
    assert!(push.matches_command(&command(&["git", "push", "-f"])));
    assert!(push.matches_command(&command(&["/usr/bin/git", "push"])));
    assert!(!push.matches_command(&command(&["git", "pushx"])));
    assert!(!push.matches_command(&command(&["git"])));
    assert!(!push.matches_command(&command(&["gitx", "push"])));
    assert!(!Pattern::new("  ").matches_command(&command(&["git"])));
}

#[test]
fn a_denied_rule_is_caught_in_any_command_of_the_line() {
    let rules = Rules {
        denied_commands: vec![Pattern::new("git push"), Pattern::new("WebFetch")],
        ..Rules::default()
    };
    let line = [command(&["cd", "x"]), command(&["git", "push", "origin"])];
    assert_eq!(rules.denied("Bash", &line).unwrap().as_str(), "git push");
    assert!(rules.denied("Bash", &line[..1]).is_none());
    assert_eq!(rules.denied("WebFetch", &[]).unwrap().as_str(), "WebFetch");
}

#[test]
fn session_allows_belong_to_one_agent_session() {
    let mut allows = SessionAllows::default();
    allows.add(
        &Agent::new("claude-code"),
        "s1",
        SessionAllow::Tool("WebFetch".into()),
        1,
    );
    allows.add(
        &Agent::new("claude-code"),
        "s1",
        SessionAllow::Tool("WebFetch".into()),
        2,
    );
    assert_eq!(allows.of(&Agent::new("claude-code"), "s1").len(), 1);
    assert!(allows.of(&Agent::new("claude-code"), "s2").is_empty());
    assert!(allows.of(&Agent::new("codex"), "s1").is_empty());
}

#[test]
fn a_typed_pattern_is_exact_unless_it_ends_in_a_lone_star() {
    let exact = SessionAllow::shell("rm -rf build/cache").unwrap();
    assert!(exact.matches_command(&command(&["rm", "-rf", "build/cache"])));
    assert!(!exact.matches_command(&command(&["rm", "-rf", "build/other"])));
    assert!(!exact.matches_command(&command(&["rm", "-rf", "build/cache", "/"])));
    let prefix = SessionAllow::shell("git push *").unwrap();
    assert!(prefix.matches_command(&command(&["git", "push", "-f"])));
    assert_eq!(prefix.text(), "git push *");
    assert!(matches!(
        SessionAllow::shell("ls foo*"),
        Some(SessionAllow::ShellExact(_))
    ));
    assert_eq!(SessionAllow::shell(" * "), None);
    assert_eq!(SessionAllow::shell(""), None);
}

#[test]
fn a_bare_program_or_a_prefix_over_a_writer_is_broad() {
    let rm = command(&["rm", "-rf", "build/cache"]);
    let broad = |text: &str| SessionAllow::shell(text).unwrap().is_broad(Some(&rm));
    assert!(broad("rm"));
    assert!(broad("rm *"));
    assert!(broad("rm -rf *"));
    assert!(!broad("rm -rf build/cache"));
    assert!(
        !broad("cargo build *"),
        "does not cover the writer in front"
    );
}

#[test]
fn hits_are_counted_on_the_rules_that_matched_and_revoked_rules_are_gone() {
    let mut allows = SessionAllows::default();
    let me = Agent::new("claude-code");
    allows.add(&me, "s", SessionAllow::shell("rm -rf a").unwrap(), 3);
    allows.add(&me, "s", SessionAllow::Tool("WebFetch".into()), 4);
    let texts = allows.hit(&me, "s", &[command(&["rm", "-rf", "a"])], "Bash", None);
    assert_eq!(texts, ["#1 rm -rf a"]);
    assert_eq!(allows.list()[0].hits, 1);
    assert_eq!(allows.list()[1].hits, 0);
    assert!(allows.revoke(RuleId(1)));
    assert!(!allows.revoke(RuleId(1)));
    assert_eq!(allows.of(&me, "s"), [SessionAllow::Tool("WebFetch".into())]);
}

#[test]
fn quoted_words_stay_one_word_and_come_back_quoted() {
    let words = vec![
        "rm".to_string(),
        "-rf".into(),
        "my dir".into(),
        "it's".into(),
    ];
    let pattern = Pattern::from_words(words.clone());
    assert_eq!(pattern.as_str(), r#"rm -rf 'my dir' 'it'\''s'"#);
    let allow = SessionAllow::shell(pattern.as_str()).unwrap();
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    assert!(allow.matches_command(&command(&refs)));
    assert!(!allow.matches_command(&command(&["rm", "-rf", "my", "dir", "it's"])));
    assert_eq!(
        split_words(r#"a "b \" c" d\ e ''"#).unwrap(),
        ["a", "b \" c", "d e", ""]
    );
    assert_eq!(split_words("'open"), None);
    assert!(matches!(
        SessionAllow::shell("rm '*'"),
        Some(SessionAllow::ShellExact(_))
    ));
}

#[test]
fn a_session_allow_made_for_a_while_matches_nothing_once_it_is_over() {
    use std::time::{Duration, SystemTime};
    let mut allows = SessionAllows::default();
    let agent = Agent::new("a");
    let made = SystemTime::now();
    let until = made + Duration::from_secs(15 * 60);
    let allow = SessionAllow::shell("make lint").unwrap();
    allows.add_until(&agent, "s", allow.clone(), 1, Some(until));
    assert_eq!(allows.of_at(&agent, "s", made).len(), 1);
    assert_eq!(
        allows.of_at(&agent, "s", until + Duration::from_secs(1)),
        [],
        "over: it matches nothing"
    );
    // Made again without a while, it lasts while the console runs.
    allows.add_until(&agent, "s", allow.clone(), 2, None);
    assert_eq!(allows.list().len(), 1);
    assert_eq!(
        allows.of_at(&agent, "s", until + Duration::from_secs(3600)),
        [allow]
    );
}
