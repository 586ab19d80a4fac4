//! The syntax of a rules file, shared by the user's config (`[[rule]]` tables), the saved rules,
//! a project's `.gatehouse.toml` and the machine-wide floor: parsed from TOML with every rule's
//! line kept, so that a bad entry is reported with its file, line and a fix; and written back
//! (the saved rules and `gatehouse rules add --scope project`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::{Layer, RuleFile, Trust};
use crate::core::mode::Mode;
use crate::core::rule::{Learned, Match, Rule, Ruling};
use crate::core::rules::Pattern;

/// A rules file that cannot be used, said so that a person can fix it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {message}\n  fix: {fix}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct PolicyError {
    pub path: PathBuf,
    pub line: Option<usize>,
    pub message: String,
    pub fix: String,
}

/// One `[[rule]]` table as written.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawRule {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<String>,
    pub verdict: Ruling,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Only for calls under this project root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<PathBuf>,
    /// Only for calls from this remote host.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// When the rule stops matching, RFC 3339 (`2026-12-03T12:00:00Z`); absent: never.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
    #[serde(default, flatten)]
    pub learned: Learned,
}

/// A project policy, the floor, or the saved rules, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPolicy {
    mode_ceiling: Option<Spanned<Mode>>,
    denied_commands: Option<Vec<Spanned<String>>>,
    safe_commands: Option<Vec<Spanned<String>>>,
    sensitive_paths: Option<Vec<Spanned<String>>>,
    rule: Option<Vec<Spanned<RawRule>>>,
}

const RULE_FIX: &str = "write each rule as a [[rule]] table with `verdict` (allow, ask or deny) \
    and exactly one of `tool`, `prefix`, `command`, `edit` or `mcp`; docs/rules.md has examples";

/// Turns the `[[rule]]` tables of a file into rules, numbering those without an id (`r1`,
/// `r2`, …). `text` is the file's text, for line numbers. Refuses an allow for a write or edit
/// tool, as `safe_commands` always has.
pub fn rules_of(
    raw: Vec<Spanned<RawRule>>,
    path: &Path,
    text: &str,
    edit_tools: &[String],
) -> Result<Vec<Rule>, PolicyError> {
    let lines = Lines::of(text);
    let mut ids = HashSet::new();
    let mut rules: Vec<Rule> = Vec::new();
    for (n, spanned) in raw.into_iter().enumerate() {
        let line = lines.line(spanned.span().start);
        let error = |message: String, fix: &str| PolicyError {
            path: path.to_path_buf(),
            line: Some(line),
            message,
            fix: fix.to_string(),
        };
        let raw = spanned.into_inner();
        let id = raw.id.clone().unwrap_or_else(|| format!("r{}", n + 1));
        if id.trim().is_empty() || id.contains(char::is_whitespace) {
            return Err(error(
                format!("rule id {id:?} is empty or has spaces"),
                "use a short id of letters, digits and dashes, or leave `id` out",
            ));
        }
        if !ids.insert(id.clone()) {
            return Err(error(
                format!("two rules have the id {id:?}"),
                "give each rule its own id",
            ));
        }
        let matcher = matcher_of(&raw).map_err(|m| error(m, RULE_FIX))?;
        let writes = raw.verdict == Ruling::Allow
            && match &matcher {
                Match::Tool(t) => edit_tools.iter().any(|e| e == t),
                Match::Prefix(p) => edit_tools.iter().any(|e| e == p.as_str()),
                Match::Edit(_) => true,
                Match::Command(_) | Match::Mcp(_) | Match::Read(_) | Match::Network(_) => false,
            };
        if writes {
            return Err(error(
                format!("rule {id:?} would allow a tool that writes files"),
                "allow never applies to write and edit tools; use `ask` or `deny`, or \"allow \
                 always\" in the console for one session",
            ));
        }
        let expires = match raw.expires.as_deref().map(humantime::parse_rfc3339_weak) {
            None => None,
            Some(Ok(at)) => Some(at),
            Some(Err(err)) => {
                return Err(error(
                    format!(
                        "rule {id:?} expires at {:?}, which is not a time ({err})",
                        raw.expires.unwrap_or_default()
                    ),
                    "write `expires` as an RFC 3339 time such as \"2026-12-03T12:00:00Z\", or leave it out for a rule that lasts",
                ));
            }
        };
        rules.push(Rule {
            id,
            matcher,
            ruling: raw.verdict,
            reason: raw.reason.filter(|r| !r.trim().is_empty()),
            learned: raw.learned,
            line: Some(line),
            project: raw.project,
            host: raw.host.filter(|h| !h.trim().is_empty()),
            expires,
        });
    }
    Ok(rules)
}

/// The one match key a rule names.
fn matcher_of(raw: &RawRule) -> Result<Match, String> {
    let given: Vec<(&str, &String)> = [
        ("tool", &raw.tool),
        ("prefix", &raw.prefix),
        ("command", &raw.command),
        ("edit", &raw.edit),
        ("mcp", &raw.mcp),
        ("read", &raw.read),
        ("network", &raw.network),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some((k, v.as_ref()?)))
    .collect();
    let [(key, value)] = given[..] else {
        let keys: Vec<&str> = given.iter().map(|(k, _)| *k).collect();
        return Err(match keys.len() {
            0 => "the rule says nothing to match".to_string(),
            _ => format!("the rule names {} matches: {}", keys.len(), keys.join(", ")),
        });
    };
    let value = value.trim();
    if value.is_empty() {
        return Err(format!("the rule's `{key}` is empty"));
    }
    Ok(match key {
        "tool" => Match::Tool(value.to_string()),
        "prefix" => Match::Prefix(Pattern::new(value)),
        "command" => Match::Command(Pattern::new(value)),
        "edit" => Match::Edit(value.to_string()),
        "read" => Match::Read(value.to_string()),
        "network" => match crate::core::shell::reach::host_pattern_error(value) {
            Some(why) => return Err(why),
            None => Match::Network(value.to_string()),
        },
        _ => Match::Mcp(value.to_string()),
    })
}

/// Parses a rules file of `layer` (project, floor or saved). A project file's and the floor's
/// allows are set aside unless `trust` says otherwise.
pub fn parse_file(
    text: &str,
    path: &Path,
    layer: Layer,
    trust: Trust,
    edit_tools: &[String],
) -> Result<RuleFile, PolicyError> {
    let raw: RawPolicy = toml::from_str(text).map_err(|err| {
        let at = err.span().map_or(0, |s| s.start);
        let message = err.message().trim().to_string();
        // An unknown key: its own line and the key probably meant, not the table's line.
        if let Some((line, fix)) = super::unknown::placed(text, at, &message) {
            return PolicyError {
                path: path.to_path_buf(),
                line: Some(line),
                message,
                fix,
            };
        }
        PolicyError {
            path: path.to_path_buf(),
            line: err.span().map(|s| line_of(text, s.start)),
            message,
            fix: format!(
                "a rules file has only `mode_ceiling`, `denied_commands`, `safe_commands`, \
                 `sensitive_paths` and [[rule]] tables; {RULE_FIX}"
            ),
        }
    })?;
    let lines = Lines::of(text);
    let mut rules = Vec::new();
    for (n, entry) in raw.denied_commands.unwrap_or_default().iter().enumerate() {
        rules.push(listed(entry, n, "denied", Ruling::Deny, path, &lines)?);
    }
    rules.extend(rules_of(
        raw.rule.unwrap_or_default(),
        path,
        text,
        edit_tools,
    )?);
    for (n, entry) in raw.safe_commands.unwrap_or_default().iter().enumerate() {
        let rule = listed(entry, n, "safe", Ruling::Allow, path, &lines)?;
        if edit_tools.iter().any(|e| e == entry.get_ref().trim()) {
            return Err(PolicyError {
                path: path.to_path_buf(),
                line: rule.line,
                message: format!(
                    "{:?} writes files and can never be listed safe",
                    entry.get_ref()
                ),
                fix: "remove it from safe_commands".into(),
            });
        }
        rules.push(rule);
    }
    if layer == Layer::Saved && raw.mode_ceiling.is_some() {
        return Err(PolicyError {
            path: path.to_path_buf(),
            line: raw
                .mode_ceiling
                .as_ref()
                .map(|c| lines.line(c.span().start)),
            message: "the saved rules cannot set a mode ceiling".into(),
            fix: "set `mode_ceiling` in a project's .gatehouse.toml or the machine-wide floor"
                .into(),
        });
    }
    let mut sensitive = Vec::new();
    for entry in raw.sensitive_paths.unwrap_or_default() {
        let text = entry.get_ref().trim();
        if text.is_empty() {
            return Err(PolicyError {
                path: path.to_path_buf(),
                line: Some(lines.line(entry.span().start)),
                message: format!(
                    "sensitive_paths holds {:?}, which names no path",
                    entry.get_ref()
                ),
                fix: "write a path pattern such as \"secrets/*.json\" or \"~/.config/app/token\""
                    .into(),
            });
        }
        sensitive.push(text.to_string());
    }
    let mut file = RuleFile::new(layer, Some(path.to_path_buf()), trust, rules);
    file.ceiling = raw.mode_ceiling.map(Spanned::into_inner);
    // Patterns only add questions: a file that may only tighten adds them too.
    file.sensitive = sensitive;
    Ok(file)
}

/// A `denied_commands` or `safe_commands` entry as a prefix rule (`denied-1`, `safe-2`, …).
fn listed(
    entry: &Spanned<String>,
    n: usize,
    what: &str,
    ruling: Ruling,
    path: &Path,
    lines: &Lines,
) -> Result<Rule, PolicyError> {
    let line = lines.line(entry.span().start);
    let pattern = Pattern::new(entry.get_ref());
    if pattern.as_str().is_empty() {
        return Err(PolicyError {
            path: path.to_path_buf(),
            line: Some(line),
            message: format!("{what}_commands has an empty entry"),
            fix: "remove the empty string from the list".into(),
        });
    }
    Ok(Rule {
        id: format!("{what}-{}", n + 1),
        matcher: Match::Prefix(pattern),
        ruling,
        reason: None,
        learned: Learned::default(),
        line: Some(line),
        project: None,
        host: None,
        expires: None,
    })
}

/// A rule as a `[[rule]]` table, for writing back.
pub fn raw_of(rule: &Rule) -> RawRule {
    let mut raw = RawRule {
        id: Some(rule.id.clone()),
        verdict: rule.ruling,
        reason: rule.reason.clone(),
        learned: rule.learned.clone(),
        project: rule.project.clone(),
        host: rule.host.clone(),
        expires: rule
            .expires
            .map(|at| humantime::format_rfc3339_seconds(at).to_string()),
        ..RawRule::default()
    };
    let (key, value) = rule.matcher.key_and_value();
    let slot = match key {
        "tool" => &mut raw.tool,
        "prefix" => &mut raw.prefix,
        "command" => &mut raw.command,
        "edit" => &mut raw.edit,
        "read" => &mut raw.read,
        "network" => &mut raw.network,
        _ => &mut raw.mcp,
    };
    *slot = Some(value);
    raw
}

/// `rules` as the text of a saved-rules file: a comment, then one `[[rule]]` table each.
pub fn render(rules: &[Rule]) -> String {
    #[derive(Serialize)]
    struct Out {
        rule: Vec<RawRule>,
    }
    let body = toml::to_string(&Out {
        rule: rules.iter().map(raw_of).collect(),
    })
    .unwrap_or_default();
    format!(
        "# gatehouse saved rules: written by the console and `gatehouse rules add`.\n\
         # Each [[rule]] has a verdict and one match (tool, prefix, command, edit, mcp).\n\n{body}"
    )
}

/// The 1-based line of byte offset `at` in `text`. For one offset; [`Lines`] for many.
pub fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// Where each line of a text starts, to find the line of many offsets in linear time (one
/// scan of the text, then a binary search each), not one scan per offset.
pub struct Lines {
    newlines: Vec<usize>,
}

impl Lines {
    pub fn of(text: &str) -> Lines {
        Lines {
            newlines: text
                .bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(at, _)| at)
                .collect(),
        }
    }

    /// The 1-based line of byte offset `at`.
    pub fn line(&self, at: usize) -> usize {
        self.newlines.partition_point(|&newline| newline < at) + 1
    }
}
