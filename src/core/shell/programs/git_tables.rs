//! git's table and the option allow-lists of its read subcommands.
//!
//! The diff options are shared by `diff`, `show`, `log`, `stash show` and friends; the log
//! options extend them. `--output`, `--ext-diff` and `--textconv` are deliberately absent.

use super::flags::Spec;
use super::git::git;
use super::manuals::{Rule, Table};

/// git is one program: its subcommands are judged by [`git`], and its examples cover them.
#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[Table {
    program: "git",
    manual: "git(1), git 2.47.3",
    rule: Rule::Walked(git),
    reads: &[
        "git status --short", "git log --oneline --graph -10", "git diff --stat HEAD~1",
        "git show -p HEAD", "git blame -L 10,20 src/main.rs", "git grep -n unwrap -- '*.rs'",
        "git branch -a", "git tag -l 'v1.*'", "git remote -v", "git config --get user.name",
        "git stash list", "git ls-files -m", "git rev-parse --abbrev-ref HEAD",
        "git clean --dry-run", "git cat-file -p HEAD", "git worktree list",
    ],
    refuses: &[
        "git commit -m x", "git checkout -b feature", "git push --dry-run", "git fetch origin",
        "git diff --output=/tmp/x", "git log --ext-diff", "git -c alias.st='!sh -c id' st",
        "git -C ../other log", "git branch -D old", "git tag -d v1", "git config user.name x",
        "git stash pop", "git clean -fd", "git hash-object -w notes.txt",
        "git remote add up https://example.com/x.git", "git submodule foreach 'rm -rf x'",
        "git grep -O x", "git archive -o out.tar HEAD", "git apply fix.patch",
        "git worktree add ../w", "git cat-file --textconv HEAD:x", "git notes add -m x",
        "git config edit", "git config unset user.name",
    ],
}];

#[rustfmt::skip]
pub(super) const DIFF: Spec = Spec {
    short: "pusazRbwWMCBDhtrmcN",
    // `-O<orderfile>` only reads the file that orders the output.
    short_value: "USGlO",
    long: &[
        "patch", "no-patch", "raw", "patch-with-raw", "patch-with-stat", "numstat", "shortstat",
        "summary", "name-only", "name-status", "check", "full-index", "binary", "minimal",
        "patience", "histogram", "no-color", "no-renames", "cached", "staged", "no-ext-diff",
        "no-textconv", "text", "ignore-all-space", "ignore-space-change", "ignore-space-at-eol",
        "ignore-blank-lines", "ignore-cr-at-eol", "function-context", "exit-code", "quiet",
        "no-prefix", "default-prefix", "compact-summary", "merge-base", "find-copies-harder",
        "irreversible-delete", "ita-invisible-in-index", "ita-visible-in-index", "pickaxe-all",
        "pickaxe-regex", "indent-heuristic", "no-indent-heuristic", "no-relative", "root",
        "no-commit-id", "always", "cc", "combined-all-paths", "remerge-diff", "no-stat",
        "no-color-moved", "no-color-moved-ws",
    ],
    long_value: &[
        "src-prefix", "dst-prefix", "line-prefix", "diff-filter", "diff-algorithm", "anchored",
        "word-diff-regex", "inter-hunk-context", "unified", "output-indicator-new",
        "output-indicator-old", "output-indicator-context", "stat-width", "stat-name-width",
        "stat-count", "stat-graph-width", "rotate-to", "skip-to", "ignore-matching-lines",
        "color-moved-ws",
    ],
    long_optional: &[
        "stat", "dirstat", "color", "color-words", "word-diff", "color-moved", "submodule",
        "find-renames", "find-copies", "break-rewrites", "relative", "abbrev", "ignore-submodules",
        "diff-merges", "dd",
    ],
    numeric: false,
    extends: None,
};

#[rustfmt::skip]
pub(super) const LOG: Spec = Spec {
    short: "giEFP",
    short_value: "nL",
    long: &[
        "oneline", "graph", "all", "first-parent", "abbrev-commit", "no-abbrev-commit", "reverse",
        "merges", "no-merges", "follow", "topo-order", "date-order", "author-date-order",
        "left-right", "cherry-pick", "cherry-mark", "cherry", "boundary", "source", "parents",
        "children", "simplify-by-decoration", "full-history", "dense", "sparse", "simplify-merges",
        "show-pulls", "use-mailmap", "mailmap", "no-decorate", "walk-reflogs", "regexp-ignore-case",
        "extended-regexp", "fixed-strings", "perl-regexp", "invert-grep", "all-match",
        "basic-regexp", "remove-empty", "relative-date", "log-size", "not", "ignore-missing",
        "no-min-parents", "no-max-parents", "no-expand-tabs", "no-notes", "reflog",
        "alternate-refs", "single-worktree", "exclude-first-parent-only", "clear-decorations",
        "no-walk", "count", "objects", "objects-edge", "in-commit-order", "full-diff", "no-graph",
        "show-linear-break", "bisect", "stdin", "pretty",
    ],
    long_value: &[
        "format", "max-count", "skip", "since", "after", "until", "before", "author", "committer",
        "grep", "date", "min-parents", "max-parents", "decorate-refs", "decorate-refs-exclude",
        "since-as-filter", "exclude", "encoding", "grep-reflog", "max-age", "min-age",
    ],
    long_optional: &[
        "decorate", "branches", "tags", "remotes", "glob", "ancestry-path", "expand-tabs", "notes",
        "pretty", "abbrev-commit",
    ],
    numeric: true,
    extends: Some(&DIFF),
};

#[rustfmt::skip]
pub(super) const STATUS: Spec = Spec {
    short: "sbvz",
    short_value: "",
    long: &[
        "short", "branch", "long", "show-stash", "ahead-behind", "no-ahead-behind", "renames",
        "no-renames", "verbose", "null", "no-column",
    ],
    long_value: &[],
    long_optional: &[
        "porcelain", "untracked-files", "ignored", "ignore-submodules", "column", "find-renames",
    ],
    numeric: false,
    extends: None,
};

#[rustfmt::skip]
pub(super) const BRANCH: Spec = Spec {
    short: "arvlqdDmMcCfi",
    short_value: "tu",
    long: &[
        "all", "remotes", "verbose", "list", "show-current", "quiet", "ignore-case", "omit-empty",
        "delete", "move", "copy", "force", "edit-description", "unset-upstream", "no-color",
        "no-column", "create-reflog", "no-track", "recurse-submodules",
    ],
    long_value: &["format", "sort", "points-at", "set-upstream-to"],
    long_optional: &[
        "merged", "no-merged", "contains", "no-contains", "color", "column", "abbrev", "track",
    ],
    numeric: false,
    extends: None,
};

#[rustfmt::skip]
pub(super) const TAG: Spec = Spec {
    short: "lasfdveinF",
    short_value: "muF",
    long: &[
        "list", "annotate", "sign", "force", "delete", "verify", "ignore-case", "omit-empty",
        "no-sign", "edit", "create-reflog",
    ],
    long_value: &[
        "format", "sort", "points-at", "message", "file", "local-user", "cleanup",
    ],
    long_optional: &[
        "merged", "no-merged", "contains", "no-contains", "color", "column",
    ],
    numeric: false,
    extends: None,
};

#[rustfmt::skip]
pub(super) const CONFIG: Spec = Spec {
    short: "lze",
    short_value: "f",
    long: &[
        "list", "get", "get-all", "get-regexp", "get-urlmatch", "show-origin", "show-scope",
        "name-only", "null", "global", "system", "local", "worktree", "includes", "no-includes",
        "bool", "int", "bool-or-int", "path", "expiry-date", "unset", "unset-all", "add",
        "replace-all", "edit", "rename-section", "remove-section", "get-color", "get-colorbool",
        "fixed-value", "all",
    ],
    long_value: &["file", "blob", "type", "default"],
    long_optional: &[],
    numeric: false,
    extends: None,
};

#[rustfmt::skip]
pub(super) const GREP: Spec = Spec {
    short: "nciIlLwvEFPhHozqrWpe",
    short_value: "efABCm",
    long: &[
        "cached", "untracked", "no-index", "no-exclude-standard", "exclude-standard",
        "recurse-submodules", "text", "ignore-case", "word-regexp", "invert-match", "full-name",
        "extended-regexp", "basic-regexp", "fixed-strings", "perl-regexp", "line-number", "column",
        "files-with-matches", "name-only", "files-without-match", "null", "only-matching", "count",
        "no-color", "break", "heading", "show-function", "function-context", "and", "or", "not",
        "all-match", "quiet",
    ],
    long_value: &[
        "max-depth", "threads", "context", "after-context", "before-context", "max-count",
    ],
    long_optional: &["color"],
    numeric: true,
    extends: None,
};

#[rustfmt::skip]
pub(super) const BLAME: Spec = Spec {
    short: "ltpcsewMCbnfk",
    short_value: "LS",
    long: &[
        "root", "show-stats", "porcelain", "line-porcelain", "incremental", "show-name",
        "show-number", "show-email", "reverse", "first-parent", "color-lines", "color-by-age",
        "progress", "no-progress", "minimal",
    ],
    long_value: &[
        "date", "since", "ignore-rev", "ignore-revs-file", "contents", "encoding",
    ],
    long_optional: &["abbrev", "score-debug"],
    numeric: false,
    extends: None,
};

#[rustfmt::skip]
pub(super) const LS_FILES: Spec = Spec {
    short: "zcdmoiskustvfX",
    short_value: "xX",
    long: &[
        "cached", "deleted", "modified", "others", "ignored", "stage", "directory",
        "no-empty-directory", "unmerged", "killed", "exclude-standard", "error-unmatch",
        "full-name", "recurse-submodules", "debug", "eol", "sparse", "resolve-undo", "deduplicate",
    ],
    long_value: &[
        "exclude", "exclude-from", "exclude-per-directory", "with-tree", "format",
    ],
    long_optional: &["abbrev"],
    numeric: false,
    extends: None,
};

#[rustfmt::skip]
pub(super) const LS_TREE: Spec = Spec {
    short: "rtdlz",
    short_value: "",
    long: &[
        "name-only", "name-status", "object-only", "full-name", "full-tree", "long",
    ],
    long_value: &["format"],
    long_optional: &["abbrev"],
    numeric: false,
    extends: None,
};

#[rustfmt::skip]
pub(super) const CAT_FILE: Spec = Spec {
    short: "ptseZz",
    short_value: "",
    long: &[
        "batch-all-objects", "follow-symlinks", "unordered", "buffer", "use-mailmap",
        "allow-unknown-type", "no-use-mailmap",
    ],
    long_value: &[],
    long_optional: &["batch", "batch-check", "batch-command"],
    numeric: false,
    extends: None,
};

/// Read-only subcommands whose options are plain switches we list loosely by family.
#[rustfmt::skip]
pub(super) const MISC: Spec = Spec {
    short: "qvsuzaltnrcdH",
    short_value: "",
    long: &[
        "show-toplevel", "git-dir", "git-common-dir", "absolute-git-dir", "show-cdup",
        "show-prefix", "is-inside-work-tree", "is-inside-git-dir", "is-bare-repository",
        "is-shallow-repository", "show-superproject-working-tree", "verify", "quiet", "sq",
        "symbolic", "symbolic-full-name", "all", "branches", "tags", "remotes", "local-env-vars",
        "show-object-format", "show-ref-format", "name-only", "always", "long", "first-parent",
        "exact-match", "contains", "dirty", "broken", "porcelain", "verbose", "heads", "head",
        "hash", "dereference", "exists", "is-ancestor", "independent", "fork-point", "octopus",
        "cached", "stdin", "no-index", "non-matching", "human-readable", "list", "more", "current",
        "sparse", "topo-order", "date-order", "sha1-name", "no-name", "short", "no-recurse",
        "expire", "undefined", "shell", "perl", "python", "tcl", "ignore-case", "include-root-refs",
        "annotate", "recursive", "summary", "keep-dashdash", "stop-at-non-option", "stuck-long",
        "default", "count",
    ],
    long_value: &[
        "abbrev-ref", "short", "git-path", "path-format", "resolve-git-dir", "since", "until",
        "after", "before", "format", "sort", "count", "points-at", "merged", "no-merged", "match",
        "exclude", "refs", "candidates", "abbrev", "default", "prefix", "name", "parseopt", "glob",
        "disambiguate", "exclude-hidden",
    ],
    long_optional: &[
        "abbrev-ref", "short", "abbrev", "show-object-format", "contains",
    ],
    numeric: false,
    extends: None,
};

/// `git hash-object` prints an object id; `-w` (stores the object) is left out.
#[rustfmt::skip]
pub(super) const HASH_OBJECT: Spec = Spec {
    short_value: "t",
    long: &["stdin", "no-stdin", "stdin-paths", "no-stdin-paths", "no-filters", "filters", "literally", "no-literally"],
    long_value: &["path"],
    ..Spec::EMPTY
};

/// `git verify-pack` runs `index-pack --verify`, which reads the pack and its index only.
pub(super) const VERIFY_PACK: Spec = Spec {
    short: "vs",
    long: &["verbose", "no-verbose", "stat-only", "no-stat-only"],
    long_value: &["object-format"],
    ..Spec::EMPTY
};

/// `git fsck` reports; `--lost-found` (writes dangling objects out) is left off.
#[rustfmt::skip]
pub(super) const FSCK: Spec = Spec {
    short: "v",
    long: &[
        "verbose", "no-verbose", "unreachable", "no-unreachable", "dangling", "no-dangling", "tags",
        "no-tags", "root", "no-root", "cache", "no-cache", "reflogs", "no-reflogs", "full",
        "no-full", "connectivity-only", "no-connectivity-only", "strict", "no-strict", "progress",
        "no-progress", "name-objects", "no-name-objects", "no-lost-found",
    ],
    ..Spec::EMPTY
};
