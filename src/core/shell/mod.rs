//! The static shell analyser: proves which bash lines are read-only.
//!
//! A line is parsed with tree-sitter-bash and walked with an allow-list of node kinds; any parse
//! error or node kind we do not know makes the line unverified. Every simple command in the line
//! is judged, including those inside substitutions, subshells, groups, loops and unquoted
//! heredocs. The result says, per command and per other finding (redirections, assignments,
//! parse errors), how safe it is and why, in words a person can read.
//!
//! # Layout
//!
//! - `parse`: the per-thread tree-sitter parser; the checks made before a tree is walked
//!   (text bash reads differently, a `$(`, `${` or backtick with no node, nesting too deep);
//!   and the walk's way through a node's children.
//! - `kind`: the node kinds the walker knows, told apart by number.
//! - `walk`: the walk over the tree; functions, aliases, nested scripts.
//! - `command`: simple commands and the order in which a name is looked up.
//! - `words`: quote removal and what can be known about a word before the line runs.
//! - `heredoc`: here-document delimiters read as bash reads them, and the check that the
//!   parser's body ends where bash ends it.
//! - `reading`: the analyser's reading of a line laid out for comparison with bash's own
//!   (the structural oracle in `tests/oracle/`).
//! - `redirect`: redirections by operator, descriptor and target.
//! - `env`: which variable assignments cannot change what runs.
//! - `arith`: arithmetic contexts, and whether the values they evaluate are inert.
//! - `conditions`: the arithmetic tests of `[[ ]]`, `[ ]` and `test`.
//! - `credential`: the parts that may print a secret (credential files, the environment,
//!   secret variables, programs' token commands), marked after the walk as a known risk.
//! - `programs`: per-program judgements; simple tables, option allow-lists by family
//!   (git, text tools, sed, awk, searchers, find, archivers, system and network tools) and
//!   wrappers that run another command.

mod arith;
mod bound;
mod command;
mod conditions;
mod credential;
mod env;
mod heredoc;
mod kind;
mod obstacle;
mod parse;
mod programs;
pub mod reach;
pub mod reading;
mod redirect;
#[cfg(test)]
mod test_support;
mod walk;
mod words;

#[cfg(test)]
#[path = "shell_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "forms_tests.rs"]
mod forms_tests;

use std::collections::HashSet;
use std::fmt;

pub use credential::Secrets;
pub use obstacle::{Obstacle, Risk};
pub(crate) use programs::table_of;

use crate::core::pathword::Place;

/// How safe one part of a shell line is. Ordered from safest to least safe, so the judgement of
/// a whole line is the maximum of its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Safety {
    /// Proven not to change any state, run foreign code or reach the network.
    ReadOnly,
    /// Not proven either way: unknown programs, dynamic words, network tools, parse failures.
    Unverified,
    /// Known to change state (`rm`, `> file`, `sed -i`).
    Writer,
    /// Changes what gatehouse itself allows (`gatehouse rules trust`, `gatehouse uninstall`):
    /// asked in every mode.
    Tamper,
}

/// Where the text of one command word comes from, as the classifier is shown it: what the line
/// spells out bare, what it spells out in quotes (where prose and claims usually sit), or what
/// only the running line knows (the word's source text stands for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Origin {
    Plain,
    Quoted,
    RunTime,
}

impl Origin {
    pub fn name(self) -> &'static str {
        match self {
            Origin::Plain => "plain",
            Origin::Quoted => "quoted",
            Origin::RunTime => "run-time",
        }
    }
}

/// One simple command found anywhere in the line, after wrappers were looked through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The command's words after quote removal (`"git" push` gives `git`, `push`). A word that
    /// holds an expansion keeps its source text (`$X`) and makes `is_static` false.
    pub words: Vec<String>,
    /// Where each word comes from, one per word.
    pub origins: Vec<Origin>,
    /// True when every word is a literal known before the line runs.
    pub is_static: bool,
    pub safety: Safety,
    /// What keeps it unverified; `Unknown` when it is not unverified.
    pub obstacle: Obstacle,
    /// Why, in a few words: `removes files`, `unknown program`, `reads files`.
    pub why: String,
}

/// Something in the line that is not a command but still matters: a redirection, an
/// assignment, a parse failure, a function definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The source text it is about (`> out.txt`, `PATH=/tmp`), cut to a readable length.
    pub what: String,
    pub safety: Safety,
    /// What keeps it unverified; `Unknown` when it is not unverified.
    pub obstacle: Obstacle,
    pub why: String,
}

/// The analyser's full answer for one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellAnalysis {
    /// The maximum over every command and finding; `Unverified` for an empty line.
    pub safety: Safety,
    pub commands: Vec<Command>,
    pub findings: Vec<Finding>,
}

impl ShellAnalysis {
    /// What keeps an unverified line from being proven read-only: the riskiest obstacle of its
    /// unverified parts (any known risk beats `Unknown`). `None` unless the line is unverified.
    pub fn obstacle(&self) -> Option<Obstacle> {
        if self.safety != Safety::Unverified {
            return None;
        }
        let commands = self.commands.iter().map(|c| (c.safety, c.obstacle));
        let findings = self.findings.iter().map(|f| (f.safety, f.obstacle));
        let worst = commands
            .chain(findings)
            .filter(|(safety, _)| *safety == Safety::Unverified)
            .map(|(_, obstacle)| obstacle)
            .max();
        Some(worst.unwrap_or(Obstacle::Unknown))
    }

    /// A one-line explanation of the parts that keep the line from being read-only, least safe
    /// first (`rm: removes files; > out.txt: writes a file`), or of why it is read-only.
    pub fn explanation(&self) -> String {
        if self.safety == Safety::ReadOnly {
            let mut names: Vec<&str> = Vec::new();
            let mut seen = HashSet::new();
            for command in &self.commands {
                let name = command.words.first().map_or("", |w| program_name(w));
                if !name.is_empty() && seen.insert(name) {
                    names.push(name);
                }
            }
            if names.is_empty() {
                return "read-only".to_string();
            }
            return format!("read-only: {}", escape(&names.join(", ")));
        }
        let mut parts: Vec<(Safety, String)> = Vec::new();
        for command in &self.commands {
            let name = escape(command.words.first().map_or("", |w| program_name(w)));
            let named = command.why.starts_with(&format!("{name} "))
                || command.why.starts_with(&format!("{name}:"));
            let text = if named {
                command.why.clone()
            } else {
                format!("{name}: {}", command.why)
            };
            parts.push((command.safety, text));
        }
        for finding in &self.findings {
            parts.push((finding.safety, format!("{}: {}", finding.what, finding.why)));
        }
        parts.retain(|(safety, _)| *safety > Safety::ReadOnly);
        // Stable sort keeps source order within one level of safety.
        parts.sort_by_key(|part| std::cmp::Reverse(part.0));
        let mut seen = HashSet::new();
        let mut unique: Vec<String> = Vec::new();
        for (_, text) in parts {
            if seen.insert(text.clone()) {
                unique.push(text);
            }
        }
        if unique.is_empty() {
            return self.safety.to_string();
        }
        const SHOWN: usize = 12;
        let more = unique.len().saturating_sub(SHOWN);
        unique.truncate(SHOWN);
        let mut text = unique.join("; ");
        if more > 0 {
            text.push_str(&format!("; and {more} more"));
        }
        text
    }
}

impl fmt::Display for Safety {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Safety::ReadOnly => "read-only",
            Safety::Unverified => "unverified",
            Safety::Writer => "writer",
            Safety::Tamper => "tamper",
        })
    }
}

/// Analyses one bash line (it may hold newlines). Never panics; never calls anything read-only
/// that it could not parse completely. Credentials are the built-in list's, words read with
/// no home or folder known.
pub fn analyse(line: &str) -> ShellAnalysis {
    static BUILT_IN: std::sync::LazyLock<Secrets> = std::sync::LazyLock::new(Secrets::default);
    analyse_in(line, &BUILT_IN, Place::default())
}

/// [`analyse`] with these credentials (the config's `sensitive_paths` added), reading words
/// from `place` (the user's home, the call's folder).
pub fn analyse_in(line: &str, secrets: &Secrets, place: Place) -> ShellAnalysis {
    let (mut commands, mut findings, bound) = walk::analyse_source(line, 0, false);
    credential::mark(&mut commands, &mut findings, &bound, secrets, place);
    let mut safety = walk::least_safe(&commands, &findings);
    if commands.is_empty() && findings.is_empty() && !only_comments(line) {
        safety = Safety::Unverified;
    }
    ShellAnalysis {
        safety,
        commands,
        findings: if line.trim().is_empty() && findings.is_empty() {
            vec![Finding {
                what: "(empty)".to_string(),
                safety: Safety::Unverified,
                obstacle: Obstacle::Known(Risk::Unparsed),
                why: "empty command line".to_string(),
            }]
        } else {
            findings
        },
    }
}

/// True when every line of `line` is a comment (its first character other than a space or a
/// tab is `#`) and at least one is: bash runs nothing for it, whatever the comment says (a
/// backslash at its end does not continue it). Blank lines alone are not a command line.
fn only_comments(line: &str) -> bool {
    let mut comments = 0;
    for text in line.split('\n') {
        match text.trim_start_matches([' ', '\t']).chars().next() {
            None => {}
            Some('#') => comments += 1,
            Some(_) => return false,
        }
    }
    comments > 0
}

/// The last path component of a command word (`/usr/bin/git` gives `git`).
fn program_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// Makes source text safe to show on one line: the console's one escaper, cut at 80
/// characters.
pub(crate) fn escape(text: &str) -> String {
    crate::core::escape::visible_cut(text, 80)
}
