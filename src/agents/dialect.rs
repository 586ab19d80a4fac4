//! The `Dialect` trait: one agent behind one object. Its facts are data, a [`Table`] (names,
//! events with their stage and caps, tools, hook input keys, hooks file); the trait adds what
//! really differs from agent to agent: reading its hook JSON into a [`Call`] where its input
//! is not the table's plain shape, rendering a [`Decision`] in its words for the event that
//! fired, what to print when the hook cannot read its input, and any install steps beyond its
//! hooks file. Everything else is written once, over the table. Each agent implements it in
//! its own folder under `src/agents/`, and `agents::registry` lists them once; nothing else
//! names an agent.
//!
//! The trait is object safe: the registry is a static slice of `&'static dyn Dialect`.

use std::path::{Path, PathBuf};

use super::hook_file;
use super::install_file::{InstallError, Report};
use crate::core::call::{Call, ToolKind};
use crate::core::decision::Decision;

pub use super::input::StdinError;
pub use super::table::{EventSpec, FailMode, Names, Source, Table};

/// A hook input read by a dialect: the event that fired, and the call it is about.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub event: &'static EventSpec,
    pub call: Call,
}

/// Which of an agent's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The user's files: every project.
    User,
    /// The project's shared files, in the current folder.
    Project,
    /// The project's files for this checkout only (Claude Code's `settings.local.json`).
    Local,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project => "project",
            Scope::Local => "local",
        }
    }
}

/// How the installed hook runs this gatehouse: its path, and the socket and config chosen on
/// the command line, so the hook finds the same console and rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookCommand {
    pub exe: PathBuf,
    pub socket: Option<PathBuf>,
    pub config: Option<PathBuf>,
    /// The host label the hook's calls carry (`--host`), for a console on another machine.
    pub host: Option<String>,
    /// The hook timeout written for the agent (`--timeout`), which the hook's calls carry so
    /// the console answers before the agent kills the hook.
    pub timeout_secs: Option<u64>,
}

impl HookCommand {
    /// The shell command line `<exe> hook <cli>`, with `--socket`, `--config`, `--host` and
    /// `--timeout` when chosen.
    pub fn for_agent(&self, cli: &str) -> String {
        let mut line = super::install_file::hook_command(
            &self.exe,
            cli,
            (self.socket.as_deref(), self.config.as_deref()),
            self.host.as_deref(),
        );
        if let Some(secs) = self.timeout_secs {
            line.push_str(&format!(" --timeout {secs}"));
        }
        line
    }
}

/// What `gatehouse install <agent>` asks for.
#[derive(Debug, Clone)]
pub struct InstallRequest {
    pub scope: Scope,
    /// The folder a project scope writes in.
    pub project: PathBuf,
    pub command: HookCommand,
    /// The hook timeout to write, in seconds: past the console's ask timeout, so the console's
    /// own timeout answer always arrives first.
    pub timeout_secs: u64,
    pub dry_run: bool,
    /// `--event`: the one event to hook, where the agent offers a choice (Claude Code).
    pub event: Option<String>,
    /// `--keep-reviewer`: leave the agent's own automatic reviewer its approvals (Codex).
    pub keep_reviewer: bool,
}

/// What `gatehouse uninstall <agent>` asks for.
#[derive(Debug, Clone)]
pub struct UninstallRequest {
    pub scope: Scope,
    pub project: PathBuf,
    pub dry_run: bool,
}

/// What an install or uninstall did: one report per file, and lines to tell the user after.
#[derive(Debug, Clone, Default)]
pub struct Installed {
    pub reports: Vec<Report>,
    pub notes: Vec<String>,
}

/// Whether gatehouse's hook is in place, for `gatehouse agents`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookState {
    /// Installed and the agent will run it.
    Active,
    /// Installed, but the agent will not run it as it is (the reason says why and the fix).
    Inactive(String),
    /// Not installed in this file.
    Absent,
}

/// Where gatehouse's hook was looked for, and what was found there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookPlace {
    pub scope: Scope,
    pub path: PathBuf,
    pub state: HookState,
}

/// One agent's hook dialect and installer: its [`Table`] and the functions that differ.
pub trait Dialect: Sync {
    /// The agent's facts.
    fn table(&self) -> &'static Table;

    /// Reads the hook input: which event fired, and the call, its kind and caps filled in.
    /// By default the table's plain shape ([`Table::parse`]): the event, tool and input under
    /// its [`Keys`](super::table::Keys), the tool's name as sent.
    fn parse(&self, stdin: &[u8]) -> Result<Parsed, StdinError> {
        self.table().parse(stdin)
    }

    /// The stdout for `decision` on `event`, or `None` to print nothing. `why_allowed` is what
    /// the user may be shown on an allow.
    fn render(&self, event: &EventSpec, decision: &Decision, why_allowed: &str) -> Option<String>;

    /// The stdout when the hook cannot decide at all (its input unreadable, an internal
    /// error): whatever leaves the call to the agent's own checks, or blocks it where nothing
    /// else would. `stdin` is what was read, possibly nothing. By default nothing.
    fn unreadable(&self, _why: &str, _stdin: &[u8]) -> Option<String> {
        None
    }

    /// Adds gatehouse's hook: backed up, idempotent, a dry run writes nothing. By default the
    /// hook for every event in the table's hooks file.
    fn install(&self, request: &InstallRequest) -> Result<Installed, InstallError> {
        hook_file::install(self.table(), request)
    }

    /// Removes gatehouse's hooks and nothing else.
    fn uninstall(&self, request: &UninstallRequest) -> Result<Installed, InstallError> {
        hook_file::uninstall(self.table(), request)
    }

    /// What happens to a call when the installed hook in the file at `path` fails (crashes, is
    /// missing), where the agent lets gatehouse choose; `None`: the agent does not say.
    fn on_failure(&self, _path: &Path) -> Option<String> {
        None
    }

    /// Where the hook would be, in each scope, and whether it is there and active.
    fn hook_places(&self, project: &Path) -> Vec<HookPlace> {
        hook_file::places(self.table(), project)
    }

    // What the rest of gatehouse reads from the table.

    fn names(&self) -> &'static Names {
        &self.table().names
    }

    /// The tool names gatehouse knows, and what each does ([`Table::tools`]).
    fn tools(&self) -> Vec<(&'static str, ToolKind)> {
        self.table().tools.kinds()
    }

    /// The agent's own bookkeeping tools, which the config's `internal_tools` lists by default.
    fn internal_tools(&self) -> &'static [&'static str] {
        self.table().tools.internal
    }

    /// The scopes `install` and `uninstall` accept, the default first.
    fn scopes(&self) -> Vec<Scope> {
        self.table()
            .hooks
            .files
            .iter()
            .map(|(scope, _)| *scope)
            .collect()
    }
}

/// The start of every stderr line the hook of `dialect` prints: `gatehouse hook codex:`.
pub fn prefix(dialect: &dyn Dialect) -> String {
    format!("gatehouse hook {}:", dialect.names().cli)
}
