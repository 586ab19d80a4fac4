//! Words: quote removal and what can be known about a word before the line runs.
//!
//! A word is static when all of it is literal text (`'cat'`, `"rm"`, `\ls`, `l's'`). Otherwise it
//! keeps its source text and we remember the literal prefix before the first expansion or glob,
//! because that prefix decides whether the word could turn into an option (`$X` could be
//! `-delete`, `"foo-$X"` could not). An expansion outside double quotes is also split into
//! words by the shell, so `x$X` could hold ` -delete` and count as a possible option too.

use tree_sitter::Node;

use super::kind::{Kind, KindOf};
use super::parse::{child_nodes, slice};

/// One shell word after quote removal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Word {
    /// Quote-removed text for a static word; the source text for any other word.
    pub text: String,
    /// True when the word is a literal known before the line runs (no expansion, no glob).
    pub is_static: bool,
    /// The quote-removed literal text before the first expansion or unquoted glob.
    pub prefix: String,
    /// True when an expansion outside double quotes may split the word into several.
    pub splits: bool,
    /// True when the word may become several words or none: it is split, or holds an unquoted
    /// glob or a brace expansion. Operand counts are then unknown.
    pub many: bool,
    /// True when some of its text was written inside quotes (`'…'`, `"…"`, `$'…'`).
    pub quoted: bool,
}

impl Word {
    /// A literal word.
    pub fn literal(text: &str) -> Word {
        Word {
            text: text.to_string(),
            is_static: true,
            prefix: text.to_string(),
            splits: false,
            many: false,
            quoted: false,
        }
    }

    /// A word whose value is only known when the line runs (`{}` of `find -exec`, the
    /// arguments `xargs` appends).
    pub fn dynamic(text: &str) -> Word {
        Word {
            text: text.to_string(),
            is_static: false,
            prefix: String::new(),
            splits: false,
            many: false,
            quoted: false,
        }
    }

    /// A word of which `text[at..]` is replaced whole when the command runs (`xargs -I {}`,
    /// `fd -x … {}`): dynamic, but not split and with a known prefix.
    pub fn placeholder(text: &str, at: usize) -> Word {
        Word {
            text: text.to_string(),
            is_static: false,
            prefix: text.get(..at).unwrap_or("").to_string(),
            splits: false,
            many: false,
            quoted: false,
        }
    }

    /// True when the word could expand to something that starts with `-` although its source
    /// does not show it: it starts with an expansion or an unquoted glob, or is split.
    pub fn may_be_option(&self) -> bool {
        (!self.is_static && self.prefix.is_empty()) || self.splits
    }

    /// The text when the word is static.
    pub fn literal_text(&self) -> Option<&str> {
        self.is_static.then_some(self.text.as_str())
    }
}

/// Builds the word for one argument node. Node kinds that are not words give a dynamic word;
/// the walker reports unknown kinds separately.
pub(super) fn word_of(node: Node, src: &str) -> Word {
    let mut builder = Builder {
        literal: String::new(),
        dynamic: false,
        prefix_done: false,
        splits: false,
        many: false,
        quoted: false,
    };
    builder.add(node, src);
    let source = slice(src, node.byte_range());
    if builder.dynamic {
        Word {
            text: source.to_string(),
            is_static: false,
            prefix: builder.prefix(),
            splits: builder.splits,
            many: builder.many || builder.splits,
            quoted: builder.quoted,
        }
    } else {
        Word {
            text: builder.literal.clone(),
            is_static: true,
            prefix: builder.literal,
            splits: false,
            many: false,
            quoted: builder.quoted,
        }
    }
}

struct Builder {
    literal: String,
    dynamic: bool,
    /// Set at the first expansion or glob; `literal` then holds the prefix only.
    prefix_done: bool,
    /// Set at an expansion outside double quotes.
    splits: bool,
    /// Set at an unquoted glob or brace expansion.
    many: bool,
    /// Set at any quoted part.
    quoted: bool,
}

impl Builder {
    fn prefix(&self) -> String {
        self.literal.clone()
    }

    fn push(&mut self, text: &str) {
        if !self.prefix_done {
            self.literal.push_str(text);
        }
    }

    fn expansion(&mut self) {
        self.dynamic = true;
        self.prefix_done = true;
    }

    fn add(&mut self, node: Node, src: &str) {
        let text = slice(src, node.byte_range());
        match node.kind_of() {
            Kind::Word | Kind::Number if node.named_child_count() == 0 => self.unquoted(text),
            Kind::RawString => {
                self.quoted = true;
                self.push(text.get(1..text.len().saturating_sub(1)).unwrap_or(""));
            }
            Kind::AnsiCString => {
                self.quoted = true;
                let inner = text.get(2..text.len().saturating_sub(1)).unwrap_or("");
                self.push(&ansi_c(inner));
            }
            Kind::String | Kind::TranslatedString => {
                self.quoted = true;
                self.double_quoted(node, src);
            }
            Kind::Concatenation => {
                let braces = is_brace_expansion(node, src);
                for child in child_nodes(node) {
                    if braces && slice(src, child.byte_range()) == "{" {
                        self.many = true;
                        self.expansion();
                    }
                    self.add(child, src);
                }
            }
            Kind::StringContent => self.push(&unescape_double(text)),
            Kind::CommandName => {
                for child in child_nodes(node) {
                    self.add(child, src);
                }
            }
            Kind::Quote => {}
            Kind::BraceExpression => {
                self.many = true;
                self.expansion();
            }
            // Bash replaces `<(…)` and `>(…)` with a `/dev/fd/N` path.
            Kind::ProcessSubstitution => {
                self.push("/dev/fd/");
                self.expansion();
            }
            Kind::SimpleExpansion | Kind::Expansion | Kind::CommandSubstitution => {
                self.splits = true;
                self.expansion();
            }
            _ => self.expansion(),
        }
    }

    fn double_quoted(&mut self, node: Node, src: &str) {
        let mut last = node.start_byte() + 1;
        for child in child_nodes(node) {
            // Text between children that tree-sitter did not name (a lone `$`) is literal.
            let kind = child.kind_of();
            if child.start_byte() > last && kind != Kind::Quote {
                self.push(slice(src, last..child.start_byte()));
            }
            match kind {
                Kind::Quote => {}
                Kind::Dollar => self.push("$"),
                Kind::StringContent => self.push(&unescape_double(slice(src, child.byte_range()))),
                Kind::String => self.double_quoted(child, src),
                _ => self.expansion(),
            }
            last = child.end_byte();
        }
    }

    /// Unquoted text: backslash escapes are removed, globs and brace expansions end the prefix.
    fn unquoted(&mut self, text: &str) {
        // Most words are plain: no escape to remove and nothing that ends the prefix.
        if !text.contains(['\\', '*', '?', '[']) {
            self.push(text);
            return;
        }
        let mut chars = text.chars().peekable();
        let mut out = String::new();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some('\n') | None => {}
                    Some(next) => out.push(next),
                },
                '*' | '?' | '[' => {
                    self.push(&out);
                    out.clear();
                    self.many = true;
                    self.expansion();
                }
                _ => out.push(c),
            }
        }
        self.push(&out);
    }
}

/// True for `{a,b}` and `{1..3}` spread over a concatenation: bash expands them into several
/// words.
fn is_brace_expansion(node: Node, src: &str) -> bool {
    let parts: Vec<&str> = child_nodes(node)
        .filter(|c| c.kind_of() == Kind::Word)
        .map(|c| slice(src, c.byte_range()))
        .collect();
    parts.contains(&"{") && parts.iter().any(|p| p.contains(',') || p.contains(".."))
}

/// The script bash runs for a backquoted substitution `text` (backquotes included): the
/// backslashes before `\\`, `` ` `` and `$` removed, and before `"` too inside double quotes.
/// `None` when bash would end the substitution at another backquote than the parser did, or
/// when a backslash-newline leaves its reading in doubt.
pub(super) fn backquote_body(text: &str, in_double_quotes: bool) -> Option<String> {
    let inner = text.strip_prefix('`')?.strip_suffix('`')?;
    let mut body = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '`' => return None,
            '\\' => match chars.next() {
                Some('\n') | None => return None,
                Some(escaped @ ('\\' | '`' | '$')) => body.push(escaped),
                Some('"') if in_double_quotes => body.push('"'),
                Some(other) => {
                    body.push('\\');
                    body.push(other);
                }
            },
            _ => body.push(c),
        }
    }
    Some(body)
}

/// Removes the backslashes that have a meaning inside double quotes.
pub(super) fn unescape_double(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('"' | '\\' | '$' | '`') => out.push(chars.next().unwrap_or('\\')),
                Some('\n') => {
                    chars.next();
                }
                _ => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// True when bash ends the `$'…'` string `text` at its last character, as the parser did:
/// a backslash escapes the character after it, and the first unescaped `'` ends it.
pub(super) fn ansi_c_ends_at_its_end(text: &str) -> bool {
    let Some(inner) = text.strip_prefix("$'") else {
        return false;
    };
    let mut chars = inner.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '\'' => return at + 1 == inner.len(),
            _ => {}
        }
    }
    false
}

/// One byte of a decoded `$'…'`: `None` for NUL, where bash ends the string; a byte beyond
/// ASCII, which bash keeps raw, as the replacement character (it names no program or option).
fn byte(value: u32) -> Option<char> {
    match value {
        0 => None,
        1..=0x7f => char::from_u32(value),
        _ => Some('\u{fffd}'),
    }
}

/// Decodes `$'…'` as bash does: the letter escapes, octal `\nnn`, hexadecimal `\xHH`,
/// Unicode `\uHHHH` and `\UHHHHHHHH`, and control characters `\cX`. Other escapes are kept as
/// written, as bash keeps them.
pub(super) fn ansi_c(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    let digits = |chars: &mut std::iter::Peekable<std::str::Chars>, radix: u32, most: usize| {
        let mut value = String::new();
        while value.len() < most && chars.peek().is_some_and(|c| c.is_digit(radix)) {
            value.extend(chars.next());
        }
        (!value.is_empty()).then(|| u32::from_str_radix(&value, radix).unwrap_or(0))
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(escape) = chars.next() else {
            out.push('\\');
            break;
        };
        let simple = match escape {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'e' | 'E' => Some('\u{1b}'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            '\\' | '\'' | '"' | '?' => Some(escape),
            _ => None,
        };
        if let Some(decoded) = simple {
            out.push(decoded);
            continue;
        }
        match escape {
            '0'..='7' => {
                // Up to three octal digits, this one included.
                let mut value = escape.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            value = value * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                match byte(value & 0xff) {
                    Some(decoded) => out.push(decoded),
                    None => return out,
                }
            }
            'x' | 'u' | 'U' => {
                let most = match escape {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let decoded = digits(&mut chars, 16, most);
                match decoded {
                    Some(0) => return out,
                    Some(value) if escape == 'x' => match byte(value) {
                        Some(decoded) => out.push(decoded),
                        None => return out,
                    },
                    Some(value) => out.push(char::from_u32(value).unwrap_or('\u{fffd}')),
                    None => {
                        out.push('\\');
                        out.push(escape);
                    }
                }
            }
            'c' => match chars.next() {
                Some(control) => match byte(control.to_ascii_uppercase() as u32 ^ 0x40) {
                    Some(decoded) => out.push(decoded),
                    None => return out,
                },
                None => out.push_str("\\c"),
            },
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}
