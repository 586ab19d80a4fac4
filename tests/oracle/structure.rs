//! The structural oracle: the analyser's reading of a line against bash's own.
//!
//! bash prints a function back in a canonical form (`declare -f`), which is its reading of the
//! function's body without running it: the commands it would run, their words and
//! redirections, each here-document's body under a plainly quoted delimiter. The analyser's
//! reading of a line ([`read_as_analysed`]) is compared with the reading of bash's print of a
//! function whose body is that line, laid out by the same code. bash keeps the text of a
//! backquoted substitution as written (it parses it only when it runs it), so each such body,
//! with bash's backslashes removed, is printed by bash in its turn.
//!
//! Defining the function runs nothing unless the line closes the function early, so bash does
//! this in a sandbox of its own (`bwrap`: no network, a private `/tmp`, nothing writable
//! outside it), never on the host.

use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use gatehouse::core::shell::analyse;
use gatehouse::core::shell::reading::{Item, Reading, read, read_as_analysed};

/// The function bash prints; a name no line uses.
const FUNCTION: &str = "gatehouse_oracle_line";

/// How long one batch of prints may take before the sandbox is killed.
const BATCH_TIMEOUT: Duration = Duration::from_secs(240);

/// The script bash runs in the sandbox: for each NUL-ended text on stdin, the print of a
/// function whose body is that text (nothing when bash cannot parse it), then a NUL. Each
/// definition is made in a subshell, so a text that escapes the function changes nothing for
/// the next one; what it prints while defined is thrown away.
fn printer_script() -> String {
    format!(
        "shopt -s extglob; \
         while IFS= read -r -d '' __gh_text; do \
           ( eval \"{FUNCTION}() {{\n$__gh_text\n}}\" >/dev/null 2>&1 </dev/null \
             && declare -f {FUNCTION} ) </dev/null 2>/dev/null; \
           printf '\\0'; \
         done"
    )
}

/// bash's prints of texts, asked for in batches and kept.
#[derive(Default)]
pub struct Printer {
    prints: HashMap<String, Option<String>>,
}

impl Printer {
    /// Prints every text not printed yet, in one sandboxed bash.
    pub fn print_all(&mut self, texts: &[String]) -> Result<(), String> {
        let wanted: Vec<&String> = texts
            .iter()
            .filter(|t| !self.prints.contains_key(*t))
            .collect();
        if wanted.is_empty() {
            return Ok(());
        }
        let mut input = Vec::new();
        for text in &wanted {
            input.extend_from_slice(text.as_bytes());
            input.push(0);
        }
        let output = run_sandboxed(&printer_script(), input)?;
        let prints: Vec<&[u8]> = output.split(|b| *b == 0).collect();
        if prints.len() < wanted.len() {
            return Err(format!(
                "bash printed {} of {} texts: a text stopped the printer",
                prints.len().saturating_sub(1),
                wanted.len()
            ));
        }
        for (text, print) in wanted.into_iter().zip(prints) {
            let print = String::from_utf8_lossy(print).into_owned();
            let print = (!print.trim().is_empty()).then_some(print);
            self.prints.insert(text.clone(), print);
        }
        Ok(())
    }

    /// bash's reading of `text`, or the backquoted bodies still to print.
    pub fn reading(&self, text: &str, missing: &mut Vec<String>) -> Option<Reading> {
        let Some(print) = self.prints.get(text) else {
            missing.push(text.to_string());
            return None;
        };
        let Some(print) = print else {
            return Some(Reading {
                items: vec![Item::Unreadable("bash cannot parse it".to_string())],
            });
        };
        let mut incomplete = false;
        let mut body = |body: &str| match self.reading(body, missing) {
            Some(reading) => reading,
            None => {
                incomplete = true;
                Reading::default()
            }
        };
        // bash writes the descriptor of every `<&` (`0<&0`), which tree-sitter reads as a word
        // and a redirection; the line as written had none.
        let print = canonical_statements(&heredoc_pipes_joined(print));
        let printed = read(&print, &mut body);
        if incomplete {
            return None;
        }
        Some(function_body(printed))
    }
}

/// bash prints a command with a here-document that goes on into a pipeline or list as
/// `cat <<'EOF' |`, the body, the delimiter, then the rest (`  grep x`) on the next line;
/// tree-sitter reads only the form where the rest stays on the first line. Moves each such
/// rest back up: the same line to bash.
fn heredoc_pipes_joined(print: &str) -> String {
    let mut lines: Vec<String> = print.lines().map(str::to_string).collect();
    let mut i = 0;
    while i < lines.len() {
        let delimiters = heredoc_delimiters(&lines[i]);
        let trimmed = lines[i].trim_end();
        let goes_on = ["|", "&&", "||", "|&"]
            .iter()
            .any(|op| trimmed.ends_with(&format!(" {op}")));
        if delimiters.is_empty() || !goes_on {
            i += 1;
            continue;
        }
        // Skip each body to its delimiter line; the line after the last is the rest.
        let mut at = i + 1;
        for delimiter in &delimiters {
            while at < lines.len() && lines[at].trim_start_matches('\t') != delimiter {
                at += 1;
            }
            at += 1;
        }
        if at >= lines.len() {
            break;
        }
        let rest = lines.remove(at);
        lines[i] = format!("{} {}", lines[i].trim_end(), rest.trim_start());
        // The joined line may go on again; look at it once more.
    }
    let mut joined = lines.join("\n");
    joined.push('\n');
    joined
}

/// The delimiters of the here-documents a printed line starts, in order: bash prints each as
/// `<<EOF`, `<<-EOF` or `<<'EOF'`. A `<<` inside quotes would be miscounted; a miscount
/// makes the print unreadable, which the comparison reports, never a false match.
fn heredoc_delimiters(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i + 1 < bytes.len() {
        let here = bytes[i] == b'<' && bytes[i + 1] == b'<';
        let herestring = bytes.get(i + 2) == Some(&b'<') || (i > 0 && bytes[i - 1] == b'<');
        if !here || herestring {
            i += 1;
            continue;
        }
        let mut rest = &line[i + 2..];
        rest = rest.strip_prefix('-').unwrap_or(rest);
        let delimiter = if let Some(quoted) = rest.strip_prefix('\'') {
            quoted.split('\'').next().unwrap_or("")
        } else {
            rest.split(|c: char| c.is_whitespace() || ";|&<>()".contains(c))
                .next()
                .unwrap_or("")
        };
        found.push(delimiter.to_string());
        i += 2;
    }
    found
}

/// Spellings of bash's print that tree-sitter reads differently from what was written: the
/// descriptor bash writes for every `<&` (`0<&0`, read as a word and a redirection) and the
/// default name of a coprocess (`coproc COPROC cmd`). Statements are the indented lines;
/// here-document bodies, printed raw, are left alone. (bash also leaves out the `;` after a
/// word that ends in an escaped `&`, which no rewriting can undo; the analyser refuses such
/// words.)
fn canonical_statements(print: &str) -> String {
    print
        .split_inclusive('\n')
        .map(|line| {
            if line.starts_with("    ") {
                line.replace(" 0<&", " <&")
                    .replace("coproc COPROC ", "coproc ")
            } else {
                line.to_string()
            }
        })
        .collect()
}

/// The items inside the printed function.
fn function_body(printed: Reading) -> Reading {
    let mut items = printed.items;
    let opened = items.first() == Some(&Item::Open(format!("function {FUNCTION}")));
    if opened && items.last() == Some(&Item::Close) {
        items.pop();
        items.remove(0);
        Reading { items }
    } else {
        let what = format!("the print is not one function: {items:?}");
        Reading {
            items: vec![Item::Unreadable(what)],
        }
    }
}

/// The names of the simple commands in a reading, at any depth, whose name is a static word
/// (`$(…)`, globs and expansions left out), quotes removed; prefix assignments skipped.
fn command_names(reading: &Reading, names: &mut Vec<String>) {
    for item in &reading.items {
        match item {
            Item::Command {
                words,
                redirects,
                substitutions,
            } => {
                let name = words.iter().find(|w| !is_assignment(w));
                names.extend(name.and_then(|w| static_text(w)));
                for inner in substitutions
                    .iter()
                    .chain(redirects.iter().flat_map(|r| &r.substitutions))
                {
                    command_names(inner, names);
                }
            }
            Item::Redirect(redirect) => {
                for inner in &redirect.substitutions {
                    command_names(inner, names);
                }
            }
            Item::Substitution(inner) => command_names(inner, names),
            _ => {}
        }
    }
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_[]".contains(c))
    })
}

/// The text of a word with no expansion or glob, quotes removed.
fn static_text(word: &str) -> Option<String> {
    let mut text = String::new();
    let mut quoted = false;
    for c in word.chars() {
        match c {
            '\u{e000}' => quoted = true,
            '\u{e001}' => quoted = false,
            _ if quoted => text.push(c),
            '$' | '`' | '*' | '?' | '[' | '{' | '~' | '\\' | '"' | '\'' | '(' => return None,
            _ => text.push(c),
        }
    }
    Some(text)
}

/// The commands bash runs that the analyser itself never judged: `analyse` records every
/// simple command it judges (wrappers and what they run alike), so a name missing there is a
/// command the walk did not see, whatever this module's reading says.
fn unjudged(line: &str, bash: &Reading) -> Vec<String> {
    let analysis = analyse(line);
    let judged: HashSet<&str> = analysis
        .commands
        .iter()
        .filter_map(|c| c.words.first().map(String::as_str))
        .collect();
    let mut names = Vec::new();
    command_names(bash, &mut names);
    names
        .into_iter()
        .filter(|name| !judged.contains(name.as_str()))
        .collect()
}

/// What comparing one line found.
#[derive(Debug)]
pub enum Compared {
    Same,
    /// bash runs commands the analyser did not judge.
    Unjudged(Vec<String>),
    /// bash cannot parse the line (as a function body): it runs none of it, and there is
    /// nothing to compare.
    BashRefuses,
    /// The two readings, the analyser's first.
    Differs(Reading, Reading),
}

/// Compares every line with bash's reading of it; prints in rounds until every backquoted
/// body, at any depth, has been printed.
pub fn compare_all(lines: &[String]) -> Result<Vec<Compared>, String> {
    let mut printer = Printer::default();
    printer.print_all(lines)?;
    for _round in 0..8 {
        let mut missing = Vec::new();
        for line in lines {
            printer.reading(line, &mut missing);
        }
        if missing.is_empty() {
            break;
        }
        missing.sort();
        missing.dedup();
        printer.print_all(&missing)?;
    }
    let mut results = Vec::with_capacity(lines.len());
    for line in lines {
        let mut missing = Vec::new();
        let bash = printer
            .reading(line, &mut missing)
            .unwrap_or_else(|| Reading {
                items: vec![Item::Unreadable("substitutions nested too deeply".into())],
            });
        let analyser = read_as_analysed(line);
        let refused = Item::Unreadable("bash cannot parse it".to_string());
        let unjudged = unjudged(line, &bash);
        results.push(if !unjudged.is_empty() {
            Compared::Unjudged(unjudged)
        } else if analyser == bash {
            Compared::Same
        } else if bash.items == [refused.clone()]
            || format!("{bash:?}").contains(&format!("{refused:?}"))
        {
            Compared::BashRefuses
        } else {
            Compared::Differs(analyser, bash)
        });
    }
    Ok(results)
}

/// Runs `script` under bash in a sandbox with `input` on stdin; returns its stdout.
fn run_sandboxed(script: &str, input: Vec<u8>) -> Result<Vec<u8>, String> {
    let mut child = Command::new("bwrap")
        .args(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"])
        .args(["--tmpfs", "/tmp", "--tmpfs", "/run", "--chdir", "/tmp"])
        .args(["--unshare-all", "--cap-drop", "ALL", "--new-session"])
        .args(["--die-with-parent", "--clearenv"])
        .args([
            "--setenv",
            "PATH",
            "/usr/bin:/bin",
            "--setenv",
            "HOME",
            "/tmp",
        ])
        .args(["--setenv", "LANG", "C.UTF-8"])
        .args(["--", "bash", "--norc", "--noprofile", "-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("bwrap did not start: {e}"))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = thread::spawn(move || stdin.write_all(&input));
    let mut stdout = child.stdout.take().expect("piped stdout");
    let reader = thread::spawn(move || {
        let mut out = Vec::new();
        stdout.read_to_end(&mut out).map(|_| out)
    });
    // The child is waited for on a thread of its own, so the timeout is a wait on its end.
    let pid = child.id().to_string();
    let (done, ended) = mpsc::channel();
    thread::spawn(move || {
        let _ = done.send(child.wait());
    });
    match ended.recv_timeout(BATCH_TIMEOUT) {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => return Err(format!("waiting for bash's printer: {e}")),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid]).status();
            return Err(format!("bash's printer ran over {BATCH_TIMEOUT:?}"));
        }
    }
    let _ = writer.join();
    reader
        .join()
        .map_err(|_| "the reader thread panicked".to_string())?
        .map_err(|e| format!("reading bash's prints: {e}"))
}
