//! Words and here-document bodies in the reading's canonical spelling: quoted text between two
//! private-use characters, `$'…'` decoded, each substitution written `$(…)` and read in turn.

use tree_sitter::Node;

use super::{Item, Reader, Reading};
use crate::core::shell::parse::slice;
use crate::core::shell::words::{ansi_c, backquote_body, unescape_double};

impl Reader<'_, '_> {
    /// A here-document's body from the line after its start to its end line, leading tabs
    /// removed after `<<-`; an unquoted body's substitutions read.
    pub(super) fn heredoc_body(
        &mut self,
        node: Node,
        quoted: bool,
        strip_tabs: bool,
        subs: &mut Vec<Reading>,
    ) -> String {
        let from = line_start(self.src, node.start_byte());
        let end = node
            .next_sibling()
            .map_or(node.end_byte(), |n| n.start_byte());
        let to = line_start(self.src, end).max(from);
        let mut text = String::new();
        let mut at = from;
        if !quoted {
            for sub in substitutions(node) {
                text.push_str(slice(self.src, at..sub.start_byte()));
                text.push_str(&self.substitution(sub, subs));
                at = sub.end_byte();
            }
        }
        text.push_str(slice(self.src, at.max(from)..to));
        if strip_tabs {
            text = text
                .split_inclusive('\n')
                .map(|line| line.trim_start_matches('\t'))
                .collect();
        }
        text
    }

    /// A word in canonical quoting, its substitutions read into `subs`.
    pub(super) fn word(&mut self, node: Node, in_quotes: bool, subs: &mut Vec<Reading>) -> String {
        let text = self.text(node);
        match node.kind() {
            "command_substitution" | "process_substitution" => self.substitution(node, subs),
            "raw_string" => quote(text.get(1..text.len().saturating_sub(1)).unwrap_or("")),
            "ansi_c_string" => quote(&ansi_c(
                text.get(2..text.len().saturating_sub(1)).unwrap_or(""),
            )),
            "string_content" if in_quotes => quote(&unescape_double(text)),
            "word" if node.named_child_count() == 0 && !in_quotes => unquoted(text),
            "translated_string" => {
                let mut cursor = node.walk();
                let inner = node
                    .named_children(&mut cursor)
                    .find(|c| c.kind() == "string");
                inner.map_or_else(String::new, |inner| self.word(inner, false, subs))
            }
            "string" => {
                let mut out = String::new();
                let mut at = node.start_byte() + 1;
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    if matches!(child.kind(), "\"" | "$\"") {
                        continue;
                    }
                    if child.start_byte() > at {
                        out.push_str(&quote(slice(self.src, at..child.start_byte())));
                    }
                    match child.kind() {
                        "string_content" | "string" => {
                            out.push_str(&self.word(child, true, subs));
                        }
                        "$" => out.push_str(&quote("$")),
                        _ => {
                            let inner = self.word(child, true, subs);
                            out.push_str(&format!("\"{inner}\""));
                        }
                    }
                    at = child.end_byte();
                }
                let end = node.end_byte().saturating_sub(1);
                if end > at {
                    out.push_str(&quote(slice(self.src, at..end)));
                }
                merge_quotes(&out)
            }
            _ => {
                // Any other part: its source text, with the substitutions inside it read.
                let mut out = String::new();
                let mut at = node.start_byte();
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    out.push_str(slice(self.src, at..child.start_byte()));
                    out.push_str(&self.word(child, in_quotes, subs));
                    at = child.end_byte();
                }
                out.push_str(slice(self.src, at..node.end_byte()));
                // bash removes a backslash-newline before it reads the text.
                merge_quotes(&out.replace("\\\n", ""))
            }
        }
    }

    pub(super) fn substitution(&mut self, node: Node, subs: &mut Vec<Reading>) -> String {
        let text = self.text(node);
        if text.starts_with('`') {
            let in_quotes = node.parent().is_some_and(|p| p.kind() == "string");
            let reading = match backquote_body(text, in_quotes) {
                Some(body) => (self.backquoted)(&body),
                None => Reading {
                    items: vec![Item::Unreadable("backquotes".to_string())],
                },
            };
            subs.push(reading);
            return "$(…)".to_string();
        }
        let mut cursor = node.walk();
        let body: Vec<Node> = node.named_children(&mut cursor).collect();
        subs.push(self.read_apart(body));
        match text.as_bytes().first() {
            Some(b'<') => "<(…)",
            Some(b'>') => ">(…)",
            _ => "$(…)",
        }
        .to_string()
    }
}

/// The substitutions directly under `node` or under its expansions, in order.
fn substitutions(node: Node) -> Vec<Node> {
    let mut found = Vec::new();
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        if matches!(
            child.kind(),
            "command_substitution" | "process_substitution"
        ) {
            found.push(child);
        } else {
            found.extend(substitutions(child));
        }
    }
    found
}

/// Opens and closes quoted text in the canonical spelling: characters no shell line holds.
const OPEN: char = '\u{e000}';
const CLOSE: char = '\u{e001}';

/// Literal text in canonical quoting.
fn quote(text: &str) -> String {
    format!("{OPEN}{text}{CLOSE}")
}

/// Unquoted text: a backslash-escaped character is written quoted.
fn unquoted(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(escaped) => out.push_str(&quote(escaped.encode_utf8(&mut [0; 4]))),
            },
            _ => out.push(c),
        }
    }
    merge_quotes(&out)
}

/// Joins quoted runs that touch (`'a'"b"` is one run `ab`), so spellings of one word compare
/// equal.
fn merge_quotes(text: &str) -> String {
    text.replace(&format!("{CLOSE}{OPEN}"), "")
}

/// The byte offset where the line holding `at` starts.
pub(super) fn line_start(src: &str, at: usize) -> usize {
    src.get(..at)
        .and_then(|before| before.rfind('\n'))
        .map_or(0, |newline| newline + 1)
}
