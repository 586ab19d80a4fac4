//! Every table's own examples, run through the whole analyser, and the index's invariants.

use std::collections::HashSet;

use super::{Rule, Table, families, lookup};
use crate::core::shell::programs::tables;
use crate::core::shell::{Safety, analyse};

fn has_read_forms(table: &Table) -> bool {
    table.has_read_forms()
}

#[test]
fn every_table_reads_its_read_examples_and_refuses_its_neighbours() {
    let mut failures = Vec::new();
    for table in families() {
        for line in table.reads {
            let analysis = analyse(line);
            if analysis.safety != Safety::ReadOnly {
                failures.push(format!(
                    "{}: {line:?} should be read-only: {}",
                    table.program,
                    analysis.explanation()
                ));
            }
        }
        for line in table.refuses {
            let analysis = analyse(line);
            if analysis.safety == Safety::ReadOnly {
                failures.push(format!("{}: {line:?} must not be read-only", table.program));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_table_with_read_forms_shows_one_and_a_table_that_judges_shows_a_refused_neighbour() {
    for table in families() {
        if has_read_forms(table) {
            assert!(
                !table.reads.is_empty(),
                "{}: no read example",
                table.program
            );
        }
        if matches!(
            table.rule,
            Rule::Options(..) | Rule::Judged(_) | Rule::Walked(_)
        ) {
            assert!(
                !table.refuses.is_empty(),
                "{}: no refused neighbour",
                table.program
            );
        }
        assert!(!table.manual.is_empty(), "{}: no manual", table.program);
    }
}

#[test]
fn a_program_known_only_to_write_or_run_is_never_read_only_not_even_asked_its_version() {
    for table in families().filter(|t| !has_read_forms(t)) {
        for line in [
            table.program.to_string(),
            format!("{} --x y", table.program),
        ] {
            let analysis = analyse(&line);
            assert_ne!(analysis.safety, Safety::ReadOnly, "{line:?}");
            assert!(
                !analysis.explanation().contains("unknown program"),
                "{line:?}: {}",
                analysis.explanation()
            );
        }
    }
}

#[test]
fn no_table_is_shadowed_by_a_list_and_none_is_written_twice() {
    let mut seen = HashSet::new();
    for table in families() {
        assert!(seen.insert(table.program), "{} twice", table.program);
        assert!(
            tables::simple(table.program).is_none(),
            "{} is already judged elsewhere; its table would never be used",
            table.program
        );
        assert!(lookup(table.program).is_some());
    }
}

#[test]
fn the_judgement_names_the_table_that_gave_it() {
    let analysis = analyse("tput cols");
    assert_eq!(analysis.safety, Safety::ReadOnly);
    assert!(
        analysis.commands[0]
            .why
            .contains("(table tput, tput(1), ncurses 6.4)"),
        "{}",
        analysis.commands[0].why
    );
    let refused = analyse("tput init");
    assert!(
        refused.explanation().contains("table tput"),
        "{}",
        refused.explanation()
    );
}

#[test]
fn the_tables_know_more_than_three_hundred_programs() {
    assert!(super::count() > 300, "{}", super::count());
}
