//! Conditions: the tests of `[[ ]]`, `[ ]` and `test` that bash evaluates as arithmetic.
//!
//! The operands of `-eq`, `-ne`, `-lt`, `-le`, `-gt` and `-ge`, and the name given to `-v`,
//! are evaluated, subscripts included (see [`super::arith`]). In `[ ]` and `test` an unquoted
//! expansion may split into an operator and its operands, and a quoted one standing where an
//! operator goes may be one, so both are refused there.

use tree_sitter::Node;

use super::Risk;
use super::arith::WHY;
use super::env::is_valid_name;
use super::kind::{Kind, KindOf};
use super::walk::Walker;
use super::words::Word;

/// The arithmetic operators of `test`, `[ ]` and `[[ ]]`.
const TEST_ARITH: &[&str] = &["-eq", "-ne", "-lt", "-le", "-gt", "-ge"];

/// Unary tests that only look at their operand as a string or path.
#[rustfmt::skip]
const TEST_UNARY: &[&str] = &[
    "-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p", "-r", "-s", "-t", "-u", "-w",
    "-x", "-G", "-L", "-N", "-O", "-S", "-z", "-n", "-o", "!",
];

/// Binary tests that compare strings or files.
const TEST_BINARY: &[&str] = &["=", "==", "!=", "<", ">", "-ef", "-nt", "-ot", "-a", "-o"];

impl Walker<'_> {
    /// `[[ … ]]` and `[ … ]`: the operands of arithmetic tests and `-v` are evaluated; in
    /// `[ ]` an unquoted expansion may split into an operator and its operand.
    pub(super) fn test_arith(&mut self, node: Node) {
        let single = !self.text(node).starts_with("[[");
        self.test_node(node, single);
    }

    fn test_node(&mut self, node: Node, single: bool) {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        let operator = children
            .iter()
            .find(|c| c.kind_of() == Kind::TestOperator)
            .map(|c| self.text(*c));
        for child in &children {
            match child.kind_of() {
                Kind::TestOperator => {}
                Kind::BinaryExpression | Kind::UnaryExpression | Kind::ParenthesizedExpression => {
                    self.test_node(*child, single)
                }
                _ if operator.is_some_and(|o| TEST_ARITH.contains(&o)) => self.arith_node(*child),
                _ if operator == Some("-v") => {
                    let text = self.text(*child);
                    if !is_valid_name(text) {
                        self.risk_finding(text, Risk::RunsCode, WHY);
                    }
                }
                Kind::SimpleExpansion
                | Kind::Expansion
                | Kind::CommandSubstitution
                | Kind::Concatenation
                    if single =>
                {
                    let text = self.text(*child);
                    self.risk_finding(
                        text,
                        Risk::RunsCode,
                        "an unquoted expansion in [ ] may split into an arithmetic test",
                    );
                }
                _ => {}
            }
        }
    }

    /// `test` and `[` run as commands: the same, word by word.
    pub(super) fn test_words(&mut self, args: &[Word]) {
        for (index, word) in args.iter().enumerate() {
            if word.splits {
                self.risk_finding(
                    &word.text,
                    Risk::RunsCode,
                    "an unquoted expansion in test may split into an arithmetic test",
                );
                continue;
            }
            match word.literal_text() {
                Some(op) if TEST_ARITH.contains(&op) && index > 0 && index + 1 < args.len() => {
                    self.arith_word(&args[index - 1]);
                    self.arith_word(&args[index + 1]);
                }
                Some("-v") => match args.get(index + 1).and_then(Word::literal_text) {
                    Some(name) if is_valid_name(name) => {}
                    _ => self.risk_finding("-v", Risk::RunsCode, WHY),
                },
                Some(_) => {}
                None => {
                    let literal = |i: usize| args.get(i).and_then(Word::literal_text);
                    let beside_string_test = (index > 0
                        && literal(index - 1)
                            .is_some_and(|t| TEST_UNARY.contains(&t) || TEST_BINARY.contains(&t)))
                        || literal(index + 1).is_some_and(|t| TEST_BINARY.contains(&t))
                        || args.len() == 1;
                    let arith_operand = (index > 0
                        && literal(index - 1).is_some_and(|t| TEST_ARITH.contains(&t)))
                        || literal(index + 1).is_some_and(|t| TEST_ARITH.contains(&t));
                    if (!beside_string_test && !arith_operand) || (args.len() == 3 && index == 1) {
                        self.risk_finding(
                            &word.text,
                            Risk::RunsCode,
                            "a test operator may come from a variable",
                        );
                    }
                }
            }
        }
    }
}
