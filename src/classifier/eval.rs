//! `gatehouse classifier eval`: a labelled file in the corpus format (`command<TAB>label`,
//! optionally `<TAB>source`, escapes as `explain::decode_escaped` reads them) run through the
//! configured classifiers exactly as auto mode would: each line is assessed statically with the
//! config's rules, lines whose `auto` route is not `race` are counted and never sent, and the
//! raced ones are asked and allowed only when the advice allows. `--from-audit` writes such a
//! file from the human's own past answers in the audit log.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::core::barrier::assess_bounded;
use crate::core::call::{Agent, Call, ToolKind};
use crate::core::classifier::{Classifier, Question};
use crate::core::decision::Verdict;
use crate::core::mode::Mode;
use crate::core::route::{Route, route};
use crate::core::rules::Rules;
use crate::explain::decode_escaped;

/// What a line is labelled: what running it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    ReadOnly,
    Write,
}

/// One labelled line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labelled {
    pub command: String,
    pub label: Label,
}

/// The lines of a corpus file; the header, blank lines and lines whose label is neither
/// `read_only` nor `write` are skipped. The second value counts the skipped lines.
pub fn parse(text: &str) -> (Vec<Labelled>, usize) {
    let mut lines = Vec::new();
    let mut skipped = 0;
    for raw in text.lines() {
        let mut fields = raw.split('\t');
        let (Some(command), Some(label)) = (fields.next(), fields.next()) else {
            skipped += usize::from(!raw.trim().is_empty());
            continue;
        };
        let label = match label.trim() {
            "read_only" | "read-only" => Label::ReadOnly,
            "write" | "writes" => Label::Write,
            _ => {
                skipped += usize::from(command != "command");
                continue;
            }
        };
        lines.push(Labelled {
            command: decode_escaped(command),
            label,
        });
    }
    (lines, skipped)
}

/// The tally `eval` prints.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub lines: usize,
    pub raced: usize,
    pub allowed: usize,
    /// Allowed though labelled `write`.
    pub false_allows: usize,
    /// Raced and answered unsure, or not answered at all.
    pub unsure: usize,
    /// Median time of the raced lines' advice.
    pub median: Duration,
}

impl Summary {
    /// `eval: N lines, R raced, A allowed, F false allows, U unsure, median M ms`.
    pub fn line(&self) -> String {
        format!(
            "eval: {} lines, {} raced, {} allowed, {} false allows, {} unsure, median {} ms",
            self.lines,
            self.raced,
            self.allowed,
            self.false_allows,
            self.unsure,
            self.median.as_millis()
        )
    }
}

/// A shell call as an agent would send it; each line has its own session, so that the
/// per-session loop breaker does not mistake a corpus for a looping agent.
fn shell_call(line: &str, n: usize) -> Call {
    Call {
        agent: Agent::new("claude-code"),
        session: format!("eval-{n}"),
        cwd: std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|_| "/".into()),
        tool: "Bash".into(),
        kind: Some(ToolKind::Shell),
        subagent: None,
        input: json!({ "command": line }),
        tool_use_id: None,
        stage: Default::default(),
        caps: Default::default(),
        transcript_path: None,
        path_key: None,
    }
}

/// Runs `lines` as auto mode would; `each` hears every raced line's outcome as it comes
/// (`allowed`, then the verdict or the failure).
pub async fn run(
    classifier: &dyn Classifier,
    rules: &Rules,
    lines: &[Labelled],
    mut each: impl FnMut(&Labelled, bool, &str),
) -> Summary {
    let mut summary = Summary {
        lines: lines.len(),
        ..Summary::default()
    };
    let mut times = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        let call = shell_call(&line.command, n);
        let assessment = assess_bounded(&call, rules, &[]);
        if route(Mode::Auto, assessment.row) != Route::Race {
            continue;
        }
        summary.raced += 1;
        let Ok(question) = Question::of(Arc::new(call), &assessment) else {
            summary.unsure += 1;
            continue;
        };
        let started = Instant::now();
        let result = classifier.classify(Arc::new(question)).await;
        times.push(started.elapsed());
        let (allowed, said) = match &result {
            Ok(advice) => (advice.allows(), advice.verdict().name().to_string()),
            Err(err) => (false, format!("failed: {err}")),
        };
        let unsure = match &result {
            Ok(advice) => advice.verdict() == Verdict::Unsure,
            Err(_) => true,
        };
        summary.allowed += usize::from(allowed);
        summary.false_allows += usize::from(allowed && line.label == Label::Write);
        summary.unsure += usize::from(unsure);
        each(line, allowed, &said);
    }
    times.sort();
    summary.median = times.get(times.len() / 2).copied().unwrap_or_default();
    summary
}

/// A corpus file from the audit log's lines: every shell call a human answered, labelled
/// `read_only` where they allowed it and `write` where they denied it, source `audit`.
pub fn from_audit(audit: &str) -> String {
    let mut out = String::from("command\tlabel\tsource\n");
    for line in audit.lines() {
        let Ok(record) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let field = |k: &str| record.get(k).and_then(Value::as_str).unwrap_or("");
        if field("decider") != "human" || field("tool") != "Bash" {
            continue;
        }
        let label = match field("decision") {
            "allow" => "read_only",
            "deny" => "write",
            _ => continue,
        };
        out.push_str(&format!("{}\t{label}\taudit\n", escaped(field("subject"))));
    }
    out
}

/// The corpus's escaped form: the inverse of `decode_escaped`.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corpus_file_is_read_with_its_escapes_and_its_header_skipped() {
        let (lines, skipped) =
            parse("command\tlabel\tsource\nls\tread_only\tx\nprintf 'a\\tb'\twrite\nodd\tmaybe\n");
        assert_eq!(skipped, 1);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1].command, "printf 'a\tb'");
        assert_eq!(lines[1].label, Label::Write);
    }

    #[test]
    fn the_audit_gives_the_humans_shell_answers_as_labelled_lines_that_read_back() {
        let audit = [
            json!({"decider": "human", "tool": "Bash", "decision": "allow", "subject": "frob\tx"}),
            json!({"decider": "human", "tool": "Bash", "decision": "deny", "subject": "rm -rf b"}),
            json!({"decider": "classifier", "tool": "Bash", "decision": "allow", "subject": "y"}),
            json!({"decider": "human", "tool": "Write", "decision": "deny", "subject": "z"}),
        ]
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n");
        let (lines, _) = parse(&from_audit(&audit));
        assert_eq!(
            lines,
            vec![
                Labelled {
                    command: "frob\tx".into(),
                    label: Label::ReadOnly
                },
                Labelled {
                    command: "rm -rf b".into(),
                    label: Label::Write
                },
            ]
        );
    }
}
