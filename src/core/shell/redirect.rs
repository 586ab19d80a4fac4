//! Redirections, judged by their exact operator, descriptor and target, against a table of
//! where each descriptor points.
//!
//! Bash applies a command's redirections left to right, each to the table the previous ones
//! left, starting from the table of the enclosing group (and of earlier `exec`s). Reading
//! (`< file`), duplicating (`2>&1`) and closing (`2>&-`) are harmless, and so is writing to
//! `/dev/null`. `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` reopen whatever that descriptor
//! points at, so writing to them is harmless only while it still points where the line
//! inherited it (or at `/dev/null`): after `1<file`, `> /dev/stdout` truncates `file`.
//! `/dev/tcp/…` and `/dev/udp/…` open network connections in every direction. Every other
//! write, append, clobber or read-write opening of a path writes a file.

use tree_sitter::Node;

use super::kind::{Kind, KindOf};
use super::parse::child_nodes;
use super::walk::Walker;
use super::words::{Word, word_of};
use super::{Risk, Safety};

/// Where one descriptor points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Points {
    /// Where the line inherited it (the terminal or pipe of standard input, output, error).
    Inherited,
    /// At `/dev/null`, or closed: writing through it touches nothing.
    Nowhere,
    /// At a file, a heredoc, a socket or something the line cannot see.
    Elsewhere,
}

/// The descriptor table of one command: descriptors 0 to 2 start inherited, others unknown.
/// Most commands open no other descriptor, so most tables are copied without allocating.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FdTable {
    /// Where standard input, output and error point.
    standard: [Points; 3],
    /// Every other descriptor the line opened.
    opened: Vec<(u32, Points)>,
    /// True when standard input is a here-document or here-string.
    text_input: bool,
}

impl Default for FdTable {
    fn default() -> Self {
        FdTable {
            standard: [Points::Inherited; 3],
            opened: Vec::new(),
            text_input: false,
        }
    }
}

impl FdTable {
    /// Where `fd` points; a descriptor the line never opened could be anything.
    pub fn get(&self, fd: u32) -> Points {
        self.held(fd).unwrap_or(Points::Elsewhere)
    }

    /// Where `fd` points, if the table holds it: the standard descriptors and those the line
    /// opened.
    fn held(&self, fd: u32) -> Option<Points> {
        match fd {
            0..=2 => Some(self.standard[fd as usize]),
            _ => self.opened.iter().find(|(n, _)| *n == fd).map(|(_, p)| *p),
        }
    }

    fn put(&mut self, fd: u32, points: Points) {
        if fd == 0 {
            self.text_input = false;
        }
        if let 0..=2 = fd {
            self.standard[fd as usize] = points;
            return;
        }
        match self.opened.iter_mut().find(|(n, _)| *n == fd) {
            Some(entry) => entry.1 = points,
            None => self.opened.push((fd, points)),
        }
    }

    /// Every descriptor the table holds, with where it points.
    fn entries(&self) -> impl Iterator<Item = (u32, Points)> + '_ {
        let standard = (0..).zip(self.standard);
        standard.chain(self.opened.iter().copied())
    }

    /// True when opening `path` for writing touches no file: `/dev/null`, or a device that
    /// reopens a descriptor still pointing where it was inherited (or nowhere). (`-` is a
    /// file to `open()`; programs that read it as standard output say so themselves.)
    pub fn passes_through(&self, path: &str) -> bool {
        if path == "/dev/null" {
            return true;
        }
        let fd = match path {
            "/dev/stdout" => 1,
            "/dev/stderr" => 2,
            _ => match path.strip_prefix("/dev/fd/").map(str::parse::<u32>) {
                Some(Ok(fd)) if fd != 0 => fd,
                _ => return false,
            },
        };
        matches!(self.get(fd), Points::Inherited | Points::Nowhere)
    }

    /// True when standard input is text the line spells out: a here-document or here-string.
    pub fn reads_text(&self) -> bool {
        self.text_input
    }

    /// The table after either of two paths: a descriptor points elsewhere if it does on
    /// either.
    pub fn merge(&self, other: &FdTable) -> FdTable {
        let mut merged = self.clone();
        for (fd, points) in other.entries() {
            if points == Points::Elsewhere || merged.get(fd) == Points::Elsewhere {
                merged.put(fd, Points::Elsewhere);
            } else if merged.held(fd).is_none() {
                merged.put(fd, points);
            }
        }
        merged.text_input = self.text_input || other.text_input;
        merged
    }

    /// True when a descriptor other than standard input points at a file or something
    /// unknown.
    pub fn rebinds_output(&self) -> bool {
        self.entries()
            .any(|(fd, points)| fd != 0 && points == Points::Elsewhere)
    }

    /// What a write opening of `path` leaves the descriptor pointing at.
    fn opened(&self, path: &str) -> Points {
        match path {
            "/dev/null" => Points::Nowhere,
            "/dev/stdout" => self.get(1),
            "/dev/stderr" => self.get(2),
            _ => match path.strip_prefix("/dev/fd/").map(str::parse::<u32>) {
                Some(Ok(fd)) => self.get(fd),
                _ => Points::Elsewhere,
            },
        }
    }
}

/// True when a path, or (unless `whole`) a word that starts with `prefix` and is only known
/// when the line runs, may name bash's network devices. A dynamic output target is judged a
/// write anyway.
fn may_be_network(prefix: &str, whole: bool) -> bool {
    ["/dev/tcp/", "/dev/udp/"]
        .iter()
        .any(|device| prefix.starts_with(device) || (!whole && device.starts_with(prefix)))
}

/// The reason [`judge`] gives for a `/dev/tcp` or `/dev/udp` target: a known network risk.
const OPENS_NETWORK: &str = "opens a network connection";

/// Judges one redirection onto descriptor `fd`: `operator` as written (`>`, `>>`, `&>`, `>&`,
/// `<`, `<>`…) and its target word (absent for `>&-`), and updates `table`.
pub(super) fn judge(
    operator: &str,
    fd: Option<u32>,
    target: Option<&Word>,
    table: &mut FdTable,
) -> (Safety, &'static str) {
    let target_text = target.and_then(Word::literal_text);
    let reads = operator.starts_with('<');
    let fd = fd.unwrap_or(if reads { 0 } else { 1 });
    if let Some(word) = target
        && !matches!(operator, ">&-" | "<&-")
        && !(matches!(operator, ">&" | "<&") && target_text.is_some_and(is_descriptor))
        && may_be_network(&word.prefix, word.is_static || !reads)
    {
        table.put(fd, Points::Elsewhere);
        return (Safety::Unverified, OPENS_NETWORK);
    }
    match operator {
        "<" => {
            let points = if target_text == Some("/dev/null") {
                Points::Nowhere
            } else {
                Points::Elsewhere
            };
            table.put(fd, points);
            (Safety::ReadOnly, "reads a file")
        }
        ">&-" | "<&-" => {
            table.put(fd, Points::Nowhere);
            (Safety::ReadOnly, "closes a descriptor")
        }
        "<&" | ">&" if target_text.is_some_and(is_descriptor) => {
            let text = target_text.unwrap_or("-");
            if text == "-" {
                table.put(fd, Points::Nowhere);
                return (Safety::ReadOnly, "closes a descriptor");
            }
            let from = text.parse::<u32>().ok();
            let points = from.map_or(Points::Elsewhere, |from| table.get(from));
            let opened_here = from.is_some_and(|from| table.held(from).is_some());
            table.put(fd, points);
            if opened_here {
                (Safety::ReadOnly, "duplicates a descriptor")
            } else {
                (
                    Safety::Unverified,
                    "duplicates a descriptor the line did not open",
                )
            }
        }
        "<&" => (Safety::Unverified, "reads from an unknown descriptor"),
        ">" | ">>" | ">|" | "&>" | "&>>" | ">&" | "1>" => {
            let both = matches!(operator, "&>" | "&>>" | ">&");
            let (safety, why, points) = match target_text {
                Some(path) if table.passes_through(path) => (
                    Safety::ReadOnly,
                    "discards or passes on output",
                    table.opened(path),
                ),
                _ => (Safety::Writer, "writes a file", Points::Elsewhere),
            };
            table.put(fd, points);
            if both {
                table.put(2, points);
            }
            (safety, why)
        }
        "<>" => {
            table.put(fd, Points::Elsewhere);
            (Safety::Writer, "opens a file for writing")
        }
        _ => {
            table.put(fd, Points::Elsewhere);
            (Safety::Unverified, "unknown redirection")
        }
    }
}

impl Walker<'_> {
    pub(super) fn redirected(&mut self, node: Node) {
        let mut cursor = node.walk();
        let redirects: Vec<Node> = node
            .children_by_field_name("redirect", &mut cursor)
            .collect();
        match node.child_by_field_name("body") {
            Some(body) => self.redirected_body(body, &redirects),
            None => self.redirected_compound(None, &redirects),
        }
    }

    /// `body` with `redirects` after it. tree-sitter hangs the redirections that end a list or
    /// a pipeline (`ls | grep x 2>/dev/null`) on the whole of it; bash hangs them on its last
    /// command, so they are applied there.
    fn redirected_body(&mut self, body: Node, redirects: &[Node]) {
        match body.kind_of() {
            Kind::Command => self.command(body, redirects),
            Kind::List | Kind::Pipeline => {
                let mut cursor = body.walk();
                let children: Vec<Node> = body.named_children(&mut cursor).collect();
                let Some((last, rest)) = children.split_last() else {
                    return self.redirected_compound(None, redirects);
                };
                for child in rest {
                    self.visit_child(body, *child);
                }
                let conditional = usize::from(super::walk::runs_conditionally(body, *last));
                self.conditional += conditional;
                self.redirected_body(*last, redirects);
                self.conditional -= conditional;
            }
            _ => self.redirected_compound(Some(body), redirects),
        }
    }

    /// A compound command's redirections: they apply first, to every command inside it.
    fn redirected_compound(&mut self, body: Option<Node>, redirects: &[Node]) {
        // bash reads a number written against a redirection as its descriptor.
        for redirect in redirects {
            let before = redirect.start_byte().checked_sub(1);
            if before.is_some_and(|at| self.src.as_bytes()[at].is_ascii_digit()) {
                let what = self.text(*redirect);
                self.unparsed(what, "a descriptor the parser read as a word");
            }
        }
        let mut table = self.fds.clone();
        for redirect in redirects {
            if !self.redirect(*redirect, None, &mut table).is_empty() {
                let what = self.text(*redirect);
                self.unparsed(what, "words after a redirection");
            }
        }
        let saved = std::mem::replace(&mut self.fds, table);
        let execs = self.execs;
        if let Some(body) = body {
            self.visit(body);
        }
        self.fds = if self.execs == execs {
            saved
        } else {
            saved.merge(&self.fds)
        };
    }

    /// True when the command being judged may open `path` for writing without touching a
    /// file (see [`FdTable::passes_through`]).
    pub fn passes_through(&self, path: &str) -> bool {
        self.command_fds.passes_through(path)
    }

    /// Judges one redirection and returns the words tree-sitter hung on it that bash gives to
    /// the command (`ls > a b` runs `ls b`).
    pub(super) fn redirect<'t>(
        &mut self,
        node: Node<'t>,
        descriptor: Option<&str>,
        table: &mut FdTable,
    ) -> Vec<Node<'t>> {
        let children: Vec<Node> = child_nodes(node).collect();
        let kind = node.kind_of();
        if matches!(kind, Kind::HeredocRedirect | Kind::HerestringRedirect) {
            let fd = children
                .iter()
                .find(|c| c.kind_of() == Kind::FileDescriptor)
                .map(|c| self.text(*c))
                .or(descriptor)
                .and_then(|t| t.parse().ok())
                .unwrap_or(0);
            table.put(fd, Points::Elsewhere);
            table.text_input |= fd == 0;
        }
        match kind {
            Kind::HeredocRedirect => {
                let quoted = match super::heredoc::check(node, self.src) {
                    Ok(delimiter) => delimiter.quoted,
                    Err(why) => {
                        self.unparsed(self.text(node), why);
                        false
                    }
                };
                for child in children {
                    if child.kind_of() == Kind::HeredocBody && quoted {
                        continue;
                    }
                    self.visit(child);
                }
                return Vec::new();
            }
            Kind::HerestringRedirect => {
                self.children(node);
                return Vec::new();
            }
            _ => {}
        }
        let mut fd = descriptor.map(str::to_string);
        let mut operator = String::new();
        let mut targets = Vec::new();
        for child in children {
            if child.kind_of() == Kind::FileDescriptor {
                fd = Some(self.text(child).to_string());
            } else if !child.is_named() {
                operator.push_str(child.kind());
            } else {
                self.visit(child);
                targets.push(child);
            }
        }
        let target = targets.first().map(|t| word_of(*t, self.src));
        let number = fd.as_deref().and_then(|f| f.parse::<u32>().ok());
        let (safety, why) = if fd.is_some() && number.is_none() {
            (Safety::Unverified, "a descriptor held in a variable")
        } else {
            judge(&operator, number, target.as_ref(), table)
        };
        let what = format!(
            "{}{}{}{}",
            fd.unwrap_or_default(),
            operator,
            if target.is_some() { " " } else { "" },
            target.map(|t| t.text).unwrap_or_default()
        );
        if why == OPENS_NETWORK {
            self.risk_finding(&what, Risk::Network, why);
        } else if safety == Safety::Unverified {
            // A descriptor in a variable, one the line did not open, an operator it does not
            // know: where it points is only known when the line runs.
            self.risk_finding(&what, Risk::Dynamic, why);
        } else {
            self.finding(&what, safety, why);
        }
        targets.into_iter().skip(1).collect()
    }
}

/// `1`, `2`, `-`: the target of a descriptor duplication or close.
fn is_descriptor(text: &str) -> bool {
    text == "-" || (!text.is_empty() && text.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
#[path = "redirect_tests.rs"]
mod tests;
