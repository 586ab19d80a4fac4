//! What a dialog offers the human, worked out once in the core when it opens and carried on the
//! [`Dialog`](super::event::Dialog), so the TUI and the web only show it and send answers: what
//! an answer can do where the call came from (its caps), what "allow always" would remember and
//! whether a pattern typed for it is broad enough to ask twice, and how long a fresh dialog
//! stays unarmed.

use std::time::Duration;

use super::call::{Call, ToolKind};
use super::caps::{Caps, InputEffect, NoteEffect};
use super::classify::Assessment;
use super::route::Row;
use super::rules::{Pattern, SessionAllow};
use super::shell::{Command, Risk, Safety, ShellAnalysis, reach};

/// How long a dialog ignores answers after it is shown: a key or a tap meant for the one before
/// it does not answer it.
pub const ARMING: Duration = Duration::from_millis(250);

/// What an "allow always" pattern is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AllowKind {
    /// A shell command: exactly the words typed, or every command starting with them when
    /// they end in a lone `*`.
    Shell,
    /// A tool, by name.
    Tool,
    /// Edits of one file.
    Path,
    /// Fetches from a host: a shell line whose only unproven commands only reach it.
    Host,
}

impl AllowKind {
    /// The word the web page and the log use.
    pub fn name(self) -> &'static str {
        match self {
            AllowKind::Shell => "shell",
            AllowKind::Tool => "tool",
            AllowKind::Path => "path",
            AllowKind::Host => "host",
        }
    }
}

/// What "allow always" offers to remember for one call.
#[derive(Debug, Clone, PartialEq)]
pub struct Always {
    pub kind: AllowKind,
    /// The pattern suggested, as the human would type it.
    pub pattern: String,
    /// The command it is about, when that command is not read-only: a pattern wider than it
    /// is broad.
    pub writer: Option<Command>,
    /// What the allow will not do for this call, said before Enter: a change of gatehouse's
    /// own files is asked every time, and a credential is shown again only by a rule naming it.
    pub caveat: Option<&'static str>,
}

impl Always {
    /// For a shell line, the first command that is not read-only: exactly that command (a
    /// writer or an unverified command is allowed again only as it was seen), or for a
    /// read-only one its program and subcommand with any operands (`git log *`). For an edit,
    /// its file; for anything else, the tool.
    pub fn of(call: &Call, assessment: &Assessment) -> Always {
        let (kind, pattern, writer) = match &assessment.kind {
            ToolKind::Shell => shell_pattern(call, assessment),
            ToolKind::Edit => (
                AllowKind::Path,
                call.file_path().unwrap_or_default().to_string(),
                None,
            ),
            _ => (AllowKind::Tool, call.tool.clone(), None),
        };
        Always {
            kind,
            pattern,
            writer,
            caveat: caveat(assessment),
        }
    }

    /// The session allow the human's (possibly edited) `text` means; `None` when it matches
    /// nothing.
    pub fn allow(&self, text: &str) -> Option<SessionAllow> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        match self.kind {
            AllowKind::Shell => SessionAllow::shell(text),
            AllowKind::Tool => Some(SessionAllow::Tool(text.to_string())),
            AllowKind::Path => Some(SessionAllow::Path(text.to_string())),
            AllowKind::Host => super::shell::reach::host_pattern_error(text)
                .is_none()
                .then(|| SessionAllow::Host(text.to_string())),
        }
    }

    /// True when `allow` must be confirmed a second time: it reaches past the command this
    /// call is about, or it is a shell prefix saved beyond the session (`lasting`).
    pub fn needs_confirming(&self, allow: &SessionAllow, lasting: bool) -> bool {
        allow.is_broad(self.writer.as_ref())
            || (lasting && matches!(allow, SessionAllow::ShellPrefix(_)))
    }
}

/// Why "allow always" cannot cover the next call like this one, where it cannot.
fn caveat(assessment: &Assessment) -> Option<&'static str> {
    match (assessment.row, &assessment.kind) {
        (Row::Tamper, _) => Some(
            "a change of gatehouse's own files is asked every time: this allows this call only",
        ),
        (Row::Risky(Risk::Credential), ToolKind::Read) => Some(
            "a credential is shown again only by a read rule for the file (gatehouse rules add \
             allow FILE --match read): this allows this call only",
        ),
        (Row::Risky(Risk::Credential), _) => Some(
            "a credential is read again only by a rule for exactly this command, saved for the \
             project or everyone (Tab): for this session, this allows this call only",
        ),
        _ => None,
    }
}

/// The one host a line's unproven commands all only reach, when that is all that keeps it
/// from passing: "allow always" then proposes the host, not the command.
fn one_host(analysis: &ShellAnalysis) -> Option<String> {
    if analysis
        .findings
        .iter()
        .any(|f| f.safety != Safety::ReadOnly)
    {
        return None;
    }
    let mut host: Option<String> = None;
    for command in analysis
        .commands
        .iter()
        .filter(|c| c.safety != Safety::ReadOnly)
    {
        for reached in reach::hosts(command)? {
            match &host {
                Some(one) if *one != reached => return None,
                _ => host = Some(reached),
            }
        }
    }
    host
}

fn shell_pattern(call: &Call, assessment: &Assessment) -> (AllowKind, String, Option<Command>) {
    if let Some(host) = assessment.shell.as_ref().and_then(one_host) {
        return (AllowKind::Host, host, None);
    }
    let command = assessment.shell.as_ref().and_then(|s| {
        s.commands
            .iter()
            .find(|c| c.safety != Safety::ReadOnly)
            .or(s.commands.first())
    });
    let Some(command) = command else {
        let line = call.shell_line().unwrap_or("");
        let words: Vec<&str> = line.split_whitespace().collect();
        return (AllowKind::Shell, words.join(" "), None);
    };
    if command.safety != Safety::ReadOnly {
        let words = Pattern::from_words(command.words.clone());
        let text = words.as_str().to_string();
        return (AllowKind::Shell, text, Some(command.clone()));
    }
    let words = &command.words;
    let mut prefix: Vec<&str> = words.iter().take(1).map(String::as_str).collect();
    if let Some(sub) = words.get(1)
        && sub
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && !sub.starts_with('-')
    {
        prefix.push(sub);
    }
    prefix.push("*");
    (AllowKind::Shell, prefix.join(" "), None)
}

/// Everything a dialog offers the human.
#[derive(Debug, Clone, PartialEq)]
pub struct Offer {
    /// What each answer does where the call came from.
    pub caps: Caps,
    pub always: Always,
    /// How long the dialog ignores answers once shown.
    pub arming: Duration,
    /// The call's project root, where an allow-always saved "for this project" applies;
    /// `None`: the call is in no project, and that scope is not offered.
    pub project: Option<std::path::PathBuf>,
    /// The shell line a human may edit before approving (a shell call's); `None`: no edit is
    /// offered, as where neither a changed input nor a deny reason can reach the agent (ACP),
    /// or where the line holds a character the box can only show escaped (a newline, a tab,
    /// an escape sequence): approving its escaped text would run another command.
    pub edit: Option<String>,
}

impl Offer {
    pub fn of(call: &Call, assessment: &Assessment) -> Offer {
        Offer {
            caps: call.caps,
            always: Always::of(call, assessment),
            arming: ARMING,
            project: assessment.project.clone(),
            edit: match assessment.kind {
                ToolKind::Shell if call.caps.input == InputEffect::Replaced || call.caps.reason => {
                    call.shell_line()
                        .filter(|line| !line.chars().any(super::escape::is_unsafe))
                        .map(str::to_string)
                }
                _ => None,
            },
        }
    }

    /// Whether an allow may carry a note here (something can deliver it).
    pub fn takes_a_note(&self) -> bool {
        self.caps.note != NoteEffect::None
    }

    /// Whether "allow always" may be saved beyond the session for `project` (else everyone):
    /// never for an edit of a file (allowed for the session only), and for the project only
    /// where the call is in one. The console's Tab and the web page offer exactly these.
    pub fn saves_beyond_session(&self, project: bool) -> bool {
        self.always.kind != AllowKind::Path && (!project || self.project.is_some())
    }
}

/// The whiles an "allow always" may be given instead of always, shortest first: the console's
/// Ctrl+T and the web page offer these and no others.
pub const ALWAYS_WHILES: [Duration; 2] = [Duration::from_secs(15 * 60), Duration::from_secs(3600)];

#[cfg(test)]
#[path = "offer_tests.rs"]
mod tests;
