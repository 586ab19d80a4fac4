//! `sqlite3` (the SQLite 3.40 shell) opened read-only with a fixed query.
//!
//! `-readonly` makes the database refuse writes, and a missing file is not created, but the
//! shell itself still writes and runs things outside the database: the dot-commands `.shell`,
//! `.system`, `.output`, `.once`, `.save`, `.import`, `.load` and more, and the SQL functions
//! `writefile()`, `edit()` and `load_extension()` (tried: `sqlite3 -readonly t.db "select
//! writefile('x','y')"` creates `x`). So the query is held to an allow-list: dot-commands that
//! only describe the database, statements that start as reads, and functions known to be pure.
//! Without a query on the line the shell reads its commands from standard input, which is not
//! fixed, and options that run commands (`-cmd`, `-init`, `-A`) are refused. `~/.sqliterc` is
//! the user's own start-up file, trusted like git's configuration.

use super::{Rule, Table, literal_operands};
use crate::core::shell::escape;
use crate::core::shell::programs::{Judged, Judgement, Risk};
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[Table {
    program: "sqlite3",
    manual: "sqlite3 -help and sqlite.org/cli.html, SQLite 3.40",
    rule: Rule::Judged(sqlite3),
    reads: &[
        "sqlite3 -readonly app.db 'select count(*) from users'",
        "sqlite3 -readonly app.db .tables",
        "sqlite3 -readonly -json app.db 'SELECT name, max(id) FROM users GROUP BY name'",
        "sqlite3 --readonly app.db '.schema users' 'pragma table_info(users)'",
        "sqlite3 -readonly -header -column app.db 'select * from t where id in (select id from u) limit 5'",
    ],
    refuses: &[
        "sqlite3 app.db 'select 1'",
        "sqlite3 app.db 'drop table users'",
        "sqlite3 -readonly app.db",
        "sqlite3 -readonly app.db '.shell id'",
        "sqlite3 -readonly app.db '.output out.txt'",
        "sqlite3 -readonly app.db \"select writefile('x', 'y')\"",
        "sqlite3 -readonly app.db \"select load_extension('./x.so')\"",
        "sqlite3 -readonly app.db 'select edit(name) from t'",
        "sqlite3 -readonly -cmd '.shell id' app.db 'select 1'",
        "sqlite3 -readonly -init evil.sql app.db 'select 1'",
        "sqlite3 -readonly app.db \"$QUERY\"",
        "sqlite3 -readonly app.db 'vacuum into \"copy.db\"'",
        "sqlite3 -readonly 'file:app.db?mode=rw' 'select 1'",
        "sqlite3 -readonly app.db 'select \"writefile\"(1, 2)'",
        "sqlite3 -readonly app.db 'select writefile/**/(1, 2)'",
    ],
}];

/// Options that only choose the output form or how errors are handled.
#[rustfmt::skip]
const FLAGS: &[&str] = &[
    "readonly", "safe", "ascii", "bail", "batch", "box", "column", "csv", "echo", "header",
    "noheader", "html", "json", "line", "list", "markdown", "quote", "table", "tabs", "nofollow",
    "stats",
];

/// Options that take a value and only shape the output.
const VALUES: &[&str] = &["nullvalue", "separator", "newline"];

/// Dot-commands that only describe the database or set the output form.
#[rustfmt::skip]
const DOT_COMMANDS: &[&str] = &[
    ".tables", ".schema", ".indexes", ".indices", ".databases", ".dbinfo", ".fullschema",
    ".headers", ".mode", ".show", ".lint", ".dbconfig", ".help", ".timer", ".width", ".nullvalue",
    ".separator", ".changes", ".eqp", ".stats", ".version",
];

/// The words that may start a statement: reads only (writes would fail on a read-only
/// database anyway; `vacuum into`, `attach` and `pragma` settings reach outside it).
const STATEMENTS: &[&str] = &["select", "with", "values", "explain", "pragma"];

/// Names followed by `(` that are pure: built-in scalar, aggregate, window, date and JSON
/// functions, the pragmas read in function form, and SQL keywords written before a bracket.
#[rustfmt::skip]
const PURE_CALLS: &[&str] = &[
    "count", "sum", "total", "avg", "min", "max", "group_concat", "string_agg", "length",
    "octet_length", "lower", "upper", "substr", "substring", "trim", "ltrim", "rtrim", "replace",
    "instr", "coalesce", "ifnull", "nullif", "iif", "abs", "round", "typeof", "quote", "hex",
    "unhex", "printf", "format", "char", "unicode", "like", "glob", "random", "sign", "ceil",
    "ceiling", "floor", "trunc", "sqrt", "pow", "power", "exp", "ln", "log", "log10", "log2",
    "mod", "pi", "date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff",
    "json", "jsonb", "json_extract", "json_array", "json_object", "json_each", "json_tree",
    "json_group_array", "json_group_object", "json_array_length", "json_type", "json_valid",
    "json_quote", "json_insert", "json_replace", "json_set", "json_remove", "json_patch",
    "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead",
    "first_value", "last_value", "nth_value", "sqlite_version", "sqlite_source_id",
    "likely", "unlikely", "zeroblob", "randomblob", "soundex", "cast", "in", "exists", "over",
    "filter", "values", "as", "from", "join", "where", "and", "or", "not", "on", "using", "select",
    "when", "then", "else", "case", "by", "having", "union", "all", "distinct", "is", "between",
    "table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list",
    "pragma_table_info", "pragma_table_xinfo", "pragma_index_list", "pragma_index_info",
    "pragma_foreign_key_list", "pragma_database_list", "pragma_table_list",
];

/// Pragmas that only report.
#[rustfmt::skip]
const PRAGMAS: &[&str] = &[
    "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
    "foreign_key_list", "foreign_key_check", "database_list", "user_version", "schema_version",
    "application_id", "page_count", "page_size", "freelist_count", "integrity_check",
    "quick_check", "compile_options", "function_list", "module_list", "pragma_list",
    "collation_list", "encoding", "journal_mode", "data_version",
];

fn sqlite3(args: &[Word]) -> Judged {
    let mut words = args.iter();
    let mut read_only = false;
    let mut operands = Vec::new();
    while let Some(word) = words.next() {
        if word.may_be_option() {
            return Err(crate::core::shell::programs::flags::could_be_option(word));
        }
        let Some(name) = word.prefix.strip_prefix('-') else {
            operands.push(word.clone());
            continue;
        };
        let name = name.strip_prefix('-').unwrap_or(name);
        if !word.is_static {
            return Err(unknown_option(&word.text));
        }
        if name == "readonly" {
            read_only = true;
        } else if VALUES.contains(&name) {
            if words.next().is_none_or(|value| value.splits) {
                return Err(unknown_option(&word.text));
            }
        } else if !FLAGS.contains(&name) {
            return Err(unknown_option(&word.text));
        }
    }
    if !read_only {
        return Err(Judgement::risk(
            Risk::RunsCode,
            "sqlite3 without -readonly: may change or create the database",
        ));
    }
    let operands = literal_operands("sqlite3", &operands)?;
    let Some((database, commands)) = operands.split_first() else {
        return Err(Judgement::risk(
            Risk::Pager,
            "sqlite3 without a database: interactive",
        ));
    };
    if database.starts_with("file:") {
        return Err(Judgement::unverified(format!(
            "sqlite3: {} is a URI whose parameters may change how it opens",
            escape(database)
        )));
    }
    if commands.is_empty() {
        return Err(Judgement::risk(
            Risk::RunsCode,
            "sqlite3 without a query on the line: runs what standard input holds",
        ));
    }
    for command in commands {
        query(command)?;
    }
    Ok(Judgement::read_only("queries a database opened read-only"))
}

fn unknown_option(text: &str) -> Judgement {
    Judgement::unverified(format!(
        "sqlite3 option {} is not on the read-only list",
        escape(text)
    ))
}

/// The judgement of a dot-command known to run commands or write files (from the CLI's
/// `.help`), so that auto mode does not put it to the classifier.
fn known_dot_command(name: &str) -> Option<Judgement> {
    let what = |s: &str| format!("sqlite3 {}: {s}", escape(name));
    match name {
        ".shell" | ".system" | ".load" => Some(Judgement::risk(
            Risk::RunsCode,
            what("runs a command or loads code"),
        )),
        ".output" | ".once" | ".save" | ".backup" | ".import" | ".restore" | ".excel" => {
            Some(Judgement::writer(what("writes a file or the database")))
        }
        _ => None,
    }
}

/// One command-line query: a dot-command, or SQL statements.
fn query(command: &str) -> Result<(), Judgement> {
    let trimmed = command.trim_start();
    if trimmed.starts_with('.') {
        let name = trimmed.split_whitespace().next().unwrap_or(trimmed);
        if let Some(known) = known_dot_command(name) {
            return Err(known);
        }
        if trimmed.contains('\n') || !DOT_COMMANDS.contains(&name) {
            return Err(Judgement::unverified(format!(
                "sqlite3 {}: not a dot-command known only to describe",
                escape(name)
            )));
        }
        return Ok(());
    }
    let lower = command.to_ascii_lowercase();
    for statement in lower.split(';').filter(|s| !s.trim().is_empty()) {
        let first = statement
            .trim_start()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .next();
        let first = first.unwrap_or("");
        if !STATEMENTS.contains(&first) {
            return Err(Judgement::unverified(format!(
                "sqlite3: {} is not a statement known to read",
                escape(first)
            )));
        }
        if first == "pragma" {
            pragma(statement)?;
        }
    }
    calls(&lower)
}

/// A pragma that only reports: a name from the list, never `= value`.
fn pragma(statement: &str) -> Result<(), Judgement> {
    let rest = statement
        .trim_start()
        .trim_start_matches("pragma")
        .trim_start();
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
        .collect();
    let bare = name.rsplit('.').next().unwrap_or(&name);
    if !PRAGMAS.contains(&bare) || rest.contains('=') {
        return Err(Judgement::unverified(format!(
            "sqlite3 pragma {}: not one known only to report",
            escape(&name)
        )));
    }
    Ok(())
}

/// Every name written before `(` must be a pure function or a keyword. A bracket after a
/// quoted name (SQLite reads `"writefile"(…)` as a call) or a comment is refused, and so is
/// any comment, which could sit between a name and its bracket.
fn calls(sql: &str) -> Result<(), Judgement> {
    if sql.contains("/*") || sql.contains("--") {
        return Err(Judgement::unverified("sqlite3: a query with a comment"));
    }
    for (at, _) in sql.match_indices('(') {
        let before = sql[..at].trim_end();
        let start = before
            .bytes()
            .rposition(|b| !(b.is_ascii_alphanumeric() || b == b'_'))
            .map_or(0, |p| p + 1);
        let name = &before[start..];
        if name.is_empty() {
            let after_operator = before
                .chars()
                .last()
                .is_none_or(|c| "(,=<>+-*/|%&~!".contains(c));
            if after_operator {
                continue;
            }
            return Err(Judgement::unverified(
                "sqlite3: a bracket after a quoted name may call any function",
            ));
        }
        if !PURE_CALLS.contains(&name) {
            return Err(Judgement::unverified(format!(
                "sqlite3: {}() is not a function known to be pure",
                escape(name)
            )));
        }
    }
    Ok(())
}
