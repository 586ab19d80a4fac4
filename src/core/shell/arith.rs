//! Arithmetic: where bash evaluates text as an expression, and whether that can run code.
//!
//! Bash evaluates array subscripts inside every arithmetic context, and a name's value is
//! itself evaluated as an expression, so `x='a[$(cmd)]'; (( x ))` runs `cmd`. The contexts are
//! `(( ))`, `$(( ))`, `let`, the C-style `for`, the arithmetic tests of `[[ ]]`, `[ ]` and
//! `test` (`-eq`…, and `-v` with a subscript), values assigned to `declare -i` names,
//! substring offsets, indexed-array subscripts, indirect expansion, and the numeric arguments
//! of builtins such as `shift`, `exit`, `read -t` or `printf %d`. An operand is inert when it
//! is a literal number, a name bash keeps numeric (`RANDOM`, `$#`), or a name this line set to
//! a number before the use and never to anything else. Anything else is unverified.

#[cfg(test)]
#[path = "arith_tests.rs"]
mod tests;

use tree_sitter::Node;

use super::Risk;
use super::env::is_valid_name;
use super::kind::{Kind, KindOf};
use super::parse::child_nodes;
use super::walk::Walker;
use super::words::Word;

/// Names bash always expands to a number.
const NUMERIC: &[&str] = &[
    "RANDOM",
    "SRANDOM",
    "SECONDS",
    "LINENO",
    "BASHPID",
    "PPID",
    "UID",
    "EUID",
    "EPOCHSECONDS",
    "HISTCMD",
];

const INDIRECT: &str = "indirect expansion evaluates a name the line cannot see";

pub(super) const WHY: &str =
    "evaluated as arithmetic, a value the line cannot see can run commands";

/// True for a literal number as bash's arithmetic reads it (`10`, `0x1f`, `8#17`).
fn is_number(text: &str) -> bool {
    let text = text.strip_prefix('-').unwrap_or(text);
    text.starts_with(|c: char| c.is_ascii_digit())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '#' | '@' | '_'))
}

/// True for `N`, `{N..M}` and `{N..M..S}`: words that expand to integers only.
/// (A `for` over no words at all assigns nothing; its caller checks for that.)
pub(super) fn is_integer_word(text: &str) -> bool {
    let digits = |t: &str| {
        let t = t.strip_prefix('-').unwrap_or(t);
        !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
    };
    if digits(text) {
        return true;
    }
    text.strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .is_some_and(|inner| {
            let parts: Vec<&str> = inner.split("..").collect();
            (2..=3).contains(&parts.len()) && parts.iter().all(|p| digits(p))
        })
}

impl Walker<'_> {
    /// Records that `name` now holds an integer (`true`) or something else.
    pub(super) fn note_value(&mut self, name: &str, integer: bool) {
        if integer {
            // A number assigned where it may not run proves nothing.
            if self.conditional == 0 {
                self.integers.insert(name.to_string());
            }
        } else {
            self.non_integers.insert(name.to_string());
        }
    }

    /// A name whose value is evaluated: fine only when the line made it a number first.
    fn arith_use(&mut self, name: &str) {
        if NUMERIC.contains(&name) {
            return;
        }
        if self.integers.contains(name) {
            self.arith_uses.push(name.to_string());
        } else {
            self.risk_finding(name, Risk::RunsCode, WHY);
        }
    }

    /// After the walk: a name used as a number that the line also set to something else.
    pub(super) fn check_arith_uses(&mut self) {
        let uses = std::mem::take(&mut self.arith_uses);
        for name in uses {
            if self.non_integers.contains(&name) {
                self.risk_finding(&name, Risk::RunsCode, WHY);
            }
        }
        let uses = std::mem::take(&mut self.indirect_uses);
        for name in uses {
            if self.other_values.contains(&name) {
                self.risk_finding(&name, Risk::RunsCode, INDIRECT);
            }
        }
    }

    /// Literal expression text (`let 'x = y + 1'`, a `[ a -eq b ]` operand): names are used,
    /// names assigned become numbers; subscripts, expansions and quotes are refused.
    pub(super) fn arith_text(&mut self, text: &str) {
        if text.contains(['[', ']', '$', '`', '"', '\'', '\\']) {
            self.risk_finding(text, Risk::RunsCode, WHY);
            return;
        }
        let bytes = text.as_bytes();
        let mut targets = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            let word = |j: usize| {
                let mut end = j;
                while end < bytes.len()
                    && (bytes[end].is_ascii_alphanumeric()
                        || matches!(bytes[end], b'_' | b'#' | b'@'))
                {
                    end += 1;
                }
                end
            };
            if c.is_ascii_digit() {
                i = word(i);
            } else if c.is_ascii_alphabetic() || c == b'_' {
                let end = word(i);
                let name = &text[i..end];
                let after = text[end..].trim_start();
                let plain_assign = after.starts_with('=') && !after.starts_with("==");
                if !plain_assign {
                    self.arith_use(name);
                }
                if plain_assign
                    || [
                        "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=", "++", "--",
                    ]
                    .iter()
                    .any(|op| after.starts_with(op))
                    || text[..i].trim_end().ends_with("++")
                    || text[..i].trim_end().ends_with("--")
                {
                    targets.push(name.to_string());
                }
                i = end;
            } else {
                i += 1;
            }
        }
        let short_circuit = text.contains("&&") || text.contains("||") || text.contains('?');
        self.conditional += usize::from(short_circuit);
        for name in targets {
            self.note_value(&name, true);
        }
        self.conditional -= usize::from(short_circuit);
    }

    /// A numeric argument of a builtin (`shift N`, `read -t N`): a literal expression, or
    /// `$NAME` of a name that holds a number.
    pub(super) fn arith_word(&mut self, word: &Word) {
        if let Some(text) = word.literal_text() {
            self.arith_text(text);
            return;
        }
        let bare = word.text.trim_matches('"');
        let name = bare
            .strip_prefix("${")
            .and_then(|t| t.strip_suffix('}'))
            .or_else(|| bare.strip_prefix('$'));
        match name {
            Some("#" | "?" | "$" | "!") => {}
            Some(name) if is_valid_name(name) && !word.text.starts_with("\"\"") => {
                self.arith_use(name)
            }
            _ => self.risk_finding(&word.text, Risk::RunsCode, WHY),
        }
    }

    /// Checks a tree-sitter node that bash evaluates as arithmetic.
    pub(super) fn arith_node(&mut self, node: Node) {
        let text = self.text(node);
        match node.kind_of() {
            Kind::Number if is_number(text) => {}
            Kind::VariableName | Kind::Word if is_number(text) => {}
            Kind::VariableName | Kind::Word if is_valid_name(text) => self.arith_use(text),
            Kind::Word | Kind::RawString => {
                let inner = if node.kind_of() == Kind::RawString {
                    text.trim_matches('\'')
                } else {
                    text
                };
                self.arith_text(inner);
            }
            Kind::String => {
                let mut cursor = node.walk();
                let children: Vec<Node> = node.named_children(&mut cursor).collect();
                for child in children {
                    if child.kind_of() == Kind::StringContent {
                        let content = self.text(child);
                        self.arith_text(content);
                    } else {
                        self.arith_node(child);
                    }
                }
            }
            Kind::SimpleExpansion => match node.named_child(0) {
                Some(child) if child.kind_of() == Kind::VariableName => {
                    let name = self.text(child);
                    self.arith_use(name);
                }
                Some(child)
                    if child.kind_of() == Kind::SpecialVariableName
                        && matches!(self.text(child), "#" | "?" | "$" | "!") => {}
                _ => self.risk_finding(text, Risk::RunsCode, WHY),
            },
            Kind::Expansion => {
                let name = text.strip_prefix("${").and_then(|t| t.strip_suffix('}'));
                match name {
                    Some(name) if is_valid_name(name) => self.arith_use(name),
                    Some(name)
                        if name.strip_prefix('#').is_some_and(is_valid_name)
                            || matches!(name, "#" | "?" | "$" | "!") => {}
                    _ => self.risk_finding(text, Risk::RunsCode, WHY),
                }
            }
            Kind::BinaryExpression
            | Kind::UnaryExpression
            | Kind::PostfixExpression
            | Kind::TernaryExpression
            | Kind::ParenthesizedExpression => self.arith_expression(node),
            Kind::VariableAssignment => {
                if let Some(value) = node.child_by_field_name("value") {
                    self.arith_node(value);
                }
                match node.child_by_field_name("name") {
                    Some(name) if name.kind_of() == Kind::VariableName => {
                        let name = self.text(name);
                        self.note_value(name, true);
                    }
                    _ => self.risk_finding(text, Risk::RunsCode, WHY),
                }
            }
            // Walked as commands elsewhere; their output is a value the line cannot see.
            _ => self.risk_finding(text, Risk::RunsCode, WHY),
        }
    }

    fn arith_expression(&mut self, node: Node) {
        let children: Vec<Node> = child_nodes(node).collect();
        let operator = children
            .iter()
            .find(|c| !c.is_named())
            .map(|c| c.kind())
            .unwrap_or("");
        let assigns = matches!(
            operator,
            "=" | "+="
                | "-="
                | "*="
                | "/="
                | "%="
                | "<<="
                | ">>="
                | "&="
                | "^="
                | "|="
                | "++"
                | "--"
        );
        // `a && (x = 1)`, `c ? (x = 1) : 0`: only the first operand always runs.
        let short_circuit =
            matches!(operator, "&&" | "||") || node.kind_of() == Kind::TernaryExpression;
        let mut targets = Vec::new();
        for (index, child) in children.iter().filter(|c| c.is_named()).enumerate() {
            let skipped = short_circuit && index > 0;
            self.conditional += usize::from(skipped);
            let text = self.text(*child);
            let is_name =
                matches!(child.kind_of(), Kind::VariableName | Kind::Word) && is_valid_name(text);
            if assigns && is_name && (index == 0 || node.kind_of() != Kind::BinaryExpression) {
                if operator != "=" {
                    self.arith_use(text);
                }
                targets.push(text.to_string());
            } else if assigns && index == 0 {
                // An assignment to a subscript or an expansion.
                self.risk_finding(text, Risk::RunsCode, WHY);
            } else {
                self.arith_node(*child);
            }
            self.conditional -= usize::from(skipped);
        }
        for name in targets {
            self.note_value(&name, true);
        }
    }

    /// Every named child of an arithmetic node, except a C-style `for`'s body.
    pub(super) fn arith_root(&mut self, node: Node) {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        let initializer = node.child_by_field_name("initializer");
        let is_for = node.kind_of() == Kind::CStyleForStatement;
        for child in children {
            if child.kind_of() != Kind::DoGroup && child.kind_of() != Kind::CompoundStatement {
                // A C-style `for` always runs its initializer, the rest maybe not.
                let later = is_for && Some(child) != initializer;
                self.conditional += usize::from(later);
                self.arith_node(child);
                self.conditional -= usize::from(later);
            }
        }
    }

    /// `${x:off:len}`, `${a[i]}` and `${!x}`: the parts of an expansion bash evaluates.
    pub(super) fn expansion_arith(&mut self, node: Node) {
        let children: Vec<Node> = child_nodes(node).collect();
        let mut substring = false;
        let mut indirect = false;
        let mut listing = false;
        for child in &children {
            if !child.is_named() {
                match child.kind() {
                    "!" if !substring => indirect = true,
                    ":" => substring = true,
                    "@" | "*" => listing = true,
                    _ => {}
                }
                continue;
            }
            if child.kind_of() == Kind::Subscript {
                if let Some(index) = child.child_by_field_name("index") {
                    let text = self.text(index);
                    if text == "@" || text == "*" {
                        listing = true;
                    } else {
                        self.arith_node(index);
                    }
                }
            } else if substring {
                self.arith_node(*child);
            }
        }
        if indirect && !listing {
            // `r=HOME; ${!r}` is fine: the line set `r` to a plain name and nothing else.
            let name = children
                .iter()
                .find(|c| c.kind_of() == Kind::VariableName)
                .map(|c| self.text(*c));
            match name {
                Some(name) if self.name_values.contains(name) && children.len() == 4 => {
                    self.indirect_uses.push(name.to_string());
                }
                _ => {
                    let what = self.text(node);
                    self.risk_finding(what, Risk::RunsCode, INDIRECT);
                }
            }
        }
    }
}

impl Walker<'_> {
    /// `unset NAME…`: a subscript (`unset 'a[i]'`) is evaluated, and so is one that arrives
    /// in a variable.
    pub(super) fn unset_words(&mut self, node: Node) {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        for child in children {
            if child.kind_of() == Kind::VariableName {
                let name = self.text(child);
                self.note_value(name, true);
                continue;
            }
            let word = super::words::word_of(child, self.src);
            match word.literal_text() {
                Some(text) if is_valid_name(text) || text.starts_with('-') => {
                    self.note_value(text, true);
                }
                Some(text) => match text
                    .split_once('[')
                    .and_then(|(name, rest)| Some((name, rest.strip_suffix(']')?)))
                {
                    Some((name, index)) if is_valid_name(name) => {
                        if index != "@" && index != "*" {
                            self.arith_text(index);
                        }
                    }
                    _ => self.risk_finding(text, Risk::RunsCode, WHY),
                },
                None => self.risk_finding(&word.text, Risk::RunsCode, WHY),
            }
        }
    }
}
