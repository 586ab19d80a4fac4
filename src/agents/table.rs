//! An agent as data: its names, the hook events gatehouse answers (each a row of the
//! capability table), its tools and the key each file tool names its file under, where its
//! hook input keeps what every call carries, and the shape of its hooks file. What every
//! dialect does with these facts is written here once: a tool's kind, an event by its name, a
//! hook input read into a call. Each agent's folder holds one `static TABLE` and the few
//! functions that really differ (its answers, any renaming of its tools).

use serde_json::{Map, Value};

use super::dialect::Parsed;
use super::hook_file::HookFile;
use super::input::{self, StdinError};
use super::tools::Tools;
use crate::core::call::{Agent, Call, Stage, ToolKind};
use crate::core::caps::{AllowEffect, Caps, NoteEffect};

/// One agent's facts.
#[derive(Debug)]
pub struct Table {
    pub names: Names,
    /// Where these facts come from.
    pub source: Source,
    /// The hook events gatehouse answers, in the order the installer writes them.
    pub events: &'static [EventSpec],
    /// Where its hook input keeps what every call carries.
    pub keys: Keys,
    /// Its tools by what each does, and where its file tools name their file.
    pub tools: Tools,
    /// Its hooks file, and gatehouse's entry in it.
    pub hooks: HookFile,
}

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
}

impl EventSpec {
    /// A question before the tool runs ([`Stage::Question`]).
    pub const fn question(name: &'static str, caps: Caps, fail: FailMode) -> EventSpec {
        EventSpec {
            name,
            stage: Stage::Question,
            caps,
            fail,
        }
    }

    /// A question asked only where the agent would prompt, before it asks again
    /// ([`Stage::PermissionFirst`]).
    pub const fn permission_first(name: &'static str, caps: Caps, fail: FailMode) -> EventSpec {
        EventSpec {
            stage: Stage::PermissionFirst,
            ..EventSpec::question(name, caps, fail)
        }
    }

    /// The report after the tool ran, which carries a kept note ([`Stage::AfterTool`]); a
    /// hook that fails there can stop nothing.
    pub const fn after_tool(name: &'static str) -> EventSpec {
        EventSpec {
            stage: Stage::AfterTool,
            ..EventSpec::question(name, Caps::FULL, FailMode::Open)
        }
    }

    /// The agent's word that a session ended ([`Stage::SessionEnd`]): nothing to decide.
    pub const fn session_end(name: &'static str) -> EventSpec {
        EventSpec {
            stage: Stage::SessionEnd,
            ..EventSpec::question(name, Caps::FULL, FailMode::Open)
        }
    }
}

/// What a question's decisions can do where its deny reason reaches the model.
pub const fn caps(allow: AllowEffect, note: NoteEffect) -> Caps {
    Caps {
        allow,
        note,
        reason: true,
        input: crate::core::caps::InputEffect::Fixed,
    }
}

/// Where a dialect's facts come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Each answer was run against the real client (`shared/realclients/README.md`).
    Verified(&'static str),
    /// Built from the agent's documentation or source; no client was run.
    Documented,
    /// Built from its documentation, with what a published probe of the real client (tested
    /// live by another hook tool) found where it differs: who found it, on which version.
    Reported(&'static str),
}

/// The keys of a hook input that hold the event, the tool and what every call carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keys {
    /// The event's name.
    pub event: &'static str,
    /// The tool's name.
    pub tool: &'static str,
    /// The tool's input, as the model wrote it.
    pub input: &'static str,
    /// The session's id.
    pub session: &'static str,
    /// The model's id for the call, where the agent sends one.
    pub tool_use_id: Option<&'static str>,
    /// The session's transcript file, where the agent sends one.
    pub transcript: Option<&'static str>,
}

impl Keys {
    /// Claude Code's hook input, which Codex, Gemini CLI and Qwen Code follow (with keys of
    /// their own for some).
    pub const CLAUDE_CODE: Keys = Keys {
        event: "hook_event_name",
        tool: "tool_name",
        input: "tool_input",
        session: "session_id",
        tool_use_id: Some("tool_use_id"),
        transcript: Some("transcript_path"),
    };
}

impl Table {
    /// The kind of the tool `name` ([`Tools::kind_of`]).
    pub fn kind_of(&self, name: &str) -> ToolKind {
        self.tools.kind_of(name)
    }

    /// The event named `name` (the agent's own name), if gatehouse answers it.
    pub fn event(&self, name: &str) -> Option<&'static EventSpec> {
        self.events.iter().find(|e| e.name == name)
    }

    /// Reads `stdin` as a JSON object that names one of this agent's events under
    /// [`Keys::event`].
    pub fn read(&'static self, stdin: &[u8]) -> Result<HookInput, StdinError> {
        let fields = input::object(stdin)?;
        let name = input::required(&fields, self.keys.event)?;
        let event = self.event(&name).ok_or(StdinError::UnknownEvent(name))?;
        Ok(self.input(fields, event))
    }

    /// A hook input whose event the dialect has found itself (Copilot CLI names none on
    /// `preToolUse`).
    pub fn input(
        &'static self,
        fields: Map<String, Value>,
        event: &'static EventSpec,
    ) -> HookInput {
        HookInput {
            table: self,
            fields,
            event,
        }
    }

    /// What most dialects do with their hook input: [`Table::read`], then the call about the
    /// tool it names, with its input as sent.
    pub fn parse(&'static self, stdin: &[u8]) -> Result<Parsed, StdinError> {
        let hook = self.read(stdin)?;
        Ok(hook.call(hook.tool()?, hook.tool_input()))
    }
}

/// A hook input as every dialect first reads it: the JSON object, and the event it is about.
#[derive(Debug)]
pub struct HookInput {
    table: &'static Table,
    pub fields: Map<String, Value>,
    pub event: &'static EventSpec,
}

impl HookInput {
    /// The string field `key`, if present and a string.
    pub fn string(&self, key: &str) -> Option<String> {
        input::string(&self.fields, key)
    }

    /// The non-empty string field `key`, or the error that names it.
    pub fn required(&self, key: &'static str) -> Result<String, StdinError> {
        input::required(&self.fields, key)
    }

    /// The tool's name, under [`Keys::tool`]; a call without one is no call.
    pub fn tool(&self) -> Result<String, StdinError> {
        self.required(self.table.keys.tool)
    }

    /// The tool's input, under [`Keys::input`], or `null`.
    pub fn tool_input(&self) -> Value {
        let key = self.table.keys.input;
        self.fields.get(key).cloned().unwrap_or(Value::Null)
    }

    /// The call about `tool` with `input`: the agent's name, the tool's kind and path key
    /// from the table, the event's stage and caps, and the session, cwd, call id and
    /// transcript from where [`Table::keys`] says they are.
    pub fn call(&self, tool: String, input: Value) -> Parsed {
        let (table, keys) = (self.table, &self.table.keys);
        let optional = |key: Option<&str>| key.and_then(|key| self.string(key));
        let call = Call {
            agent: Agent::new(table.names.agent),
            session: self.string(keys.session).unwrap_or_default(),
            cwd: self.string("cwd").unwrap_or_default(),
            kind: Some(table.kind_of(&tool)),
            path_key: table.tools.path_key(&tool),
            tool,
            input,
            tool_use_id: optional(keys.tool_use_id),
            subagent: None,
            stage: self.event.stage,
            caps: self.event.caps,
            transcript_path: optional(keys.transcript),
            remote: None,
            hook_timeout_secs: None,
        };
        Parsed {
            event: self.event,
            call,
        }
    }
}
