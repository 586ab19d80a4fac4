//! A normalised tool call, whatever agent sent it, and the kind of tool it names.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::caps::Caps;

/// The console's own number for one call, unique for the console's lifetime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CallId(pub u64);

impl fmt::Display for CallId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Which agent sent a call: the name the agent's dialect gives it on the wire
/// (`agents::registry` lists them). The core compares and shows it, and never reads it: any
/// name is kept, so a newer hook can talk to an older console.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Agent(String);

impl Agent {
    pub fn new(name: impl Into<String>) -> Agent {
        Agent(name.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Agent {
    fn from(name: &str) -> Agent {
        Agent::new(name)
    }
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One pending tool call from one agent session, as the wire protocol carries it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Call {
    pub agent: Agent,
    #[serde(default)]
    pub session: String,
    #[serde(default)]
    pub cwd: String,
    pub tool: String,
    #[serde(default)]
    pub input: Value,
    /// What the tool does, as the agent's dialect normalised it from the tool's name. Absent
    /// (a hook older than this field): the server asks the registry; the core reads an absent
    /// kind as [`ToolKind::Other`], never read-only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<ToolKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    /// The sub-agent that made the call inside the session, when the agent says so: the
    /// console shows it under its parent session, whose allows it shares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent: Option<SubAgent>,
    /// What the hook event that fired asks of the console, as the agent's dialect knows it.
    #[serde(default, skip_serializing_if = "Stage::is_question")]
    pub stage: Stage,
    /// What a decision can do where this call came from; absent on the wire: Claude Code's
    /// full set.
    #[serde(default, skip_serializing_if = "Caps::is_full")]
    pub caps: Caps,
    /// The agent's transcript of the session, where its hook names one (Claude Code, Codex,
    /// Gemini CLI). Read only by a classifier configured with `context = "user-message"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript_path: Option<String>,
    /// The input key under which this call's tool names its file, as the agent's dialect
    /// knows the tool (Claude Code's `NotebookEdit` writes `notebook_path`, its `Write`
    /// `file_path`): only that key is read. Absent: the first of [`PATH_KEYS`] present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_key: Option<String>,
    /// The host the call came from and the project files that govern it there, when a hook
    /// installed for a remote or a container sent it; absent: this machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote: Option<super::origin::Remote>,
    /// How long the agent waits for its hook before it kills it, in seconds, when the hook
    /// knows (`gatehouse install` writes it into the hook's command line): the console answers
    /// the call before then. Absent: only the console's own ask timeout applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook_timeout_secs: Option<u64>,
}

/// How long before the agent kills its hook the console gives a call its timeout answer, so
/// the answer reaches the hook and the agent in time.
pub const HOOK_MARGIN: std::time::Duration = std::time::Duration::from_secs(5);

impl Call {
    /// How long this call waits for an answer: the console's `ask_timeout`, or less where the
    /// agent kills its hook sooner (its `hook_timeout_secs` less [`HOOK_MARGIN`], at least a
    /// second), so the console's own timeout answer, not the agent's, always decides.
    pub fn time_limit(&self, ask_timeout: std::time::Duration) -> std::time::Duration {
        let Some(secs) = self.hook_timeout_secs else {
            return ask_timeout;
        };
        let hook = std::time::Duration::from_secs(secs);
        let before = hook
            .saturating_sub(HOOK_MARGIN)
            .max(std::time::Duration::from_secs(1));
        ask_timeout.min(before)
    }
}

/// The input keys any agent's file tools name a file under. A call that carries more than one
/// could write a file other than the one it is judged by (see [`Call::paths`]).
pub const PATH_KEYS: [&str; 4] = ["file_path", "notebook_path", "path", "absolute_path"];

/// Where in the agent's flow a call's hook fired, and so what the barrier does with it. The
/// dialect's event row says it, once; past the dialect nothing reads an event's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// Before the tool runs: the barrier decides.
    #[default]
    Question,
    /// A question the agent asks only where it would prompt, after whose allow it asks again,
    /// just before the tool runs (Qwen Code: `PermissionRequest`, then `PreToolUse`): an allow
    /// here leaves a one-use grant that answers that second question without asking again.
    PermissionFirst,
    /// After the tool ran (Gemini CLI's and Qwen Code's `AfterTool`): not a question; the answer
    /// carries the note kept for the call it follows, where the model reads it.
    AfterTool,
    /// The agent says its session ended (Claude Code's `SessionEnd`): not a question; the
    /// console stops counting the session as live. Nothing is decided or audited.
    SessionEnd,
}

impl Stage {
    pub fn is_question(&self) -> bool {
        *self == Stage::Question
    }

    /// The stage an older hook named only by its call's `event`.
    pub fn of_older_event(event: &str) -> Option<Stage> {
        match event {
            "after-tool" => Some(Stage::AfterTool),
            "permission-request-first" => Some(Stage::PermissionFirst),
            _ => None,
        }
    }
}

/// A sub-agent of a session: the agent's own id for it and, if it says, its type
/// (`Explore`, `general-purpose`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SubAgent {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub kind: Option<String>,
}

impl SubAgent {
    /// How the console names it: its type, else its id.
    pub fn label(&self) -> &str {
        self.kind.as_deref().unwrap_or(&self.id)
    }
}

/// What a tool does. The agent's dialect says it (each agent names its tools its own way);
/// the core only reads it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ToolKind {
    /// Runs a shell line (`input.command`).
    Shell,
    /// Reads files or lists them.
    Read,
    /// Writes or edits files.
    Edit,
    /// Reaches the web.
    Web,
    /// An MCP server's tool; the call's tool name is `mcp__<server>__<tool>`.
    Mcp { server: String, tool: String },
    /// The agent's own bookkeeping, touching nothing outside it (the configured
    /// `internal_tools`; the core decides this, never the wire).
    Internal,
    /// The agent presents its plan and asks to leave its plan mode (Claude Code's
    /// `ExitPlanMode`): the plan is the subject, shown whole, and approving it lets the agent
    /// go on to carry it out.
    Plan,
    /// Anything else: never read-only by its name.
    Other,
}

impl Call {
    /// The kind the core acts on: the dialect's, except that only the configured `internal`
    /// list makes a tool internal (a call cannot vouch for itself), and an absent kind is
    /// [`ToolKind::Other`].
    pub fn kind(&self, internal: &[String]) -> ToolKind {
        match &self.kind {
            Some(ToolKind::Internal | ToolKind::Other) | None => {
                if internal.contains(&self.tool) {
                    ToolKind::Internal
                } else {
                    ToolKind::Other
                }
            }
            Some(kind) => kind.clone(),
        }
    }

    /// The shell line of a shell call (`input.command`), if it has one.
    pub fn shell_line(&self) -> Option<&str> {
        self.input.get("command").and_then(Value::as_str)
    }

    /// The file a read or edit call names: the value of its [`Call::path_key`], or without
    /// one the first of [`PATH_KEYS`] present.
    pub fn file_path(&self) -> Option<&str> {
        match &self.path_key {
            Some(key) => self.input.get(key).and_then(Value::as_str),
            None => PATH_KEYS
                .iter()
                .find_map(|key| self.input.get(*key).and_then(Value::as_str)),
        }
    }

    /// Every path-like key the input carries, with its value if a string. More than one means
    /// the file judged may not be the file written: such a call is asked, never allowed by a
    /// rule or a session allow, and an edit deny on any of them holds.
    pub fn paths(&self) -> Vec<(&'static str, Option<&str>)> {
        PATH_KEYS
            .iter()
            .filter_map(|key| Some((*key, self.input.get(*key)?.as_str())))
            .collect()
    }

    /// The plan a plan call presents: its `plan` text, where the agent sends it inline.
    pub fn plan_text(&self) -> Option<&str> {
        self.input.get("plan").and_then(Value::as_str)
    }

    /// A short one-line description of what the call is about: its shell line, file, plan, or
    /// tool.
    pub fn subject(&self) -> String {
        if let Some(line) = self.shell_line() {
            return line.to_string();
        }
        if let Some(path) = self.file_path() {
            return path.to_string();
        }
        if let Some(plan) = self.plan_text() {
            return plan.to_string();
        }
        match &self.input {
            Value::Null => self.tool.clone(),
            Value::Object(map) if map.is_empty() => self.tool.clone(),
            other => other.to_string(),
        }
    }
}

/// A call of `tool` with `input`, in session `s` at `/` and with no hook event: the call unit
/// tests start from. Its kind comes from a small table of the tool names the core's tests use.
#[cfg(test)]
pub(crate) fn test_call(tool: &str, input: Value) -> Call {
    Call {
        agent: Agent::new("claude-code"),
        session: "s".into(),
        cwd: "/".into(),
        tool: tool.into(),
        input,
        kind: Some(test_kind(tool)),
        subagent: None,
        tool_use_id: None,
        stage: Stage::Question,
        caps: Default::default(),
        transcript_path: None,
        path_key: None,
        remote: None,
        hook_timeout_secs: None,
    }
}

/// The kinds of the tool names the core's tests use (the dialects own the real tables).
#[cfg(test)]
pub(crate) fn test_kind(tool: &str) -> ToolKind {
    match tool {
        "Bash" | "run_shell_command" => ToolKind::Shell,
        "Read" | "Glob" | "Grep" | "LS" | "read_file" => ToolKind::Read,
        "Write" | "Edit" | "MultiEdit" | "NotebookEdit" | "apply_patch" | "write_file"
        | "replace" => ToolKind::Edit,
        "WebFetch" | "WebSearch" => ToolKind::Web,
        _ => match tool.strip_prefix("mcp__").and_then(|r| r.split_once("__")) {
            Some((server, tool)) if !server.is_empty() && !tool.is_empty() => ToolKind::Mcp {
                server: server.into(),
                tool: tool.into(),
            },
            _ => ToolKind::Other,
        },
    }
}

/// The bookkeeping tools the core's tests treat as internal.
#[cfg(test)]
pub(crate) fn test_internal() -> Vec<String> {
    ["TodoWrite", "Task"].map(String::from).to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_configured_list_makes_a_tool_internal() {
        let internal = test_internal();
        let mut call = test_call("TodoWrite", Value::Null);
        assert_eq!(call.kind(&internal), ToolKind::Internal);
        assert_eq!(call.kind(&[]), ToolKind::Other);
        call.tool = "Frobnicate".into();
        call.kind = Some(ToolKind::Internal);
        assert_eq!(
            call.kind(&internal),
            ToolKind::Other,
            "the wire cannot claim it"
        );
    }

    #[test]
    fn an_absent_kind_is_never_read_only() {
        let mut call = test_call("Read", Value::Null);
        assert_eq!(call.kind(&[]), ToolKind::Read);
        call.kind = None;
        assert_eq!(call.kind(&[]), ToolKind::Other);
    }

    #[test]
    fn kinds_travel_as_kebab_case_words() {
        let mcp = ToolKind::Mcp {
            server: "github".into(),
            tool: "create_issue".into(),
        };
        let json = serde_json::to_value(&mcp).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"mcp": {"server": "github", "tool": "create_issue"}})
        );
        assert_eq!(serde_json::from_value::<ToolKind>(json).unwrap(), mcp);
        assert_eq!(serde_json::to_value(ToolKind::Shell).unwrap(), "shell");
    }

    #[test]
    fn calls_round_trip_through_the_wire_shape() {
        let json = r#"{"agent":"claude-code","session":"s1","cwd":"/p","tool":"Bash",
            "input":{"command":"ls"},"kind":"shell","tool_use_id":"t1","stage":"after-tool"}"#;
        let call: Call = serde_json::from_str(json).unwrap();
        assert_eq!(call.agent, Agent::new("claude-code"));
        assert_eq!(call.kind, Some(ToolKind::Shell));
        assert_eq!(call.shell_line(), Some("ls"));
        assert_eq!(call.stage, Stage::AfterTool);
        let back: Call = serde_json::from_str(&serde_json::to_string(&call).unwrap()).unwrap();
        assert_eq!(back, call);
        let other: Call =
            serde_json::from_str(r#"{"agent":"aider","tool":"x","input":{}}"#).unwrap();
        assert_eq!(other.agent.as_str(), "aider");
        assert_eq!(other.kind, None);
        assert_eq!(other.stage, Stage::Question);
        assert!(!serde_json::to_string(&other).unwrap().contains("stage"));
    }
}
