//! Program knowledge as data: one [`Table`] per program, written from its manual (or its
//! `--help` where no manual is installed) and checked against the program's real behaviour.
//!
//! A table names the program, the manual it was written from, the [`Rule`] that judges it and
//! two sets of example lines: forms the rule must find read-only and neighbouring forms it must
//! not (the write, run or network forms of the same program). One test runs every table's
//! examples through the whole analyser, so each program carries its own test in its table.
//!
//! Most tables are written as data here. The programs whose judgement needs code (the
//! hand-written families: `git`, `find`, `sort`, the wrappers, the shell builtins…) have their
//! tables beside that code, in their own modules, with a [`Rule::Walked`] rule pointing at it;
//! [`families`] gathers both. The simple lists ([`super::tables`]) are looked up first; a test
//! checks that no table names a program a list holds, so a table is always the one that judged
//! its program. The judgement's reason ends with the table that gave it, which `gatehouse
//! explain` shows.

mod database;
mod documents;
mod listing;
mod mercurial;
mod readers;
mod terminal;
mod typeset;
mod writers;

#[cfg(test)]
#[path = "tests.rs"]
mod tests;

use std::collections::HashMap;
use std::sync::LazyLock;

use super::flags::{self, Spec};
use super::{Judge, Judged, Judgement, Risk};
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

/// What one program does, from its manual.
pub(crate) struct Table {
    pub program: &'static str,
    /// The manual page or help text the table was written from (`tput(1), ncurses 6.4`).
    pub manual: &'static str,
    pub rule: Rule,
    /// Lines the table must find read-only (empty for programs known only to write or run).
    /// Read by the tables' test only.
    #[cfg_attr(not(test), allow(dead_code))]
    pub reads: &'static [&'static str],
    /// Neighbouring lines of the same program that must not be read-only.
    #[cfg_attr(not(test), allow(dead_code))]
    pub refuses: &'static [&'static str],
}

/// How a table judges its program's arguments.
pub(crate) enum Rule {
    /// No option writes, runs other code or reaches the network: read-only with any arguments,
    /// dynamic ones included. The text says what it does.
    Reads(&'static str),
    /// Read-only with the options of the spec and any operands (files it reads); any other
    /// option is unknown and stays unverified.
    Options(&'static Spec, &'static str),
    /// Judged by a function, for programs whose operands or option values decide.
    Judged(fn(&[Word]) -> Judged),
    /// Judged by a function that also needs the line around the command: where its output
    /// goes (`sort -o /dev/stdout`), the commands it runs in turn (wrappers, `find -exec`) or
    /// the name it was called by. The older hand-written families are tables of this rule.
    Walked(Judge),
    /// Known to change files or system state, with the reason a person should see.
    Writes(&'static str),
    /// Known to run code of the line's or the project's choosing.
    Runs(&'static str),
    /// Known to reach the network.
    Network(&'static str),
    /// An editor, pager or other interactive program.
    Interactive(&'static str),
}

/// Every table, by family.
fn families() -> impl Iterator<Item = &'static Table> {
    [
        terminal::TABLES,
        typeset::TABLES,
        database::TABLES,
        documents::TABLES,
        listing::TABLES,
        mercurial::TABLES,
        readers::TABLES,
        writers::TABLES,
        super::compare::TABLES,
        super::dd::TABLES,
        super::shell_tables::TABLES,
        super::wrappers_tables::TABLES,
        super::scripts::TABLES,
        super::network_tables::TABLES,
        super::iproute::TABLES,
        super::firewall::TABLES,
        super::viewers_tables::TABLES,
        super::packages::TABLES,
        super::git_tables::TABLES,
        super::text_tables::TABLES,
        super::sed::TABLES,
        super::awk::TABLES,
        super::search::TABLES,
        super::find::TABLES,
        super::archive::TABLES,
        super::system_tables::TABLES,
    ]
    .into_iter()
    .flatten()
}

static INDEX: LazyLock<HashMap<&'static str, &'static Table>> = LazyLock::new(|| {
    let mut index = HashMap::new();
    for table in families() {
        index.entry(table.program).or_insert(table);
    }
    index
});

/// The table of `name`, if one is written.
pub(crate) fn lookup(name: &str) -> Option<&'static Table> {
    INDEX.get(name).copied()
}

/// How many programs the tables know.
#[cfg(test)]
pub(crate) fn count() -> usize {
    INDEX.len()
}

impl Table {
    /// Judges `args` (the words after the program name) by the table's rule; the reason names
    /// the table.
    pub(crate) fn judge(&self, walker: &mut Walker, args: &[Word]) -> Judgement {
        let judged = match &self.rule {
            Rule::Reads(what) => Ok(Judgement::read_only(*what)),
            Rule::Options(spec, what) => {
                flags::parse(spec, args).map(|_| Judgement::read_only(*what))
            }
            Rule::Judged(judge) => judge(args),
            Rule::Walked(judge) => judge(walker, self.program, args),
            Rule::Writes(why) => Ok(Judgement::writer(*why)),
            Rule::Runs(why) => Ok(Judgement::risk(Risk::RunsCode, *why)),
            Rule::Network(why) => Ok(Judgement::risk(Risk::Network, *why)),
            Rule::Interactive(why) => Ok(Judgement::risk(Risk::Pager, *why)),
        };
        let judgement = match judged {
            Ok(judgement) | Err(judgement) => judgement,
        };
        let why = format!(
            "{} (table {}, {})",
            judgement.why, self.program, self.manual
        );
        judgement.reworded(why)
    }

    /// True when some forms of the program are read-only.
    /// Never for the programs that run as another user ([`super::NEVER`]), whose tables walk
    /// the command they run only to record it.
    pub(crate) fn has_read_forms(&self) -> bool {
        !super::NEVER.contains(&self.program)
            && matches!(
                self.rule,
                Rule::Reads(_) | Rule::Options(..) | Rule::Judged(_) | Rule::Walked(_)
            )
    }

    /// True when the program reads whatever its arguments.
    pub(crate) fn reads_whatever(&self) -> bool {
        matches!(self.rule, Rule::Reads(_))
    }
}

/// The static text of each operand, or a dynamic judgement naming the first that is not.
pub(crate) fn literal_operands<'w>(
    program: &str,
    operands: &'w [Word],
) -> Result<Vec<&'w str>, Judgement> {
    operands
        .iter()
        .map(|word| {
            word.literal_text().filter(|_| !word.many).ok_or_else(|| {
                Judgement::dynamic(format!(
                    "{program}: {} is only known when the line runs",
                    crate::core::shell::escape(&word.text)
                ))
            })
        })
        .collect()
}

/// The letters of the short-option bundles among `args`, in order, up to `--`: each bundle's
/// letters stop at the first that takes a value (one of `values`), whose value is the rest.
/// Lets a table name the known-bad flags of a program before its allow-list refuses them as
/// merely unknown.
pub(crate) fn short_letters<'w>(
    args: &'w [Word],
    values: &'w str,
) -> impl Iterator<Item = char> + 'w {
    args.iter()
        .filter_map(Word::literal_text)
        .take_while(|text| *text != "--")
        .filter_map(|text| text.strip_prefix('-').filter(|rest| !rest.starts_with('-')))
        .flat_map(move |letters| {
            let mut done = false;
            letters.chars().take_while(move |letter| {
                let take = !done;
                done = done || values.contains(*letter);
                take
            })
        })
}
