//! A scan of an awk program (gawk 5 and mawk 1.3 alike) for what makes it not read-only.
//!
//! Strings, comments and regular expressions are skipped as awk's lexer skips them, since each
//! can hide the rest: a `/` starts a regular expression where no operand comes before it (after
//! an operator, `(`, `,`, a keyword such as `return` or `else`) and is a division after an
//! operand; a bracket expression in a regex hides its `/` (`/[/]"/` is one regex). Where the
//! two readings are possible (after `)`, which may close `if (...)`, or `getline`), or where a
//! division would be a regex holding a `"` or `#` in the other reading, the program is
//! unverified. Then `system`, any `|` other than `||` (pipes and `cmd | getline`), `@load` and
//! `@include`, and a `print`/`printf` redirected (`>`, `>>`, `|`, `|&`) to anything but one of
//! `"/dev/stdout"`, `"/dev/stderr"`, `"/dev/null"` or `"-"` standing alone make it not
//! read-only (`print > "-" "x"` writes the file `-x`).

use super::{Judgement, Risk};

/// Targets a `print` may be redirected to without writing a file.
const HARMLESS: &[&str] = &[
    "\"/dev/stdout\"",
    "\"/dev/stderr\"",
    "\"/dev/null\"",
    "\"-\"",
];

/// Keywords after which a `/` starts a regular expression. `getline` may be followed by a
/// division too.
const KEYWORDS: &[&str] = &[
    "BEGIN",
    "END",
    "BEGINFILE",
    "ENDFILE",
    "if",
    "else",
    "while",
    "for",
    "do",
    "break",
    "continue",
    "next",
    "nextfile",
    "exit",
    "return",
    "delete",
    "in",
    "print",
    "printf",
    "function",
    "func",
    "switch",
    "case",
    "default",
];

/// What comes before a `/`: it decides whether the `/` starts a regex.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Before {
    /// An operator, a keyword or nothing: a regex.
    Operator,
    /// A name, a number, a string or `]`: a division.
    Operand,
    /// `)` or `getline`: either.
    Either,
}

pub(super) fn check(program: &str) -> Result<(), Judgement> {
    let chars: Vec<char> = program.chars().collect();
    let mut i = 0;
    let mut before = Before::Operator;
    let mut in_print = false;
    let mut after_getline = false;
    let mut depth = 0usize;
    // The last character read outside blanks and comments: a line ending in `,`, `&&`, `||`
    // or `\` goes on (`print "a",` and a newline, then `> "f"`).
    let mut last = '\n';
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' => {
                i += 1;
                continue;
            }
            '\\' => {
                last = c;
                i += 1;
                continue;
            }
            '"' => {
                last = c;
                i = skip_string(&chars, i)?;
                before = Before::Operand;
                continue;
            }
            '#' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '/' => {
                last = c;
                let regex_end = regex_end(&chars, i);
                if before == Before::Operator {
                    i = regex_end.ok_or_else(unclear)?;
                    before = Before::Operand;
                    continue;
                }
                if let Some(end) = regex_end {
                    let body = &chars[i..end];
                    if before == Before::Either || body.iter().any(|c| matches!(c, '"' | '#')) {
                        return Err(unclear());
                    }
                }
                before = Before::Operator;
                i += 1;
                continue;
            }
            '|' if chars.get(i + 1) == Some(&'|') => {
                last = c;
                i += 2;
                before = Before::Operator;
                continue;
            }
            '|' => return Err(Judgement::risk(Risk::RunsCode, "awk |: runs a command")),
            '>' if in_print && depth == 0 => {
                i = redirection(&chars, i)?;
                continue;
            }
            '@' => {
                return Err(Judgement::risk(
                    Risk::RunsCode,
                    "awk @load/@include: loads code",
                ));
            }
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            '\n' if matches!(last, ',' | '\\' | '&' | '|') => {}
            ';' | '\n' | '{' | '}' => {
                in_print = false;
                after_getline = false;
                depth = 0;
            }
            _ => {}
        }
        last = c;
        if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '.')
            {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            before = match word.as_str() {
                "system" => {
                    return Err(Judgement::risk(
                        Risk::RunsCode,
                        "awk system(): runs commands",
                    ));
                }
                "getline" => {
                    after_getline = true;
                    Before::Either
                }
                "print" | "printf" => {
                    in_print = true;
                    Before::Operator
                }
                word if KEYWORDS.contains(&word) => Before::Operator,
                _ => Before::Operand,
            };
            continue;
        }
        if c == '<' && after_getline {
            check_input(&chars, i + 1)?;
        }
        // `x++ / 2` divides.
        let increment = matches!(c, '+' | '-') && chars.get(i + 1) == Some(&c);
        before = match c {
            ')' => Before::Either,
            _ if increment => Before::Either,
            ']' => Before::Operand,
            _ => Before::Operator,
        };
        i += if increment { 2 } else { 1 };
    }
    Ok(())
}

/// After `getline ... <`: gawk reads `/inet/...` names from the network, so the file must be
/// a string naming something else.
fn check_input(chars: &[char], mut i: usize) -> Result<(), Judgement> {
    while chars.get(i) == Some(&' ') {
        i += 1;
    }
    let end = match chars.get(i) {
        Some('"') => skip_string(chars, i)?,
        _ => i,
    };
    let name: String = chars[i..end].iter().collect();
    let mut next = end;
    while chars.get(next) == Some(&' ') {
        next += 1;
    }
    if name.len() < 2 || name.starts_with("\"/inet") || chars.get(next) == Some(&'"') {
        return Err(Judgement::risk(
            Risk::Network,
            "awk getline < NAME: gawk reads /inet/ names from the network",
        ));
    }
    Ok(())
}

fn unclear() -> Judgement {
    Judgement::unparsed("awk: cannot tell a regex from a division")
}

/// From `"` at `i`, the index after the closing `"`; a string cannot span lines.
fn skip_string(chars: &[char], i: usize) -> Result<usize, Judgement> {
    let mut j = i + 1;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 2,
            '"' => return Ok(j + 1),
            '\n' => break,
            _ => j += 1,
        }
    }
    Err(Judgement::unparsed("awk: unterminated string"))
}

/// From `/` at `i`, the index after the regex's closing `/` on the same line, if there is one.
/// A backslash escapes the next character and a bracket expression hides `/`.
fn regex_end(chars: &[char], i: usize) -> Option<usize> {
    let mut j = i + 1;
    let mut in_bracket = false;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 1,
            '\n' => return None,
            '[' if !in_bracket => {
                in_bracket = true;
                if chars.get(j + 1) == Some(&'^') {
                    j += 1;
                }
                if chars.get(j + 1) == Some(&']') {
                    j += 1;
                }
            }
            '[' if matches!(chars.get(j + 1), Some(':' | '.' | '=')) => {
                let kind = chars[j + 1];
                let close = (j + 2..chars.len().saturating_sub(1))
                    .find(|&k| chars[k] == kind && chars[k + 1] == ']')?;
                if chars[j..close].contains(&'\n') {
                    return None;
                }
                j = close + 1;
            }
            ']' => in_bracket = false,
            '/' if !in_bracket => return Some(j + 1),
            _ => {}
        }
        j += 1;
    }
    None
}

/// After `print ... >` at `i`: the target must be one harmless string standing alone.
fn redirection(chars: &[char], i: usize) -> Result<usize, Judgement> {
    let mut j = i + 1;
    if chars.get(j) == Some(&'>') {
        j += 1;
    }
    while chars.get(j) == Some(&' ') {
        j += 1;
    }
    let writes = || Judgement::writer("awk print >: writes a file");
    if chars.get(j) != Some(&'"') {
        return Err(writes());
    }
    let end = skip_string(chars, j)?;
    let target: String = chars[j..end].iter().collect();
    let mut k = end;
    while chars.get(k) == Some(&' ') {
        k += 1;
    }
    let alone = matches!(chars.get(k), None | Some(';' | '\n' | '}'));
    if !HARMLESS.contains(&target.as_str()) || !alone {
        return Err(writes());
    }
    Ok(end)
}

#[cfg(test)]
#[path = "awk_program_tests.rs"]
mod tests;
