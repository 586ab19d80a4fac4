use super::*;

fn answer(subject: &str, ruling: Ruling, reason: Option<&str>, id: u64) -> Answered {
    Answered {
        tool: "Bash".into(),
        kind: ToolKind::Shell,
        subject: subject.into(),
        shape: shape_of(&ToolKind::Shell, "Bash", subject, "/repo").unwrap(),
        ruling,
        reason: reason.map(str::to_string),
        call_id: id,
    }
}

#[test]
fn a_shape_keeps_program_subcommand_options_and_operand_kinds() {
    let shape = |line: &str| shape_of(&ToolKind::Shell, "Bash", line, "/repo").unwrap();
    assert_eq!(
        shape("git log --oneline -n 5 src/main.rs"),
        "Bash git log <number> <path in project> --oneline -n"
    );
    assert_eq!(shape("npm run build"), shape("npm run build"));
    assert_ne!(shape("npm run build"), shape("npm run test"));
    assert_eq!(shape("rm -rf ./a/b"), shape("rm -rf ./c"));
    assert_ne!(
        shape("rm -rf ./a"),
        shape("rm -rf ../a"),
        "outside the project is another kind"
    );
    assert_ne!(
        shape("rm -rf ./a"),
        shape("rm -f ./a"),
        "another option set"
    );
    assert_eq!(
        shape_of(&ToolKind::Shell, "Bash", "ls | rm x", "/repo"),
        None,
        "a pipeline is never learned"
    );
    assert_eq!(
        shape_of(&ToolKind::Edit, "Write", "src/a.rs", "/repo"),
        None,
        "nor an edit"
    );
}

#[test]
fn the_nth_identical_approval_offers_the_exact_command_and_not_before() {
    let mut learner = Learner::default();
    assert_eq!(
        learner.record(answer("make lint", Ruling::Allow, None, 1), 3),
        None
    );
    assert_eq!(
        learner.record(answer("make lint", Ruling::Allow, None, 2), 3),
        None
    );
    let s = learner
        .record(answer("make lint", Ruling::Allow, None, 3), 3)
        .unwrap();
    assert_eq!(s.rule.matcher, Match::Command(Pattern::new("make lint")));
    assert_eq!(s.rule.ruling, Ruling::Allow);
    assert_eq!(s.rule.learned.call, Some(3));
    assert_eq!(
        learner.record(answer("make lint", Ruling::Allow, None, 4), 3),
        None,
        "once"
    );
}

#[test]
fn approvals_of_one_shape_but_other_operands_offer_nothing_wider_and_denials_share_words() {
    let mut learner = Learner::default();
    learner.record(answer("rm -rf ./build/a", Ruling::Allow, None, 1), 2);
    assert_eq!(
        learner.record(answer("rm -rf ./build/b", Ruling::Allow, None, 2), 2),
        None,
        "a prefix would allow `rm -rf` of anything"
    );
    let mut learner = Learner::default();
    learner.record(
        answer("curl -s https://a.example", Ruling::Deny, Some("no net"), 1),
        2,
    );
    let s = learner
        .record(
            answer("curl -s https://b.example", Ruling::Deny, Some("no net"), 2),
            2,
        )
        .unwrap();
    assert_eq!(s.rule.matcher, Match::Prefix(Pattern::new("curl -s")));
    let mut learner = Learner::default();
    learner.record(answer("touch a.txt", Ruling::Deny, Some("no"), 1), 2);
    assert_eq!(
        learner.record(answer("touch b.txt", Ruling::Deny, Some("no"), 2), 2),
        None,
        "never a bare program"
    );
}

#[test]
fn denials_offer_a_deny_only_when_the_reason_is_the_same_and_mixed_answers_offer_nothing() {
    let mut learner = Learner::default();
    learner.record(answer("git push", Ruling::Deny, Some("use a PR"), 1), 2);
    let s = learner
        .record(answer("git push", Ruling::Deny, Some("use a PR"), 2), 2)
        .unwrap();
    assert_eq!(s.rule.ruling, Ruling::Deny);
    assert_eq!(s.rule.reason.as_deref(), Some("use a PR"));
    let mut learner = Learner::default();
    learner.record(answer("git push", Ruling::Deny, Some("use a PR"), 1), 2);
    assert_eq!(
        learner.record(answer("git push", Ruling::Deny, Some("later"), 2), 2),
        None
    );
    let mut learner = Learner::default();
    learner.record(answer("make", Ruling::Deny, None, 1), 2);
    assert_eq!(
        learner.record(answer("make", Ruling::Allow, None, 2), 2),
        None
    );
    assert_eq!(
        learner.record(answer("make", Ruling::Allow, None, 3), 2),
        None
    );
}

#[test]
fn the_audit_log_supports_rules_from_human_answers_only() {
    let line = |id: u64, decider: &str, decision: &str| {
        format!(
            r#"{{"run":"r","id":{id},"tool":"Bash","subject":"cargo fmt --check","decision":"{decision}","decider":"{decider}","class":"unverified","kind":"shell"}}"#
        )
    };
    let log = [
        line(1, "classifier", "allow"),
        line(2, "rule", "allow"),
        line(3, "human", "allow"),
        line(4, "human", "allow"),
        "not json".to_string(),
    ]
    .join("\n");
    assert!(
        from_audit(log.as_bytes(), 3).is_empty(),
        "only two human answers"
    );
    let log = format!("{log}\n{}", line(5, "human", "allow"));
    let got = from_audit(log.as_bytes(), 3);
    assert_eq!(got.len(), 1);
    assert_eq!(
        got[0].rule.matcher,
        Match::Command(Pattern::new("cargo fmt --check"))
    );
    let kindless = |id: u64| line(id, "human", "allow").replace(r#","kind":"shell""#, "");
    let older = [kindless(1), kindless(2), kindless(3)].join("\n");
    assert!(
        from_audit(older.as_bytes(), 3).is_empty(),
        "a record that does not say its tool's kind is never learned from"
    );
    let log = format!("{log}\n{}", line(6, "human", "deny"));
    assert!(
        from_audit(log.as_bytes(), 3).is_empty(),
        "answered both ways since"
    );
}
