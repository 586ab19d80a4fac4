//! The soundness oracle: every line the analyser calls read-only is compared with bash's own
//! parse of it, and run under real bash in a throw-away sandbox, where anything it changed,
//! reached or ran is caught.
//!
//! Lines come from the shared corpus copy, the adversarial set, the held-out set, a seeded
//! grammar fuzzer aimed at the programs' option tables (`fuzz`) and a seeded lexical fuzzer
//! aimed at where parsers differ (`lexical`). Every read-only line is compared structurally
//! (`structure`: bash's `declare -f` print, made in a sandbox, against the analyser's
//! reading); the corpus, the adversarial and held-out sets, the grammar fuzzer's lines and the
//! first of the lexical fuzzer's are also executed. It runs only with `GATEHOUSE_ORACLE=1` (`.ci/run` sets it) and needs `bwrap` and
//! `strace`; without them it prints why it skipped, unless `GATEHOUSE_ORACLE_REQUIRED=1` makes
//! that a failure. Its last line is `oracle: executed N lines (F from the fuzzer), compared S
//! with bash's parse, caught C`.

mod fuzz;
mod judgeable;
mod lexical;
mod lines;
mod sandbox;
mod structure;
mod trace;
mod tripwire;

use gatehouse::core::shell::{Safety, analyse};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The fuzzer's seed and size; change them only on purpose, the lines are reproducible.
const FUZZ_SEED: u64 = 0x6761_7465_686f_7573;
const FUZZ_LINES: usize = 4000;
/// The lexical fuzzer's seed and size: it makes about 20,000 read-only lines to compare with
/// bash's reading, and the first `LEXICAL_EXECUTED` of them are also run.
const LEXICAL_SEED: u64 = 0x6261_7368_2d72_6561;
const LEXICAL_LINES: usize = 66_000;
const LEXICAL_EXECUTED: usize = 1_400;
/// Parallel sandboxes (the machine has two cores).
const WORKERS: usize = 2;

/// Programs a line may run without naming them: the shell itself, the helpers a named program
/// is built from (wrapper scripts such as `zgrep` and `git submodule`, tar's decompressors,
/// xargs' default `echo`, dpkg's `dpkg-query`, `diff -l`'s `pr`, groff's pipeline), and what
/// a login shell's profile runs.
fn implicitly_named(program: &str, named: &BTreeSet<String>) -> bool {
    const DECOMPRESSORS: &[&str] = &[
        "gzip", "bzip2", "xz", "lzma", "zstd", "lzip", "lzop", "unxz",
    ];
    const SCRIPT_TOOLS: &[&str] = &[
        "sed", "grep", "basename", "dirname", "uname", "cat", "expr", "tr", "cut", "head",
    ];
    const PROFILE: &[&str] = &[
        "id",
        "tty",
        "tput",
        "dircolors",
        "locale",
        "uname",
        "lesspipe",
    ];
    // groff runs its documented pipeline (preprocessors, troff, a postprocessor); nroff is a
    // script that asks `locale` for the charset and runs groff.
    const ROFF: &[&str] = &[
        "groff", "troff", "grotty", "grops", "gropdf", "grodvi", "tbl", "eqn", "pic", "soelim",
        "preconv", "locale",
    ];
    let names = |list: &[&str]| list.iter().any(|name| named.contains(*name));
    let gzip_scripts = [
        "gunzip", "zcat", "zgrep", "zegrep", "zfgrep", "zdiff", "zcmp", "zmore",
    ];
    program == "bash"
        || (names(&["tar"]) && DECOMPRESSORS.contains(&program))
        || (names(&["xargs"]) && program == "echo")
        || (names(&["egrep", "fgrep"]) && program == "grep")
        || (names(&gzip_scripts) && (program == "gzip" || SCRIPT_TOOLS.contains(&program)))
        || (names(&["git"]) && program.starts_with("git"))
        || (names(&["submodule"]) && SCRIPT_TOOLS.contains(&program))
        || (names(&["dpkg"]) && program == "dpkg-query")
        || (names(&["apt"]) && program == "dpkg")
        || (names(&["npm"]) && program == "node")
        || (names(&["diff"]) && program == "pr")
        || (names(&["groff", "nroff", "troff"]) && ROFF.contains(&program))
        || (names(&["lsb_release"]) && (program == "getopt" || SCRIPT_TOOLS.contains(&program)))
        || (names(&["-l", "-lc", "--login"]) && PROFILE.contains(&program))
}

/// The words of a line that could name a program: every run of name characters once quotes
/// and backslashes are removed (`l's'` names `ls`).
fn named_words(line: &str) -> BTreeSet<String> {
    let unquoted: String = line.chars().filter(|c| !"'\"\\".contains(*c)).collect();
    unquoted
        .split(|c: char| !(c.is_ascii_alphanumeric() || "._+-".contains(c)))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// What running a line must show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// The analyser calls it read-only: nothing may be caught.
    Nothing,
    /// An adversarial `write` line without a written reason: running it must be caught, which
    /// confirms its label and shows that the oracle's tripwires work.
    Caught,
}

/// One line to execute and where it came from.
struct Case {
    line: String,
    origin: String,
    fuzzed: bool,
    expect: Expect,
}

#[test]
fn sandbox_init_runs_the_line_under_strace() {
    // Only meaningful as the first process of a sandbox; see `sandbox::init`.
    if std::env::var_os(sandbox::INIT_VAR).is_some() {
        sandbox::init();
    }
}

/// The shell forms of issue 22 that bash runs nothing extra for, each read as bash reads it.
#[test]
fn the_shell_forms_bash_runs_nothing_extra_for_are_read_as_bash_reads_them() {
    if std::env::var("GATEHOUSE_ORACLE").as_deref() != Ok("1") || sandbox::available().is_err() {
        println!("oracle: skipped (set GATEHOUSE_ORACLE=1, with bwrap and strace installed)");
        return;
    }
    let lines: Vec<String> = [
        "# just a comment",
        "# one\n\t# two",
        "time { ls; cat README.md; }",
        "time -p { ls; }",
        "time {\n  wc -l README.md\n}",
        "time { ls; } 2>&1",
        "coproc cat README.md",
        "cd src && ls",
    ]
    .iter()
    .map(|line| line.to_string())
    .collect();
    for line in &lines {
        assert_eq!(analyse(line).safety, Safety::ReadOnly, "{line:?}");
    }
    let compared = structure::compare_all(&lines).expect("bash's reading of the lines");
    // A function whose body is only a comment is a syntax error, so bash cannot print one:
    // those lines run nothing either way.
    let differs: Vec<String> = lines
        .iter()
        .zip(&compared)
        .filter(|(line, result)| match result {
            structure::Compared::Same => false,
            structure::Compared::BashRefuses => !line.starts_with('#'),
            _ => true,
        })
        .map(|(line, result)| format!("{line:?}: {result:?}"))
        .collect();
    assert!(differs.is_empty(), "{}", differs.join("\n"));
}

#[test]
fn every_line_called_read_only_changes_nothing_when_run() {
    if std::env::var("GATEHOUSE_ORACLE").as_deref() != Ok("1") {
        println!("oracle: skipped (set GATEHOUSE_ORACLE=1 to execute the read-only lines)");
        return;
    }
    if let Err(why) = sandbox::available() {
        let required = std::env::var("GATEHOUSE_ORACLE_REQUIRED").as_deref() == Ok("1");
        assert!(!required, "oracle: cannot run: {why}");
        println!("oracle: skipped: {why} (install bubblewrap and strace)");
        return;
    }
    let started = Instant::now();
    let mut cases = Vec::new();
    for (set, labelled) in [
        ("corpus", lines::corpus()),
        ("adversarial", lines::adversarial()),
        ("heldout", lines::heldout()),
    ] {
        for item in labelled {
            let read_only = analyse(&item.command).safety == Safety::ReadOnly;
            let confirm = set == "adversarial" && item.label == "write" && item.why.is_empty();
            if read_only || confirm {
                cases.push(Case {
                    origin: format!("{set} {} {}", item.label, item.source),
                    line: item.command,
                    fuzzed: false,
                    expect: if read_only {
                        Expect::Nothing
                    } else {
                        Expect::Caught
                    },
                });
            }
        }
    }
    for (index, line) in fuzz::lines(FUZZ_SEED, FUZZ_LINES).into_iter().enumerate() {
        if analyse(&line).safety == Safety::ReadOnly {
            cases.push(Case {
                line,
                origin: format!("fuzzer #{index}"),
                fuzzed: true,
                expect: Expect::Nothing,
            });
        }
    }
    let corpus_reads: Vec<String> = lines::corpus()
        .into_iter()
        .filter(|item| item.label == "read_only")
        .map(|item| item.command)
        .collect();
    let lexical_reads: Vec<String> = lexical::lines(LEXICAL_SEED, LEXICAL_LINES, &corpus_reads)
        .into_iter()
        .filter(|line| analyse(line).safety == Safety::ReadOnly)
        .collect();
    for (index, line) in lexical_reads.iter().take(LEXICAL_EXECUTED).enumerate() {
        cases.push(Case {
            line: line.clone(),
            origin: format!("lexical fuzzer #{index}"),
            fuzzed: true,
            expect: Expect::Nothing,
        });
    }
    let mut seen = BTreeSet::new();
    cases.retain(|case| seen.insert(case.line.clone()));
    let fuzzed = cases.iter().filter(|case| case.fuzzed).count();
    let read_only = cases.iter().filter(|c| c.expect == Expect::Nothing).count();

    // Every read-only line, compared with bash's own reading of it before anything runs.
    let mut compared: Vec<String> = cases
        .iter()
        .filter(|c| c.expect == Expect::Nothing)
        .map(|c| c.line.clone())
        .chain(lexical_reads)
        .collect();
    let mut seen = BTreeSet::new();
    compared.retain(|line| seen.insert(line.clone()));
    let structural = structure::compare_all(&compared).expect("bash's reading of the lines");
    let mut differs = 0;
    let mut refused = 0;
    for (line, result) in compared.iter().zip(&structural) {
        match result {
            structure::Compared::Differs(analyser, bash) => {
                differs += 1;
                println!("READ DIFFERENTLY FROM BASH {line:?}");
                println!("    analyser: {analyser:?}");
                println!("    bash:     {bash:?}");
            }
            structure::Compared::Unjudged(names) => {
                differs += 1;
                println!("BASH RUNS WHAT THE ANALYSER NEVER JUDGED {line:?}: {names:?}");
            }
            structure::Compared::Same => {}
            structure::Compared::BashRefuses => refused += 1,
        }
    }
    println!(
        "oracle: compared {} read-only lines with bash's parse in {:.0?}, {differs} read \
         differently, {refused} that bash cannot parse (it runs none of them)",
        compared.len() - refused,
        started.elapsed()
    );

    // A memory file system when there is one: copying the tripwire is most of the cost.
    let shm = Path::new("/dev/shm");
    let mut builder = tempfile::Builder::new();
    builder.prefix("gatehouse-oracle-");
    let base = if shm.is_dir() {
        builder.tempdir_in(shm)
    } else {
        builder.tempdir()
    }
    .expect("a temporary directory");
    let template = tripwire::build_template(base.path()).expect("the tripwire template");
    let next = AtomicUsize::new(0);
    let catches = Mutex::new(Vec::new());
    let unconfirmed = Mutex::new(Vec::new());
    let confirmed = AtomicUsize::new(0);
    let timeouts = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for worker in 0..WORKERS {
            let (cases, next, catches, timeouts) = (&cases, &next, &catches, &timeouts);
            let (unconfirmed, confirmed) = (&unconfirmed, &confirmed);
            let (template, base) = (&template, base.path());
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(index) else { break };
                    let dir = base.join(format!("w{worker}-{index}"));
                    let found = check(template, &dir, case);
                    if found.timed_out {
                        timeouts.fetch_add(1, Ordering::Relaxed);
                        println!("timed out: {:?} ({})", case.line, case.origin);
                    }
                    let _ = std::fs::remove_dir_all(&dir);
                    match (case.expect, found.catches.is_empty()) {
                        (Expect::Nothing, true) => {}
                        (Expect::Nothing, false) => {
                            catches.lock().unwrap().push((index, found.catches));
                        }
                        (Expect::Caught, false) => {
                            confirmed.fetch_add(1, Ordering::Relaxed);
                        }
                        (Expect::Caught, true) => unconfirmed.lock().unwrap().push(index),
                    }
                }
            });
        }
    });
    let mut catches = catches.into_inner().unwrap();
    catches.sort_by_key(|(index, _)| *index);
    for (index, found) in &catches {
        let case = &cases[*index];
        println!("CAUGHT {:?} ({})", case.line, case.origin);
        for what in found {
            println!("    {what}");
        }
    }
    let mut unconfirmed = unconfirmed.into_inner().unwrap();
    unconfirmed.sort_unstable();
    for index in &unconfirmed {
        let case = &cases[*index];
        println!(
            "UNCONFIRMED write line (nothing caught; give it a why): {:?} ({})",
            case.line, case.origin
        );
    }
    println!(
        "oracle: confirmed {} of {} adversarial write lines by running them",
        confirmed.load(Ordering::Relaxed),
        cases.len() - read_only
    );
    println!(
        "oracle: {} lines timed out after {:?}; ran for {:.0?}",
        timeouts.load(Ordering::Relaxed),
        sandbox::LINE_TIMEOUT,
        started.elapsed()
    );
    println!(
        "oracle: executed {read_only} lines ({fuzzed} from the fuzzer), compared {} with bash's parse, caught {}",
        compared.len() - refused,
        catches.len() + differs
    );
    assert!(
        catches.is_empty() && unconfirmed.is_empty() && differs == 0,
        "the oracle caught {} read-only lines by running them and {differs} that bash reads \
         differently; {} write lines were not confirmed",
        catches.len(),
        unconfirmed.len()
    );
}

/// Runs one case and adds the programs it ran without naming them to what was caught.
fn check(template: &Path, dir: &Path, case: &Case) -> sandbox::Outcome {
    let mut outcome = sandbox::run_line(template, dir, &case.line);
    let named = named_words(&case.line);
    for program in &outcome.executed {
        if !named.contains(program) && !implicitly_named(program, &named) {
            outcome
                .catches
                .push(format!("ran a program the line does not name: {program}"));
        }
    }
    outcome
}
