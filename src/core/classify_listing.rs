//! Which shell lines the rules, safe commands and session allows list: every command read-only
//! or matched by one of them, a credential read only by an allow rule for exactly it.

use super::*;

/// A line is listed when no finding outside its commands is unsafe and every command is
/// read-only or matches a safe command, a session allow or an allow rule. Returns who listed
/// it, why, and the allow rule it used, if any.
pub(super) fn listing(
    analysis: &ShellAnalysis,
    rules: &Rules,
    session: &[SessionAllow],
    judgement: &Judgement,
) -> Option<(Decider, String, Option<Hit>)> {
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
    let mut used = None;
    for (n, command) in analysis.commands.iter().enumerate() {
        if command.safety == Safety::ReadOnly {
            continue;
        }
        // A word known only at run time may name one of gatehouse's own files: nothing lists
        // a command that may write with one.
        if command
            .origins
            .iter()
            .skip(1)
            .any(|o| *o == Origin::RunTime)
        {
            return None;
        }
        let from_session = session.iter().find(|allow| allow.matches_command(command));
        let from_rule = judgement
            .commands
            .get(n)
            .and_then(Option::as_ref)
            .filter(|h| h.rule.ruling == Ruling::Allow);
        // A credential read is let through only by an allow rule for exactly that command: a
        // prefix (`cat`, saved from an "allow always" on a harmless read) reaches every file.
        if command.obstacle == Obstacle::Known(Risk::Credential) {
            match from_rule.filter(|h| matches!(h.rule.matcher, Match::Command(_))) {
                Some(hit) => {
                    reasons.push(format!("allowed by {}", hit.describe()));
                    used = used.or(Some(hit.clone()));
                    continue;
                }
                None => return None,
            }
        }
        if let Some(allow) = from_session {
            by = Decider::SessionAllow;
            reasons.push(format!("`{}` allowed this session", allow.text()));
        } else if let Some(p) = rules.safe_command(command) {
            reasons.push(format!("`{}` listed safe (safe_commands)", p.as_str()));
        } else if let Some(hit) = from_rule {
            reasons.push(format!("allowed by {}", hit.describe()));
            used = used.or(Some(hit.clone()));
        } else {
            return None;
        }
    }
    reasons.dedup();
    Some((by, reasons.join("; "), used))
}
