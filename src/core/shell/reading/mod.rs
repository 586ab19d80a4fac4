//! The analyser's reading of a line, laid out so that it can be compared with bash's own.
//!
//! The analyser judges the tree tree-sitter-bash builds, so a line that tree-sitter reads
//! differently from bash can run commands the analyser never saw. The structural oracle
//! (`tests/oracle/`) catches such lines by comparing this reading of a line with the reading of
//! bash's canonical print of it (`declare -f` of a function whose body is the line). Both sides
//! are laid out by this module from a tree, so what differs is what bash and tree-sitter read
//! differently: which simple commands run, in what structure, with which words and
//! redirections, and what each here-document's body is.
//!
//! Words are written in one canonical quoting (quoted text between two private-use characters,
//! `$'…'` decoded), since
//! bash prints decoded ANSI-C strings and drops a translation's `$`. Substitutions are read as
//! the analyser reads them: a `$(…)` or `<(…)` by its subtree, a backquoted one by parsing its
//! body with bash's backslashes removed; the caller says how a backquoted body is read, so the
//! oracle can ask bash for that body's reading in turn.

use tree_sitter::Node;

use super::parse::{parse, slice};

mod words;

/// One line as read: its items in source order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reading {
    pub items: Vec<Item>,
}

/// One thing the reader found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A simple command, a declaration or a lone assignment: its words with each substitution
    /// written `$(…)`, its redirections, and the readings of its substitutions in order.
    Command {
        words: Vec<String>,
        redirects: Vec<Redirect>,
        substitutions: Vec<Reading>,
    },
    /// A redirection of a compound command.
    Redirect(Redirect),
    /// The start of a pipeline, subshell, group, negation or function (`function NAME`).
    Open(String),
    /// The end of the last `Open`.
    Close,
    /// Words a compound command expands itself (`for`'s list, `case`'s word).
    Words(Vec<String>),
    /// A substitution outside any simple command (in `[[ ]]`, `(( ))`, a pattern).
    Substitution(Reading),
    /// Something the reader cannot lay out, with what it is.
    Unreadable(String),
}

/// One redirection: descriptor (explicit or the operator's default), operator, target, and
/// for a here-document its body (the delimiter itself is left out: bash prints it quoted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub fd: String,
    pub operator: String,
    pub target: String,
    pub body: Option<String>,
    pub substitutions: Vec<Reading>,
}

/// Reads `line`; `backquoted` reads the body of each backquoted substitution (backslashes
/// already removed as bash removes them).
pub fn read(line: &str, backquoted: &mut dyn FnMut(&str) -> Reading) -> Reading {
    let mut reader = Reader {
        src: line,
        backquoted,
        items: Vec::new(),
        time_groups: 0,
    };
    match parse(line) {
        Some(tree) => reader.node(tree.root_node()),
        None => reader.items.push(Item::Unreadable("no tree".to_string())),
    }
    Reading {
        items: reader.items,
    }
}

/// Reads `line` as the analyser does, backquoted bodies included.
pub fn read_as_analysed(line: &str) -> Reading {
    read(line, &mut read_as_analysed)
}

struct Reader<'s, 'f> {
    src: &'s str,
    backquoted: &'f mut dyn FnMut(&str) -> Reading,
    items: Vec<Item>,
    /// `time {` groups opened and not yet closed by a `}` (see [`Reader::push_command`]).
    time_groups: usize,
}

impl<'s> Reader<'s, '_> {
    fn text(&self, node: Node) -> &'s str {
        slice(self.src, node.byte_range())
    }

    fn node(&mut self, node: Node) {
        if node.is_error() || node.is_missing() {
            let what = format!("{} {:?}", node.kind(), self.text(node));
            self.items.push(Item::Unreadable(what));
            return;
        }
        match node.kind() {
            "comment" => {}
            "program" | "list" | "do_group" | "if_statement" | "elif_clause" | "else_clause"
            | "while_statement" => self.children(node),
            "pipeline" => self.pipeline(node, &[]),
            "subshell" => self.open("subshell", node),
            "negated_command" => self.open("not", node),
            "compound_statement" if self.text(node).starts_with("((") => self.loose(node),
            "compound_statement" => self.open("group", node),
            "test_command" => self.loose(node),
            "function_definition" => {
                let name = node
                    .child_by_field_name("name")
                    .map_or("", |n| self.text(n));
                self.items.push(Item::Open(format!("function {name}")));
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    match child.kind() {
                        "word" => {}
                        "compound_statement" => self.children(child),
                        kind if kind.ends_with("_redirect") => {
                            let redirect = self.redirect(child, &mut Vec::new());
                            self.items.push(Item::Redirect(redirect));
                        }
                        _ => self.node(child),
                    }
                }
                self.items.push(Item::Close);
            }
            "for_statement" | "case_statement" => {
                let mut words = vec![node.kind().trim_end_matches("_statement").to_string()];
                let mut subs = Vec::new();
                let mut cursor = node.walk();
                let children: Vec<Node> = node.named_children(&mut cursor).collect();
                let (heads, bodies): (Vec<Node>, Vec<Node>) = children
                    .into_iter()
                    .partition(|c| !matches!(c.kind(), "do_group" | "case_item" | "comment"));
                for head in heads {
                    words.push(self.word(head, false, &mut subs));
                }
                self.items.push(Item::Words(words));
                self.items.extend(subs.into_iter().map(Item::Substitution));
                for body in bodies {
                    self.node(body);
                }
            }
            "case_item" => {
                // Patterns up to the `)`, then the commands.
                let mut in_body = false;
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    match child.kind() {
                        ")" => in_body = true,
                        _ if !child.is_named() => {}
                        _ if in_body => self.node(child),
                        _ => self.loose(child),
                    }
                }
            }
            "c_style_for_statement" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    if child.kind() == "do_group" || child.kind() == "compound_statement" {
                        self.node(child);
                    } else {
                        self.loose(child);
                    }
                }
            }
            "redirected_statement" => self.redirected(node),
            "variable_assignment" | "variable_assignments" => {
                let mut subs = Vec::new();
                let mut cursor = node.walk();
                let parts: Vec<Node> = if node.kind() == "variable_assignment" {
                    vec![node]
                } else {
                    node.named_children(&mut cursor).collect()
                };
                let words = parts
                    .into_iter()
                    .map(|part| self.word(part, false, &mut subs))
                    .collect();
                self.items.push(Item::Command {
                    words,
                    redirects: Vec::new(),
                    substitutions: subs,
                });
            }
            "command" | "declaration_command" | "unset_command" => {
                let command = self.command(node, &[]);
                self.push_command(command);
            }
            kind => self.items.push(Item::Unreadable(kind.to_string())),
        }
    }

    /// Reads `nodes` into a reading of their own: a substitution's body, or what tree-sitter
    /// hangs on a command.
    fn read_apart<'t>(&mut self, nodes: impl IntoIterator<Item = Node<'t>>) -> Reading {
        let mut inner = Reader {
            src: self.src,
            backquoted: &mut *self.backquoted,
            items: Vec::new(),
            time_groups: 0,
        };
        for node in nodes {
            inner.node(node);
        }
        Reading { items: inner.items }
    }

    fn children(&mut self, node: Node) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            self.node(child);
        }
    }

    fn open(&mut self, what: &str, node: Node) {
        self.items.push(Item::Open(what.to_string()));
        self.children(node);
        self.items.push(Item::Close);
    }

    /// A part that runs no command of its own: only its substitutions are read.
    fn loose(&mut self, node: Node) {
        let mut subs = Vec::new();
        self.word(node, false, &mut subs);
        self.items.extend(subs.into_iter().map(Item::Substitution));
    }

    /// A pipeline; `outer` are redirections that end it, which bash hangs on its last command.
    fn pipeline(&mut self, node: Node, outer: &[Node]) {
        // `a |& b` is `a 2>&1 | b`, which is how bash prints it.
        self.items.push(Item::Open("pipeline".to_string()));
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let last = children.iter().rposition(|c| c.is_named());
        for (index, child) in children.iter().enumerate() {
            if child.kind() == "|&" {
                if let Some(Item::Command { redirects, .. }) = self.items.last_mut() {
                    redirects.push(Redirect {
                        fd: "2".to_string(),
                        operator: ">&".to_string(),
                        target: "1".to_string(),
                        body: None,
                        substitutions: Vec::new(),
                    });
                }
            } else if Some(index) == last {
                self.redirected_body(*child, outer);
            } else if child.is_named() {
                self.node(*child);
            }
        }
        self.items.push(Item::Close);
    }

    /// Pushes a simple command, laying out a `time` brace group as a group: tree-sitter reads
    /// `time { ls; cat f; }` as a command `time { ls`, then `cat f`, then a command `}` (the
    /// analyser judges those commands; see `command.rs`), and bash's print of it, with a line
    /// break after `{`, as `time {`, `ls`, `cat f`, `}`. Both become the group `time`, its
    /// commands, the redirections of the `}` and the group's end, so they compare alike.
    fn push_command(&mut self, item: Item) {
        let Item::Command {
            words,
            redirects,
            substitutions,
        } = item
        else {
            self.items.push(item);
            return;
        };
        let opens = match words.as_slice() {
            [time, brace, ..] if time == "time" && brace == "{" => Some(2),
            [time, p, brace, ..] if time == "time" && p == "-p" && brace == "{" => Some(3),
            _ => None,
        };
        if let Some(inner) = opens {
            let keyword = words[..inner - 1].join(" ");
            self.items.push(Item::Open(format!("{keyword} group")));
            self.time_groups += 1;
            if words.len() > inner || !redirects.is_empty() || !substitutions.is_empty() {
                self.items.push(Item::Command {
                    words: words[inner..].to_vec(),
                    redirects,
                    substitutions,
                });
            }
            return;
        }
        if self.time_groups > 0 && words.len() == 1 && words[0] == "}" && substitutions.is_empty() {
            // bash's print reads as the function's redirections, inside it: before the end.
            self.time_groups -= 1;
            self.items.extend(redirects.into_iter().map(Item::Redirect));
            self.items.push(Item::Close);
            return;
        }
        self.items.push(Item::Command {
            words,
            redirects,
            substitutions,
        });
    }

    fn redirected(&mut self, node: Node) {
        let body = node.child_by_field_name("body");
        let mut cursor = node.walk();
        let redirects: Vec<Node> = node
            .named_children(&mut cursor)
            .filter(|c| Some(*c) != body)
            .collect();
        match body {
            Some(body) => self.redirected_body(body, &redirects),
            None => self.redirects(&redirects),
        }
    }

    /// `body` with `redirects` after it: on a list or pipeline they belong to its last command,
    /// as the analyser (and bash) apply them.
    fn redirected_body(&mut self, body: Node, redirects: &[Node]) {
        match body.kind() {
            "command" => {
                let command = self.command(body, redirects);
                self.push_command(command);
            }
            "pipeline" => self.pipeline(body, redirects),
            "list" => {
                let mut cursor = body.walk();
                let children: Vec<Node> = body.named_children(&mut cursor).collect();
                if let Some((last, rest)) = children.split_last() {
                    for child in rest {
                        self.node(*child);
                    }
                    self.redirected_body(*last, redirects);
                }
            }
            _ => {
                self.node(body);
                self.redirects(redirects);
            }
        }
    }

    fn redirects(&mut self, redirects: &[Node]) {
        for redirect in redirects {
            let mut words = Vec::new();
            let redirect = self.redirect(*redirect, &mut words);
            self.items.push(Item::Redirect(redirect));
            if !words.is_empty() {
                self.items
                    .push(Item::Unreadable("words after a redirection".into()));
            }
        }
    }

    fn command(&mut self, node: Node, outer: &[Node]) -> Item {
        let mut words: Vec<String> = Vec::new();
        let mut redirects = Vec::new();
        let mut subs = Vec::new();
        let mut cursor = node.walk();
        let mut parts: Vec<Node> = node.children(&mut cursor).collect();
        parts.extend_from_slice(outer);
        let mut last_end = None;
        for part in parts {
            let touches = last_end == Some(part.start_byte());
            last_end = Some(part.end_byte());
            match part.kind() {
                kind if kind.ends_with("_redirect") => {
                    // A number written right against a redirection is its descriptor
                    // (`cat 0<in`), which tree-sitter reads as a word.
                    let descriptor = words
                        .last()
                        .filter(|w| {
                            touches && !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())
                        })
                        .cloned();
                    if descriptor.is_some() {
                        words.pop();
                    }
                    let mut redirect = self.redirect(part, &mut words);
                    if let Some(fd) = descriptor {
                        redirect.fd = fd;
                    }
                    redirects.push(redirect);
                }
                "comment" => {}
                // `time ( … )`: tree-sitter hangs the subshell on the command.
                "subshell" => {
                    subs.push(self.read_apart([part]));
                    words.push("(…)".to_string());
                }
                // The keyword of `declare`, `local`, `unset`…: its text is the word.
                _ if !part.is_named() => {
                    if node.kind() != "variable_assignments" {
                        words.push(self.text(part).to_string());
                    }
                }
                _ => words.push(self.word(part, false, &mut subs)),
            }
        }
        Item::Command {
            words,
            redirects,
            substitutions: subs,
        }
    }

    /// One redirection; words tree-sitter hung on it that bash gives to the command go to
    /// `words`.
    fn redirect(&mut self, node: Node, words: &mut Vec<String>) -> Redirect {
        let mut fd = None;
        let mut operator = String::new();
        let mut targets = Vec::new();
        let mut body = None;
        let mut subs = Vec::new();
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let quoted = children
            .iter()
            .any(|c| c.kind() == "heredoc_start" && self.text(*c).contains(['\'', '"', '\\']));
        let strip_tabs = children.iter().any(|c| c.kind() == "<<-");
        for child in &children {
            match child.kind() {
                "file_descriptor" => fd = Some(self.text(*child).to_string()),
                "heredoc_start" | "heredoc_end" => {}
                "heredoc_body" => {
                    body = Some(self.heredoc_body(*child, quoted, strip_tabs, &mut subs));
                }
                // tree-sitter hangs what follows a here-document's start on its line
                // (`cat <<EOF | grep x`) under the redirection; bash's print does the same.
                "pipeline" | "file_redirect" | "list" | "command" | "ERROR" => {
                    subs.push(self.read_apart([*child]));
                }
                _ if !child.is_named() => operator.push_str(child.kind()),
                _ => targets.push(self.word(*child, false, &mut subs)),
            }
        }
        if quoted {
            operator.push('\'');
        }
        // `<&-` and `>&-` both close their descriptor; bash prints every close as `>&-`.
        let closes = matches!(operator.as_str(), "<&-" | ">&-");
        let mut targets = targets.into_iter();
        let target = if body.is_some() {
            String::new()
        } else {
            targets.next().unwrap_or_default()
        };
        words.extend(targets);
        let fd = fd.unwrap_or_else(|| {
            match operator.chars().next() {
                Some('<') => "0",
                Some('>') => "1",
                _ => "",
            }
            .to_string()
        });
        Redirect {
            fd,
            operator: if closes { "&-".to_string() } else { operator },
            target,
            body,
            substitutions: subs,
        }
    }
}
