//! The tree walk: an allow-list of tree-sitter-bash node kinds, every command found.
//!
//! The walker visits every node of the parse tree. Containers (lists, pipelines, loops,
//! substitutions, expressions) are walked through; simple commands, redirections, assignments
//! and function definitions are judged; an `ERROR`, a `MISSING` token or a node kind not on the
//! list makes the line unverified. Wrapper programs call back into the walker to judge the
//! command they run ([`Walker::run`]) or the script they are handed ([`Walker::nested`]).

use std::cell::RefCell;

use tree_sitter::{Node, Parser, Tree};

use super::programs::{self, Verdict};
use super::words::{Word, word_of};
use super::{Command, Finding, Safety, env, escape, redirect};

/// Nested scripts (`bash -c`, `eval`, `trap`) deeper than this are not analysed.
const MAX_DEPTH: usize = 6;

/// Kinds that only hold other nodes; the walker checks their children.
const CONTAINERS: &[&str] = &[
    "program",
    "list",
    "pipeline",
    "subshell",
    "compound_statement",
    "do_group",
    "else_clause",
    "elif_clause",
    "negated_command",
    "if_statement",
    "while_statement",
    "case_statement",
    "case_item",
    "c_style_for_statement",
    "command_substitution",
    "process_substitution",
    "binary_expression",
    "unary_expression",
    "ternary_expression",
    "postfix_expression",
    "parenthesized_expression",
    "arithmetic_expansion",
    "expansion",
    "simple_expansion",
    "string",
    "concatenation",
    "array",
    "subscript",
    "number",
    "brace_expression",
    "translated_string",
    "command_name",
];

/// Kinds that hold no command and need no judgement.
const LEAVES: &[&str] = &[
    "word",
    "raw_string",
    "ansi_c_string",
    "string_content",
    "variable_name",
    "special_variable_name",
    "test_operator",
    "regex",
    "extglob_pattern",
    "comment",
    "file_descriptor",
    "heredoc_content",
    "heredoc_start",
    "heredoc_end",
];

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

fn parse(source: &str) -> Option<Tree> {
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

/// Walks one source text and returns every command and finding in it.
pub(super) fn analyse_source(
    source: &str,
    depth: usize,
    changed_dir: bool,
) -> (Vec<Command>, Vec<Finding>) {
    let mut walker = Walker::new(source, depth);
    walker.changed_dir = changed_dir;
    walker.check_text();
    match parse(source) {
        Some(tree) => {
            let root = tree.root_node();
            if root.has_error() {
                walker.finding(source, Safety::Unverified, "does not parse completely");
            }
            walker.visit(root);
        }
        None => walker.finding(source, Safety::Unverified, "could not be parsed"),
    }
    (walker.commands, walker.findings)
}

/// The walk of one source text and what it found so far.
pub(super) struct Walker<'s> {
    src: &'s str,
    depth: usize,
    pub commands: Vec<Command>,
    pub findings: Vec<Finding>,
    /// Functions defined unconditionally at the top level, by name.
    functions: Vec<String>,
    /// Names given to aliases anywhere before.
    aliases: Vec<String>,
    /// Set once the line changes directory: git then reads another repository's config.
    pub changed_dir: bool,
}

impl<'s> Walker<'s> {
    fn new(src: &'s str, depth: usize) -> Self {
        Walker {
            src,
            depth,
            commands: Vec::new(),
            findings: Vec::new(),
            functions: Vec::new(),
            aliases: Vec::new(),
            changed_dir: false,
        }
    }

    fn text(&self, node: Node) -> &'s str {
        slice(self.src, node.byte_range())
    }

    pub fn finding(&mut self, what: &str, safety: Safety, why: &str) {
        self.findings.push(Finding {
            what: escape(what),
            safety,
            why: why.to_string(),
        });
    }

    /// Flags what tree-sitter reads differently from bash: a backslash-newline inside a word
    /// (`l\<newline>s` is `ls` to bash) and control characters other than tab and newline.
    fn check_text(&mut self) {
        let bytes = self.src.as_bytes();
        for i in 1..bytes.len().saturating_sub(1) {
            if bytes[i] == b'\\'
                && bytes[i + 1] == b'\n'
                && !bytes[i - 1].is_ascii_whitespace()
                && bytes.get(i + 2).is_some_and(|b| !b.is_ascii_whitespace())
            {
                self.finding(
                    "\\<newline>",
                    Safety::Unverified,
                    "line continuation inside a word",
                );
                break;
            }
        }
        if self
            .src
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t')
        {
            self.finding(self.src, Safety::Unverified, "holds control characters");
        }
    }

    fn visit(&mut self, node: Node) {
        if node.is_missing() {
            self.finding(node.kind(), Safety::Unverified, "the line is incomplete");
            return;
        }
        if !node.is_named() {
            let parent = node.parent().map(|p| p.kind());
            if node.kind() == ";;" && parent != Some("case_item") {
                self.finding(";;", Safety::Unverified, "does not parse");
            }
            return;
        }
        match node.kind() {
            "ERROR" => self.finding(self.text(node), Safety::Unverified, "does not parse"),
            "command" => self.command(node, &[]),
            "redirected_statement" => self.redirected(node),
            "function_definition" => self.function(node),
            "variable_assignment" => self.assignment(node),
            "declaration_command" => self.declaration(node),
            "unset_command" => {
                self.children(node);
                self.push_builtin(node, "unsets variables");
            }
            "test_command" => {
                self.children(node);
                self.push_builtin(node, "tests a condition");
            }
            "for_statement" => {
                if let Some(name) = node.child_by_field_name("variable") {
                    let name = self.text(name);
                    self.judge_variable(name, name, None, false);
                }
                self.children(node);
            }
            "file_redirect" | "heredoc_redirect" | "herestring_redirect" => {
                let extra = self.redirect(node, None);
                if !extra.is_empty() {
                    self.finding(
                        self.text(node),
                        Safety::Unverified,
                        "words after a redirection",
                    );
                }
            }
            "compound_statement" if self.text(node).starts_with("((") => {
                self.children(node);
                self.push_builtin(node, "evaluates arithmetic");
            }
            "variable_assignments" | "heredoc_body" => self.children(node),
            kind if CONTAINERS.contains(&kind) => self.children(node),
            kind if LEAVES.contains(&kind) => {}
            kind => {
                let why = format!("unknown shell construct {kind}");
                self.finding(self.text(node), Safety::Unverified, &why);
            }
        }
    }

    fn children(&mut self, node: Node) {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        for child in children {
            self.visit(child);
        }
    }

    fn push_builtin(&mut self, node: Node, why: &str) {
        let words = vec![
            self.text(node)
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string(),
        ];
        self.commands.push(Command {
            words,
            is_static: true,
            safety: Safety::ReadOnly,
            why: why.to_string(),
        });
    }

    fn redirected(&mut self, node: Node) {
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
    fn redirect<'t>(&mut self, node: Node<'t>, descriptor: Option<&str>) -> Vec<Node<'t>> {
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
        let (safety, why) = redirect::judge(&operator, target.as_ref());
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

    fn function(&mut self, node: Node) {
        let name = node
            .child_by_field_name("name")
            .map(|n| self.text(n).to_string());
        if let Some(body) = node.child_by_field_name("body") {
            self.visit(body);
        }
        let mut cursor = node.walk();
        let redirects: Vec<Node> = node
            .children_by_field_name("redirect", &mut cursor)
            .collect();
        for redirect in redirects {
            self.redirect(redirect, None);
        }
        let top_level = node.parent().is_some_and(|p| p.kind() == "program");
        if let Some(name) = name {
            if top_level {
                self.functions.push(name);
            } else {
                let what = format!("{name}()");
                self.finding(
                    &what,
                    Safety::Unverified,
                    "defines a function conditionally",
                );
            }
        }
    }

    fn assignment(&mut self, node: Node) {
        self.children(node);
        let source = self.text(node);
        let name = node
            .child_by_field_name("name")
            .map_or("", |n| self.text(n));
        let value = node
            .child_by_field_name("value")
            .map(|v| word_of(v, self.src));
        let substitution = node
            .child_by_field_name("value")
            .is_some_and(has_substitution);
        let literal = value
            .as_ref()
            .and_then(|v| v.literal_text().map(str::to_string));
        self.judge_variable(source, name, literal.as_deref(), substitution);
    }

    pub fn judge_variable(&mut self, what: &str, name: &str, value: Option<&str>, subst: bool) {
        let (safety, why) = env::judge_assignment(name, value, subst);
        let _ = name;
        self.finding(what, safety, &why);
    }

    /// `declare`, `export`, `local`, `readonly`, `typeset`.
    fn declaration(&mut self, node: Node) {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let mut words = Vec::new();
        let mut verdict = Verdict::read_only("declares variables");
        for child in children {
            if !child.is_named() {
                words.push(child.kind().to_string());
                continue;
            }
            match child.kind() {
                "variable_assignment" => self.assignment(child),
                "variable_name" => {}
                _ => {
                    self.visit(child);
                    let word = word_of(child, self.src);
                    let allowed = [
                        "-p", "-x", "-r", "-i", "-a", "-A", "-g", "-l", "-u", "-f", "-F",
                    ];
                    let flags_ok = word.is_static
                        && word.text.starts_with(['-', '+'])
                        && word.text[1..].chars().all(|c| "pxriaAglufF".contains(c));
                    if !flags_ok && !allowed.contains(&word.text.as_str()) {
                        verdict =
                            Verdict::unverified(format!("unknown option {}", escape(&word.text)));
                    }
                }
            }
            words.push(self.text(child).to_string());
        }
        self.commands.push(Command {
            words,
            is_static: true,
            safety: verdict.safety,
            why: verdict.why,
        });
    }

    /// A simple command; `outer` holds the redirections of its `redirected_statement`.
    fn command(&mut self, node: Node, outer: &[Node]) {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let mut name_node = None;
        let mut args: Vec<Node> = Vec::new();
        let mut redirects: Vec<Node> = Vec::new();
        let mut prefixes = Vec::new();
        let mut keyword_time_subshell = false;
        for child in children {
            match child.kind() {
                "variable_assignment" => prefixes.push(child),
                "command_name" => name_node = Some(child),
                "file_redirect" | "herestring_redirect" | "heredoc_redirect" => {
                    redirects.push(child)
                }
                "subshell" => {
                    self.visit(child);
                    keyword_time_subshell = true;
                }
                _ if !child.is_named() => self.visit(child),
                _ => args.push(child),
            }
        }
        redirects.extend_from_slice(outer);
        redirects.sort_by_key(|r| r.start_byte());
        // Redirections in source order; words tree-sitter hung on them belong to the command,
        // and a number written right against a redirection is its descriptor (`cat 0<in`).
        for redirect in redirects {
            let fd = match args.last() {
                Some(last)
                    if last.end_byte() == redirect.start_byte()
                        && self.text(*last).bytes().all(|b| b.is_ascii_digit()) =>
                {
                    let fd = self.text(*last).to_string();
                    args.pop();
                    Some(fd)
                }
                _ => None,
            };
            let extra = self.redirect(redirect, fd.as_deref());
            args.extend(extra);
        }
        for prefix in &prefixes {
            self.assignment(*prefix);
        }
        let Some(name_node) = name_node else {
            return;
        };
        self.visit(name_node);
        let name = word_of(name_node, self.src);
        if name.is_static && name.text.is_empty() && self.text(name_node).is_empty() {
            self.finding("", Safety::Unverified, "the line is incomplete");
            return;
        }
        let mut argv = vec![name];
        for arg in &args {
            self.visit(*arg);
            argv.push(word_of(*arg, self.src));
        }
        if keyword_time_subshell {
            if argv.len() == 1 && argv[0].text == "time" {
                self.push_command(argv, Verdict::read_only("times a subshell"));
            } else {
                self.finding(
                    self.text(node),
                    Safety::Unverified,
                    "subshell as an argument",
                );
            }
            return;
        }
        self.run_top(&argv);
    }

    /// A command as the shell looks it up: functions and aliases defined earlier in the line
    /// come before programs. Wrappers skip this and run programs directly.
    fn run_top(&mut self, argv: &[Word]) {
        let name = argv.first().filter(|w| w.is_static).map(|w| w.text.clone());
        let verdict = match name {
            Some(name) if self.functions.contains(&name) => {
                Verdict::read_only("runs a function judged above")
            }
            Some(name) if self.aliases.contains(&name) => {
                Verdict::unverified("may run an alias defined above")
            }
            _ => {
                self.run(argv);
                return;
            }
        };
        self.push_command(argv.to_vec(), verdict);
    }

    /// Judges one program run and records it; wrappers call this for the command they run.
    pub fn run(&mut self, argv: &[Word]) -> Verdict {
        let verdict = programs::judge(self, argv);
        self.push_command(argv.to_vec(), verdict.clone());
        verdict
    }

    fn push_command(&mut self, argv: Vec<Word>, verdict: Verdict) {
        let is_static = argv.iter().all(|w| w.is_static);
        self.commands.push(Command {
            words: argv.into_iter().map(|w| w.text).collect(),
            is_static,
            safety: verdict.safety,
            why: verdict.why,
        });
    }

    /// Remembers an alias name so later uses of it are not trusted.
    pub fn define_alias(&mut self, name: &str) {
        self.aliases.push(name.to_string());
    }

    /// Analyses a script handed to `bash -c`, `eval` or `trap`, recording its commands here.
    pub fn nested(&mut self, script: &str) -> Verdict {
        if self.depth >= MAX_DEPTH {
            return Verdict::unverified("scripts nested too deeply");
        }
        let (commands, findings) = analyse_source(script, self.depth + 1, self.changed_dir);
        let mut safety = Safety::ReadOnly;
        for part in commands
            .iter()
            .map(|c| c.safety)
            .chain(findings.iter().map(|f| f.safety))
        {
            safety = safety.max(part);
        }
        if commands.is_empty() {
            safety = safety.max(Safety::Unverified);
        }
        let worst = commands
            .iter()
            .filter(|c| c.safety == safety)
            .map(|c| {
                format!(
                    "{}: {}",
                    escape(c.words.first().map_or("", |w| w.as_str())),
                    c.why
                )
            })
            .chain(
                findings
                    .iter()
                    .filter(|f| f.safety == safety)
                    .map(|f| format!("{}: {}", f.what, f.why)),
            )
            .next();
        self.commands.extend(commands);
        self.findings.extend(findings);
        let why = match (safety, worst) {
            (Safety::ReadOnly, _) => format!("runs `{}`", escape(script)),
            (_, Some(worst)) => format!("runs a script where {worst}"),
            (_, None) => "runs an empty script".to_string(),
        };
        Verdict { safety, why }
    }
}

/// True when a value holds `$( )` or backticks anywhere.
fn has_substitution(node: Node) -> bool {
    if node.kind() == "command_substitution" || node.kind() == "process_substitution" {
        return true;
    }
    let mut cursor = node.walk();
    node.children(&mut cursor).any(has_substitution)
}
