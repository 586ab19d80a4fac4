//! Here-documents as bash reads them, and the check that tree-sitter read them the same way.
//!
//! bash removes quotes from the delimiter word to find the line that ends the body, and any
//! quoting anywhere in the word (`'`, `"`, `\`, `$'…'`, `$"…"`) makes the body literal;
//! `$'…'` is even decoded (`$'E\x4fF'` ends at `EOF`). tree-sitter-bash waits for the word as
//! written, so a body it reads as text can hold lines that bash runs as commands. In an
//! unquoted body bash also joins a backslash-newline to the next line before it compares, so
//! `E\<newline>OF` ends the body too.
//!
//! The analyser removes quotes as bash does for the forms whose reading it can be sure of
//! (plain characters, backslashes, and quoted runs of plain characters anywhere in the word)
//! and refuses every other. For an accepted one it checks the
//! body tree-sitter found against bash's rule: the end is the first line equal to the
//! delimiter (leading tabs removed after `<<-`), and no earlier line is.

#[cfg(test)]
#[path = "heredoc_tests.rs"]
mod tests;

use tree_sitter::Node;

use super::kind::{Kind, KindOf};
use super::parse::{child_nodes, slice};

/// The delimiter of one here-document as bash reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Delimiter {
    /// The line that ends the body, quotes removed.
    pub text: String,
    /// Any quoting in the word: the body is literal text, nothing in it expands.
    pub quoted: bool,
}

/// Characters a delimiter may hold for the analyser to be sure of bash's reading: nothing
/// that quotes, expands, globs or ends a word.
fn plain(word: &str) -> bool {
    !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.+/:@%,=^~".contains(c))
}

/// bash's reading of a delimiter word: quote removal over plain characters, backslashes and
/// single- or double-quoted runs of plain characters. Any other form (`$'…'`, `$"…"`, an
/// expansion, a glob or brace character, an escape inside double quotes) is refused.
pub(super) fn delimiter(word: &str) -> Option<Delimiter> {
    let plain_char = |c: char| plain(c.encode_utf8(&mut [0; 4]));
    let mut text = String::with_capacity(word.len());
    let mut quoted = false;
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                quoted = true;
                let escaped = chars.next()?;
                if !(plain_char(escaped) || escaped == '\'' || escaped == '"') {
                    return None;
                }
                text.push(escaped);
            }
            '\'' | '"' => {
                quoted = true;
                loop {
                    match chars.next()? {
                        close if close == c => break,
                        inner if plain_char(inner) => text.push(inner),
                        _ => return None,
                    }
                }
            }
            c if plain_char(c) => text.push(c),
            _ => return None,
        }
    }
    plain(&text).then_some(Delimiter { text, quoted })
}

/// Checks one `heredoc_redirect` node; returns why bash could read it differently.
pub(super) fn check(node: Node, src: &str) -> Result<Delimiter, &'static str> {
    let children: Vec<Node> = child_nodes(node).collect();
    let strip_tabs = children
        .iter()
        .any(|c| c.kind_of() == Kind::HeredocStripTabs);
    // What tree-sitter hangs on the redirection stays on its line; bash reads the next line
    // as the body (`\EOF` there is body text, not an escaped newline and a word).
    let spans_lines = children.iter().any(|c| {
        !matches!(c.kind_of(), Kind::HeredocBody | Kind::HeredocEnd)
            && slice(src, c.byte_range()).contains('\n')
    });
    if spans_lines {
        return Err("a here-document line the parser read as part of the command");
    }
    let start = children
        .iter()
        .find(|c| c.kind_of() == Kind::HeredocStart)
        .ok_or("a here-document without a delimiter")?;
    let delimiter = delimiter(slice(src, start.byte_range()))
        .ok_or("a here-document delimiter quoted in a way bash reads differently")?;
    let end = children
        .iter()
        .find(|c| c.kind_of() == Kind::HeredocEnd)
        .ok_or("a here-document without its end line")?;
    let body_start = children
        .iter()
        .find(|c| c.kind_of() == Kind::HeredocBody)
        .map_or(end.start_byte(), |body| body.start_byte());
    let from = line_start(src, body_start);
    let to = line_start(src, end.start_byte());
    if from > to {
        return Err("a here-document whose body the parser placed oddly");
    }
    let body = slice(src, from..to);
    let is_end = |line: &str| {
        let line = if strip_tabs {
            line.trim_start_matches('\t')
        } else {
            line
        };
        line == delimiter.text
    };
    if body
        .split_inclusive('\n')
        .any(|l| is_end(l.trim_end_matches('\n')))
    {
        return Err("a here-document that bash ends earlier than the parser");
    }
    let end_line = src[to..].split('\n').next().unwrap_or("");
    if !is_end(end_line) {
        return Err("a here-document whose end line bash reads differently");
    }
    // A body line that starts with a backslash is where tree-sitter's reading of bodies goes
    // astray (it may take `\<newline>` for an escape); such bodies are not trusted.
    if body
        .lines()
        .any(|l| l.trim_start_matches('\t').starts_with('\\'))
    {
        return Err("a here-document line that starts with a backslash");
    }
    if !delimiter.quoted && (body.contains("$\"") || body.contains("$[")) {
        return Err(
            "a here-document with a translated string or `$[` the parser reads differently",
        );
    }
    if !delimiter.quoted && body.contains("\\\n") {
        return Err("a here-document whose lines bash joins at a backslash");
    }
    Ok(delimiter)
}

/// The byte offset where the line holding `at` starts.
fn line_start(src: &str, at: usize) -> usize {
    src.get(..at)
        .and_then(|before| before.rfind('\n'))
        .map_or(0, |newline| newline + 1)
}
