//! Redirections, judged by their exact operator, descriptor and target.
//!
//! Reading (`< file`), duplicating (`2>&1`, `>&2`) and closing (`2>&-`) descriptors are
//! harmless, and so is writing to `/dev/null`, `/dev/stdout` or `/dev/stderr`. Every other
//! write, append, clobber or read-write opening of a path writes a file.

use tree_sitter::Node;

use super::Safety;
use super::walk::Walker;
use super::words::{Word, word_of};

/// Targets that swallow or pass through output without touching a file.
const HARMLESS_TARGETS: &[&str] = &[
    "/dev/null",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/fd/1",
    "/dev/fd/2",
];

/// Judges one redirection: `operator` as written (`>`, `>>`, `&>`, `>&`, `<`, `<>`…) and its
/// target word (absent for `>&-`).
pub(super) fn judge(operator: &str, target: Option<&Word>) -> (Safety, &'static str) {
    let target_text = target.and_then(Word::literal_text);
    match operator {
        "<" | "<<<" => (Safety::ReadOnly, "reads a file"),
        ">&-" | "<&-" => (Safety::ReadOnly, "closes a descriptor"),
        "<&" | ">&" if target_text.is_some_and(is_descriptor) => {
            (Safety::ReadOnly, "duplicates a descriptor")
        }
        "<&" => (Safety::Unverified, "reads from an unknown descriptor"),
        ">" | ">>" | ">|" | "&>" | "&>>" | ">&" | "1>" => match target_text {
            Some(path) if HARMLESS_TARGETS.contains(&path) => {
                (Safety::ReadOnly, "discards or passes on output")
            }
            _ => (Safety::Writer, "writes a file"),
        },
        "<>" => (Safety::Writer, "opens a file for writing"),
        _ => (Safety::Unverified, "unknown redirection"),
    }
}

impl Walker<'_> {
    pub(super) fn redirected(&mut self, node: Node) {
        let mut cursor = node.walk();
        let redirects: Vec<Node> = node
            .children_by_field_name("redirect", &mut cursor)
            .collect();
        match node.child_by_field_name("body") {
            Some(body) if body.kind() == "command" => self.command(body, &redirects),
            body => {
                if let Some(body) = body {
                    self.visit(body);
                }
                for redirect in redirects {
                    if !self.redirect(redirect, None).is_empty() {
                        let what = self.text(redirect);
                        self.finding(what, Safety::Unverified, "words after a redirection");
                    }
                }
            }
        }
    }

    /// Judges one redirection and returns the words tree-sitter hung on it that bash gives to
    /// the command (`ls > a b` runs `ls b`).
    pub(super) fn redirect<'t>(
        &mut self,
        node: Node<'t>,
        descriptor: Option<&str>,
    ) -> Vec<Node<'t>> {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        match node.kind() {
            "heredoc_redirect" => {
                let quoted = node
                    .named_children(&mut node.walk())
                    .find(|c| c.kind() == "heredoc_start")
                    .is_some_and(|start| self.text(start).contains(['\'', '"', '\\']));
                for child in children {
                    if child.kind() == "heredoc_body" && quoted {
                        continue;
                    }
                    self.visit(child);
                }
                return Vec::new();
            }
            "herestring_redirect" => {
                self.children(node);
                return Vec::new();
            }
            _ => {}
        }
        let mut fd = descriptor.map(str::to_string);
        let mut operator = String::new();
        let mut targets = Vec::new();
        for child in children {
            if child.kind() == "file_descriptor" {
                fd = Some(self.text(child).to_string());
            } else if !child.is_named() {
                operator.push_str(child.kind());
            } else {
                self.visit(child);
                targets.push(child);
            }
        }
        let target = targets.first().map(|t| word_of(*t, self.src));
        let (safety, why) = judge(&operator, target.as_ref());
        let what = format!(
            "{}{}{}{}",
            fd.unwrap_or_default(),
            operator,
            if target.is_some() { " " } else { "" },
            target.map(|t| t.text).unwrap_or_default()
        );
        self.finding(&what, safety, why);
        targets.into_iter().skip(1).collect()
    }
}

/// `1`, `2`, `-`: the target of a descriptor duplication or close.
fn is_descriptor(text: &str) -> bool {
    text == "-" || (!text.is_empty() && text.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writing_to_dev_null_is_harmless_but_to_a_disk_is_not() {
        assert_eq!(
            judge(">", Some(&Word::literal("/dev/null"))).0,
            Safety::ReadOnly
        );
        assert_eq!(
            judge(">", Some(&Word::literal("/dev/sda"))).0,
            Safety::Writer
        );
    }

    #[test]
    fn descriptor_duplication_is_harmless_but_ampersand_to_a_file_writes() {
        assert_eq!(judge(">&", Some(&Word::literal("2"))).0, Safety::ReadOnly);
        assert_eq!(
            judge(">&", Some(&Word::literal("out.txt"))).0,
            Safety::Writer
        );
    }

    #[test]
    fn a_dynamic_target_is_a_write() {
        assert_eq!(
            judge(">", Some(&Word::dynamic("$(mktemp)"))).0,
            Safety::Writer
        );
    }
}
