//! Makes text from agents safe to show: control characters and escape sequences become visible
//! escapes, so no byte an agent sent can repaint a terminal (safety contract 7).

use std::borrow::Cow;
use std::fmt::Write;

/// True for characters that a terminal would act on rather than print: C0 and C1 controls,
/// DEL, and the bidirectional overrides that can make text read differently than it runs.
fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
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
    fn plain_text_is_borrowed_unchanged() {
        assert!(matches!(visible("ls -la 'é'"), Cow::Borrowed(_)));
    }

    #[test]
    fn multi_line_views_keep_their_lines_but_not_their_escapes() {
        assert_eq!(visible_lines("a\x1b[1m\n\tb\\t"), "a\\e[1m\n    b\\t");
    }
}
