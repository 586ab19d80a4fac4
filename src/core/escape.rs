//! Makes text from agents safe to show: control characters, escape sequences and the
//! characters that hide or reorder text become visible escapes, so no byte an agent sent can
//! repaint a terminal or read differently than it runs (safety contract 7). This is the one
//! escaper: the console, `explain`, `classifier test`, `serve`'s log and the shell analyser's
//! explanations all use it.

use std::borrow::Cow;
use std::fmt::Write;

/// True for characters a reader cannot see for what they are: C0 and C1 controls and DEL
/// (a terminal acts on them), line and paragraph separators, bidirectional marks, embeddings,
/// overrides and isolates (they reorder what is shown), zero-width characters and the
/// combining grapheme joiner (they hide), and tag characters (invisible text).
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{034f}'
                | '\u{061c}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'
                | '\u{2066}'..='\u{2069}'
                | '\u{feff}'
                | '\u{e0000}'..='\u{e007f}'
        )
}

/// `text` with every unsafe character written as a visible escape (`\n`, `\t`, `\r`, `\e`,
/// `\x07`, `\u{202e}`); a backslash stays as it is. Borrowed when nothing needed escaping.
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{1b}' => out.push_str("\\e"),
            c if is_unsafe(c) && (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if is_unsafe(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// [`visible`] of at most the first `limit` characters of `text`, with `…` where it was cut.
pub fn visible_cut(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}…", visible(&text[..cut])),
        None => visible(text).into_owned(),
    }
}

/// Like [`visible`], but keeps newlines (and tabs) as they are, for multi-line views.
pub fn visible_lines(text: &str) -> String {
    text.split('\n')
        .map(|line| visible(&line.replace('\t', "    ")).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_and_controls_become_visible() {
        assert_eq!(
            visible("ls\x1b[2J\r\nAllowed\x07"),
            "ls\\e[2J\\r\\nAllowed\\x07"
        );
        assert_eq!(visible("a\u{9b}b\u{7f}"), "a\\x9bb\\x7f");
        assert_eq!(visible("x\u{202e}y"), "x\\u{202e}y");
    }

    #[test]
    fn every_hiding_or_reordering_character_becomes_visible() {
        let hidden = [
            '\u{2028}',
            '\u{2029}',
            '\u{200e}',
            '\u{200f}',
            '\u{202a}',
            '\u{202b}',
            '\u{202c}',
            '\u{202d}',
            '\u{202e}',
            '\u{2066}',
            '\u{2067}',
            '\u{2068}',
            '\u{2069}',
            '\u{061c}',
            '\u{e0000}',
            '\u{e0041}',
            '\u{e007f}',
            '\u{200b}',
            '\u{200c}',
            '\u{200d}',
            '\u{2060}',
            '\u{feff}',
            '\u{034f}',
            '\u{85}',
            '\u{9f}',
        ];
        for c in hidden {
            let shown = visible(&format!("a{c}b")).into_owned();
            assert!(!shown.contains(c), "{:x} stayed raw", c as u32);
            assert!(shown.starts_with("a\\") && shown.ends_with('b'), "{shown}");
        }
        assert_eq!(visible("x\u{e0041}y"), "x\\u{e0041}y");
        assert_eq!(visible("é ü 中 🙂"), "é ü 中 🙂");
    }

    #[test]
    fn a_cut_escapes_what_it_keeps() {
        assert_eq!(visible_cut("a\u{1b}bcdef", 3), "a\\eb…");
        assert_eq!(visible_cut("ab", 3), "ab");
    }

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        assert!(matches!(visible("ls -la 'é'"), Cow::Borrowed(_)));
    }

    #[test]
    fn multi_line_views_keep_their_lines_but_not_their_escapes() {
        assert_eq!(visible_lines("a\x1b[1m\n\tb\\t"), "a\\e[1m\n    b\\t");
    }
}
