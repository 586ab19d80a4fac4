//! Rules learned from the human's answers. Each answer is kept with a normalised shape of its
//! call (the tool, the program, its first operand as a subcommand, the set of options, and the
//! kinds of the other operands: a path inside the project, a path outside it, a number, a
//! word). After N identical answers to one shape, the narrowest rule that covers exactly what
//! was answered is offered: an allow after approvals, a deny with the reason after denials
//! with one reason.
//!
//! What is never offered: anything from a classifier's or a rule's decision (only `human`
//! answers count); a shape answered both ways; a rule for a write or edit tool (an allow never
//! applies to them); an allow wider than the exact command approved; a bare program name.

use std::io::BufRead;
use std::path::Path;

use serde::Deserialize;

use super::audit::Ending;
use super::call::{Call, ToolKind};
use super::decision::Decider;
use super::rule::{Learned, Match, Rule, Ruling};
use super::rules::Pattern;
use super::shell;

/// The shape of a call of `tool`, of kind `kind` (as its dialect said): equal shapes are "the
/// same kind of call" for learning. Edits have none: they are never learned.
pub fn shape_of(kind: &ToolKind, tool: &str, subject: &str, cwd: &str) -> Option<String> {
    match kind {
        ToolKind::Edit => return None,
        ToolKind::Shell => {}
        _ => return Some(tool.to_string()),
    }
    let words = single_command(subject)?;
    let (program, rest) = words.split_first()?;
    let program = program.rsplit('/').next().unwrap_or(program);
    let mut options: Vec<String> = Vec::new();
    let mut operands: Vec<String> = Vec::new();
    for word in rest {
        if word.starts_with('-') && word.len() > 1 {
            options.push(match word.split_once('=') {
                Some((name, _)) => format!("{name}=<value>"),
                None => word.clone(),
            });
        } else {
            operands.push(kind_of(word, cwd));
        }
    }
    options.sort();
    options.dedup();
    let mut shape = format!("{tool} {program}");
    for part in operands.iter().chain(&options) {
        shape.push(' ');
        shape.push_str(part);
    }
    Some(shape)
}

/// The words of a line that is exactly one simple command with no redirection or expansion
/// the analyser flags; `None` otherwise (a pipeline is never learned from).
fn single_command(line: &str) -> Option<Vec<String>> {
    let analysis = shell::analyse(line);
    let [command] = &analysis.commands[..] else {
        return None;
    };
    analysis
        .findings
        .iter()
        .all(|f| f.safety == shell::Safety::ReadOnly)
        .then(|| command.words.clone())
}

/// What kind of operand a word is, for shapes: a plain word (a subcommand, a script or branch
/// name) is kept as it is; numbers and paths become their kind.
fn kind_of(word: &str, cwd: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_digit()) {
        return "<number>".into();
    }
    let looks_like_path = word.contains('/') || word.contains('.') || word == "~";
    if !looks_like_path {
        return word.to_string();
    }
    let escapes = word.split('/').any(|part| part == "..") || word.starts_with('~');
    let inside = if word.starts_with('/') {
        !cwd.is_empty() && Path::new(word).starts_with(cwd)
    } else {
        true
    };
    match (escapes, inside) {
        (false, true) => "<path in project>".into(),
        _ => "<path outside project>".into(),
    }
}

/// One human answer, as the learner sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answered {
    pub tool: String,
    /// What the tool does, as the call's dialect said.
    pub kind: ToolKind,
    pub subject: String,
    pub shape: String,
    /// `allow` or `deny`, and the deny's reason.
    pub ruling: Ruling,
    pub reason: Option<String>,
    pub call_id: u64,
}

/// A rule the answers support.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    pub rule: Rule,
    pub shape: String,
    pub answers: usize,
}

impl Suggestion {
    /// `allow command "git log -5" (3 approvals of Bash git log -5 …)`.
    pub fn describe(&self) -> String {
        let what = match self.rule.ruling {
            Ruling::Deny => "denials",
            _ => "approvals",
        };
        format!(
            "{}  [{} {what} of `{}`; covers {}]",
            self.rule.summary(),
            self.answers,
            self.shape,
            self.rule.matcher.describe()
        )
    }
}

/// The answers so far and the rules they support; the console feeds it as answers arrive.
#[derive(Debug, Default)]
pub struct Learner {
    answers: Vec<Answered>,
    offered: Vec<Rule>,
}

impl Learner {
    /// Records one human answer and returns a rule if this answer is the `n`th identical one
    /// of its shape (`n` 0: never). A rule already offered is not offered again.
    pub fn record(&mut self, answer: Answered, n: usize) -> Option<Suggestion> {
        self.answers.push(answer.clone());
        if n == 0 {
            return None;
        }
        let suggestion = suggest_for(&self.answers, &answer.shape, n)?;
        if self
            .offered
            .iter()
            .any(|r| r.matcher == suggestion.rule.matcher)
        {
            return None;
        }
        self.offered.push(suggestion.rule.clone());
        Some(suggestion)
    }
}

/// The rule the answers of one shape support, if they are at least `n` and all alike.
fn suggest_for(answers: &[Answered], shape: &str, n: usize) -> Option<Suggestion> {
    let same: Vec<&Answered> = answers.iter().filter(|a| a.shape == shape).collect();
    let first = *same.first()?;
    if same.len() < n
        || same
            .iter()
            .any(|a| a.ruling != first.ruling || a.reason != first.reason)
    {
        return None;
    }
    let kind = &first.kind;
    if same.iter().any(|a| a.kind != *kind) || *kind == ToolKind::Edit {
        return None;
    }
    let matcher = match kind {
        ToolKind::Shell => shell_match(&same, first.ruling)?,
        ToolKind::Mcp { .. } => Match::Mcp(first.tool.clone()),
        _ => Match::Tool(first.tool.clone()),
    };
    let id = format!("learned-{}", first.ruling.name());
    Some(Suggestion {
        rule: Rule {
            id,
            matcher,
            ruling: first.ruling,
            reason: first.reason.clone(),
            learned: Learned {
                call: same.last().map(|a| a.call_id),
                by: Some("human".into()),
                at: None,
            },
            line: None,
            project: None,
            host: None,
            expires: None,
        },
        shape: shape.to_string(),
        answers: same.len(),
    })
}

/// The narrowest shell match covering every answered line. An allow is only ever the exact
/// command, answered the same each time: any wider match (a prefix) would also let through
/// operands nobody approved. A deny may cover the words every denied line starts with (a
/// deny only tightens), but never a bare program name.
fn shell_match(same: &[&Answered], ruling: Ruling) -> Option<Match> {
    let lines: Vec<Vec<String>> = same
        .iter()
        .map(|a| single_command(&a.subject))
        .collect::<Option<_>>()?;
    let first = &lines[0];
    if lines.iter().all(|l| l == first) {
        return Some(Match::Command(Pattern::from_words(first.clone())));
    }
    let common = (0..first.len())
        .take_while(|&i| lines.iter().all(|l| l.get(i) == first.get(i)))
        .count();
    if ruling != Ruling::Deny || common < 2 {
        return None;
    }
    Some(Match::Prefix(Pattern::from_words(first[..common].to_vec())))
}

/// The shape of a call the console saw.
pub fn shape_of_call(call: &Call) -> Option<String> {
    shape_of(&call.kind(&[]), &call.tool, &call.subject(), &call.cwd)
}

/// One audit record, as far as learning reads it.
#[derive(Debug, Deserialize)]
struct AuditLine {
    #[serde(default)]
    id: u64,
    tool: String,
    subject: String,
    decision: Ending,
    decider: Decider,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    shape: Option<String>,
    /// The tool's kind; a record without one (older than the field) is not learned from.
    #[serde(default)]
    kind: Option<ToolKind>,
}

/// Every rule the human answers in an audit log support, `n` identical answers each.
pub fn from_audit(input: impl BufRead, n: usize) -> Vec<Suggestion> {
    let mut learner = Learner::default();
    let mut out = Vec::new();
    for line in input.lines().map_while(Result::ok) {
        let Ok(record) = serde_json::from_str::<AuditLine>(&line) else {
            continue;
        };
        if record.decider != Decider::Human {
            continue;
        }
        let ruling = match record.decision {
            Ending::Allow => Ruling::Allow,
            Ending::Deny => Ruling::Deny,
            Ending::Defer | Ending::Withdrawn => continue,
        };
        let Some(kind) = record.kind else {
            continue;
        };
        let Some(shape) = record
            .shape
            .or_else(|| shape_of(&kind, &record.tool, &record.subject, ""))
        else {
            continue;
        };
        let answer = Answered {
            tool: record.tool,
            kind,
            subject: record.subject,
            shape,
            ruling,
            reason: record.reason.filter(|_| ruling == Ruling::Deny),
            call_id: record.id,
        };
        out.extend(learner.record(answer, n));
    }
    // A shape answered the other way later is no longer supported.
    out.retain(|s| suggest_for(&learner.answers, &s.shape, n).is_some());
    out
}

/// [`from_audit`] on a file.
pub fn from_audit_file(path: &Path, n: usize) -> std::io::Result<Vec<Suggestion>> {
    let file = std::fs::File::open(path)?;
    Ok(from_audit(std::io::BufReader::new(file), n))
}

#[cfg(test)]
#[path = "learn_tests.rs"]
mod tests;
