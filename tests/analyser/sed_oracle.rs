//! The analyser's reading of sed scripts against GNU sed's own: thousands of generated scripts
//! (`sed_scripts.rs`), each run as `sed --debug -n -e SCRIPT /dev/null` in an empty directory.
//! With `/dev/null` as input no command executes, but sed compiles the whole script, opens the
//! files of its `w` commands and prints its reading ("SED PROGRAM:", one command a line).
//!
//! Whenever the analyser calls `sed -n -e SCRIPT /dev/null` read-only, sed must agree that the
//! script neither writes nor runs anything: no file may appear in the directory, and
//! `sed --sandbox` (which refuses `e`, `r` and `w` commands and flags as it compiles them)
//! must not refuse it. Scripts that may hold `r` or `w /dev/stdout`, which the sandbox refuses
//! too, are checked on sed's `--debug` listing instead. A quarter run with `--posix`.
//!
//! `SED_ORACLE_SHOW=1` prints the scripts sed finds clean that the analyser does not call
//! read-only; `SED_ORACLE_ERRORS=1` prints sed's errors, to tune the generator.

#[path = "sed_scripts.rs"]
mod sed_scripts;

use gatehouse::core::shell::{Safety, analyse};
use sed_scripts::{Reads, Rng};
use std::path::Path;
use std::process::{Command, Output};

const SCRIPTS: usize = 3000;

fn sed(dir: &Path, options: &[&str], script: &str) -> Output {
    Command::new("sed")
        .current_dir(dir)
        .args(options)
        .args(["-n", "-e", script, "/dev/null"])
        .output()
        .expect("sed runs")
}

fn gnu_sed_with_debug() -> bool {
    Command::new("sed")
        .args(["--debug", "-n", "-e", "p", "/dev/null"])
        .output()
        .is_ok_and(|out| {
            out.status.success() && String::from_utf8_lossy(&out.stdout).contains("SED PROGRAM:")
        })
}

/// The script as one shell word: in single quotes, or in `$'...'` when it holds a
/// backslash-newline, which the analyser refuses inside single quotes.
fn shell_quoted(text: &str) -> String {
    if text.contains("\\\n") {
        let escaped = text
            .replace('\\', r"\\")
            .replace('\'', r"\'")
            .replace('\n', r"\n")
            .replace('\t', r"\t");
        format!("$'{escaped}'")
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// Whether a command of sed's `--debug` listing writes a file or runs one: `e`, `w`, `W`, or
/// `s` with an `e` or `w` flag (`/dev/stdout` included: under `--posix` sed opens it with
/// `O_TRUNC`). Lines not indented are the continuation of a text or replacement, not commands.
fn listed_command_writes_or_runs(line: &str) -> bool {
    if !line.starts_with("  ") {
        return false;
    }
    let rest = skip_addresses(line.trim_start());
    let rest = rest.trim_start_matches('!').trim_start();
    let mut chars = rest.chars();
    match chars.next() {
        Some('e') => true,
        Some('w' | 'W') => true,
        Some('s') => {
            // `s/RE/REPLACEMENT/FLAGS`; the regex escapes its `/`, and these scripts keep `/`
            // out of replacements.
            let after_regex = skip_regex(&chars.as_str()[1..]);
            let Some((_, flags)) = after_regex.split_once('/') else {
                return false;
            };
            flags.contains(['e', 'w'])
        }
        _ => false,
    }
}

/// The text after an escaped regular expression and its closing `/`.
fn skip_regex(text: &str) -> &str {
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '/' => return &text[at + 1..],
            _ => {}
        }
    }
    ""
}

fn skip_addresses(mut text: &str) -> &str {
    loop {
        text = if let Some(rest) = text.strip_prefix('/') {
            skip_regex(rest).trim_start_matches(['I', 'M'])
        } else if let Some(rest) = text.strip_prefix("[ADDR-NULL]") {
            rest
        } else {
            text.trim_start_matches(|c: char| c.is_ascii_digit() || "$~+".contains(c))
        };
        match text.strip_prefix(',') {
            Some(rest) => text = rest,
            None => return text,
        }
    }
}

#[test]
fn no_sed_script_the_analyser_calls_read_only_writes_or_runs_in_gnu_sed() {
    if !gnu_sed_with_debug() {
        println!("sed oracle skipped: no GNU sed with --debug on this machine");
        return;
    }
    let dir = std::env::temp_dir().join(format!("gatehouse-sed-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let mut rng = Rng::new(0x0005_ed04_ac1e);
    let (mut read_only, mut accepted, mut over_cautious) = (0, 0, 0);
    let mut disagreements = Vec::new();
    for n in 0..SCRIPTS {
        let (script, reads) = sed_scripts::script(&mut rng);
        let posix: &[&str] = if n % 4 == 3 { &["--posix"] } else { &[] };
        let line = format!(
            "sed {}-n -e {} /dev/null",
            posix.iter().map(|o| format!("{o} ")).collect::<String>(),
            shell_quoted(&script)
        );
        let ours = analyse(&line).safety == Safety::ReadOnly;
        let debug = sed(&dir, &[posix, &["--debug"]].concat(), &script);
        let created: Vec<_> = std::fs::read_dir(&dir)
            .expect("readable")
            .flatten()
            .map(|e| e.path())
            .collect();
        for path in &created {
            std::fs::remove_file(path).expect("removable");
        }
        if debug.status.success() {
            accepted += 1;
        } else if std::env::var_os("SED_ORACLE_ERRORS").is_some() {
            println!(
                "sed error: {}",
                String::from_utf8_lossy(&debug.stderr).trim()
            );
        }
        if !debug.status.success() && !ours {
            continue;
        }
        let sandbox = sed(&dir, &[posix, &["--sandbox"]].concat(), &script);
        let refused = String::from_utf8_lossy(&sandbox.stderr).contains("disabled in sandbox mode");
        if sandbox.status.success() && !ours {
            over_cautious += 1;
            if std::env::var_os("SED_ORACLE_SHOW").is_some() {
                println!(
                    "over-cautious: {script:?} {posix:?}: {}",
                    analyse(&line).explanation()
                );
            }
        }
        if !ours {
            continue;
        }
        read_only += 1;
        let listing = String::from_utf8_lossy(&debug.stdout);
        let listed = listing.lines().any(listed_command_writes_or_runs);
        let wrong = !created.is_empty() || listed || (refused && reads == Reads::Nothing);
        if wrong {
            disagreements.push(format!(
                "{line}\n  created {created:?}, sandbox refused: {refused}\n{listing}"
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    for case in &disagreements {
        println!("DISAGREEMENT: {case}");
    }
    println!(
        "sed oracle: {SCRIPTS} scripts, {accepted} accepted by sed, {read_only} read-only, \
         {over_cautious} sed-clean but not read-only, {} disagreements",
        disagreements.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} disagreements",
        disagreements.len()
    );
}
