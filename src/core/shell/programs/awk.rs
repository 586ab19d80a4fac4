//! awk: options and the program text.
//!
//! The program is scanned with strings and regular expressions skipped. `system(`, a lone `|`
//! (a pipe to or from a command), `@load`/`@include` and a `print` redirected with `>` or `>>`
//! to anything but `/dev/stdout`, `/dev/stderr` or `/dev/null` make it not read-only. A `>`
//! outside `print` is a comparison.

use super::flags::{self, Spec};
use super::{Judge, Judged, Judgement, Risk};
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

pub(super) fn lookup(name: &str) -> Option<Judge> {
    matches!(name, "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk").then_some(awk as Judge)
}

#[rustfmt::skip]
const AWK: Spec = Spec {
    short: "bcPrSsNntO",
    short_value: "Fvf",
    long: &[
        "characters-as-bytes", "traditional", "posix", "re-interval", "sandbox", "use-lc-numeric",
        "optimize", "no-optimize", "lint",
    ],
    long_value: &["field-separator", "assign", "file", "source"],
    ..Spec::EMPTY
};

fn awk(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let (parsed, rest) = flags::parse_leading(&AWK, args)?;
    if parsed.has(&["-f", "--file"]) {
        return Err(Judgement::risk(
            Risk::RunsCode,
            "awk -f: runs a program file",
        ));
    }
    if parsed.has(&["-S", "--sandbox"]) {
        return Ok(Judgement::read_only("runs a sandboxed awk program"));
    }
    let program = match parsed.value(&["--source"]) {
        Some(source) => source,
        None => rest
            .first()
            .ok_or_else(|| Judgement::unverified("awk without a program"))?,
    };
    let text = program
        .literal_text()
        .ok_or_else(|| Judgement::unverified("awk program known only at run time"))?;
    check_program(text)?;
    Ok(Judgement::read_only("runs a read-only awk program"))
}

/// Targets a `print` may be redirected to without writing a file.
const HARMLESS: &[&str] = &[
    "\"/dev/stdout\"",
    "\"/dev/stderr\"",
    "\"/dev/null\"",
    "\"-\"",
];

pub(super) fn check_program(program: &str) -> Result<(), Judgement> {
    let chars: Vec<char> = program.chars().collect();
    let mut i = 0;
    let mut in_print = false;
    let mut depth = 0usize;
    // Whether a `/` here starts a regular expression (no operand before it).
    let mut operand_before = false;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '"' => {
                i = skip_string(&chars, i, '"');
                operand_before = true;
                continue;
            }
            '/' if !operand_before => {
                let end = skip_string(&chars, i, '/');
                let body: String = chars[i..end].iter().collect();
                // A division read as a regex would hide what follows; refuse anything a regex
                // would not hold.
                let suspicious = ["system", "\"", ";", "print", "getline", ">", "\n"];
                if body.len() < 2
                    || !body.ends_with('/')
                    || suspicious.iter().any(|s| body.contains(s))
                {
                    return Err(Judgement::unverified(
                        "awk: cannot tell a regex from a division",
                    ));
                }
                i = end;
                operand_before = true;
                continue;
            }
            '#' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '|' => {
                if chars.get(i + 1) == Some(&'|') {
                    i += 2;
                    operand_before = false;
                    continue;
                }
                return Err(Judgement::risk(Risk::RunsCode, "awk |: runs a command"));
            }
            '>' if in_print && depth == 0 => {
                let mut j = i + 1;
                if chars.get(j) == Some(&'>') {
                    j += 1;
                }
                while chars.get(j) == Some(&' ') {
                    j += 1;
                }
                let target: String = if chars.get(j) == Some(&'"') {
                    chars[j..skip_string(&chars, j, '"')].iter().collect()
                } else {
                    String::new()
                };
                if !HARMLESS.contains(&target.as_str()) {
                    return Err(Judgement::writer("awk print >: writes a file"));
                }
                i = j + target.chars().count();
                continue;
            }
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            ';' | '\n' | '{' | '}' => {
                in_print = false;
                depth = 0;
            }
            '@' => {
                return Err(Judgement::risk(
                    Risk::RunsCode,
                    "awk @load/@include: loads code",
                ));
            }
            _ => {}
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            match word.as_str() {
                "system" => {
                    return Err(Judgement::risk(
                        Risk::RunsCode,
                        "awk system(): runs commands",
                    ));
                }
                "print" | "printf" => {
                    in_print = true;
                    operand_before = false;
                }
                "getline" => operand_before = false,
                _ => operand_before = true,
            }
            continue;
        }
        operand_before = c.is_ascii_digit() || c == ')' || c == ']' || c == '$';
        if c == '$' {
            operand_before = false;
        }
        i += 1;
    }
    Ok(())
}

/// From an opening quote or slash at `i`, returns the index after its closing partner.
fn skip_string(chars: &[char], i: usize, quote: char) -> usize {
    let mut j = i + 1;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 2,
            c if c == quote => return j + 1,
            '\n' => return j,
            _ => j += 1,
        }
    }
    chars.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_are_not_redirections() {
        assert!(check_program("NR > 1 {print}").is_ok());
        assert!(check_program("{ if ($1 > 2) print $1 }").is_ok());
    }

    #[test]
    fn printing_to_a_file_or_a_pipe_is_found() {
        assert!(check_program("{print > \"out.txt\"}").is_err());
        assert!(check_program("{print >> \"out.txt\"}").is_err());
        assert!(check_program("{print > $1\".txt\"}").is_err());
        assert!(check_program("{print | \"sort\"}").is_err());
    }

    #[test]
    fn printing_to_stderr_is_harmless() {
        assert!(check_program("{print > \"/dev/stderr\"}").is_ok());
    }

    #[test]
    fn a_pipe_sign_inside_a_regex_or_string_is_literal() {
        assert!(check_program("/a|b/ {print}").is_ok());
        assert!(check_program("{gsub(/foo/, \"bar\"); print}").is_ok());
    }

    #[test]
    fn system_calls_are_found() {
        assert!(check_program("BEGIN {system(\"rm -rf /\")}").is_err());
    }
}
