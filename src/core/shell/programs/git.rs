//! git: read subcommands with their option allow-lists, everything else refused.
//!
//! Global options that point git at another repository, config, helper or pager (`-C dir`,
//! `--git-dir`, `-c`, `--exec-path`, `-p`) make the line unverified; `-C .` is fine. After a
//! `cd` in the same line, git could be reading another repository's config, so it is
//! unverified too. List forms of `branch`, `tag`, `remote`, `stash`, `config`, `worktree` are
//! read-only; their other forms write.

use super::flags::{self, Parsed, Spec};
use super::git_format;
use super::git_tables::{
    BLAME, BRANCH, CAT_FILE, CONFIG, DIFF, FSCK, GREP, HASH_OBJECT, LOG, LS_FILES, LS_TREE, MISC,
    STATUS, TAG, VERIFY_PACK,
};
use super::{Judged, Judgement, Risk};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

#[rustfmt::skip]
const NETWORK: &[&str] = &[
    "fetch", "pull", "clone", "ls-remote", "send-email", "svn", "p4", "lfs", "request-pull",
    "archive-remote",
];
#[rustfmt::skip]
const INTERACTIVE: &[&str] = &[
    "help", "difftool", "mergetool", "instaweb", "gui", "citool", "web--browse", "gitk",
];

pub(super) fn git(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut rest = args;
    while let Some((first, tail)) = rest.split_first() {
        let text = first
            .literal_text()
            .ok_or_else(|| Judgement::dynamic("dynamic git option"))?;
        match text {
            "--no-pager"
            | "-P"
            | "--no-optional-locks"
            | "--literal-pathspecs"
            | "--glob-pathspecs"
            | "--noglob-pathspecs"
            | "--icase-pathspecs"
            | "--no-replace-objects"
            | "--no-advice"
            | "--no-lazy-fetch" => rest = tail,
            "--version" | "-v" => return Ok(Judgement::read_only("prints its version")),
            "-C" => {
                let dir = tail.first().and_then(Word::literal_text);
                if !matches!(dir, Some("." | "./")) {
                    return Err(Judgement::risk(
                        Risk::GitElsewhere,
                        "git -C: works in another repository",
                    ));
                }
                rest = &tail[1..];
            }
            "-p" | "--paginate" => {
                return Err(Judgement::risk(Risk::Pager, "git -p: runs a pager"));
            }
            _ if text.starts_with('-') => {
                let name = text.split('=').next().unwrap_or(text);
                return Err(Judgement::risk(
                    Risk::GitElsewhere,
                    format!(
                        "git {}: can point git at other code, config or repositories",
                        escape(name)
                    ),
                ));
            }
            _ => break,
        }
    }
    let Some((sub, args)) = rest.split_first() else {
        return Err(Judgement::unverified("git without a subcommand"));
    };
    let sub = sub
        .literal_text()
        .ok_or_else(|| Judgement::dynamic("dynamic git subcommand"))?;
    if args.len() == 1 && matches!(args[0].literal_text(), Some("-h")) {
        return Ok(Judgement::read_only("prints usage"));
    }
    if walker.changed_dir {
        return Err(Judgement::risk(
            Risk::GitElsewhere,
            "git after cd: may read another repository's config",
        ));
    }
    git_format::check(sub, args)?;
    if NETWORK.contains(&sub) {
        return Err(Judgement::risk(
            Risk::Network,
            format!("git {sub}: reaches the network"),
        ));
    }
    if INTERACTIVE.contains(&sub) {
        return Err(Judgement::risk(
            Risk::Pager,
            format!("git {sub}: runs an interactive tool or pager"),
        ));
    }
    let judgement = match sub {
        "status" => {
            // `-uno`: the untracked mode is attached to a short flag.
            let args: Vec<Word> = args
                .iter()
                .map(
                    |w| match w.literal_text().and_then(|t| t.strip_prefix("-u")) {
                        Some("") => Word::literal("--untracked-files"),
                        Some(mode) => Word::literal(&format!("--untracked-files={mode}")),
                        None => w.clone(),
                    },
                )
                .collect();
            read(&STATUS, &args, "shows the working tree status")?
        }
        "notes" => match args.first().and_then(Word::literal_text) {
            None | Some("list" | "show") => {
                read(&MISC, args.get(1..).unwrap_or(&[]), "shows notes")?
            }
            _ => return Ok(Judgement::writer("git notes: changes notes")),
        },
        "log" | "whatchanged" | "rev-list" | "shortlog" => {
            let spec = if sub == "shortlog" { &SHORTLOG } else { &LOG };
            diffish(spec, args, "shows history")?
        }
        "diff" | "diff-tree" | "diff-files" | "diff-index" | "range-diff" => {
            diffish(&DIFF_CMD, args, "shows changes")?
        }
        "show" => diffish(&LOG, args, "shows objects")?,
        "blame" | "annotate" => read(&BLAME, args, "shows line history")?,
        "grep" => grep(args)?,
        "ls-files" => read(&LS_FILES, args, "lists files")?,
        "ls-tree" => read(&LS_TREE, args, "lists a tree")?,
        "cat-file" => cat_file(args)?,
        "hash-object" if has_word(args, "-w") => {
            return Ok(Judgement::writer("git hash-object -w: stores objects"));
        }
        "hash-object" => read(&HASH_OBJECT, args, "hashes files without storing them")?,
        "verify-pack" => read(&VERIFY_PACK, args, "checks pack files")?,
        "fsck" if has_word(args, "--lost-found") => {
            return Ok(Judgement::writer(
                "git fsck --lost-found: writes dangling objects out",
            ));
        }
        "fsck" => read(&FSCK, args, "checks the object database")?,
        "rev-parse" | "describe" | "name-rev" | "merge-base" | "show-ref" | "for-each-ref"
        | "count-objects" | "var" | "check-ignore" | "check-attr" | "show-branch" | "cherry"
        | "version" | "check-ref-format" => read(&MISC, args, "reads repository data")?,
        "symbolic-ref" => {
            let parsed = flags::parse(&MISC, args)?;
            if parsed.args.len() > 1
                || parsed.args.iter().any(|a| a.many)
                || parsed.has(&["-d", "--delete"])
            {
                return Ok(Judgement::writer("git symbolic-ref: changes a ref"));
            }
            Judgement::read_only("reads a ref")
        }
        "branch" => listing(&BRANCH, args, "branch", BRANCH_WRITES, BRANCH_LIST)?,
        "tag" => {
            // `-n<num>` lists tags with that many annotation lines.
            let args: Vec<Word> = args
                .iter()
                .map(
                    |w| match w.literal_text().and_then(|t| t.strip_prefix("-n")) {
                        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                            Word::literal("-n")
                        }
                        _ => w.clone(),
                    },
                )
                .collect();
            listing(&TAG, &args, "tag", TAG_WRITES, TAG_LIST)?
        }
        "remote" => remote(args)?,
        "stash" => stash(args)?,
        "config" => config(args)?,
        "worktree" => subverb(args, &["list"], "git worktree: changes worktrees")?,
        "submodule" => match args.first().and_then(Word::literal_text) {
            None | Some("status" | "summary") => {
                read(&MISC, &args[args.len().min(1)..], "shows submodules")?
            }
            Some("foreach") => {
                return Err(Judgement::risk(
                    Risk::RunsCode,
                    "git submodule foreach: runs commands",
                ));
            }
            _ => return Ok(Judgement::writer("git submodule: changes submodules")),
        },
        "reflog" => match args.first().and_then(Word::literal_text) {
            Some("show") => diffish(&LOG, &args[1..], "shows the reflog")?,
            Some("expire" | "delete" | "drop") => {
                return Ok(Judgement::writer("git reflog: changes reflogs"));
            }
            Some("exists") => Judgement::read_only("checks a reflog"),
            _ => diffish(&LOG, args, "shows the reflog")?,
        },
        "clean" => {
            let parsed = flags::parse(&CLEAN, args)?;
            // A dry run wins over `--force`; interactive mode still asks and removes.
            if !parsed.has(&["-n", "--dry-run"]) || parsed.has(&["-i", "--interactive"]) {
                return Ok(Judgement::writer("git clean: removes untracked files"));
            }
            Judgement::read_only("lists what clean would remove")
        }
        "apply" => {
            let parsed = flags::parse(&APPLY, args)?;
            let checks = parsed.has(&["--check", "--stat", "--numstat", "--summary"]);
            if !checks || parsed.has(&["--apply"]) {
                return Ok(Judgement::writer("git apply: changes files"));
            }
            Judgement::read_only("checks a patch")
        }
        "archive" => {
            let parsed = flags::parse(&ARCHIVE, args)?;
            if parsed.has(&["-o", "--output"]) {
                return Ok(Judgement::writer("git archive -o: writes a file"));
            }
            Judgement::read_only("writes an archive to its output")
        }
        "push" => return Ok(Judgement::writer("git push: changes the remote")),
        "verify-commit" | "verify-tag" => {
            return Err(Judgement::risk(
                Risk::Network,
                format!("git {sub}: runs gpg, which may fetch keys and update its trust database"),
            ));
        }
        _ => {
            return Ok(Judgement::writer(format!(
                "git {}: changes the repository or files",
                escape(sub)
            )));
        }
    };
    Ok(judgement)
}

/// True when `word` is one of the line's static words.
fn has_word(args: &[Word], word: &str) -> bool {
    args.iter().any(|w| w.literal_text() == Some(word))
}

fn read(spec: &Spec, args: &[Word], why: &str) -> Judged {
    flags::parse(spec, args)?;
    Ok(Judgement::read_only(why))
}

/// Diff-like subcommands: refuse the options that write or run drivers with a clear reason.
fn diffish(spec: &Spec, args: &[Word], why: &str) -> Judged {
    for word in args.iter().filter_map(Word::literal_text) {
        let name = word.split('=').next().unwrap_or(word);
        match name {
            "--output" => return Err(Judgement::writer("git --output: writes a file")),
            "--ext-diff" | "--textconv" => {
                return Err(Judgement::risk(
                    Risk::RunsCode,
                    format!("git {name}: runs a diff driver"),
                ));
            }
            "--" => break,
            _ => {}
        }
    }
    read(spec, args, why)
}

#[rustfmt::skip]
const DIFF_CMD: Spec = Spec {
    numeric: true,
    extends: Some(&DIFF),
    long: &[
        "no-index", "no-merges", "creation-factor", "no-dual-color", "left-only", "right-only",
    ],
    ..Spec::EMPTY
};
const SHORTLOG: Spec = Spec {
    short: "nsec",
    long: &["numbered", "summary", "email", "committer"],
    long_value: &["group"],
    long_optional: &["format"],
    extends: Some(&LOG),
    ..Spec::EMPTY
};
const CLEAN: Spec = Spec {
    short: "ndxXqfi",
    short_value: "e",
    long: &["dry-run", "quiet", "force", "interactive"],
    long_value: &["exclude"],
    ..Spec::EMPTY
};
#[rustfmt::skip]
const APPLY: Spec = Spec {
    short: "vzR",
    short_value: "pC",
    long: &[
        "check", "stat", "numstat", "summary", "apply", "reverse", "verbose", "index", "cached",
        "unidiff-zero", "recount", "allow-empty", "quiet",
    ],
    long_value: &["include", "exclude", "directory", "whitespace"],
    ..Spec::EMPTY
};
#[rustfmt::skip]
const ARCHIVE: Spec = Spec {
    short: "lv0123456789",
    short_value: "o",
    long: &["list", "verbose", "worktree-attributes"],
    long_value: &[
        "format", "prefix", "output", "add-file", "add-virtual-file", "mtime",
    ],
    ..Spec::EMPTY
};

fn grep(args: &[Word]) -> Judged {
    if args
        .iter()
        .filter_map(Word::literal_text)
        .any(|w| w.starts_with("-O") || w.starts_with("--open-files-in-pager"))
    {
        return Err(Judgement::risk(
            Risk::Pager,
            "git grep -O: opens files in a pager",
        ));
    }
    read(&GREP, args, "searches tracked files")
}

fn cat_file(args: &[Word]) -> Judged {
    if args
        .iter()
        .filter_map(Word::literal_text)
        .any(|w| w == "--textconv" || w == "--filters")
    {
        return Err(Judgement::risk(
            Risk::RunsCode,
            "git cat-file: runs conversion drivers",
        ));
    }
    read(&CAT_FILE, args, "shows objects")
}

#[rustfmt::skip]
const BRANCH_WRITES: &[&str] = &[
    "-d", "-D", "-m", "-M", "-c", "-C", "-f", "-t", "-u", "--delete", "--move", "--copy", "--force",
    "--edit-description", "--set-upstream-to", "--unset-upstream", "--track", "--no-track",
    "--create-reflog",
];
#[rustfmt::skip]
const BRANCH_LIST: &[&str] = &[
    "-l", "--list", "-a", "--all", "-r", "--remotes", "--merged", "--no-merged", "--contains",
    "--no-contains", "--points-at",
];
#[rustfmt::skip]
const TAG_WRITES: &[&str] = &[
    "-a", "-s", "-u", "-f", "-d", "-m", "-F", "-e", "--annotate", "--sign", "--local-user",
    "--force", "--delete", "--message", "--file", "--edit", "--create-reflog", "-v", "--verify",
];
#[rustfmt::skip]
const TAG_LIST: &[&str] = &[
    "-l", "--list", "-n", "--contains", "--no-contains", "--points-at", "--merged", "--no-merged",
];

/// `branch` and `tag`: list forms read; naming a new one or any change option writes.
fn listing(spec: &Spec, args: &[Word], what: &str, writes: &[&str], list: &[&str]) -> Judged {
    let parsed: Parsed = flags::parse(spec, args)?;
    if parsed.has(writes) || (!parsed.args.is_empty() && !parsed.has(list)) {
        return Err(Judgement::writer(format!(
            "git {what}: creates, changes or deletes a {what}"
        )));
    }
    Ok(Judgement::read_only(format!("lists {what}es")))
}

fn remote(args: &[Word]) -> Judged {
    match args
        .iter()
        .map(Word::literal_text)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] | [Some("-v" | "--verbose")] => Ok(Judgement::read_only("lists remotes")),
        [Some("get-url"), ..] => Ok(Judgement::read_only("shows a remote's URL")),
        // `-n` shows the configured remote without querying it.
        [Some("show"), Some("-n"), rest @ ..]
        | [Some("-v"), Some("show"), Some("-n"), rest @ ..]
            if rest.iter().all(|r| r.is_some_and(|r| !r.starts_with('-'))) =>
        {
            Ok(Judgement::read_only("shows a remote without querying it"))
        }
        [Some("show" | "update" | "prune"), ..] | [Some("-v"), Some("show" | "update"), ..] => Err(
            Judgement::risk(Risk::Network, "git remote: reaches the network"),
        ),
        _ => Err(Judgement::writer("git remote: changes remotes")),
    }
}

fn stash(args: &[Word]) -> Judged {
    match args.first().and_then(Word::literal_text) {
        Some("list") => diffish(&LOG, &args[1..], "lists stashes"),
        Some("show") => diffish(&LOG, &args[1..], "shows a stash"),
        _ => Err(Judgement::writer(
            "git stash: changes the stash and working tree",
        )),
    }
}

#[rustfmt::skip]
const CONFIG_READS: &[&str] = &[
    "--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "--get-color",
    "--get-colorbool",
];
#[rustfmt::skip]
const CONFIG_WRITES: &[&str] = &[
    "--unset", "--unset-all", "--add", "--replace-all", "-e", "--edit", "--rename-section",
    "--remove-section",
];

fn config(args: &[Word]) -> Judged {
    if let Some(verb) = args.first().and_then(Word::literal_text)
        && !verb.starts_with('-')
        && matches!(verb, "get" | "list")
    {
        flags::parse(&CONFIG, &args[1..])?;
        return Ok(Judgement::read_only("reads settings"));
    }
    // Since git 2.46 the first word may be a subcommand: `edit` opens the editor, the others
    // change settings. A key always has a section (`user.name`); a lone word without one is
    // such a subcommand, or one git may add.
    if let Some(verb) = args.first().and_then(Word::literal_text)
        && !verb.starts_with('-')
        && !verb.contains('.')
    {
        return Err(Judgement::writer(format!(
            "git config {}: a subcommand that changes settings or opens an editor",
            escape(verb)
        )));
    }
    // `git config` stops at its first operand: `git config key value --get` sets `key`.
    let (parsed, operands) = flags::parse_leading(&CONFIG, args)?;
    if operands.iter().any(|w| w.many) {
        return Err(Judgement::dynamic(
            "git config: a glob or expansion may give it a value to set",
        ));
    }
    let lone_key = operands.len() == 1 && !parsed.has(&["--add", "--replace-all"]);
    if (parsed.has(CONFIG_READS) || lone_key) && !parsed.has(CONFIG_WRITES) {
        return Ok(Judgement::read_only("reads settings"));
    }
    Err(Judgement::writer("git config: changes settings"))
}

/// Subcommands like `worktree` whose only read-only verbs are `reads`.
fn subverb(args: &[Word], reads: &[&str], why: &str) -> Judged {
    match args.first().and_then(Word::literal_text) {
        Some(verb) if reads.contains(&verb) => read(&MISC, &args[1..], "lists"),
        _ => Err(Judgement::writer(why)),
    }
}
