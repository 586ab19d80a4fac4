//! What each program does with its arguments: the per-program judgement.
//!
//! [`judge`] takes one command's words after quote removal. The command word must be a bare
//! name or a file in a system directory (`/usr/bin/git`); anything else (`./ls`, `bin/grep`,
//! `$CMD`) is not trusted. The name then picks a judgement: the simple lists for programs whose
//! behaviour does not depend on their arguments ([`tables`]), or the program's own table
//! ([`manuals`]): its manual, its rule and the lines it must read and refuse. A table's rule is
//! data (an option allow-list, a fixed refusal) or the code of a hand-written family for the
//! programs whose arguments need it: complete option allow-lists, sed and awk programs read as
//! their interpreters would, wrappers that run another command ([`wrappers`]), which is judged in
//! turn. Every reason ends with the table that gave it, which `gatehouse explain` shows.

mod archive;
mod awk;
mod awk_program;
mod compare;
mod dd;
mod find;
mod firewall;
mod flags;
mod gatehouse;
mod git;
mod git_format;
mod git_tables;
mod hosts;
mod iproute;
mod manuals;
mod network;
mod network_tables;
mod packages;
mod scripts;
mod search;
mod sed;
mod sed_script;
mod shell;
mod shell_tables;
mod system;
mod system_tables;
mod tables;
mod text;
mod text_tables;
mod viewers;
mod viewers_tables;
mod wrappers;
mod wrappers_tables;

#[cfg(test)]
#[path = "programs_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "parsing_tests.rs"]
mod parsing_tests;

#[cfg(test)]
#[path = "reads_tests.rs"]
mod reads_tests;

use super::walk::Walker;
use super::words::Word;
use super::{Obstacle, Risk, Safety, escape};

/// The analyser's judgement of one command: how safe and why, in a few words. Not the
/// classifier's advice, which is a [`Verdict`](crate::core::decision::Verdict).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Judgement {
    pub safety: Safety,
    /// What keeps an unverified judgement unverified; `Unknown` for the others.
    pub obstacle: Obstacle,
    pub why: String,
}

impl Judgement {
    pub fn read_only(why: impl Into<String>) -> Judgement {
        Judgement {
            safety: Safety::ReadOnly,
            obstacle: Obstacle::Unknown,
            why: why.into(),
        }
    }

    /// Unverified for want of knowledge only: a program, subcommand, option or form of its
    /// operands the tables do not hold, in words the line spells out, all shown to the model.
    pub fn unverified(why: impl Into<String>) -> Judgement {
        Judgement {
            safety: Safety::Unverified,
            obstacle: Obstacle::Unknown,
            why: why.into(),
        }
    }

    /// Unverified because a word it depends on is only known when the line runs (a variable,
    /// a glob or a brace word where an option, a script or a program name goes).
    pub fn dynamic(why: impl Into<String>) -> Judgement {
        Judgement::risk(Risk::Dynamic, why)
    }

    /// Unverified because the analyser cannot read it as the shell or the program would.
    pub fn unparsed(why: impl Into<String>) -> Judgement {
        Judgement::risk(Risk::Unparsed, why)
    }

    /// Unverified because of a risk the analyser knows.
    pub fn risk(risk: Risk, why: impl Into<String>) -> Judgement {
        Judgement {
            safety: Safety::Unverified,
            obstacle: Obstacle::Known(risk),
            why: why.into(),
        }
    }

    /// The same judgement with its reason worded anew (for wrappers and `find -exec`).
    pub fn reworded(self, why: impl Into<String>) -> Judgement {
        Judgement {
            why: why.into(),
            ..self
        }
    }

    pub fn writer(why: impl Into<String>) -> Judgement {
        Judgement {
            safety: Safety::Writer,
            obstacle: Obstacle::Unknown,
            why: why.into(),
        }
    }

    /// Changes what gatehouse itself allows (see [`gatehouse`]).
    pub fn tamper(why: impl Into<String>) -> Judgement {
        Judgement {
            safety: Safety::Tamper,
            obstacle: Obstacle::Unknown,
            why: why.into(),
        }
    }

    /// The less safe of two judgements; between two unverified ones, the riskier obstacle (the
    /// first on a tie).
    pub fn max(self, other: Judgement) -> Judgement {
        if (other.safety, other.obstacle) > (self.safety, self.obstacle) {
            other
        } else {
            self
        }
    }
}

/// A program's judgement: `Err` carries an early refusal, so `?` reads naturally.
pub(crate) type Judged = Result<Judgement, Judgement>;

/// Directories whose programs are trusted to be what their name says.
const SYSTEM_DIRS: &[&str] = &[
    "/bin/",
    "/usr/bin/",
    "/usr/local/bin/",
    "/sbin/",
    "/usr/sbin/",
    "/usr/local/sbin/",
];

/// Judges one command (`argv[0]` is the command word).
pub(crate) fn judge(walker: &mut Walker, argv: &[Word]) -> Judgement {
    let Some(first) = argv.first() else {
        return Judgement::unparsed("empty command");
    };
    if let Some(judgement) = gatehouse::recognise(argv) {
        return judgement;
    }
    if !first.is_static {
        return Judgement::dynamic("the command word is only known when the line runs");
    }
    let Some(name) = program_name(&first.text) else {
        let why = format!(
            "{} is not a program from a system directory",
            escape(&first.text)
        );
        return Judgement::risk(Risk::PathQualified, why);
    };
    let args = &argv[1..];
    if let [only] = args
        && only.is_static
        && asks_for_version(name, &only.text)
    {
        return Judgement::read_only("prints its help or version");
    }
    if !reads_whatever(name)
        && let Some(word) = args.iter().find(|w| builds_option(w))
    {
        return Judgement::dynamic(format!("{} could expand to any option", escape(&word.text)));
    }
    match judge_program(walker, name, args) {
        Some(Ok(judgement) | Err(judgement)) => judgement,
        None => {
            gatehouse::unknown(args).unwrap_or_else(|| Judgement::unverified("unknown program"))
        }
    }
}

/// The program a command word names: a bare name, or the file name of a path in a system
/// directory. `None` for relative and other paths.
fn program_name(word: &str) -> Option<&str> {
    if word.is_empty() {
        return None;
    }
    if !word.contains('/') {
        return Some(word);
    }
    SYSTEM_DIRS.iter().find_map(|dir| {
        let rest = word.strip_prefix(dir)?;
        (!rest.is_empty() && !rest.contains('/')).then_some(rest)
    })
}

/// True for a word that starts with `-` and whose option is only known when the line runs:
/// a glob or brace expansion (`-*`, `-{o,x}`, `--out{put,}`) matches or builds any option,
/// and so does an expansion right after the dash (`-$X`, `--$X`). An expansion after a known
/// letter (`-g"$V"`) is a value or more letters, which the program's option table decides.
fn builds_option(word: &Word) -> bool {
    !word.is_static
        && word.prefix.starts_with('-')
        && (word.many || word.prefix == "-" || word.prefix == "--")
}

/// Known to the lists, or to a table with read forms. A table of a program
/// known only to write or run does not take `--version` on trust: several such tools hand it
/// to the project's own copy (`nx`, `turbo` and `lerna` defer to the workspace's install).
fn is_known(name: &str) -> bool {
    tables::simple(name).is_some() || manuals::lookup(name).is_some_and(|t| t.has_read_forms())
}

/// True for programs that are read-only whatever their arguments, dynamic ones included.
fn reads_whatever(name: &str) -> bool {
    tables::reads_whatever(name) || manuals::lookup(name).is_some_and(|t| t.reads_whatever())
}

/// Programs that run as another user are never read-only, not even to print their version.
const NEVER: &[&str] = &["sudo", "doas", "su", "pkexec", "run0"];

/// Whether `NAME FLAG` alone only prints help or a version. `--help` and `--version` are
/// enough for any program we know; shorter spellings only for the runtimes that use them that
/// way (`python3 -V`, `node -v`, `java -version`).
fn asks_for_version(name: &str, flag: &str) -> bool {
    if NEVER.contains(&name) || !is_known(name) {
        return false;
    }
    match flag {
        "--help" | "--version" => true,
        "-V" => tables::is_runner(name) || matches!(name, "cargo" | "pip" | "pip3"),
        "-v" => matches!(
            name,
            "node"
                | "npm"
                | "npx"
                | "yarn"
                | "pnpm"
                | "bun"
                | "deno"
                | "make"
                | "gmake"
                | "ruby"
                | "perl"
                | "php"
                | "gcc"
                | "g++"
                | "cc"
                | "clang"
                | "clang++"
        ),
        "-version" => matches!(name, "java" | "javac" | "kotlinc" | "scala"),
        _ => false,
    }
}

pub(crate) type Judge = fn(&mut Walker, &str, &[Word]) -> Judged;

fn judge_program(walker: &mut Walker, name: &str, args: &[Word]) -> Option<Judged> {
    if let Some(judgement) = tables::simple(name) {
        return Some(Ok(judgement));
    }
    manuals::lookup(name).map(|table| Ok(table.judge(walker, args)))
}

/// Which table judges the program `name`, as [`judge_program`] looks them up: one of the
/// simple lists (`the readers list`) or the program's own table (`table tput`); `None` for a
/// program no table knows.
pub(crate) fn table_of(name: &str) -> Option<String> {
    if let Some(list) = tables::list_of(name) {
        return Some(format!("the {list} list"));
    }
    manuals::lookup(name).map(|table| format!("table {}", table.program))
}
