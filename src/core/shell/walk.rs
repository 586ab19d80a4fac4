//! The tree walk: an allow-list of tree-sitter-bash node kinds, every command found.
//!
//! The walker visits every node of the parse tree. Containers (lists, pipelines, loops,
//! substitutions, expressions) are walked through; simple commands, redirections, assignments
//! and function definitions are judged; an `ERROR`, a `MISSING` token or a node kind not on the
//! list makes the line unverified. Wrapper programs call back into the walker to judge the
//! command they run ([`Walker::run`]) or the script they are handed ([`Walker::nested`]).

use std::collections::HashSet;

use tree_sitter::Node;

use super::bound::Bound;
use super::kind::{Kind, KindOf};
use super::parse::{child_nodes, misread_text, parse, slice, too_deep, unseen_substitution};
use super::programs::Judgement;
use super::redirect::FdTable;
use super::{Command, Finding, Obstacle, Risk, Safety, escape};

/// Nested scripts (`bash -c`, `eval`, `trap`) deeper than this are not analysed.
const MAX_DEPTH: usize = 6;

/// Why a piece of the line the parser could not read is unverified.
const PARSE_ERROR: &str = "does not parse";

/// Why a piece that opens a quote and never closes it is unverified.
const UNCLOSED: &str = "opens a quote that is never closed: bash would wait for more lines";

/// Why the piece `text` the parser could not read is unverified: an unclosed quote said as
/// such, anything else as not parsing.
fn parse_error(text: &str) -> &'static str {
    let text = text.trim_start();
    let unclosed = |quote: char| text.starts_with(quote) && text.matches(quote).count() % 2 == 1;
    if unclosed('\'') || unclosed('"') {
        UNCLOSED
    } else {
        PARSE_ERROR
    }
}

/// Wrappers nested deeper than this (`nice nice nice … ls`) are not looked through.
pub(super) const MAX_WRAPPERS: usize = 32;

/// The least safe of `commands` and `findings`: read-only when there are none.
pub(super) fn least_safe(commands: &[Command], findings: &[Finding]) -> Safety {
    commands
        .iter()
        .map(|c| c.safety)
        .chain(findings.iter().map(|f| f.safety))
        .fold(Safety::ReadOnly, Safety::max)
}

/// Walks one source text and returns every command and finding in it.
pub(super) fn analyse_source(
    source: &str,
    depth: usize,
    changed_dir: bool,
) -> (Vec<Command>, Vec<Finding>, Bound) {
    let mut walker = Walker::new(source, depth);
    walker.changed_dir = changed_dir;
    for (what, why) in misread_text(source) {
        walker.unparsed(what, why);
    }
    match parse(source) {
        Some(tree) => {
            let root = tree.root_node();
            if too_deep(root) {
                walker.unparsed("(nesting)", "nested too deeply to analyse");
                return (walker.commands, walker.findings, walker.bound);
            }
            if let Some(at) = unseen_substitution(root, source) {
                let what = slice(source, at..source.len());
                walker.unparsed(what, "a substitution the parser did not see");
            }
            walker.visit(root);
            walker.check_arith_uses();
            // An ERROR node already said where the line stops parsing; a tree that is only
            // missing a token says it of the whole line.
            let said = walker
                .findings
                .iter()
                .any(|f| f.why == PARSE_ERROR || f.why == UNCLOSED);
            if root.has_error() && !said {
                walker.unparsed(source, "does not parse completely");
            }
        }
        None => walker.unparsed(source, "could not be parsed"),
    }
    (walker.commands, walker.findings, walker.bound)
}

/// The walk of one source text and what it found so far.
pub(super) struct Walker<'s> {
    pub(super) src: &'s str,
    pub(super) depth: usize,
    pub commands: Vec<Command>,
    pub findings: Vec<Finding>,
    /// Functions defined unconditionally at the top level, by name.
    pub(super) functions: HashSet<String>,
    /// Names given to aliases anywhere before.
    pub(super) aliases: HashSet<String>,
    /// Set once the line changes directory: git then reads another repository's config.
    pub changed_dir: bool,
    /// Set while inside `(( ))`, `$(( ))` or a C-style `for`, where `=` assigns.
    pub(super) in_arithmetic: bool,
    /// How many wrappers deep the command being judged is (`nice timeout 5 ls` is two).
    pub(super) wrapped: usize,
    /// The descriptor table commands start from: the enclosing groups' redirections and
    /// earlier `exec`s applied.
    pub(super) fds: FdTable,
    /// The table of the command being judged, all its redirections applied.
    pub(super) command_fds: FdTable,
    /// How many bare `exec`s changed `fds` so far.
    pub(super) execs: usize,
    /// Names this line set to a number (see [`super::arith`]).
    pub(super) integers: HashSet<String>,
    /// Names this line set to anything else, anywhere.
    pub(super) non_integers: HashSet<String>,
    /// Names given the integer attribute (`declare -i`): their values are arithmetic.
    pub(super) integer_names: HashSet<String>,
    /// Names evaluated as numbers, checked against `non_integers` after the walk.
    pub(super) arith_uses: Vec<String>,
    /// Names this line set to a plain variable name (`r=HOME`), and to anything else.
    pub(super) name_values: HashSet<String>,
    pub(super) other_values: HashSet<String>,
    /// Names expanded indirectly (`${!r}`), checked against `other_values` after the walk.
    pub(super) indirect_uses: Vec<String>,
    /// How many enclosing parts of the line may not run, or run in a subshell whose
    /// assignments do not last (a branch, a loop body, a pipeline, `&&`'s right side…).
    /// Assignments there do not prove a value.
    pub(super) conditional: usize,
    /// Every value the line gives each variable, for the credential check.
    pub bound: Bound,
}

impl<'s> Walker<'s> {
    fn new(src: &'s str, depth: usize) -> Self {
        Walker {
            src,
            depth,
            commands: Vec::new(),
            findings: Vec::new(),
            functions: HashSet::new(),
            aliases: HashSet::new(),
            changed_dir: false,
            in_arithmetic: false,
            wrapped: 0,
            fds: FdTable::default(),
            command_fds: FdTable::default(),
            execs: 0,
            integers: HashSet::new(),
            non_integers: HashSet::new(),
            integer_names: HashSet::new(),
            arith_uses: Vec::new(),
            name_values: HashSet::new(),
            other_values: HashSet::new(),
            indirect_uses: Vec::new(),
            conditional: 0,
            bound: Bound::default(),
        }
    }

    pub(super) fn text(&self, node: Node) -> &'s str {
        slice(self.src, node.byte_range())
    }

    /// Records a finding that is settled: read-only or writing. A finding is never unverified
    /// for want of knowledge alone (the model is never shown a finding's words, so it has
    /// nothing to judge): an unverified one names its risk through [`Walker::risk_finding`].
    /// One given here anyway counts as a part the analyser could not read.
    pub fn finding(&mut self, what: &str, safety: Safety, why: &str) {
        debug_assert_ne!(safety, Safety::Unverified, "{what}: {why}");
        if safety == Safety::Unverified {
            return self.risk_finding(what, Risk::Unparsed, why);
        }
        self.findings.push(Finding {
            what: escape(what),
            safety,
            obstacle: Obstacle::Unknown,
            why: why.to_string(),
        });
    }

    /// Records a finding the analyser cannot read as bash does.
    pub fn unparsed(&mut self, what: &str, why: &str) {
        self.risk_finding(what, Risk::Unparsed, why);
    }

    /// Records an unverified finding for a risk the analyser knows.
    pub fn risk_finding(&mut self, what: &str, risk: Risk, why: &str) {
        self.findings.push(Finding {
            what: escape(what),
            safety: Safety::Unverified,
            obstacle: Obstacle::Known(risk),
            why: why.to_string(),
        });
    }

    pub(super) fn visit(&mut self, node: Node) {
        if node.is_missing() {
            self.unparsed(node.kind(), "the line is incomplete");
            return;
        }
        if !node.is_named() {
            if node.kind_of() == Kind::DoubleSemicolon
                && node.parent().is_none_or(|p| p.kind_of() != Kind::CaseItem)
            {
                self.unparsed(";;", PARSE_ERROR);
            }
            return;
        }
        match node.kind_of() {
            Kind::Error => {
                let text = self.text(node);
                self.unparsed(text, parse_error(text));
            }
            Kind::Command => self.command(node, &[]),
            Kind::RedirectedStatement => self.redirected(node),
            Kind::FunctionDefinition => self.function(node),
            Kind::VariableAssignment => self.assignment(node),
            Kind::DeclarationCommand => self.declaration(node),
            Kind::UnsetCommand => {
                self.unset_words(node);
                self.children(node);
                self.push_builtin(node, "unsets variables");
            }
            Kind::TestCommand => {
                self.test_arith(node);
                self.children(node);
                self.push_builtin(node, "tests a condition");
            }
            Kind::ForStatement => {
                if let Some(name) = node.child_by_field_name("variable") {
                    let name = self.text(name);
                    let mut cursor = node.walk();
                    let values: Vec<Node> =
                        node.children_by_field_name("value", &mut cursor).collect();
                    for value in &values {
                        self.bound.record(name, self.text(*value));
                    }
                    let integers = !values.is_empty()
                        && values
                            .iter()
                            .all(|v| super::arith::is_integer_word(self.text(*v)));
                    // A list of integers stands for itself; anything else is unknown.
                    self.judge_variable(name, name, integers.then_some("0"), false);
                }
                self.children(node);
            }
            Kind::FileRedirect | Kind::HeredocRedirect | Kind::HerestringRedirect => {
                let mut table = self.fds.clone();
                let extra = self.redirect(node, None, &mut table);
                if !extra.is_empty() {
                    self.unparsed(self.text(node), "words after a redirection");
                }
            }
            Kind::CompoundStatement if self.text(node).starts_with("((") => {
                self.arith_root(node);
                self.arithmetic(node);
                self.push_builtin(node, "evaluates arithmetic");
            }
            Kind::Expansion => {
                self.expansion_assignment(node);
                self.expansion_arith(node);
                self.children(node);
            }
            Kind::ArithmeticExpansion | Kind::CStyleForStatement => {
                self.arith_root(node);
                self.arithmetic(node);
            }
            Kind::BinaryExpression | Kind::UnaryExpression | Kind::PostfixExpression
                if self.in_arithmetic =>
            {
                self.arithmetic_assignment(node);
                self.children(node);
            }
            Kind::CommandSubstitution if self.text(node).starts_with('`') => self.backquoted(node),
            // An escaped backquote inside `$( )`: its nested quoting is where parsers part ways.
            Kind::CommandSubstitution if self.text(node).contains("\\`") => {
                let why = "an escaped backquote inside a substitution";
                self.unparsed(self.text(node), why);
                self.children(node);
            }
            Kind::AnsiCString if !super::words::ansi_c_ends_at_its_end(self.text(node)) => {
                let why = "an ANSI-C string bash ends elsewhere";
                self.unparsed(self.text(node), why);
            }
            // tree-sitter reads `$"…"` as a `$` and a string in most places; bash reads one
            // translated word.
            Kind::String
                if node.start_byte() > 0
                    && self.src.as_bytes()[node.start_byte() - 1] == b'$'
                    && node
                        .parent()
                        .is_none_or(|p| p.kind_of() != Kind::TranslatedString) =>
            {
                self.unparsed(self.text(node), "a translated string the parser splits");
            }
            Kind::VariableAssignments | Kind::HeredocBody => self.children(node),
            kind if kind.is_container() => self.children(node),
            kind if kind.is_leaf() => {}
            _ => {
                let why = format!("unknown shell construct {}", node.kind());
                self.unparsed(self.text(node), &why);
            }
        }
    }

    pub(super) fn children(&mut self, node: Node) {
        for child in child_nodes(node) {
            self.visit_child(node, child);
        }
    }

    /// Visits `child` of `parent`, counting it as conditional where it may not run.
    pub(super) fn visit_child(&mut self, parent: Node, child: Node) {
        let conditional = usize::from(runs_conditionally(parent, child));
        self.conditional += conditional;
        self.visit(child);
        self.conditional -= conditional;
    }

    pub(super) fn push_builtin(&mut self, node: Node, why: &str) {
        let words = vec![
            self.text(node)
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string(),
        ];
        self.commands.push(Command {
            origins: vec![super::Origin::Plain],
            words,
            is_static: true,
            safety: Safety::ReadOnly,
            obstacle: Obstacle::Unknown,
            why: why.to_string(),
        });
    }

    fn function(&mut self, node: Node) {
        let name = node
            .child_by_field_name("name")
            .map(|n| self.text(n).to_string());
        // The definition's redirections apply to the body each time it runs.
        let mut cursor = node.walk();
        let redirects: Vec<Node> = node
            .children_by_field_name("redirect", &mut cursor)
            .collect();
        let mut table = self.fds.clone();
        for redirect in redirects {
            self.redirect(redirect, None, &mut table);
        }
        if let Some(body) = node.child_by_field_name("body") {
            let saved = std::mem::replace(&mut self.fds, table);
            let execs = self.execs;
            self.visit_child(node, body);
            self.fds = if self.execs == execs {
                saved
            } else {
                saved.merge(&self.fds)
            };
        }
        let top_level = node.parent().is_some_and(|p| p.kind_of() == Kind::Program);
        if let Some(name) = name {
            if top_level {
                self.functions.insert(name);
            } else {
                let what = format!("{name}()");
                // Which definition runs is only known when the line runs.
                self.risk_finding(&what, Risk::Dynamic, "defines a function conditionally");
            }
        }
    }

    /// A backquoted substitution, judged as bash runs it: its text, with the backslashes bash
    /// removes inside backquotes removed, parsed as a script of its own. An escaped backquote
    /// inside is a nested substitution there, which the parser of the outer line cannot see.
    fn backquoted(&mut self, node: Node) {
        let text = self.text(node);
        let in_double_quotes = node.parent().is_some_and(|p| p.kind_of() == Kind::String);
        match super::words::backquote_body(text, in_double_quotes) {
            Some(body) if self.depth < MAX_DEPTH => {
                let _ = self.nested(&body);
            }
            Some(_) => self.unparsed(text, "substitutions nested too deeply"),
            None => self.unparsed(text, "a backquoted substitution bash ends elsewhere"),
        }
    }

    /// Remembers an alias name so later uses of it are not trusted.
    pub fn define_alias(&mut self, name: &str) {
        self.aliases.insert(name.to_string());
    }

    /// Analyses a script handed to `bash -c`, `eval` or `trap`, recording its commands here.
    pub fn nested(&mut self, script: &str) -> Judgement {
        if self.depth >= MAX_DEPTH {
            return Judgement::unparsed("scripts nested too deeply");
        }
        let (commands, findings, bound) = analyse_source(script, self.depth + 1, self.changed_dir);
        self.bound.merge(bound);
        let mut safety = least_safe(&commands, &findings);
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
        let obstacle = if safety == Safety::Unverified {
            let parts = commands.iter().map(|c| (c.safety, c.obstacle));
            parts
                .chain(findings.iter().map(|f| (f.safety, f.obstacle)))
                .filter(|(part, _)| *part == Safety::Unverified)
                .map(|(_, obstacle)| obstacle)
                .max()
                .unwrap_or_default()
        } else {
            Obstacle::Unknown
        };
        self.commands.extend(commands);
        self.findings.extend(findings);
        let why = match (safety, worst) {
            (Safety::ReadOnly, _) => format!("runs `{}`", escape(script)),
            (_, Some(worst)) => format!("runs a script where {worst}"),
            (_, None) => "runs an empty script".to_string(),
        };
        Judgement {
            safety,
            obstacle,
            why,
        }
    }
}

/// True when `node` may not run, or runs in a subshell or as a prefix assignment, relative to
/// its `parent`: what it assigns may not hold after it.
pub(super) fn runs_conditionally(parent: Node, node: Node) -> bool {
    let is_field = |field: &str| parent.child_by_field_name(field) == Some(node);
    match parent.kind_of() {
        Kind::List => parent.named_child(0) != Some(node),
        Kind::Pipeline
        | Kind::Subshell
        | Kind::CommandSubstitution
        | Kind::ProcessSubstitution
        | Kind::FunctionDefinition
        | Kind::CaseItem
        | Kind::ElseClause => true,
        Kind::IfStatement | Kind::ElifClause => !is_field("condition"),
        Kind::WhileStatement | Kind::ForStatement => is_field("body"),
        Kind::CStyleForStatement => !is_field("initializer"),
        Kind::Command => node.kind_of() == Kind::VariableAssignment,
        _ => false,
    }
}
