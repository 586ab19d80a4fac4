//! Static classification: what a call is (class), which row of the route table it takes, and
//! why, in words a person can read. No I/O but the dry run of an Edit against its file.

use std::path::Path;

use super::call::{Call, ToolKind};
use super::decision::Decider;
use super::edit;
use super::route::{Class, Row};
use super::rules::{Rules, SessionAllow};
use super::shell::{self, Obstacle, Safety, ShellAnalysis};

/// Everything static analysis says about one call.
#[derive(Debug, Clone)]
pub struct Assessment {
    pub class: Class,
    pub row: Row,
    pub kind: ToolKind,
    /// Who settles it if the route is allow: the rules, or a session allow. `None` when only
    /// the mode could allow it.
    pub listed_by: Option<Decider>,
    /// Why, on one line.
    pub explanation: String,
    /// The shell analysis, for shell calls.
    pub shell: Option<ShellAnalysis>,
}

impl Assessment {
    fn new(class: Class, row: Row, kind: ToolKind, explanation: impl Into<String>) -> Self {
        Assessment {
            class,
            row,
            kind,
            listed_by: None,
            explanation: explanation.into(),
            shell: None,
        }
    }

    fn listed(mut self, by: Decider, why: String) -> Self {
        self.row = Row::Listed;
        self.listed_by = Some(by);
        self.explanation = why;
        self
    }

    /// Who decides when the route is `allow` without a dialog.
    pub fn allow_decider(&self) -> Decider {
        match (self.row, self.listed_by) {
            (_, Some(by)) => by,
            (Row::ReadOnly, None) => Decider::Rule,
            _ => Decider::Mode,
        }
    }
}

/// Classifies a call against the rules and the session allows of its agent session.
pub fn assess(call: &Call, rules: &Rules, session: &[SessionAllow]) -> Assessment {
    let kind = call.kind(&rules.internal_tools);
    let analysis = match kind {
        ToolKind::Shell => call.shell_line().map(shell::analyse),
        _ => None,
    };
    let commands = analysis.as_ref().map_or(&[][..], |a| &a.commands[..]);
    if let Some(rule) = rules.denied(&call.tool, commands) {
        let mut a = Assessment::new(
            Class::Denied,
            Row::Denied,
            kind,
            format!("`{}` is a denied command (denied_commands)", rule.as_str()),
        );
        a.shell = analysis;
        return a;
    }
    match kind {
        ToolKind::Shell => match analysis {
            Some(analysis) => assess_shell(kind, analysis, rules, session),
            None => Assessment::new(
                Class::Unverified,
                Row::UnverifiedShell,
                kind,
                "the call has no `command` string",
            ),
        },
        ToolKind::Read => Assessment::new(Class::ReadOnly, Row::ReadOnly, kind, "reads files"),
        ToolKind::Internal => Assessment::new(
            Class::ReadOnly,
            Row::ReadOnly,
            kind,
            "the agent's own bookkeeping (internal_tools)",
        ),
        ToolKind::Edit => {
            if let Some(why) = doomed_edit(call) {
                return Assessment::new(Class::Doomed, Row::Doomed, kind, why);
            }
            let a = Assessment::new(Class::Writer, Row::WriterOrOther, kind, "writes a file");
            match call.file_path() {
                Some(path) if session.contains(&SessionAllow::Path(path.to_string())) => a.listed(
                    Decider::SessionAllow,
                    format!("edits of {path} allowed this session"),
                ),
                _ => a,
            }
        }
        ToolKind::Mcp { .. } if rules.read_only_tools.contains(&call.tool) => Assessment::new(
            Class::ReadOnly,
            Row::ReadOnly,
            kind,
            "listed read-only (read_only_tools)",
        ),
        ToolKind::Mcp { .. } | ToolKind::Web | ToolKind::Other => {
            let (row, why) = match kind {
                ToolKind::Mcp { .. } => (Row::UnverifiedMcp, "an MCP tool not listed read-only"),
                ToolKind::Web => (Row::WriterOrOther, "reaches the network"),
                _ => (Row::WriterOrOther, "a tool gatehouse does not know"),
            };
            let a = Assessment::new(Class::Unverified, row, kind, why);
            if session.contains(&SessionAllow::Tool(call.tool.clone())) {
                let why = format!("every {} call allowed this session", call.tool);
                a.listed(Decider::SessionAllow, why)
            } else if rules.safe_tool(&call.tool) {
                a.listed(Decider::Rule, "listed safe (safe_commands)".to_string())
            } else {
                a
            }
        }
    }
}

fn assess_shell(
    kind: ToolKind,
    analysis: ShellAnalysis,
    rules: &Rules,
    session: &[SessionAllow],
) -> Assessment {
    let explanation = analysis.explanation();
    let (class, row) = match analysis.safety {
        Safety::ReadOnly => (Class::ReadOnly, Row::ReadOnly),
        Safety::Unverified => match analysis.obstacle() {
            Some(Obstacle::Known(risk)) => (Class::Risky(risk), Row::Risky(risk)),
            Some(Obstacle::Unknown) | None => (Class::Unverified, Row::UnverifiedShell),
        },
        Safety::Writer => (Class::Writer, Row::WriterOrOther),
    };
    let mut a = Assessment::new(class, row, kind, explanation);
    if class != Class::ReadOnly
        && let Some(listing) = listing(&analysis, rules, session)
    {
        a = a.listed(listing.0, listing.1);
    }
    a.shell = Some(analysis);
    a
}

/// A line is listed when no finding outside its commands is unsafe and every command is
/// read-only or matches a safe command or a session allow. Returns who listed it and why.
fn listing(
    analysis: &ShellAnalysis,
    rules: &Rules,
    session: &[SessionAllow],
) -> Option<(Decider, String)> {
    if analysis.commands.is_empty()
        || analysis
            .findings
            .iter()
            .any(|f| f.safety != Safety::ReadOnly)
    {
        return None;
    }
    let mut by = Decider::Rule;
    let mut reasons = Vec::new();
    for command in &analysis.commands {
        if command.safety == Safety::ReadOnly {
            continue;
        }
        let from_session = session.iter().find(|allow| allow.matches_command(command));
        if let Some(allow) = from_session {
            by = Decider::SessionAllow;
            reasons.push(format!("`{}` allowed this session", allow.text()));
        } else if let Some(p) = rules.safe_command(command) {
            reasons.push(format!("`{}` listed safe (safe_commands)", p.as_str()));
        } else {
            return None;
        }
    }
    reasons.dedup();
    Some((by, reasons.join("; ")))
}

/// An edit call with `old_string` replacements (one, or an `edits` list) whose text to replace
/// is not in the (readable) file cannot succeed; returns the guidance to send back instead of
/// asking anyone. An edit without replacements (a whole-file write, a patch) is never doomed.
fn doomed_edit(call: &Call) -> Option<String> {
    let edits = edit::edits_of(&call.input);
    let path = call.file_path()?;
    let text = std::fs::read_to_string(Path::new(&call.cwd).join(path)).ok()?;
    match edit::apply(&text, &edits) {
        Err(edit::Unapplied::Missing { index }) => {
            let which = if edits.len() > 1 {
                format!("edit {} of {}: ", index + 1, edits.len())
            } else {
                String::new()
            };
            Some(format!(
                "{which}old_string is not in {path}; read the file again and copy the exact text to replace"
            ))
        }
        Ok(_) | Err(edit::Unapplied::Empty { .. }) => None,
    }
}

#[cfg(test)]
#[path = "classify_tests.rs"]
mod tests;
