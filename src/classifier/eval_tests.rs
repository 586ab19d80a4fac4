use serde_json::{Value, json};

use super::audit::Report;
use super::*;

#[test]
fn a_corpus_file_is_read_with_its_escapes_comments_and_unlabelled_lines() {
    let parsed = parse(
        "# a comment\ncommand\tlabel\tsource\nls\tread_only\tx\nprintf 'a\\tb'\twrite\nodd\tmaybe\n\
         frob\tunlabelled\taudit\n",
    );
    assert_eq!(parsed.skipped, 1);
    assert_eq!(parsed.unlabelled, 1);
    assert_eq!(parsed.lines.len(), 2);
    assert_eq!(parsed.lines[1].command, "printf 'a\tb'");
    assert_eq!(parsed.lines[1].label, Label::Write);
}

fn log(records: &[Value]) -> String {
    records
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_audit_gives_the_humans_shell_answers_as_labelled_lines_that_read_back() {
    let audit = log(&[
        json!({"decider": "human", "tool": "Bash", "decision": "allow", "subject": "frob\tx"}),
        json!({"decider": "human", "tool": "Bash", "decision": "deny", "subject": "rm -rf b"}),
        json!({"decider": "human", "tool": "Bash", "decision": "deny", "subject": "rm -rf b"}),
        json!({"decider": "human", "tool": "Write", "decision": "deny", "subject": "z"}),
        json!({"decider": "human", "tool": "run_shell_command", "kind": "shell",
               "decision": "allow", "subject": "gem"}),
        json!({"decider": "rule", "tool": "Bash", "decision": "allow", "subject": "ls"}),
    ]);
    let parsed = parse(&Report::of(&audit).render());
    let labels: Vec<(&str, Label)> = parsed
        .lines
        .iter()
        .map(|l| (l.command.as_str(), l.label))
        .collect();
    assert_eq!(
        labels,
        [
            ("frob\tx", Label::ReadOnly),
            ("rm -rf b", Label::Write),
            ("gem", Label::ReadOnly)
        ]
    );
    assert_eq!((parsed.skipped, parsed.unlabelled), (0, 0));
}

#[test]
fn disagreements_and_the_classifiers_own_allows_carry_its_confidence_and_risk() {
    let audit = log(&[
        json!({"decider": "human", "kind": "shell", "tool": "Bash", "decision": "deny",
               "subject": "mytool --sync", "advice": "read-only", "confidence": 0.97,
               "risk": "low", "agreed": false}),
        json!({"decider": "human", "kind": "shell", "tool": "Bash", "decision": "allow",
               "subject": "mytool --list", "advice": "read-only", "confidence": 0.9,
               "risk": "low", "agreed": true}),
        json!({"decider": "classifier", "kind": "shell", "tool": "Bash", "decision": "allow",
               "subject": "mytool --peek", "advice": "read-only", "confidence": 0.99,
               "risk": "low"}),
        "a string, not a record".into(),
    ]) + "\n{not json";
    let report = Report::of(&audit);
    assert_eq!(
        (
            report.answered,
            report.disagreed,
            report.by_classifier,
            report.unreadable
        ),
        (2, 1, 1, 2)
    );
    let text = report.render();
    assert!(
        text.contains(
            "mytool --sync\twrite\taudit disagreed: classifier read-only, confidence 0.97, risk low\n"
        ),
        "{text}"
    );
    assert!(text.contains("mytool --list\tread_only\taudit\n"), "{text}");
    assert!(
        text.contains(
            "mytool --peek\tunlabelled\taudit classifier allowed: read-only, confidence 0.99, \
             risk low\n"
        ),
        "{text}"
    );
    let parsed = parse(&text);
    assert_eq!(
        (parsed.lines.len(), parsed.unlabelled, parsed.skipped),
        (2, 1, 0)
    );
}
