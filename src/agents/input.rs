//! What the dialects share in reading a hook's stdin: the error when it is not a call, and
//! small readers for the JSON fields every agent sends.

use serde_json::{Map, Value};

/// Why the hook's stdin cannot be read as a call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StdinError {
    #[error("hook input is not valid JSON ({0})")]
    NotJson(String),
    #[error("hook input has no string `{0}`")]
    Missing(&'static str),
    #[error(
        "hook event {0:?} is not one gatehouse answers for this agent (it answers \
         PreToolUse, PermissionRequest, BeforeTool, AfterTool and Cursor's before* events); \
         reinstall the hook with `gatehouse install <agent>`"
    )]
    UnknownEvent(String),
    #[error(
        "hook input is in Claude Code's format (event {0:?}), but `gatehouse hook copilot` \
         speaks Copilot's own format, and Copilot ignores an answer in the other one; \
         reinstall the hook with `gatehouse install copilot`"
    )]
    ClaudeFormat(String),
}

/// The hook input as a JSON object.
pub fn object(stdin: &[u8]) -> Result<Map<String, Value>, StdinError> {
    match serde_json::from_slice(stdin) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(StdinError::NotJson("expected a JSON object".into())),
        Err(e) => Err(StdinError::NotJson(e.to_string())),
    }
}

/// The string field `key`, if present and a string.
pub fn string(input: &Map<String, Value>, key: &str) -> Option<String> {
    input.get(key).and_then(Value::as_str).map(str::to_string)
}

/// The non-empty string field `key`, or the error that names it.
pub fn required(input: &Map<String, Value>, key: &'static str) -> Result<String, StdinError> {
    string(input, key)
        .filter(|s| !s.is_empty())
        .ok_or(StdinError::Missing(key))
}
