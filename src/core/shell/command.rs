//! Simple commands: their words, prefix assignments and redirections, and the order in which
//! the shell looks a name up (functions and aliases defined earlier in the line, then
//! programs).

use tree_sitter::Node;

use super::kind::{Kind, KindOf};
use super::parse::child_nodes;
use super::programs::{self, Judgement};
use super::walk::{MAX_WRAPPERS, Walker};
use super::words::{Word, word_of};
use super::{Command, Obstacle, Origin, Risk, Safety};

/// A reserved word of a brace group that tree-sitter-bash reads as a command word.
enum Group {
    /// `time {` (or `time -p {`): the group's first command starts at this index of argv.
    Opens(usize),
    /// `}` alone.
    Closes,
}

impl Walker<'_> {
    /// A simple command; `outer` holds the redirections of its `redirected_statement`.
    pub(super) fn command(&mut self, node: Node, outer: &[Node]) {
        let mut name_node = None;
        let mut args: Vec<Node> = Vec::new();
        let mut redirects: Vec<Node> = Vec::new();
        let mut prefixes = Vec::new();
        let mut keyword_time_subshell = false;
        for child in child_nodes(node) {
            match child.kind_of() {
                Kind::VariableAssignment => prefixes.push(child),
                Kind::CommandName => name_node = Some(child),
                Kind::FileRedirect | Kind::HerestringRedirect | Kind::HeredocRedirect => {
                    redirects.push(child)
                }
                Kind::Subshell => {
                    self.visit(child);
                    keyword_time_subshell = true;
                }
                _ if !child.is_named() => self.visit(child),
                _ => args.push(child),
            }
        }
        // Two words with nothing between them are one word to bash; tree-sitter splits some
        // (`$'\t'` against a backquoted substitution).
        if args
            .windows(2)
            .any(|pair| pair[0].end_byte() == pair[1].start_byte())
            || name_node
                .zip(args.first())
                .is_some_and(|(n, a)| n.end_byte() == a.start_byte())
        {
            let what = self.text(node);
            self.unparsed(what, "one word the parser reads as two");
        }
        redirects.extend_from_slice(outer);
        redirects.sort_by_key(|r| r.start_byte());
        // Redirections in source order, each applied to the table the ones before it left;
        // words tree-sitter hung on them belong to the command, and a number written right
        // against a redirection is its descriptor (`cat 0<in`).
        let mut table = self.fds.clone();
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
            let extra = self.redirect(redirect, fd.as_deref(), &mut table);
            args.extend(extra);
        }
        // A prefix assignment lasts only for the command it precedes.
        let fleeting = usize::from(name_node.is_some());
        self.conditional += fleeting;
        for prefix in &prefixes {
            self.assignment(*prefix);
        }
        self.conditional -= fleeting;
        let Some(name_node) = name_node else {
            return;
        };
        let outer_command_fds = std::mem::replace(&mut self.command_fds, table.clone());
        self.visit(name_node);
        let name = word_of(name_node, self.src);
        if name.is_static && name.text.is_empty() && self.text(name_node).is_empty() {
            self.unparsed("", "the line is incomplete");
            return;
        }
        let mut argv = Vec::with_capacity(1 + args.len());
        argv.push(name);
        for arg in &args {
            self.visit(*arg);
            argv.push(word_of(*arg, self.src));
        }
        if keyword_time_subshell {
            if argv.len() == 1 && argv[0].text == "time" {
                self.push_command(&argv, Judgement::read_only("times a subshell"));
            } else {
                self.unparsed(self.text(node), "subshell as an argument");
            }
            self.command_fds = outer_command_fds;
            return;
        }
        match self.group_keyword(node, name_node, &args) {
            Some(Group::Opens(inner)) => {
                self.push_command(&argv[..inner], Judgement::read_only("times a group"));
                if argv.len() > inner {
                    self.run_top(&argv[inner..]);
                }
                self.command_fds = outer_command_fds;
                return;
            }
            Some(Group::Closes) => {
                self.push_command(&argv, Judgement::read_only("ends a group"));
                self.command_fds = outer_command_fds;
                return;
            }
            None => {}
        }
        // A bare `exec` applies its redirections to the shell, for every later command.
        if argv.len() == 1 && argv[0].literal_text() == Some("exec") {
            self.fds = table;
            self.execs += 1;
        }
        self.run_top(&argv);
        self.command_fds = outer_command_fds;
    }

    /// A command as the shell looks it up: functions and aliases defined earlier in the line
    /// come before programs. Wrappers skip this and run programs directly.
    pub(super) fn run_top(&mut self, argv: &[Word]) {
        let name = argv
            .first()
            .filter(|w| w.is_static)
            .map(|w| w.text.as_str());
        let judgement = match name {
            // The body was judged with the descriptors of its definition.
            Some(name) if self.functions.contains(name) && self.command_fds.rebinds_output() => {
                Judgement::risk(
                    Risk::RunsCode,
                    "runs a function with its descriptors rebound",
                )
            }
            Some(name) if self.functions.contains(name) => {
                Judgement::read_only("runs a function judged above")
            }
            Some(name) if self.aliases.contains(name) => {
                Judgement::risk(Risk::RunsCode, "may run an alias defined above")
            }
            _ => {
                self.run(argv);
                return;
            }
        };
        self.push_command(argv, judgement);
    }

    /// Judges one program run and records it; wrappers call this for the command they run.
    pub fn run(&mut self, argv: &[Word]) -> Judgement {
        let judgement = if self.wrapped >= MAX_WRAPPERS {
            Judgement::unparsed("too many wrappers to analyse")
        } else {
            self.wrapped += 1;
            let judgement = programs::judge(self, argv);
            self.wrapped -= 1;
            judgement
        };
        self.push_command(argv, judgement.clone());
        judgement
    }

    /// tree-sitter-bash does not know `time` before a brace group: `time { ls; cat f; }` reads
    /// as a command `time { ls`, then `cat f`, then a command `}`. Bash times the group and
    /// runs the same commands, so the words after `{` are judged as the command they are (with
    /// functions looked up as bash would), and the keywords themselves run nothing. Only the
    /// unquoted reserved words count (`\time` and `"{"` are ordinary words).
    ///
    /// A `}` piped into another command is left alone: bash then times the whole pipeline,
    /// a structure the reading laid out for the oracle does not show.
    fn group_keyword(&self, node: Node, name: Node, args: &[Node]) -> Option<Group> {
        let word = self.text(name);
        if self.aliases.contains(word) {
            return None;
        }
        let texts: Vec<&str> = args.iter().take(2).map(|a| self.text(*a)).collect();
        match (word, texts.as_slice()) {
            ("time", ["{", ..]) => Some(Group::Opens(2)),
            ("time", ["-p", "{"]) => Some(Group::Opens(3)),
            ("}", []) if !in_pipeline(node) => Some(Group::Closes),
            _ => None,
        }
    }

    pub(super) fn push_command(&mut self, argv: &[Word], judgement: Judgement) {
        // Missing knowledge is the model's to weigh only when it is shown every word that
        // runs. A word only the running line knows, or a here-document or here-string the
        // program reads (the text may be what it runs), leaves it nothing to judge.
        let unknown =
            judgement.safety == Safety::Unverified && judgement.obstacle == Obstacle::Unknown;
        let judgement = if !unknown {
            judgement
        } else if let Some(word) = argv.iter().find(|w| !w.is_static) {
            let why = format!(
                "{}, with {} known only when the line runs",
                judgement.why,
                super::escape(&word.text)
            );
            Judgement::dynamic(why)
        } else if self.command_fds.reads_text() {
            let why = format!("{}, fed a here-document or here-string", judgement.why);
            Judgement::risk(Risk::Payload, why)
        } else {
            judgement
        };
        let mut command = Command {
            words: argv.iter().map(|w| w.text.clone()).collect(),
            origins: argv.iter().map(origin).collect(),
            is_static: argv.iter().all(|w| w.is_static),
            safety: judgement.safety,
            obstacle: judgement.obstacle,
            why: judgement.why,
        };
        // A command that only reaches some hosts says which: rules and the human judge by them.
        if let Some(hosts) = super::reach::hosts(&command) {
            command.why = format!("reaches {}", hosts.join(", "));
        }
        self.commands.push(command);
    }
}

/// Where a word's text comes from.
fn origin(word: &Word) -> Origin {
    if !word.is_static {
        Origin::RunTime
    } else if word.quoted {
        Origin::Quoted
    } else {
        Origin::Plain
    }
}

/// True when `node`, or the redirected statement it is the body of, is part of a pipeline.
fn in_pipeline(node: Node) -> bool {
    let mut parent = node.parent();
    if parent.is_some_and(|p| p.kind() == "redirected_statement") {
        parent = parent.and_then(|p| p.parent());
    }
    parent.is_some_and(|p| p.kind() == "pipeline")
}
