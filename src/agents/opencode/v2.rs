//! OpenCode's V2 permission API (the `/api/...` routes of 2.x, served beside the 1.x routes by
//! 1.18.33 already): its requests and the events of `GET /api/event`, read into the same
//! [`Permission`] and [`StreamEvent`] the 1.x path uses, so one request makes one call
//! whichever API carried it.
//!
//! The shapes are those of the OpenAPI document the real 1.18.33 publishes at `GET /doc`
//! (`PermissionV2Request`, `PermissionV2Asked`, `PermissionV2Replied`), mapped onto the 1.x
//! request the way OpenCode's own client does: `action` is the permission, `resources` the
//! patterns, `save` what an `always` would keep, `source` the tool call.

use serde::Deserialize;
use serde_json::Value;

use super::event::{EventError, Permission, StreamEvent, ToolRef};

/// One V2 permission request, as `GET /api/permission/request` lists it and
/// `permission.v2.asked` carries it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Request {
    /// `per_…`: what a reply names, with its session.
    pub id: String,
    #[serde(rename = "sessionID")]
    pub session_id: String,
    /// What is asked: `bash`, `edit`, `read`, `external_directory`, …
    pub action: String,
    #[serde(default)]
    pub resources: Vec<String>,
    #[serde(default)]
    pub save: Vec<String>,
    #[serde(default)]
    pub metadata: Value,
    #[serde(default)]
    pub source: Option<Source>,
}

/// Where a request comes from; only a tool call names one.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Source {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(rename = "messageID", default)]
    pub message_id: String,
    #[serde(rename = "callID", default)]
    pub call_id: String,
}

impl From<Request> for Permission {
    fn from(request: Request) -> Permission {
        let tool = request
            .source
            .filter(|s| s.kind == "tool")
            .map(|s| ToolRef {
                message_id: s.message_id,
                call_id: s.call_id,
            });
        Permission {
            id: request.id,
            session_id: request.session_id,
            permission: request.action,
            patterns: request.resources,
            metadata: request.metadata,
            always: request.save,
            tool,
        }
    }
}

/// The answer of `GET /api/permission/request`: the location listed, and its pending requests.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Listing {
    pub location: Location,
    pub data: Vec<Request>,
}

/// An instance's folder, as V2 names it on a listing and on every event.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Location {
    pub directory: String,
}

/// Reads one `data:` line of `GET /api/event`. An event carries its fields under `data` (the
/// 2.x stream) or `properties` (the same event on the 1.x-style stream); the folder it lives in
/// is its `location`.
pub fn parse_event(text: &str) -> Result<StreamEvent, EventError> {
    let value: Value = serde_json::from_str(text)?;
    let kind = value
        .get("type")
        .and_then(Value::as_str)
        .ok_or(EventError::NoType)?;
    let body = value
        .get("data")
        .or_else(|| value.get("properties"))
        .cloned()
        .unwrap_or(Value::Null);
    let directory = value
        .get("location")
        .and_then(|l| l.get("directory"))
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(match kind {
        "server.connected" => StreamEvent::Connected,
        "permission.v2.asked" => {
            let request: Request = serde_json::from_value(body)?;
            StreamEvent::Asked {
                directory,
                permission: Box::new(request.into()),
            }
        }
        "permission.v2.replied" => StreamEvent::replied(&body),
        _ => StreamEvent::Other,
    })
}

#[cfg(test)]
#[path = "v2_tests.rs"]
mod tests;
