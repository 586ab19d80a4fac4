//! The V2 requests and events, from the fixtures written from 1.18.33's OpenAPI document
//! (`tests/fixtures/opencode-v2/README.md`), made into the same calls as their 1.x twins.

use super::*;
use crate::agents::opencode::call::to_call;
use crate::core::call::ToolKind;

macro_rules! fixture {
    ($dir:literal, $name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/",
            $dir,
            "/",
            $name
        ))
    };
}

fn asked(text: &str) -> (Option<String>, Permission) {
    match parse_event(text).unwrap() {
        StreamEvent::Asked {
            directory,
            permission,
        } => (directory, *permission),
        other => panic!("not a request: {other:?}"),
    }
}

#[test]
fn a_v2_shell_request_reads_as_its_1x_twin_with_the_folder_of_its_location() {
    let (directory, v2) = asked(fixture!(
        "opencode-v2",
        "api-event-permission-v2-asked-bash.json"
    ));
    assert_eq!(directory.as_deref(), Some("/home/dev/project"));
    let StreamEvent::Asked { permission: v1, .. } =
        StreamEvent::parse(fixture!("opencode", "permission-asked-bash.json")).unwrap()
    else {
        panic!("the 1.x fixture is not a request");
    };
    assert_eq!(v2.id, v1.id);
    assert_eq!(v2.session_id, v1.session_id);
    assert_eq!(v2.permission, "bash");
    assert_eq!(v2.patterns, v1.patterns);
    assert_eq!(v2.always, v1.always);
    assert_eq!(v2.metadata, v1.metadata);
    assert_eq!(v2.tool.as_ref().unwrap().call_id, "call_e2e_1");
    let call = to_call(&v2, directory.as_deref());
    assert_eq!(call.kind, Some(ToolKind::Shell));
    assert_eq!(call.shell_line(), Some("rm -rf build && echo removed"));
    assert_eq!(call.cwd, "/home/dev/project");
    assert_eq!(call.tool_use_id.as_deref(), Some("call_e2e_1"));
}

#[test]
fn a_v2_edit_names_its_file_and_a_bare_read_resolves_its_resource() {
    let (directory, edit) = asked(fixture!(
        "opencode-v2",
        "api-event-permission-v2-asked-edit.json"
    ));
    let call = to_call(&edit, directory.as_deref());
    assert_eq!(call.kind, Some(ToolKind::Edit));
    assert_eq!(call.input["file_path"], "/home/dev/project/config.txt");
    assert!(
        call.input["diff"]
            .as_str()
            .unwrap()
            .contains("+mode = release")
    );

    let (directory, read) = asked(fixture!(
        "opencode-v2",
        "api-event-permission-v2-asked-read.json"
    ));
    assert_eq!(read.tool, None, "no source: no tool call named");
    let call = to_call(&read, directory.as_deref());
    assert_eq!(call.kind, Some(ToolKind::Read));
    assert_eq!(call.input["file_path"], "/home/dev/project/config.txt");
}

#[test]
fn a_v2_reply_event_names_the_request_it_settles() {
    let event = parse_event(fixture!(
        "opencode-v2",
        "api-event-permission-v2-replied.json"
    ));
    assert_eq!(
        event.unwrap(),
        StreamEvent::Replied {
            request_id: "per_22be78faa001nG0B4Pz45PZW8u".into(),
            reply: "reject".into()
        }
    );
}

#[test]
fn the_same_event_under_properties_reads_too() {
    let text = r#"{"id":"evt_1","type":"permission.v2.asked","properties":{"id":"per_1",
        "sessionID":"ses_1","action":"bash","resources":["ls"],"metadata":{"command":"ls"}}}"#;
    let (directory, permission) = asked(text);
    assert_eq!(directory, None);
    assert_eq!(permission.metadata["command"], "ls");
}

#[test]
fn a_listing_names_its_location_and_its_requests() {
    let listing: Listing =
        serde_json::from_str(fixture!("opencode-v2", "api-permission-request.json")).unwrap();
    assert_eq!(listing.location.directory, "/home/dev/project");
    let pending: Vec<Permission> = listing.data.into_iter().map(Permission::from).collect();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].permission, "bash");
    assert_eq!(
        pending[0].metadata["command"],
        "rm -rf build && echo removed"
    );
}

#[test]
fn other_events_are_ignored_and_a_request_missing_its_ids_is_an_error() {
    let plugin = r#"{"id":"evt_1","type":"plugin.added","location":{"directory":"/p"},"data":{}}"#;
    assert_eq!(parse_event(plugin).unwrap(), StreamEvent::Other);
    let hello = r#"{"id":"evt_1","type":"server.connected","data":{}}"#;
    assert_eq!(parse_event(hello).unwrap(), StreamEvent::Connected);
    let no_session = r#"{"type":"permission.v2.asked","data":{"id":"per_1","action":"bash",
        "resources":[]}}"#;
    assert!(parse_event(no_session).is_err());
    assert!(parse_event(r#"{"data":{}}"#).is_err());
    assert!(parse_event("<!doctype html>").is_err());
}

#[test]
fn a_v2_shell_action_named_shell_is_judged_from_its_command() {
    let text = r#"{"type":"permission.v2.asked","data":{"id":"per_1","sessionID":"ses_1",
        "action":"shell","resources":["ls"],"metadata":{"command":"ls > out.txt"}}}"#;
    let (_, permission) = asked(text);
    let call = to_call(&permission, Some("/p"));
    assert_eq!(call.kind, Some(ToolKind::Shell));
    assert_eq!(call.shell_line(), Some("ls > out.txt"));
}
