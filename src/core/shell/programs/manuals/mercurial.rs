//! Mercurial's read subcommands (hg(1), Mercurial 6): status, log, diff, annotate and the
//! other commands that print what the repository holds, with the options that only choose
//! what to print. Like git's, the repository's own configuration is trusted; the global
//! options that point hg at another repository or configuration (`-R`, `--cwd`, `--config`),
//! start a pager or debugger, and `cat -o` (writes files) are never on the list. hg accepts
//! any unambiguous prefix of a long option, and `--pa` may mean `--pager` to a command without
//! `--patch`, so a long option is taken only as written in full.

use super::{Rule, Table};
use crate::core::shell::escape;
use crate::core::shell::programs::{Judged, Judgement, Risk};
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[Table {
    program: "hg",
    manual: "hg(1), Mercurial 6",
    rule: Rule::Judged(hg),
    reads: &[
        "hg status", "hg st -m", "hg log -l 5 -p", "hg log -G --template '{node}\\n'", "hg diff -r tip",
        "hg annotate -n src/main.c", "hg cat -r 2 README", "hg id", "hg summary", "hg branches",
        "hg bookmarks", "hg branch", "hg paths", "hg config ui.username", "hg files 'set:**.rs'",
    ],
    refuses: &[
        "hg commit -m x", "hg pull", "hg push", "hg update tip", "hg cat -o out.txt README",
        "hg cat --output out.txt README", "hg -R ../other log", "hg log --config hooks.pre-log=id",
        "hg --cwd /tmp log", "hg log --pager always", "hg status --pa always", "hg branch newname",
        "hg bookmarks -d old", "hg config --edit", "hg config -e", "hg incoming", "hg $SUB",
        "hg log $OPT", "hg branch -C", "hg bookmark -i", "hg bookmarks -d",
    ],
}];

/// Subcommands that only print, by every name hg accepts for them.
#[rustfmt::skip]
const READS: &[&str] = &[
    "status", "st", "log", "history", "diff", "annotate", "blame", "cat", "files", "manifest",
    "identify", "id", "summary", "sum", "branches", "tags", "heads", "parents", "root", "paths",
    "grep", "locate", "version", "help", "bookmarks", "bookmark", "branch", "config",
    "showconfig", "tip", "verify",
];

/// Long options that only choose what to print.
#[rustfmt::skip]
const LONG: &[&str] = &[
    "patch", "git", "stat", "verbose", "quiet", "graph", "no-merges", "follow", "text", "rev",
    "limit", "template", "style", "include", "exclude", "user", "date", "keyword", "branch",
    "only-branch", "prune", "copies", "removed", "only-merges", "all", "modified", "added",
    "clean", "unknown", "ignored", "deleted", "no-status", "print0", "number", "changeset",
    "line-number", "ignore-all-space", "ignore-space-change", "ignore-blank-lines", "reverse",
    "unified", "show-function", "nodates", "noprefix", "color", "noninteractive", "time",
    "closed", "active", "topo", "tags", "bookmarks", "num", "id", "change", "files-with-matches",
    "ignore-case", "diff", "list", "name", "to", "from",
];

/// Short options that only choose what to print; `-o` (`cat`'s output) and `-R` are not here.
const SHORT: &str = "pgvqGMfanclrTIXukdbmCAi0wBZyU";

fn hg(args: &[Word]) -> Judged {
    let mut sub = None;
    let mut operands = Vec::new();
    for word in args {
        let Some(text) = word.literal_text() else {
            return Err(Judgement::dynamic(format!(
                "hg: {} is only known when the line runs",
                escape(&word.text)
            )));
        };
        if text == "--" {
            break;
        }
        if let Some(long) = text.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            if !LONG.contains(&name) {
                return Err(refused(text));
            }
        } else if let Some(letters) = text.strip_prefix('-').filter(|l| !l.is_empty()) {
            if let Some(bad) = letters.chars().find(|c| !SHORT.contains(*c)) {
                return Err(refused(&format!("-{bad}")));
            }
        } else if sub.is_none() {
            sub = Some(text);
        } else {
            operands.push(text);
        }
    }
    let Some(sub) = sub else {
        return Ok(Judgement::read_only("prints hg's help"));
    };
    if matches!(
        sub,
        "incoming" | "in" | "outgoing" | "out" | "pull" | "push" | "clone"
    ) {
        return Err(Judgement::risk(
            Risk::Network,
            format!("hg {sub}: reaches the network"),
        ));
    }
    if !READS.contains(&sub) {
        return Err(Judgement::writer(format!(
            "hg {}: changes the repository or files",
            escape(sub)
        )));
    }
    // `branch NAME` and `bookmarks NAME` set them, and their options delete, rename,
    // deactivate or reset (`-d`, `-m`, `-i`, `-C`); with no name and only these they print.
    if matches!(sub, "branch" | "bookmarks" | "bookmark") {
        const PRINTS: &[&str] = &[
            "-q",
            "-v",
            "--quiet",
            "--verbose",
            "-l",
            "--list",
            "--active",
        ];
        let options = args
            .iter()
            .filter_map(Word::literal_text)
            .filter(|t| t.starts_with('-') && *t != sub);
        if !operands.is_empty() || options.clone().any(|o| !PRINTS.contains(&o)) {
            return Err(Judgement::writer(format!(
                "hg {sub}: may set, move or delete it"
            )));
        }
    }
    Ok(Judgement::read_only("reads the repository"))
}

fn refused(option: &str) -> Judgement {
    Judgement::unverified(format!(
        "hg option {} is not on the read-only list",
        escape(option)
    ))
}
