//! `gatehouse classifier eval`: a labelled file in the corpus format (`command<TAB>label`,
//! optionally `<TAB>source`, escapes as `explain::decode_escaped` reads them) run through the
//! configured classifiers exactly as auto mode would: each line is assessed statically with the
//! config's rules, lines whose `auto` route is not `race` are counted and never sent, and the
//! raced ones are asked and allowed only when the advice allows. `--from-audit` writes such a
//! file from the audit log ([`audit`]).

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use super::panel::Panel;
use crate::core::advice::Advice;
use crate::core::barrier::assess_bounded;
use crate::core::call::{Agent, Call, ToolKind};
use crate::core::classifier::{Classifier, Question};
use crate::core::decision::Verdict;
use crate::core::mode::Mode;
use crate::core::route::Route;
use crate::core::rules::Rules;
use crate::explain::decode_escaped;

pub mod audit;

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

/// What a corpus file holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parsed {
    pub lines: Vec<Labelled>,
    /// Lines that are neither a comment, the header, blank nor `command<TAB>label`.
    pub skipped: usize,
    /// Lines labelled `unlabelled` (calls the classifier allowed that no human answered, as
    /// `--from-audit` writes them): a person labels them before they count.
    pub unlabelled: usize,
}

/// The lines of a corpus file. The header, blank lines and `#` comments are passed over;
/// `unlabelled` lines and lines whose label is neither `read_only` nor `write` are counted.
pub fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    for raw in text.lines() {
        if raw.starts_with('#') || raw.trim().is_empty() {
            continue;
        }
        let mut fields = raw.split('\t');
        let (Some(command), Some(label)) = (fields.next(), fields.next()) else {
            parsed.skipped += 1;
            continue;
        };
        let label = match label.trim() {
            "read_only" | "read-only" => Label::ReadOnly,
            "write" | "writes" => Label::Write,
            "unlabelled" => {
                parsed.unlabelled += 1;
                continue;
            }
            _ => {
                parsed.skipped += usize::from(command != "command");
                continue;
            }
        };
        parsed.lines.push(Labelled {
            command: decode_escaped(command),
            label,
        });
    }
    parsed
}

/// The tally `eval` prints. Each raced line is counted once, in the first of `allowed`,
/// `off`, `failed`, `unreadable`, `unsure` that holds (a line answered `writes` is in none).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub lines: usize,
    pub raced: usize,
    pub allowed: usize,
    /// Allowed though labelled `write`.
    pub false_allows: usize,
    /// A readable answer that was not sure.
    pub unsure: usize,
    /// An answer that was not one (wrong format, unknown words): the dialog stays.
    pub unreadable: usize,
    /// No answer: a timeout, a refused or failed request, nothing to ask.
    pub failed: usize,
    /// Not asked: a classifier's breaker was off after failures in a row.
    pub off: usize,
    /// Median time of the raced lines' advice.
    pub median: Duration,
}

impl Summary {
    /// `eval: N lines, R raced, A allowed, F false allows, U unsure, X unreadable, E failed,
    /// O off, median M ms`.
    pub fn line(&self) -> String {
        format!(
            "eval: {} lines, {} raced, {} allowed, {} false allows, {} unsure, {} unreadable, \
             {} failed, {} off, median {} ms",
            self.lines,
            self.raced,
            self.allowed,
            self.false_allows,
            self.unsure,
            self.unreadable,
            self.failed,
            self.off,
            self.median.as_millis()
        )
    }
}

/// How one raced line went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Allowed,
    /// A readable answer that keeps the dialog.
    Kept(Verdict),
    Unreadable(String),
    Failed(String),
    Off,
}

impl Outcome {
    fn of(result: &Result<Advice, String>) -> Outcome {
        let advice = match result {
            Ok(advice) => advice,
            Err(err) => return Outcome::Failed(err.clone()),
        };
        if advice.allows() {
            return Outcome::Allowed;
        }
        let failed = advice
            .opinions
            .iter()
            .find_map(|o| o.outcome.as_ref().err());
        if let Some(err) = failed {
            return Outcome::Failed(err.clone());
        }
        let unreadable = advice.opinions.iter().find_map(|o| match &o.outcome {
            Ok(a) if a.is_stand_in() => Some(a.rationale.clone()),
            _ => None,
        });
        match unreadable {
            Some(why) => Outcome::Unreadable(why),
            None => Outcome::Kept(advice.verdict()),
        }
    }

    /// What the line printed says: `read-only`, `unsure`, `unreadable: …`, `failed: …`, `off`.
    pub fn said(&self) -> String {
        match self {
            Outcome::Allowed => Verdict::ReadOnly.name().into(),
            Outcome::Kept(verdict) => verdict.name().into(),
            Outcome::Unreadable(why) => format!("unreadable: {why}"),
            Outcome::Failed(why) => format!("failed: {why}"),
            Outcome::Off => "off: the classifier's breaker is open".into(),
        }
    }

    fn count(&self, label: Label, summary: &mut Summary) {
        let tally = match self {
            Outcome::Allowed => {
                summary.false_allows += usize::from(label == Label::Write);
                &mut summary.allowed
            }
            Outcome::Kept(Verdict::Unsure) => &mut summary.unsure,
            Outcome::Kept(_) => return,
            Outcome::Unreadable(_) => &mut summary.unreadable,
            Outcome::Failed(_) => &mut summary.failed,
            Outcome::Off => &mut summary.off,
        };
        *tally += 1;
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
        remote: None,
        hook_timeout_secs: None,
    }
}

/// Runs `lines` as auto mode would, in the project of the working folder (its rules and its
/// `mode_ceiling` apply); `each` hears every raced line's outcome as it comes, and may stop
/// the run (its output went away).
pub async fn run(
    panel: &Panel,
    rules: &Rules,
    lines: &[Labelled],
    mut each: impl FnMut(&Labelled, &Outcome) -> ControlFlow<()>,
) -> Summary {
    let mut summary = Summary {
        lines: lines.len(),
        ..Summary::default()
    };
    let mut times = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        let call = shell_call(&line.command, n);
        let assessment = assess_bounded(&call, rules, &[]);
        if assessment.route(Mode::Auto) != Route::Race {
            continue;
        }
        summary.raced += 1;
        let outcome = if panel.states().iter().any(|(_, state)| state.is_open()) {
            Outcome::Off
        } else {
            match Question::of(Arc::new(call), &assessment) {
                Ok(question) => {
                    let started = Instant::now();
                    let result = panel.classify(Arc::new(question)).await;
                    times.push(started.elapsed());
                    Outcome::of(&result.map_err(|e| e.0))
                }
                Err(err) => Outcome::Failed(err.0),
            }
        };
        outcome.count(line.label, &mut summary);
        if each(line, &outcome).is_break() {
            break;
        }
    }
    times.sort();
    summary.median = times.get(times.len() / 2).copied().unwrap_or_default();
    summary
}

#[cfg(test)]
#[path = "eval_tests.rs"]
mod tests;
