//! Searchers with options that run programs: ripgrep (`--pre`, `-z`, `--hostname-bin`), fd
//! (`-x`, `-X`), ag and ack (`--pager`). Their complete option lists are here; a word that
//! could expand to an option is refused.

use super::flags::{self, Spec};
use super::manuals::{Rule, Table};
use super::{Judged, Judgement, Risk};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "rg",
        manual: "rg(1), ripgrep",
        rule: Rule::Walked(rg),
        reads: &["rg -n TODO src", "rg -l 'fn main' --type rust", "rg -g '*.py' -i import", "rg --files | head"],
        refuses: &["rg --pre ./pwned pattern", "rg --pre=cat x", "rg -z pattern logs", "rg --search-zip x", "rg --hostname-bin ./pwned x", "rg beta *"],
    },
    Table {
        program: "fd",
        manual: "fd(1)",
        rule: Rule::Walked(fd),
        reads: &["fd -t f main", "fd -e rs . src", "fd -H --exclude .git config"],
        refuses: &["fd -x rm", "fd -e tmp -X rm -f", "fd --exec-batch touch", "fd . *"],
    },
    Table {
        program: "fdfind",
        manual: "fd(1) (fdfind is Debian's name for fd)",
        rule: Rule::Walked(fd),
        reads: &["fdfind -t d node_modules", "fdfind -e md"],
        refuses: &["fdfind -x rm {}", "fdfind -e log -X gzip"],
    },
    Table {
        program: "ag",
        manual: "ag(1), the silver searcher",
        rule: Rule::Walked(ag),
        reads: &["ag TODO src", "ag -l --hidden secret_key", "ag -C 2 'fn main'"],
        refuses: &["ag --pager less TODO", "ag --pager=./x TODO", "ag x $(cat list)"],
    },
];

#[rustfmt::skip]
const RG: Spec = Spec {
    short: "iSswxvnNlcoFUPHLuqab0IpJ",
    short_value: "egtTABCmMdjErf",
    long: &[
        "heading", "no-heading", "hidden", "no-hidden", "no-ignore", "no-ignore-vcs",
        "no-ignore-dot", "no-ignore-global", "no-ignore-parent", "no-ignore-exclude",
        "no-ignore-files", "ignore", "follow", "json", "files", "type-list", "vimgrep", "column",
        "no-column", "trim", "null", "stats", "quiet", "glob-case-insensitive", "count-matches",
        "count", "files-with-matches", "files-without-match", "multiline", "multiline-dotall",
        "smart-case", "ignore-case", "case-sensitive", "word-regexp", "line-regexp", "invert-match",
        "line-number", "no-line-number", "only-matching", "fixed-strings", "pcre2", "text",
        "binary", "no-binary", "no-messages", "passthru", "no-config", "byte-offset", "debug",
        "trace", "no-filename", "with-filename", "unrestricted", "one-file-system", "mmap",
        "no-mmap", "crlf", "null-data", "line-buffered", "block-buffered", "include-zero", "pretty",
        "no-unicode", "no-pcre2-unicode", "auto-hybrid-regex", "max-columns-preview", "sort-files",
        "no-require-git", "stop-on-nonmatch", "no-context-separator", "counts",
    ],
    long_value: &[
        "regexp", "glob", "iglob", "type", "type-not", "type-add", "type-clear", "after-context",
        "before-context", "context", "max-count", "max-columns", "max-depth", "threads", "sort",
        "sortr", "colors", "encoding", "ignore-file", "replace", "max-filesize", "path-separator",
        "field-context-separator", "field-match-separator", "context-separator", "engine",
        "regex-size-limit", "dfa-size-limit", "file", "hyperlink-format",
    ],
    long_optional: &["color"],
    ..Spec::EMPTY
};

fn rg(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    for word in args.iter().filter_map(Word::literal_text) {
        if word == "--" {
            break;
        }
        let name = word.split('=').next().unwrap_or(word);
        match name {
            "--pre" | "--pre-glob" | "--hostname-bin" | "--search-zip" | "-z" => {
                return Err(Judgement::risk(
                    Risk::RunsCode,
                    format!("rg {name}: runs other programs"),
                ));
            }
            _ => {}
        }
    }
    flags::parse(&RG, args)?;
    Ok(Judgement::read_only("searches files"))
}

#[rustfmt::skip]
const FD: Spec = Spec {
    short: "HIgFailLpsu01q",
    short_value: "tedEcjSo",
    long: &[
        "hidden", "no-hidden", "no-ignore", "no-ignore-vcs", "no-ignore-parent", "glob", "regex",
        "fixed-strings", "absolute-path", "relative-path", "list-details", "follow", "full-path",
        "print0", "case-sensitive", "ignore-case", "prune", "one-file-system", "unrestricted",
        "quiet", "show-errors", "no-require-git", "strip-cwd-prefix",
    ],
    long_value: &[
        "type", "extension", "max-depth", "min-depth", "exact-depth", "exclude", "size",
        "changed-within", "changed-before", "owner", "max-results", "threads", "color",
        "ignore-file", "base-directory", "path-separator", "search-path", "format", "and",
        "hyperlink",
    ],
    ..Spec::EMPTY
};

fn fd(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let position = args.iter().position(|w| {
        matches!(
            w.literal_text(),
            Some("-x" | "-X" | "--exec" | "--exec-batch")
        )
    });
    let Some(at) = position else {
        flags::parse(&FD, args)?;
        return Ok(Judgement::read_only("finds files"));
    };
    flags::parse(&FD, &args[..at])?;
    let end = args[at + 1..]
        .iter()
        .position(|w| w.literal_text() == Some(";"))
        .map_or(args.len(), |p| at + 1 + p);
    let mut inner: Vec<Word> = args[at + 1..end]
        .iter()
        .map(|w| match w.text.find('{') {
            Some(at) => Word::placeholder(&w.text, at),
            None => w.clone(),
        })
        .collect();
    if !inner.iter().any(|w| !w.is_static) {
        inner.push(Word::dynamic("{}"));
    }
    let judgement = walker.run(&inner);
    let why = format!("runs {} on each file", escape(&inner[0].text));
    Ok(judgement.reworded(why))
}

#[rustfmt::skip]
const AG: Spec = Spec {
    short: "iswvnlLcoQFuUaAtfGgHz0",
    short_value: "ABCmG",
    long: &[
        "ignore-case", "smart-case", "case-sensitive", "word-regexp", "invert-match", "count",
        "literal", "hidden", "unrestricted", "all-types", "all-text", "search-binary", "follow",
        "nocolor", "color", "column", "heading", "noheading", "break", "nobreak", "filename",
        "nofilename", "numbers", "nonumbers", "only-matching", "vimgrep", "files-with-matches",
        "files-without-matches", "stats", "silent", "null", "print0", "one-device",
        "skip-vcs-ignores", "ackmate", "list-file-types",
    ],
    long_value: &[
        "after", "before", "context", "max-count", "depth", "ignore", "file-search-regex",
        "workers",
    ],
    numeric: false,
    ..Spec::EMPTY
};

fn ag(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    flags::parse(&AG, args)?;
    Ok(Judgement::read_only("searches files"))
}
