//! sed: options and the script itself.
//!
//! `-i`/`--in-place` edit files and `-f` runs a script file we cannot see. The script is
//! parsed command by command: `w`/`W` and the `w` flag of `s` write files, `e` and the `e` flag
//! of `s` run shell commands. `--sandbox` makes sed itself refuse those. A script that GNU sed
//! would reject runs nothing.

use super::flags::{self, Spec};
use super::{Judge, Judged, Judgement, Risk};
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

pub(super) fn lookup(name: &str) -> Option<Judge> {
    matches!(name, "sed" | "gsed").then_some(sed as Judge)
}

#[rustfmt::skip]
const SED: Spec = Spec {
    short: "nErsuzbi",
    short_value: "elf",
    long: &[
        "quiet", "silent", "regexp-extended", "separate", "unbuffered", "null-data", "posix",
        "sandbox", "debug", "binary", "follow-symlinks",
    ],
    long_value: &["expression", "line-length", "file"],
    long_optional: &["in-place"],
    ..Spec::EMPTY
};

fn sed(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    for word in args.iter().filter_map(Word::literal_text) {
        if word == "--" {
            break;
        }
        let short_i = word.starts_with('-') && !word.starts_with("--") && {
            let letters = &word[1..];
            let cut = letters.find(['e', 'f', 'l']).unwrap_or(letters.len());
            letters[..cut].contains('i')
        };
        if short_i || word.starts_with("--in-place") {
            return Err(Judgement::writer("sed -i: edits files in place"));
        }
    }
    let parsed = flags::parse(&SED, args)?;
    // `--in`, `--in-pl=.bak`: any prefix of `--in-place`.
    if parsed.has(&["-i", "--in-place"]) {
        return Err(Judgement::writer("sed -i: edits files in place"));
    }
    if parsed.has(&["-f", "--file"]) {
        return Err(Judgement::risk(
            Risk::RunsCode,
            "sed -f: runs a script file",
        ));
    }
    let mut scripts: Vec<&Word> = parsed
        .opts
        .iter()
        .filter(|o| o.name == "-e" || o.name == "--expression")
        .filter_map(|o| o.value.as_ref())
        .collect();
    let files = if scripts.is_empty() {
        let Some((script, files)) = parsed.args.split_first() else {
            return Err(Judgement::unverified("sed without a script"));
        };
        scripts.push(script);
        files
    } else {
        &parsed.args[..]
    };
    if parsed.has(&["--sandbox"]) {
        return Ok(Judgement::read_only("edits a stream (sandboxed)"));
    }
    let _ = files;
    for script in scripts {
        let text = script
            .literal_text()
            .ok_or_else(|| Judgement::unverified("sed script known only at run time"))?;
        match check_script(text) {
            Script::ReadOnly => {}
            Script::Invalid => {
                return Ok(Judgement::read_only(
                    "script does not parse, so sed runs nothing",
                ));
            }
            Script::Writes => return Err(Judgement::writer("sed w: writes a file")),
            Script::Runs => {
                return Err(Judgement::risk(
                    Risk::RunsCode,
                    "sed e: runs shell commands",
                ));
            }
        }
    }
    Ok(Judgement::read_only("edits a stream"))
}

#[derive(Debug, PartialEq, Eq)]
pub(super) enum Script {
    ReadOnly,
    Writes,
    Runs,
    /// GNU sed rejects the script before running any of it.
    Invalid,
}

/// Walks a sed script command by command.
pub(super) fn check_script(script: &str) -> Script {
    let chars: Vec<char> = script.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        // Separators and addresses.
        while i < chars.len() && (chars[i].is_whitespace() || chars[i] == ';') {
            i += 1;
        }
        if i >= chars.len() {
            break;
        }
        i = skip_address(&chars, i);
        while i < chars.len() && (chars[i] == ',' || chars[i] == '!' || chars[i] == ' ') {
            i = if chars[i] == ',' {
                skip_address(&chars, i + 1)
            } else {
                i + 1
            };
        }
        let Some(&command) = chars.get(i) else {
            return Script::Invalid;
        };
        i += 1;
        match command {
            '{' | '}' | '=' | 'd' | 'D' | 'g' | 'G' | 'h' | 'H' | 'n' | 'N' | 'p' | 'P' | 'x'
            | 'z' | 'F' => {}
            'l' | 'q' | 'Q' | 'L' => i = skip_while(&chars, i, |c| c.is_ascii_digit() || c == ' '),
            '#' | ':' | 'b' | 't' | 'T' | 'v' => {
                i = skip_to_end(&chars, i, command == '#' || command == ':')
            }
            'a' | 'i' | 'c' | 'r' | 'R' => i = skip_to_line_end(&chars, i),
            'w' | 'W' => return Script::Writes,
            'e' => return Script::Runs,
            's' => {
                let Some(after) = skip_delimited(&chars, i, 2) else {
                    return Script::Invalid;
                };
                i = after;
                while let Some(&flag) = chars.get(i) {
                    match flag {
                        'g' | 'p' | 'i' | 'I' | 'm' | 'M' => i += 1,
                        c if c.is_ascii_digit() => i += 1,
                        'w' => return Script::Writes,
                        'e' => return Script::Runs,
                        _ => break,
                    }
                }
            }
            'y' => match skip_delimited(&chars, i, 2) {
                Some(after) => i = after,
                None => return Script::Invalid,
            },
            _ => return Script::Invalid,
        }
    }
    Script::ReadOnly
}

fn skip_while(chars: &[char], mut i: usize, keep: impl Fn(char) -> bool) -> usize {
    while i < chars.len() && keep(chars[i]) {
        i += 1;
    }
    i
}

/// Labels end at `;` or a newline (`:` labels and comments only at a newline).
fn skip_to_end(chars: &[char], i: usize, line_only: bool) -> usize {
    skip_while(chars, i, |c| c != '\n' && (line_only || c != ';'))
}

fn skip_to_line_end(chars: &[char], i: usize) -> usize {
    skip_while(chars, i, |c| c != '\n')
}

/// Skips one address: a line number, `$`, `first~step`, `+N`, `~N`, `/re/` or `\cREc`.
fn skip_address(chars: &[char], i: usize) -> usize {
    match chars.get(i) {
        Some(c) if c.is_ascii_digit() || *c == '+' || *c == '~' => {
            skip_while(chars, i + 1, |c| c.is_ascii_digit() || c == '~')
        }
        Some('$') => i + 1,
        Some('/') => skip_delimited(chars, i, 1).map_or(chars.len(), |after| {
            skip_while(chars, after, |c| c == 'I' || c == 'M')
        }),
        Some('\\') if i + 1 < chars.len() => skip_delimited(chars, i + 1, 1).unwrap_or(chars.len()),
        _ => i,
    }
}

/// From a delimiter at `i`, skips `parts` delimited parts and returns the index after the
/// last delimiter.
fn skip_delimited(chars: &[char], i: usize, parts: usize) -> Option<usize> {
    let delimiter = *chars.get(i)?;
    if delimiter == '\n' || delimiter == '\\' {
        return None;
    }
    let mut j = i + 1;
    let mut found = 0;
    while j < chars.len() {
        if chars[j] == '\\' {
            j += 2;
            continue;
        }
        if chars[j] == delimiter {
            found += 1;
            if found == parts {
                return Some(j + 1);
            }
        }
        j += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn print_and_substitute_scripts_are_read_only() {
        for script in [
            "1,5p",
            "s/foo/bar/g",
            "$d",
            "/start/,/end/d",
            "1!G;h;$!d",
            "y/abc/xyz/",
            "xp",
            "/;/p",
        ] {
            assert_eq!(check_script(script), Script::ReadOnly, "{script}");
        }
    }

    #[test]
    fn write_commands_and_flags_are_found() {
        assert_eq!(check_script("1w out.txt"), Script::Writes);
        assert_eq!(check_script("s/a/b/w out"), Script::Writes);
    }

    #[test]
    fn execute_commands_and_flags_are_found() {
        assert_eq!(check_script("1e touch pwned"), Script::Runs);
        assert_eq!(check_script("s/a/b/e"), Script::Runs);
    }

    #[test]
    fn a_substitution_with_an_escaped_delimiter_is_skipped_whole() {
        assert_eq!(check_script(r"s/a\/w/b/"), Script::ReadOnly);
    }

    #[test]
    fn read_commands_take_the_rest_of_the_line() {
        assert_eq!(check_script("1r /etc/hostname"), Script::ReadOnly);
    }
}
