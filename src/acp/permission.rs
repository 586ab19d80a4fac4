//! One ACP permission request in gatehouse's words: the tool call it carries as a [`Call`],
//! and a decision back as the reply the agent can take, chosen only among the options the
//! agent offered.
//!
//! ACP names no tools: a tool call has a `kind` (`read`, `edit`, `delete`, `move`, `search`,
//! `execute`, `think`, `fetch`, `switch_mode`, `other`), a title, the agent's own arguments
//! (`rawInput`) and the files it touches (`locations`). The call's tool is the agent's name for
//! it when the request says (`name`, or `_meta.toolName` as Qwen Code sends it), else the ACP
//! kind; its kind is the ACP kind's; a shell call's line is `rawInput.command` and nothing else
//! (a title is prose, never judged: Gemini CLI 0.61.0 sends its shell calls with the command as
//! the title and no `rawInput`, so they are never proven read-only and go to a human); a file
//! call names its file under `rawInput`'s own path key, else the first location's path.
//!
//! What an answer can do over ACP ([`CAPS`]): an allow is the agent's allow-once option, so it
//! grants; nothing carries a note or a deny's reason to the model, so the console offers no
//! note and says a reason stays in the log.

use serde_json::{Map, Value};

use agent_client_protocol::v1::schema::{
    PermissionOption, PermissionOptionId, PermissionOptionKind, RequestPermissionOutcome,
    RequestPermissionRequest, RequestPermissionResponse, SelectedPermissionOutcome,
    ToolKind as Kind,
};

use crate::core::call::{Agent, Call, PATH_KEYS, Stage, ToolKind};
use crate::core::caps::{AllowEffect, Caps, InputEffect, NoteEffect};
use crate::core::decision::Decision;

/// The JSON-RPC method of a permission request, the one message the proxy answers itself.
pub const METHOD: &str = "session/request_permission";

/// What a decision can do over ACP: allow-once grants; no note, no reason reach the model.
pub const CAPS: Caps = Caps {
    allow: AllowEffect::Grant,
    note: NoteEffect::None,
    reason: false,
    // Nothing carries an edited line to the agent, so no edit is offered.
    input: InputEffect::Fixed,
};

/// How the proxy answers one permission request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// Choose this option, one the agent offered.
    Select(PermissionOptionId),
    /// Answer `cancelled`: the call does not run. A deny where the agent offered no
    /// reject-once option (choosing "reject always" would make a lasting rule in the agent
    /// that gatehouse never decided).
    Cancel,
    /// Send the request on to the editor unchanged: its own prompt decides.
    ToEditor,
}

impl Reply {
    /// The response the agent reads, or `None` for [`Reply::ToEditor`].
    pub fn response(&self) -> Option<RequestPermissionResponse> {
        let outcome = match self {
            Reply::Select(id) => {
                RequestPermissionOutcome::Selected(SelectedPermissionOutcome::new(id.clone()))
            }
            Reply::Cancel => RequestPermissionOutcome::Cancelled,
            Reply::ToEditor => return None,
        };
        Some(RequestPermissionResponse::new(outcome))
    }
}

/// The reply for `decision` among `options`: an allow is the first allow-once option (never
/// allow-always: gatehouse granted this call, not the next ones), else the editor asks; a deny
/// is the first reject-once option, else `cancelled` (never the editor: a deny stays a deny); a
/// defer is the editor's.
pub fn reply_for(decision: &Decision, options: &[PermissionOption]) -> Reply {
    let first = |kind: PermissionOptionKind| {
        options
            .iter()
            .find(|o| o.kind == kind)
            .map(|o| o.option_id.clone())
    };
    match decision {
        Decision::Allow { .. } => {
            first(PermissionOptionKind::AllowOnce).map_or(Reply::ToEditor, Reply::Select)
        }
        Decision::Deny { .. } => {
            first(PermissionOptionKind::RejectOnce).map_or(Reply::Cancel, Reply::Select)
        }
        Decision::Defer { .. } => Reply::ToEditor,
    }
}

/// Reads a permission request's params; `Err` says what is wrong with them (the proxy then
/// leaves the request to the editor).
pub fn parse(params: &Value) -> Result<RequestPermissionRequest, String> {
    serde_json::from_value(params.clone())
        .map_err(|e| format!("the permission request does not read as ACP ({e})"))
}

/// The call a permission request asks about, from `agent` in the folder `cwd`.
pub fn call_of(request: &RequestPermissionRequest, agent: &Agent, cwd: &str) -> Call {
    let fields = &request.tool_call.fields;
    let acp_kind = fields.kind.unwrap_or_default();
    let kind = tool_kind(acp_kind);
    let mut input = match &fields.raw_input {
        Some(Value::Object(map)) => map.clone(),
        Some(other) if !other.is_null() => {
            Map::from_iter([("raw_input".to_string(), other.clone())])
        }
        _ => Map::new(),
    };
    // A shell call is judged by `command` alone; one that carries no line is not proven.
    if kind == ToolKind::Shell && !input.get("command").is_some_and(Value::is_string) {
        input.remove("command");
    }
    let location = fields
        .locations
        .iter()
        .flatten()
        .find_map(|l| l.path.to_str().map(str::to_string));
    let names_a_file = PATH_KEYS.iter().any(|k| input.contains_key(*k));
    if matches!(kind, ToolKind::Read | ToolKind::Edit)
        && !names_a_file
        && let Some(path) = location
    {
        input.insert("file_path".into(), Value::String(path));
    }
    if let Some(title) = fields.title.as_ref().filter(|_| input.is_empty()) {
        input.insert("title".into(), Value::String(title.clone()));
    }
    // Qwen Code names the tool in the tool call's `_meta.toolName` (0.24.4).
    let meta_name = request
        .tool_call
        .meta
        .as_ref()
        .and_then(|m| m.get("toolName"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let tool = (fields.name.clone().into_iter().chain(meta_name))
        .find(|n| !n.is_empty())
        .unwrap_or_else(|| kind_word(acp_kind).to_string());
    Call {
        agent: agent.clone(),
        session: request.session_id.to_string(),
        cwd: cwd.to_string(),
        tool,
        input: Value::Object(input),
        kind: Some(kind),
        tool_use_id: Some(request.tool_call.tool_call_id.to_string()),
        subagent: None,
        stage: Stage::Question,
        caps: CAPS,
        transcript_path: None,
        path_key: None,
        remote: None,
        hook_timeout_secs: None,
    }
}

/// gatehouse's kind for an ACP kind: searching reads, deleting and moving write; thinking,
/// switching mode and anything else are other tools, never read-only by their kind.
fn tool_kind(kind: Kind) -> ToolKind {
    match kind {
        Kind::Execute => ToolKind::Shell,
        Kind::Read | Kind::Search => ToolKind::Read,
        Kind::Edit | Kind::Delete | Kind::Move => ToolKind::Edit,
        Kind::Fetch => ToolKind::Web,
        _ => ToolKind::Other,
    }
}

/// The ACP kind as its wire word, the call's tool when the agent names none.
fn kind_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Read => "read",
        Kind::Edit => "edit",
        Kind::Delete => "delete",
        Kind::Move => "move",
        Kind::Search => "search",
        Kind::Execute => "execute",
        Kind::Think => "think",
        Kind::Fetch => "fetch",
        Kind::SwitchMode => "switch_mode",
        _ => "other",
    }
}

#[cfg(test)]
#[path = "permission_tests.rs"]
mod tests;
