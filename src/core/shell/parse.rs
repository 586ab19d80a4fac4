//! Parsing: one tree-sitter parser per thread, the checks made of a line and its tree before
//! the tree is walked, and the walk's way through a node's children.
//!
//! tree-sitter-bash's external scanner hands characters beyond ASCII to the C `isdigit`
//! family, which may read out of bounds; bash treats those characters as word characters, so
//! the parser is given a copy where each such byte is a letter. Byte offsets stay the same and
//! the walker reads the original text.

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;

use std::cell::RefCell;
use std::ops::Range;

use tree_sitter::{Node, Parser, Tree};

use super::kind::{Kind, KindOf};

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

/// The children of `node` in order, as [`Node::children`] gives them. A lone child is taken
/// without a cursor, which allocates; and the cursor never steps past the last child, a step
/// that climbs back through every hidden level tree-sitter keeps between a node and its
/// children (on the corpus it was most of the sibling steps taken).
pub(super) fn child_nodes<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    let count = node.child_count();
    let mut cursor = (count > 1).then(|| node.walk());
    (0..count).filter_map(move |index| match cursor.as_mut() {
        None => node.child(index),
        Some(cursor) => {
            if index == 0 {
                cursor.goto_first_child();
            } else {
                cursor.goto_next_sibling();
            }
            Some(cursor.node())
        }
    })
}

/// The source text of a byte range; empty if the range does not fall on character
/// boundaries (which only a parse of the ASCII copy could produce).
pub(super) fn slice(src: &str, range: std::ops::Range<usize>) -> &str {
    src.get(range).unwrap_or("")
}

/// What tree-sitter reads differently from bash in the text of a line, whatever its tree: a
/// backslash-newline inside a word (`l\<newline>s` is `ls` to bash), a comment after a line
/// continuation, an escaped `&` that ends a word, and control characters other than tab and
/// newline. Each comes as what to show and why, in that order.
pub(super) fn misread_text(src: &str) -> Vec<(&str, &'static str)> {
    let mut misread = Vec::new();
    // All but the last are about backslashes, which most lines do not hold.
    if src.contains('\\') {
        let bytes = src.as_bytes();
        let inside_word = (1..bytes.len().saturating_sub(1)).any(|i| {
            // After an escaped blank (`my\ \<newline>file`) the word goes on too.
            let escaped_blank = i >= 2 && bytes[i - 2] == b'\\';
            bytes[i] == b'\\'
                && bytes[i + 1] == b'\n'
                && (!bytes[i - 1].is_ascii_whitespace() || escaped_blank)
                && bytes.get(i + 2).is_some_and(|b| !b.is_ascii_whitespace())
        });
        if inside_word {
            misread.push(("\\<newline>", "line continuation inside a word"));
        }
        // bash removes a backslash-newline first, so a `#` after one starts a comment (and the
        // next line is a command); tree-sitter reads on as one word.
        let comment_after_continuation = src
            .split("\\\n")
            .skip(1)
            .any(|rest| rest.trim_start_matches([' ', '\t']).starts_with('#'));
        if comment_after_continuation {
            misread.push(("\\<newline>#", "a comment after a line continuation"));
        }
        // bash prints `a \&; then` as `a \& then`: its own reading cannot be checked.
        let escaped_ampersand_ends_word = src.match_indices("\\&").any(|(at, _)| {
            src[at + 2..]
                .trim_start_matches([' ', '\t'])
                .starts_with(';')
        });
        if escaped_ampersand_ends_word {
            misread.push(("\\&", "an escaped & that ends a word"));
        }
    }
    if src
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        misread.push((src, "holds control characters"));
    }
    misread
}

/// Finds a `$(`, `${` or backtick that bash would expand but the parse tree has no node for
/// (tree-sitter-bash misses substitutions in some heredoc bodies, such as `<<-` with tabs).
/// Returns the byte offset of the first one.
pub(super) fn unseen_substitution(root: Node, src: &str) -> Option<usize> {
    // Most lines hold none of the three, and then there is nothing to look for in the tree.
    let opens = src.contains('`') || src.contains("$(") || src.contains("${");
    if !opens {
        return None;
    }
    let mut seen = Vec::new();
    let mut literal = Vec::new();
    collect(root, src, &mut seen, &mut literal);
    seen.sort_unstable();
    literal.sort_by_key(|r| r.start);
    let bytes = src.as_bytes();
    let mut next_literal = 0;
    let mut i = 0;
    while i < bytes.len() {
        while next_literal < literal.len() && literal[next_literal].end <= i {
            next_literal += 1;
        }
        if let Some(range) = literal.get(next_literal).filter(|r| r.start <= i) {
            i = range.end;
            continue;
        }
        let unseen = seen.binary_search(&i).is_err();
        match bytes[i] {
            b'\\' => i += 1,
            b'$' if matches!(bytes.get(i + 1), Some(b'(' | b'{')) && unseen => return Some(i),
            b'`' if unseen => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Trees deeper than this are not walked: the walk recurses, and no honest command line nests
/// this far.
const MAX_TREE_DEPTH: usize = 400;

/// True when the tree nests deeper than the walker is willing to recurse.
pub(super) fn too_deep(root: Node) -> bool {
    // Each level down is another node, so a tree of no more nodes than the limit cannot nest
    // deeper than it. Most lines are that small, and tree-sitter keeps the count.
    if root.descendant_count() <= MAX_TREE_DEPTH {
        return false;
    }
    let mut cursor = root.walk();
    let mut depth = 0;
    loop {
        if cursor.goto_first_child() {
            depth += 1;
            if depth > MAX_TREE_DEPTH {
                return true;
            }
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return false;
            }
            depth -= 1;
        }
    }
}

/// Records where parsed substitutions start (and where backtick ones end) and which ranges
/// bash never expands: single-quoted and `$'…'` strings, comments, heredoc delimiters and the
/// bodies of quoted heredocs.
fn collect(node: Node, src: &str, seen: &mut Vec<usize>, literal: &mut Vec<Range<usize>>) {
    match node.kind_of() {
        Kind::CommandSubstitution | Kind::ArithmeticExpansion | Kind::Expansion => {
            seen.push(node.start_byte());
            if src.as_bytes().get(node.start_byte()) == Some(&b'`') {
                seen.push(node.end_byte().saturating_sub(1));
            }
        }
        Kind::RawString
        | Kind::AnsiCString
        | Kind::Comment
        | Kind::HeredocStart
        | Kind::HeredocEnd => {
            literal.push(node.byte_range());
            return;
        }
        Kind::HeredocRedirect => {
            let mut cursor = node.walk();
            let quoted = node.named_children(&mut cursor).any(|c| {
                c.kind_of() == Kind::HeredocStart
                    && slice(src, c.byte_range()).contains(['\'', '"', '\\'])
            });
            if quoted {
                let mut cursor = node.walk();
                for body in node
                    .named_children(&mut cursor)
                    .filter(|c| c.kind_of() == Kind::HeredocBody)
                {
                    literal.push(body.byte_range());
                }
            }
        }
        _ => {}
    }
    for child in child_nodes(node) {
        collect(child, src, seen, literal);
    }
}
