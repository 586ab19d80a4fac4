//! Parsing: one tree-sitter parser per thread, and the node kinds the walker knows.
//!
//! tree-sitter-bash's external scanner hands characters beyond ASCII to the C `isdigit`
//! family, which may read out of bounds; bash treats those characters as word characters, so
//! the parser is given a copy where each such byte is a letter. Byte offsets stay the same and
//! the walker reads the original text.

use std::cell::RefCell;

use tree_sitter::{Parser, Tree};

/// Kinds that only hold other nodes; the walker checks their children.
#[rustfmt::skip]
pub(super) const CONTAINERS: &[&str] = &[
    "program", "list", "pipeline", "subshell", "compound_statement", "do_group", "else_clause",
    "elif_clause", "negated_command", "if_statement", "while_statement", "case_statement",
    "case_item", "c_style_for_statement", "command_substitution", "process_substitution",
    "binary_expression", "unary_expression", "ternary_expression", "postfix_expression",
    "parenthesized_expression", "arithmetic_expansion", "expansion", "simple_expansion", "string",
    "concatenation", "array", "subscript", "number", "brace_expression", "translated_string",
    "command_name",
];

/// Kinds that hold no command and need no judgement.
#[rustfmt::skip]
pub(super) const LEAVES: &[&str] = &[
    "word", "raw_string", "ansi_c_string", "string_content", "variable_name",
    "special_variable_name", "test_operator", "regex", "extglob_pattern", "comment",
    "file_descriptor", "heredoc_content", "heredoc_start", "heredoc_end",
];

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

pub(super) fn parse(source: &str) -> Option<Tree> {
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let mut parser = Parser::new();
            parser
                .set_language(&tree_sitter_bash::LANGUAGE.into())
                .ok()?;
            *slot = Some(parser);
        }
        // tree-sitter-bash's scanner hands characters beyond ASCII to the C `isdigit` family,
        // which may read out of bounds. Bash treats them as word characters, so parse a copy
        // where each such byte is a letter: byte offsets stay the same.
        if source.is_ascii() {
            slot.as_mut()?.parse(source, None)
        } else {
            let ascii: Vec<u8> = source
                .bytes()
                .map(|b| if b.is_ascii() { b } else { b'a' })
                .collect();
            slot.as_mut()?.parse(&ascii, None)
        }
    })
}

/// The source text of a byte range; empty if the range does not fall on character
/// boundaries (which only a parse of the ASCII copy could produce).
pub(super) fn slice(src: &str, range: std::ops::Range<usize>) -> &str {
    src.get(range).unwrap_or("")
}
