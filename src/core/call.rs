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

/// Which agent sent a call. Unknown names are kept, so a newer hook can talk to an older console.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Agent {
    ClaudeCode,
    Codex,
    GeminiCli,
    Cursor,
    Opencode,
    QwenCode,
    CopilotCli,
    #[serde(untagged)]
    Other(String),
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Agent::ClaudeCode => "claude-code",
            Agent::Codex => "codex",
            Agent::GeminiCli => "gemini-cli",
            Agent::Cursor => "cursor",
            Agent::Opencode => "opencode",
            Agent::QwenCode => "qwen-code",
            Agent::CopilotCli => "copilot-cli",
            Agent::Other(name) => name,
        })
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    /// The agent's hook event, normalised (`pre-tool-use`, `permission-request`, `before-tool`,
    /// `after-tool`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// What a decision can do where this call came from; absent on the wire: Claude Code's
    /// full set.
    #[serde(default, skip_serializing_if = "Caps::is_full")]
    pub caps: Caps,
}

/// What a tool does, derived from its name alone.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ToolKind {
    /// Runs a shell line (`Bash`).
    Shell,
    /// Reads files or lists them (`Read`, `Glob`, `Grep`, `LS`, `NotebookRead`).
    Read,
    /// Writes or edits files (`Write`, `Edit`, `MultiEdit`, `NotebookEdit`).
    Edit,
    /// Reaches the web (`WebFetch`, `WebSearch`).
    Web,
    /// An MCP server's tool, named `mcp__<server>__<tool>`.
    Mcp { server: String, tool: String },
    /// The agent's own bookkeeping, touching nothing outside it (a configurable list).
    Internal,
    /// Anything else: never read-only by its name.
    Other,
}

impl ToolKind {
    /// The kind of the tool `name`, where `internal` lists the agent's bookkeeping tools.
    /// Claude Code's names, Codex's `apply_patch` and Gemini CLI's built-in tools are known;
    /// other dialects map their names to these before submitting.
    pub fn of(name: &str, internal: &[String]) -> ToolKind {
        match name {
            "Bash" | "run_shell_command" => ToolKind::Shell,
            "Read" | "Glob" | "Grep" | "LS" | "NotebookRead" => ToolKind::Read,
            "read_file" | "read_many_files" | "list_directory" | "glob" | "grep_search" => {
                ToolKind::Read
            }
            "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => ToolKind::Edit,
            "apply_patch" | "write_file" | "replace" => ToolKind::Edit,
            "WebFetch" | "WebSearch" | "web_fetch" | "google_web_search" => ToolKind::Web,
            _ => {
                if let Some((server, tool)) = parse_mcp_name(name) {
                    ToolKind::Mcp { server, tool }
                } else if internal.iter().any(|t| t == name) {
                    ToolKind::Internal
                } else {
                    ToolKind::Other
                }
            }
        }
    }
}

/// Splits `mcp__<server>__<tool>` into its server and tool; both must be non-empty.
fn parse_mcp_name(name: &str) -> Option<(String, String)> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = rest.split_once("__")?;
    (!server.is_empty() && !tool.is_empty()).then(|| (server.to_string(), tool.to_string()))
}

/// Claude Code's own bookkeeping tools: they change nothing outside the agent, and `Agent`/`Task`
/// start sub-agents whose calls are gated one by one.
pub const DEFAULT_INTERNAL_TOOLS: &[&str] = &[
    "TodoWrite",
    "TodoRead",
    "ToolSearch",
    "Skill",
    "AskUserQuestion",
    "EnterPlanMode",
    "ExitPlanMode",
    "ListAgents",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskUpdate",
    "TaskOutput",
    "TaskStop",
    "Agent",
    "Task",
];

impl Call {
    /// The shell line of a shell call (`input.command`), if it has one.
    pub fn shell_line(&self) -> Option<&str> {
        self.input.get("command").and_then(Value::as_str)
    }

    /// The file a read or edit call names (`file_path`, `notebook_path` or `path`).
    pub fn file_path(&self) -> Option<&str> {
        ["file_path", "notebook_path", "path"]
            .iter()
            .find_map(|key| self.input.get(*key).and_then(Value::as_str))
    }

    /// A short one-line description of what the call is about: its shell line, file, or tool.
    pub fn subject(&self) -> String {
        if let Some(line) = self.shell_line() {
            return line.to_string();
        }
        if let Some(path) = self.file_path() {
            return path.to_string();
        }
        match &self.input {
            Value::Null => self.tool.clone(),
            Value::Object(map) if map.is_empty() => self.tool.clone(),
            other => other.to_string(),
        }
    }
}

/// A Claude Code call of `tool` with `input`, in session `s` at `/` and with no hook event:
/// the call unit tests start from.
#[cfg(test)]
pub(crate) fn test_call(tool: &str, input: Value) -> Call {
    Call {
        agent: Agent::ClaudeCode,
        session: "s".into(),
        cwd: "/".into(),
        tool: tool.into(),
        input,
        tool_use_id: None,
        event: None,
        caps: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn internal() -> Vec<String> {
        DEFAULT_INTERNAL_TOOLS
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn tool_names_map_to_their_kinds() {
        let internal = internal();
        assert_eq!(ToolKind::of("Bash", &internal), ToolKind::Shell);
        assert_eq!(ToolKind::of("Glob", &internal), ToolKind::Read);
        assert_eq!(ToolKind::of("MultiEdit", &internal), ToolKind::Edit);
        assert_eq!(ToolKind::of("WebSearch", &internal), ToolKind::Web);
        assert_eq!(ToolKind::of("TodoWrite", &internal), ToolKind::Internal);
        assert_eq!(ToolKind::of("Frobnicate", &internal), ToolKind::Other);
        assert_eq!(ToolKind::of("bash", &internal), ToolKind::Other);
    }

    #[test]
    fn codex_and_gemini_tool_names_map_to_their_kinds() {
        assert_eq!(ToolKind::of("run_shell_command", &[]), ToolKind::Shell);
        for read in [
            "read_file",
            "read_many_files",
            "list_directory",
            "glob",
            "grep_search",
        ] {
            assert_eq!(ToolKind::of(read, &[]), ToolKind::Read, "{read}");
        }
        for edit in ["apply_patch", "write_file", "replace"] {
            assert_eq!(ToolKind::of(edit, &[]), ToolKind::Edit, "{edit}");
        }
        assert_eq!(ToolKind::of("web_fetch", &[]), ToolKind::Web);
        assert_eq!(ToolKind::of("google_web_search", &[]), ToolKind::Web);
    }

    #[test]
    fn mcp_names_give_server_and_tool() {
        assert_eq!(
            ToolKind::of("mcp__github__create_issue", &[]),
            ToolKind::Mcp {
                server: "github".into(),
                tool: "create_issue".into()
            }
        );
        assert_eq!(
            ToolKind::of("mcp__a__b__c", &[]),
            ToolKind::Mcp {
                server: "a".into(),
                tool: "b__c".into()
            }
        );
        assert_eq!(ToolKind::of("mcp____x", &[]), ToolKind::Other);
        assert_eq!(ToolKind::of("mcp__server", &[]), ToolKind::Other);
    }

    #[test]
    fn an_internal_list_can_be_emptied_so_its_tools_become_other() {
        assert_eq!(ToolKind::of("TodoWrite", &[]), ToolKind::Other);
    }

    #[test]
    fn calls_round_trip_through_the_wire_shape() {
        let json = r#"{"agent":"claude-code","session":"s1","cwd":"/p","tool":"Bash",
            "input":{"command":"ls"},"tool_use_id":"t1","event":"pre-tool-use"}"#;
        let call: Call = serde_json::from_str(json).unwrap();
        assert_eq!(call.agent, Agent::ClaudeCode);
        assert_eq!(call.shell_line(), Some("ls"));
        let back: Call = serde_json::from_str(&serde_json::to_string(&call).unwrap()).unwrap();
        assert_eq!(back, call);
        let other: Call =
            serde_json::from_str(r#"{"agent":"aider","tool":"x","input":{}}"#).unwrap();
        assert_eq!(other.agent, Agent::Other("aider".into()));
    }
}
