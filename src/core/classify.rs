//! Static classification: what a call is (class), which row of the route table it takes, and
//! why, in words a person can read. No I/O but the dry run of an Edit against its file.

use std::path::PathBuf;
use std::sync::Arc;

use super::call::{Call, ToolKind};
use super::decision::Decider;
use super::edit;
use super::guard;
use super::mode::Mode;
use super::named_paths::{named_files, ruled_paths, several_paths};
use super::pathword::Place;
use super::policy::file::PolicyError;
use super::policy::{Hit, Judgement};
use super::route::{Class, Route, Row, capped};
use super::rule::{Match, Ruling, Subject};
use super::rules::{Rules, SessionAllow};
use super::shell::{self, Obstacle, Origin, Risk, Safety, ShellAnalysis};
use super::vouch;

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
    /// The `[[rule]]` that settled the call's row (deny, ask, or allow), with its file.
    pub rule: Option<Hit>,
    /// Mode ceilings of the call's project or the floor: it is routed no more openly than any.
    pub ceilings: Vec<Mode>,
    /// The call's project root, where a rule saved "for this project" applies.
    pub project: Option<PathBuf>,
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
            rule: None,
            ceilings: Vec::new(),
            project: None,
        }
    }

    /// The route in `mode`, capped by the call's mode ceilings.
    pub fn route(&self, mode: Mode) -> Route {
        capped(mode, &self.ceilings, self.row)
    }

    fn listed(mut self, by: Decider, why: String) -> Self {
        self.row = Row::Listed;
        self.listed_by = Some(by);
        self.explanation = why;
        self
    }

    /// What the agent's model is told when the call is refused for its class: a deny rule's
    /// own reason (else what it matches) with its id, never the local file it came from; the
    /// analyser's explanation for everything else.
    pub fn refusal(&self) -> String {
        match &self.rule {
            Some(hit) if self.row == Row::Denied && hit.rule.ruling == Ruling::Deny => {
                let (layer, id) = (hit.layer, &hit.rule.id);
                match &hit.rule.reason {
                    Some(reason) => format!("{reason} (the {layer} rule {id})"),
                    None => format!("denied by the {layer} rule {id} ({})", hit.rule.summary()),
                }
            }
            _ => self.explanation.clone(),
        }
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
    let place = guard::place(call, &rules.guards);
    let analysis = match kind {
        ToolKind::Shell => call
            .shell_line()
            .map(|line| shell::analyse_in(line, &rules.guards.secrets, place)),
        _ => None,
    };
    let commands = analysis.as_ref().map_or(&[][..], |a| &a.commands[..]);
    let judgement = match judge(call, rules, &kind, commands) {
        Ok(judgement) => judgement,
        Err(err) => {
            // A policy that cannot be read cannot be obeyed: refuse rather than guess.
            let why = format!("a rules file in force cannot be used: {err}");
            let mut a = Assessment::new(Class::Denied, Row::Denied, kind, why);
            a.shell = analysis;
            return a;
        }
    };
    // A project file or the floor may add credential paths: the call is read again with them.
    let extended;
    let (rules, analysis) = match judgement.sensitive.is_empty() {
        true => (rules, analysis),
        false => {
            extended = Rules {
                guards: Arc::new(rules.guards.with(&judgement.sensitive)),
                ..rules.clone()
            };
            let place = guard::place(call, &extended.guards);
            let secrets = &extended.guards.secrets;
            let analysis = analysis
                .and(call.shell_line())
                .map(|line| shell::analyse_in(line, secrets, place));
            (&extended, analysis)
        }
    };
    let mut a = assess_unruled(call, rules, session, kind, analysis, &judgement);
    a.ceilings = judgement.ceilings.iter().map(|(mode, _)| *mode).collect();
    a.project = judgement.root.clone();
    if let Some(why) = &judgement.unplaced {
        a.explanation = format!("{}; {why}", a.explanation);
    }
    a
}

/// The policy's judgement of a call. An edit that names more than one path is judged once for
/// each and the strictest judgement kept: a deny on any file it may write holds.
fn judge(
    call: &Call,
    rules: &Rules,
    kind: &ToolKind,
    commands: &[shell::Command],
) -> Result<Judgement, PolicyError> {
    let paths = ruled_paths(call, kind);
    let paths = if paths.is_empty() {
        vec![None]
    } else {
        paths.into_iter().map(Some).collect()
    };
    let mut kept: Option<Judgement> = None;
    for path in paths {
        let subject = Subject {
            tool: &call.tool,
            kind,
            path: path.as_deref(),
            root: None,
            home: rules.guards.home.as_deref(),
            host: call.remote.as_ref().map(|r| r.host.as_str()),
        };
        let judgement = match &call.remote {
            Some(remote) => rules
                .policy
                .judge_remote(&call.cwd, remote, subject, commands)?,
            None => rules.policy.judge(&call.cwd, subject, commands)?,
        };
        let ruling = |j: &Judgement| j.strictest().map(|h| h.rule.ruling);
        if kept.as_ref().is_none_or(|k| ruling(&judgement) > ruling(k)) {
            kept = Some(judgement);
        }
    }
    Ok(kept.expect("at least one judgement"))
}

/// The assessment once the policy's files have been judged: denied commands first, then a
/// rule's deny or ask, then static analysis with the rules' allows among the listings.
fn assess_unruled(
    call: &Call,
    rules: &Rules,
    session: &[SessionAllow],
    kind: ToolKind,
    analysis: Option<ShellAnalysis>,
    judgement: &Judgement,
) -> Assessment {
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
    let strictest = judgement.strictest();
    if let Some(hit) = strictest.filter(|h| h.rule.ruling == Ruling::Deny) {
        let mut why = format!("denied by {}", hit.describe());
        if let Some(reason) = &hit.rule.reason {
            why = format!("{reason} ({why})");
        }
        let mut a = Assessment::new(Class::Denied, Row::Denied, kind, why);
        a.shell = analysis;
        a.rule = Some(hit.clone());
        return a;
    }
    let several = several_paths(call, &kind);
    let mut a = assess_static(call, rules, session, kind, analysis, judgement);
    if let Some(why) = several.filter(|_| a.row != Row::Doomed) {
        // Like an ask rule: no read-only pass, rule allow or session allow settles it. A
        // tamper or a credential read is asked already, allow-all included for a tamper.
        if !matches!(a.row, Row::Tamper | Row::Risky(_)) {
            a.row = Row::WriterOrOther;
        }
        a.listed_by = None;
        a.rule = None;
        if a.class == Class::ReadOnly {
            a.class = Class::Unverified;
        }
        a.explanation = format!("{why}; {}", a.explanation);
    }
    if let Some(hit) = strictest.filter(|h| h.rule.ruling == Ruling::Ask) {
        // An ask outranks every allow: the human sees it, and the classifier never races it.
        // A tamper is asked in every mode already, allow-all included, and a plan is asked in
        // plan mode too: each keeps its row.
        if !matches!(a.row, Row::Tamper | Row::Plan) {
            a.row = Row::WriterOrOther;
        }
        a.listed_by = None;
        if a.class == Class::ReadOnly {
            a.class = Class::Unverified;
        }
        a.explanation = format!("asked by {}; {}", hit.describe(), a.explanation);
        a.rule = Some(hit.clone());
    }
    a
}

fn assess_static(
    call: &Call,
    rules: &Rules,
    session: &[SessionAllow],
    kind: ToolKind,
    analysis: Option<ShellAnalysis>,
    judgement: &Judgement,
) -> Assessment {
    let allowed_call = judgement
        .call
        .as_ref()
        .filter(|h| h.rule.ruling == Ruling::Allow && kind != ToolKind::Edit);
    match kind {
        ToolKind::Shell => match analysis {
            Some(analysis) => {
                let place = guard::place(call, &rules.guards);
                assess_shell(kind, analysis, rules, session, judgement, place)
            }
            None => Assessment::new(
                Class::Unverified,
                Row::UnverifiedShell,
                kind,
                "the call has no `command` string",
            ),
        },
        ToolKind::Read => {
            match guard::read_secret(call, &rules.guards, guard::place(call, &rules.guards)) {
                Some(why) => {
                    let a = Assessment::new(
                        Class::Risky(Risk::Credential),
                        Row::Risky(Risk::Credential),
                        kind,
                        why,
                    );
                    // Only a `read` rule for the one file the call reads lets it through.
                    let one_file = guard::read_paths(call, &rules.guards).count() == 1;
                    match allowed_call
                        .filter(|h| one_file && matches!(h.rule.matcher, Match::Read(_)))
                    {
                        Some(hit) => {
                            let why = format!("{}; allowed by {}", a.explanation, hit.describe());
                            let mut a = a.listed(Decider::Rule, why);
                            a.rule = Some(hit.clone());
                            a
                        }
                        None => a,
                    }
                }
                None => Assessment::new(Class::ReadOnly, Row::ReadOnly, kind, "reads files"),
            }
        }
        ToolKind::Internal => Assessment::new(
            Class::ReadOnly,
            Row::ReadOnly,
            kind,
            "the agent's own bookkeeping (internal_tools)",
        ),
        ToolKind::Edit => {
            if let Some(why) = edit::doomed(call) {
                return Assessment::new(Class::Doomed, Row::Doomed, kind, why);
            }
            // No session allow lists an edit of gatehouse's own files.
            if let Some(why) = guard::edit_tampers(
                &named_files(call),
                &rules.guards,
                guard::place(call, &rules.guards),
            ) {
                return Assessment::new(Class::Tamper, Row::Tamper, kind, why);
            }
            let a = Assessment::new(Class::Writer, Row::WriterOrOther, kind, "writes a file");
            // A session allow of one file lists only an edit of that file alone.
            match named_files(call)[..] {
                [path] if session.contains(&SessionAllow::Path(path.to_string())) => a.listed(
                    Decider::SessionAllow,
                    format!("edits of {path} allowed this session"),
                ),
                _ => a,
            }
        }
        // Only an allow rule lets a plan pass unseen: each plan is new, so no session allow
        // or safe listing covers the next.
        ToolKind::Plan => {
            let a = Assessment::new(Class::Plan, Row::Plan, kind, "presents a plan for approval");
            match allowed_call {
                Some(hit) => {
                    let mut a = a.listed(Decider::Rule, format!("allowed by {}", hit.describe()));
                    a.rule = Some(hit.clone());
                    a
                }
                None => a,
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
            // The classifier is shown an MCP call's arguments: words there that vouch for
            // the call leave it to the human.
            let claim = matches!(kind, ToolKind::Mcp { .. })
                .then(|| vouch::claim(vouch::strings(&call.input)))
                .flatten();
            let a = match claim {
                Some(phrase) => Assessment::new(
                    Class::Risky(Risk::Vouching),
                    Row::Risky(Risk::Vouching),
                    kind,
                    format!("{why}; its arguments say \"{phrase}\""),
                ),
                None => Assessment::new(Class::Unverified, row, kind, why),
            };
            if session.contains(&SessionAllow::Tool(call.tool.clone())) {
                let why = format!("every {} call allowed this session", call.tool);
                a.listed(Decider::SessionAllow, why)
            } else if rules.safe_tool(&call.tool) {
                a.listed(Decider::Rule, "listed safe (safe_commands)".to_string())
            } else if let Some(hit) = allowed_call {
                let mut a = a.listed(Decider::Rule, format!("allowed by {}", hit.describe()));
                a.rule = Some(hit.clone());
                a
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
    judgement: &Judgement,
    place: Place,
) -> Assessment {
    let explanation = analysis.explanation();
    let (class, row) = match analysis.safety {
        Safety::ReadOnly => (Class::ReadOnly, Row::ReadOnly),
        Safety::Unverified => match analysis.obstacle() {
            Some(Obstacle::Known(risk)) => (Class::Risky(risk), Row::Risky(risk)),
            Some(Obstacle::Unknown) | None => (Class::Unverified, Row::UnverifiedShell),
        },
        Safety::Writer => (Class::Writer, Row::WriterOrOther),
        Safety::Tamper => (Class::Tamper, Row::Tamper),
    };
    // The classifier would be shown the words of the commands left for it: words there that
    // vouch for the call leave it to the human.
    let claim = (class == Class::Unverified)
        .then(|| {
            let asked = analysis
                .commands
                .iter()
                .filter(|c| c.safety == Safety::Unverified)
                .flat_map(|c| c.words.iter().map(String::as_str));
            vouch::claim(asked)
        })
        .flatten();
    let (class, row, explanation) = match claim {
        Some(phrase) => (
            Class::Risky(Risk::Vouching),
            Row::Risky(Risk::Vouching),
            format!("{explanation}; its words say \"{phrase}\""),
        ),
        None => (class, row, explanation),
    };
    let own = match class {
        Class::ReadOnly | Class::Tamper => None,
        _ => rules.guards.own.tampered_by(&analysis, place),
    };
    let (class, row, explanation) = match own {
        Some(why) => (Class::Tamper, Row::Tamper, why),
        None => (class, row, explanation),
    };
    let mut a = Assessment::new(class, row, kind, explanation);
    // Nothing lists a change of gatehouse's own policy: not a safe command, a session's
    // "always" or an allow rule (a trusted project's, say).
    if !matches!(class, Class::ReadOnly | Class::Tamper)
        && let Some((by, why, hit)) = listing(&analysis, rules, session, judgement)
    {
        a = a.listed(by, why);
        a.rule = hit;
    }
    a.shell = Some(analysis);
    a
}

#[path = "classify_listing.rs"]
mod listing;
use listing::listing;

#[cfg(test)]
#[path = "classify_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "classify_guard_tests.rs"]
mod guard_tests;

#[cfg(test)]
#[path = "classify_network_tests.rs"]
mod network_tests;
