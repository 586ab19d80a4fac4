//! The `Dialect` trait: everything gatehouse knows about one agent, behind one object. A
//! dialect reads the agent's hook JSON into a [`Call`] whose tool kind it has already
//! normalised, renders a [`Decision`] in the agent's words for the event that fired, says what
//! a decision can do on each event (the capability table), and installs or removes
//! gatehouse's hook in the agent's files. Each agent implements it in its own folder under
//! `src/agents/`, and `agents::registry` lists them once; nothing else names an agent.
//!
//! The trait is object safe: the registry is a static slice of `&'static dyn Dialect`.

use std::path::{Path, PathBuf};

use super::install_file::{InstallError, Report};
use crate::core::call::{Call, Stage, ToolKind};
use crate::core::caps::Caps;
use crate::core::decision::Decision;

pub use super::input::StdinError;

/// An agent's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Names {
    /// The word after `gatehouse hook`, `install` and `uninstall`: `claude`.
    pub cli: &'static str,
    /// Other words accepted for [`Names::cli`] on the command line.
    pub aliases: &'static [&'static str],
    /// The name its calls carry on the wire ([`Call::agent`]): `claude-code`.
    pub agent: &'static str,
    /// The name people read: `Claude Code`.
    pub display: &'static str,
    /// The program to look for on `PATH`, and ask for `--version`.
    pub program: &'static str,
}

/// What the agent does with a call when its hook fails (crashes, times out, prints what it
/// cannot read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailMode {
    /// The call runs: a broken hook is no gate.
    Open,
    /// The agent's own permission checks decide, as if there were no hook.
    ToAgent,
    /// The call is blocked.
    Closed,
}

impl FailMode {
    /// The words in the capability table.
    pub fn words(self) -> &'static str {
        match self {
            FailMode::Open => "runs the call",
            FailMode::ToAgent => "the agent's own checks decide",
            FailMode::Closed => "blocks the call",
        }
    }
}

/// One hook event of one agent: a row of the capability table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventSpec {
    /// The agent's own name for it, as in its hook input and settings: `PreToolUse`.
    pub name: &'static str,
    /// What it asks of the console; carried on the call it makes ([`Call::stage`]).
    pub stage: Stage,
    /// What a decision can do here.
    pub caps: Caps,
    /// What the agent does when the hook fails on this event.
    pub fail: FailMode,
    /// Where the facts come from: `verified` against a real client, or `documented`.
    pub source: Source,
}

/// Where a dialect's facts come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Each answer was run against the real client (`shared/realclients/README.md`).
    Verified(&'static str),
    /// Built from the agent's documentation or source; no client was run.
    Documented,
}

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
}

impl HookCommand {
    /// The shell command line `<exe> hook <cli>`, with `--socket` and `--config` when chosen.
    pub fn for_agent(&self, cli: &str) -> String {
        super::install_file::hook_command(
            &self.exe,
            cli,
            self.socket.as_deref(),
            self.config.as_deref(),
        )
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

/// One agent's hook dialect and installer.
pub trait Dialect: Sync {
    fn names(&self) -> &'static Names;

    /// The hook events gatehouse answers, in the order the installer writes them.
    fn events(&self) -> &'static [EventSpec];

    /// The tool names the calls of this agent carry (after [`Dialect::parse`] renamed them)
    /// that gatehouse knows, and what each does.
    fn tools(&self) -> &'static [(&'static str, ToolKind)];

    /// The kind of the tool `name`: from [`Dialect::tools`], `mcp__<server>__<tool>` an MCP
    /// tool, anything else [`ToolKind::Other`], never read-only.
    fn kind_of(&self, name: &str) -> ToolKind {
        super::tools::kind_in(self.tools(), name)
    }

    /// The agent's own bookkeeping tools, which the config's `internal_tools` lists by default.
    fn internal_tools(&self) -> &'static [&'static str] {
        &[]
    }

    /// Reads the hook input: which event fired, and the call, its kind and caps filled in.
    fn parse(&self, stdin: &[u8]) -> Result<Parsed, StdinError>;

    /// The stdout for `decision` on `event`, or `None` to print nothing. `why_allowed` is what
    /// the user may be shown on an allow.
    fn render(&self, event: &EventSpec, decision: &Decision, why_allowed: &str) -> Option<String>;

    /// The stdout when the hook cannot decide at all (its input unreadable, an internal
    /// error): whatever leaves the call to the agent's own checks, or blocks it where nothing
    /// else would. `stdin` is what was read, possibly nothing.
    fn unreadable(&self, why: &str, stdin: &[u8]) -> Option<String>;

    /// The scopes `install` and `uninstall` accept, the default first.
    fn scopes(&self) -> &'static [Scope] {
        &[Scope::User, Scope::Project]
    }

    /// Adds gatehouse's hook: backed up, idempotent, a dry run writes nothing.
    fn install(&self, request: &InstallRequest) -> Result<Installed, InstallError>;

    /// Removes gatehouse's hooks and nothing else.
    fn uninstall(&self, request: &UninstallRequest) -> Result<Installed, InstallError>;

    /// Where the hook would be, in each scope, and whether it is there and active.
    fn hook_places(&self, project: &Path) -> Vec<HookPlace>;

    /// The event spec named `name` (the agent's own name), if gatehouse answers it.
    fn event(&self, name: &str) -> Option<&'static EventSpec> {
        self.events().iter().find(|e| e.name == name)
    }
}

/// The start of every stderr line the hook of `dialect` prints: `gatehouse hook codex:`.
pub fn prefix(dialect: &dyn Dialect) -> String {
    format!("gatehouse hook {}:", dialect.names().cli)
}
