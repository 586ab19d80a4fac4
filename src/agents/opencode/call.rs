//! Turning an OpenCode permission request into a [`Call`] with the tool kinds the core knows,
//! and gatehouse's answer into OpenCode's reply.
//!
//! OpenCode asks per permission, not per tool: `bash` carries the whole command line in
//! `metadata.command`; `edit` covers writes and edits alike and carries the file and a diff;
//! `read` names its file only in `patterns` (relative to the worktree). A shell line is only
//! ever classified from `metadata.command`: the `patterns` are OpenCode's own split of it into
//! simple commands, without their redirections, and a line rebuilt from them could look
//! read-only when it is not. A request without its command stays an unknown tool and asks.

use std::path::{Component, Path, PathBuf};

use serde_json::{Map, Value, json};

use super::event::Permission;
use crate::agents::tools::Tools;
use crate::core::call::{Agent, Call, Stage, ToolKind};
use crate::core::caps::{AllowEffect, Caps, NoteEffect};
use crate::core::decision::{Decider, Decision};

/// The agent name OpenCode's calls carry.
pub const AGENT: &str = "opencode";

/// What a decision can do on an OpenCode permission request (verified against 1.18.33): `once`
/// runs the call without OpenCode's own prompt; no reply carries a note; a `reject` with a
/// message reaches the model as the tool's result and the run goes on.
pub const CAPS: Caps = Caps {
    allow: AllowEffect::Grant,
    note: NoteEffect::None,
    reason: true,
    input: crate::core::caps::InputEffect::Fixed,
};

/// The reply sent to OpenCode for one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// Run this call; the same call asks again next time.
    Once,
    /// Do not run it; `message` (never empty: an empty one stops the run) reaches the model.
    Reject { message: String },
}

impl Reply {
    /// The body of `POST /permission/<id>/reply`.
    pub fn body(&self) -> Value {
        match self {
            Reply::Once => json!({"reply": "once"}),
            Reply::Reject { message } => json!({"reply": "reject", "message": message}),
        }
    }

    /// What gatehouse's answer becomes, or `None` where nothing may be sent: a `defer` leaves
    /// the request to OpenCode's own prompt (or another approver), and a call settled because
    /// the console is quitting is left unanswered, so quitting answers nothing.
    ///
    /// An "allow always" is kept by gatehouse as a rule for the OpenCode session and sent as
    /// `once`: OpenCode's own `always` would allow its broader patterns (`rm *`) in every
    /// session of the project without gatehouse seeing those calls again.
    pub fn of(decision: &Decision, decider: Decider) -> Option<Reply> {
        if decider == Decider::Shutdown {
            return None;
        }
        match decision {
            Decision::Allow { .. } => Some(Reply::Once),
            Decision::Deny { reason } => {
                let message = if reason.trim().is_empty() {
                    "denied by gatehouse".to_string()
                } else {
                    reason.clone()
                };
                Some(Reply::Reject { message })
            }
            Decision::Defer { .. } => None,
        }
    }
}

/// The call for `request`, asked in `directory` (the instance's folder, when known).
pub fn to_call(request: &Permission, directory: Option<&str>) -> Call {
    let cwd = directory.unwrap_or_default();
    let meta = |key: &str| request.metadata.get(key).and_then(Value::as_str);
    let first_path = || {
        meta("filepath")
            .map(str::to_string)
            .or_else(|| request.patterns.first().map(|p| resolve(cwd, p)))
    };
    let input = match request.permission.as_str() {
        "bash" | "shell" => meta("command").map(|command| json!({ "command": command })),
        "edit" => first_path().map(|path| {
            let mut input = Map::new();
            input.insert("file_path".into(), path.into());
            if let Some(diff) = meta("diff") {
                input.insert("diff".into(), diff.into());
            }
            Value::Object(input)
        }),
        "read" | "list" => first_path().map(|path| json!({ "file_path": path })),
        "glob" | "grep" => Some(json!({ "pattern": request.patterns })),
        "webfetch" | "websearch" => Some(raw(request)),
        _ => None,
    };
    // Without the fields its kind is judged by, a request is an unknown tool that asks.
    let (kind, input) = match input {
        Some(input) => (kind_of(&request.permission), input),
        None => (ToolKind::Other, raw(request)),
    };
    Call {
        transcript_path: None,
        path_key: None,
        remote: None,
        hook_timeout_secs: None,
        agent: Agent::new(AGENT),
        session: request.session_id.clone(),
        cwd: cwd.to_string(),
        tool: request.permission.clone(),
        input,
        kind: Some(kind),
        // A `task` sub-agent runs in a session of its own; the request does not name its
        // parent.
        subagent: None,
        tool_use_id: request.tool.as_ref().map(|t| t.call_id.clone()),
        stage: Stage::Question,
        caps: CAPS,
    }
}

/// What each of OpenCode's permissions does. `external_directory` (reaching outside the
/// project), `todowrite`, `task`, `question` and any permission not listed are
/// [`ToolKind::Other`]: they ask.
pub const TOOLS: Tools = Tools {
    // `shell` is 2.x's name for it in OpenCode's documentation (unverified on a real 2.x).
    shell: &["bash", "shell"],
    read: &["read", "glob", "grep", "list"],
    edit: &["edit"],
    web: &["webfetch", "websearch"],
    ..Tools::NONE
};

fn kind_of(permission: &str) -> ToolKind {
    TOOLS.kind_of(permission)
}

/// The request as OpenCode states it, for tools the core has no fields for.
fn raw(request: &Permission) -> Value {
    json!({ "patterns": request.patterns, "metadata": request.metadata })
}

/// `pattern` against `dir`, with `.` and `..` taken lexically (OpenCode's file patterns are
/// relative, and can climb out: `../../../etc/hostname`).
fn resolve(dir: &str, pattern: &str) -> String {
    let mut path = PathBuf::new();
    for part in Path::new(dir).join(pattern).components() {
        match part {
            Component::ParentDir => {
                path.pop();
            }
            Component::CurDir => {}
            other => path.push(other),
        }
    }
    path.to_string_lossy().into_owned()
}

#[cfg(test)]
#[path = "call_tests.rs"]
mod tests;
