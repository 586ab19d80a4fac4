//! The classifier as the core sees it: something that gives advice on a [`Question`]. The HTTP
//! providers implement this trait elsewhere; tests implement it with a script.
//!
//! A call cannot vouch for itself: the question carries a [`Subject`] built from the static
//! analysis, never the raw line. For a shell line that is the argv words of the commands the
//! analyser could not judge, and only the analyser's own words for the rest (each known
//! command's program name and why, each finding's why). Comments never reach it, nor the
//! arguments of commands the analyser already knows, nor the source text of redirections and
//! assignments, so text placed there to address the model is simply not shown to it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::{Value, json};

use super::advice::Advice;
use super::call::{Call, ToolKind};
use super::classify::Assessment;
use super::shell::{Safety, ShellAnalysis, analyse};

/// A boxed, sendable future, as the trait's method returns.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// Why no advice came: the message is shown to the human on the dialog.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ClassifierError(pub String);

/// What the model is shown about a call, as JSON data. Two calls with the same subject get the
/// same answer: it is also the key of the cache and of the breaker's loop detection.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Subject {
    /// `shell` or `mcp`.
    pub kind: &'static str,
    /// The full MCP tool name; empty for shell lines.
    pub tool: String,
    pub data: Value,
}

/// One question for the classifier: the call (for its session and tool) and its subject.
#[derive(Debug, Clone)]
pub struct Question {
    pub call: Arc<Call>,
    pub subject: Subject,
}

impl Question {
    /// The question for `call` given its static assessment, or why it cannot be asked.
    pub fn of(call: Arc<Call>, assessment: &Assessment) -> Result<Question, ClassifierError> {
        let subject = match &assessment.kind {
            ToolKind::Shell => {
                let line = call.shell_line().ok_or_else(|| {
                    ClassifierError(
                        "the shell call has no `command` string, so there is nothing to ask \
                         the model"
                            .into(),
                    )
                })?;
                match &assessment.shell {
                    Some(analysis) => Subject::shell(analysis),
                    None => Subject::shell(&analyse(line)),
                }
            }
            ToolKind::Mcp { server, tool } => Subject {
                kind: "mcp",
                tool: call.tool.clone(),
                data: json!({
                    "tool": call.tool,
                    "server": server,
                    "name": tool,
                    "arguments": call.input,
                }),
            },
            _ => {
                return Err(ClassifierError(format!(
                    "the classifier only judges shell lines and MCP calls, not `{}`",
                    call.tool
                )));
            }
        };
        Ok(Question { call, subject })
    }
}

impl Subject {
    /// The subject of a shell line from its analysis: `ask` lists the argv of each command the
    /// analyser left unverified, with where each word comes from (`plain`, `quoted`), `known`
    /// the program and the analyser's reason for each other command, `findings` the analyser's
    /// reason for each other thing it found.
    pub fn shell(analysis: &ShellAnalysis) -> Subject {
        let mut ask = Vec::new();
        let mut known = Vec::new();
        for command in &analysis.commands {
            if command.safety == Safety::Unverified {
                let from: Vec<&str> = command.origins.iter().map(|o| o.name()).collect();
                ask.push(json!({"argv": command.words, "from": from, "analyser": command.why}));
            } else {
                let program = command
                    .words
                    .first()
                    .map(|w| w.rsplit('/').next().unwrap_or(w))
                    .unwrap_or("");
                known.push(json!({
                    "program": program,
                    "analyser": format!("{}: {}", label(command.safety), command.why),
                }));
            }
        }
        let findings: Vec<Value> = analysis
            .findings
            .iter()
            .map(|f| json!(format!("{}: {}", label(f.safety), f.why)))
            .collect();
        Subject {
            kind: "shell",
            tool: String::new(),
            data: json!({"ask": ask, "known": known, "findings": findings}),
        }
    }

    /// The subject of one bash line, analysed here (for `gatehouse classifier test`).
    pub fn of_line(line: &str) -> Subject {
        Subject::shell(&analyse(line))
    }
}

/// The analyser's judgement in words of its own (not the verdict words the model answers in).
fn label(safety: Safety) -> &'static str {
    match safety {
        Safety::ReadOnly => "proven to only read",
        Safety::Unverified => "not proven",
        Safety::Writer => "known to change state",
        Safety::Tamper => "changes what the approval gate allows",
    }
}

/// Gives advice on whether a call changes any state. It is only ever asked about calls whose
/// route is `race` (or, as advice only, when the human asks, or in allow-all's review when
/// opted in); only advice that [`Advice::allows`] can resolve a dialog, and only a race's.
pub trait Classifier: Send + Sync + 'static {
    fn classify(&self, question: Arc<Question>) -> BoxFuture<Result<Advice, ClassifierError>>;

    /// Whether, in allow-all, the calls only allow-all would pass are assessed first, so that
    /// a confident high or critical risk asks the human (`review_allow_all`, off unless
    /// configured). The answer can only turn such an allow into a dialog.
    fn reviews_allow_all(&self) -> bool {
        false
    }
}

#[cfg(test)]
#[path = "classifier_tests.rs"]
mod tests;
