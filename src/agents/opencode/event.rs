//! OpenCode's server-sent events and permission requests, as `opencode serve` 1.18 sends them
//! (`shared/realclients/README.md`, "Server, sessions and events").
//!
//! Both streams send `data: <json>` with no `event:` field, so an event is told by its `type`.
//! `/global/event` wraps each in `{"directory","project","payload"}`; `/event` sends the payload
//! bare. Only what the attach needs is read: the stream's greeting, a request being asked, and a
//! request being answered (by us, by OpenCode's own screen, or swept up by a reject). Everything
//! else is [`StreamEvent::Other`] and ignored.

use serde::Deserialize;
use serde_json::Value;

/// One permission request: the objects of `permission.asked` and of `GET /permission`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Permission {
    /// `per_…`: what a reply names.
    pub id: String,
    #[serde(rename = "sessionID", default)]
    pub session_id: String,
    /// What is asked: `bash`, `edit` (writes and edits), `read`, `external_directory`, …
    pub permission: String,
    /// One entry per simple command of a shell line, or the file patterns.
    #[serde(default)]
    pub patterns: Vec<String>,
    /// `command` for `bash`; `filepath` and `diff` for `edit`; often empty.
    #[serde(default)]
    pub metadata: Value,
    /// What an `always` reply would add to the instance's allow list.
    #[serde(default)]
    pub always: Vec<String>,
    #[serde(default)]
    pub tool: Option<ToolRef>,
}

/// The tool call a request belongs to.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ToolRef {
    #[serde(rename = "messageID", default)]
    pub message_id: String,
    /// The model's own tool call id.
    #[serde(rename = "callID", default)]
    pub call_id: String,
}

/// What one `data:` line of an event stream says, as far as attaching cares.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    /// The first event of every stream.
    Connected,
    /// A request waiting for an answer; `directory` is the instance it lives in (the wrapper's,
    /// on `/global/event`), to be named again in the reply.
    Asked {
        directory: Option<String>,
        permission: Box<Permission>,
    },
    /// A request answered by anyone; nothing more needs asking about it.
    Replied { request_id: String, reply: String },
    /// Heartbeats and everything else.
    Other,
}

/// Why a `data:` line could not be read.
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    #[error("an OpenCode event is not JSON: {0}")]
    NotJson(#[from] serde_json::Error),
    #[error("an OpenCode event has no `type`")]
    NoType,
}

impl StreamEvent {
    /// Reads one event's JSON, in either stream's form.
    pub fn parse(data: &str) -> Result<StreamEvent, EventError> {
        let value: Value = serde_json::from_str(data)?;
        let (directory, payload) = match value.get("payload") {
            Some(payload) => (
                value
                    .get("directory")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                payload,
            ),
            None => (None, &value),
        };
        let kind = payload
            .get("type")
            .and_then(Value::as_str)
            .ok_or(EventError::NoType)?;
        let properties = payload.get("properties").cloned().unwrap_or(Value::Null);
        Ok(match kind {
            "server.connected" => StreamEvent::Connected,
            "permission.asked" => StreamEvent::Asked {
                directory,
                permission: Box::new(serde_json::from_value(properties)?),
            },
            "permission.replied" => StreamEvent::replied(&properties),
            _ => StreamEvent::Other,
        })
    }

    /// A reply event, from its fields (`requestID`, `reply`) in either API.
    pub(super) fn replied(fields: &Value) -> StreamEvent {
        let text = |key: &str| {
            fields
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        StreamEvent::Replied {
            request_id: text("requestID"),
            reply: text("reply"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! fixture {
        ($name:literal) => {
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/opencode/",
                $name
            ))
        };
    }

    #[test]
    fn a_bare_shell_request_reads_with_its_command_and_call_id() {
        let event = StreamEvent::parse(fixture!("permission-asked-bash.json")).unwrap();
        let StreamEvent::Asked {
            directory,
            permission,
        } = event
        else {
            panic!("not a request: {event:?}");
        };
        assert_eq!(directory, None);
        assert_eq!(permission.id, "per_22be78faa001nG0B4Pz45PZW8u");
        assert_eq!(permission.session_id, "ses_dd4187cc4ffe3hZdC4tLpyxwdQ");
        assert_eq!(permission.permission, "bash");
        assert_eq!(permission.patterns, ["rm -rf build", "echo removed"]);
        assert_eq!(permission.always, ["rm *", "echo *"]);
        assert_eq!(
            permission.metadata["command"],
            "rm -rf build && echo removed"
        );
        assert_eq!(permission.tool.unwrap().call_id, "call_e2e_1");
    }

    #[test]
    fn a_global_request_carries_the_directory_of_its_instance() {
        let text = fixture!("global-event-permission-asked-bash.json");
        let StreamEvent::Asked {
            directory,
            permission,
        } = StreamEvent::parse(text).unwrap()
        else {
            panic!("not a request");
        };
        assert_eq!(directory.as_deref(), Some("/home/dev/project"));
        assert_eq!(permission.id, "per_22be78faa001nG0B4Pz45PZW8u");
    }

    #[test]
    fn a_reply_event_names_the_request_it_settles() {
        let event = StreamEvent::parse(fixture!("permission-replied-bash.json")).unwrap();
        assert_eq!(
            event,
            StreamEvent::Replied {
                request_id: "per_22be78faa001nG0B4Pz45PZW8u".into(),
                reply: "once".into()
            }
        );
    }

    #[test]
    fn every_fixture_request_parses() {
        for text in [
            fixture!("permission-asked-edit.json"),
            fixture!("permission-asked-write.json"),
            fixture!("permission-asked-read.json"),
            fixture!("permission-asked-external_directory.json"),
        ] {
            let event = StreamEvent::parse(text).unwrap();
            assert!(matches!(event, StreamEvent::Asked { .. }), "{event:?}");
        }
    }

    #[test]
    fn greetings_heartbeats_and_unknown_events_are_told_apart() {
        assert_eq!(
            StreamEvent::parse(r#"{"type":"server.connected","properties":{}}"#).unwrap(),
            StreamEvent::Connected
        );
        assert_eq!(
            StreamEvent::parse(r#"{"payload":{"type":"server.heartbeat","properties":{}}}"#)
                .unwrap(),
            StreamEvent::Other
        );
        assert!(StreamEvent::parse(r#"{"properties":{}}"#).is_err());
        assert!(StreamEvent::parse("not json").is_err());
    }

    #[test]
    fn a_request_without_an_id_is_an_error_not_a_blank_request() {
        let text = r#"{"type":"permission.asked","properties":{"permission":"bash"}}"#;
        assert!(StreamEvent::parse(text).is_err());
    }
}
