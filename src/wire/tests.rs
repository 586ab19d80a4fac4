use super::*;
use crate::core::call::{Agent, Stage, ToolKind};
use serde_json::json;

fn call() -> Call {
    Call {
        agent: Agent::new("claude-code"),
        session: "s".into(),
        cwd: "/p".into(),
        tool: "Read".into(),
        kind: Some(ToolKind::Read),
        subagent: None,
        input: json!({"file_path": "/p/x"}),
        tool_use_id: Some("t".into()),
        stage: Default::default(),
        caps: Default::default(),
        transcript_path: None,
        path_key: None,
        remote: None,
        hook_timeout_secs: None,
    }
}

#[test]
fn a_request_line_round_trips_to_the_same_call() {
    let line = request_line(&call());
    assert_eq!(line.last(), Some(&b'\n'));
    let parsed = parse_request(&line[..line.len() - 1]).unwrap();
    assert_eq!(parsed, Request::Call(call()));
    assert_eq!(Request::Call(call()).to_line(), line);
}

#[test]
fn a_stage_travels_and_an_older_hook_names_it_by_its_event() {
    let mut after = call();
    after.stage = Stage::AfterTool;
    let line = request_line(&after);
    assert_eq!(
        parse_request(&line[..line.len() - 1]),
        Ok(Request::Call(after))
    );
    for (event, stage) in [
        ("after-tool", Stage::AfterTool),
        ("permission-request-first", Stage::PermissionFirst),
        ("pre-tool-use", Stage::Question),
    ] {
        let line = json!({"v": 1, "call": {"agent": "qwen-code", "tool": "x", "event": event}});
        let Ok(Request::Call(call)) = parse_request(line.to_string().as_bytes()) else {
            panic!("{line} is a call");
        };
        assert_eq!(call.stage, stage, "{event}");
    }
}

#[test]
fn a_line_names_exactly_one_request() {
    assert_eq!(parse_request(br#"{"v":1,"pair":{}}"#), Ok(Request::Pair));
    let both = br#"{"v":1,"attach":{"agent":"opencode","url":"u"},"detach":{"agent":"opencode","url":"u"}}"#;
    assert_eq!(parse_request(both), Err(ProtocolError::Ambiguous));
    let call_and_pair = br#"{"v":1,"call":{"agent":"a","tool":"t"},"pair":{}}"#;
    assert_eq!(parse_request(call_and_pair), Err(ProtocolError::Ambiguous));
    assert!(matches!(
        parse_request(br#"{"v":1,"attach":{"url":"u"}}"#),
        Err(ProtocolError::BadControl("attach", _))
    ));
    // A line naming nothing is a call that is missing, as a hook's line would be.
    assert!(matches!(
        parse_request(br#"{"v":1}"#),
        Err(ProtocolError::BadCall(_))
    ));
}

#[test]
fn bad_requests_get_an_error_naming_what_is_wrong() {
    assert_eq!(parse_request(b"\xff\xfe"), Err(ProtocolError::NotUtf8));
    assert!(matches!(
        parse_request(b"{not json"),
        Err(ProtocolError::BadJson(_))
    ));
    assert!(matches!(
        parse_request(b"[1]"),
        Err(ProtocolError::BadJson(_))
    ));
    assert_eq!(
        parse_request(br#"{"call":{}}"#),
        Err(ProtocolError::NoVersion)
    );
    assert_eq!(
        parse_request(br#"{"v":2,"call":{}}"#),
        Err(ProtocolError::UnknownVersion("2".into()))
    );
    assert!(matches!(
        parse_request(br#"{"v":1,"call":{"agent":"claude-code"}}"#),
        Err(ProtocolError::BadCall(_))
    ));
    assert_eq!(parse_request(b"  "), Err(ProtocolError::Empty));
    let long = vec![b' '; MAX_LINE + 1];
    assert_eq!(parse_request(&long), Err(ProtocolError::TooLong(MAX_LINE)));
}

#[test]
fn responses_carry_reason_or_note_in_the_wire_shape() {
    let deny = Response::decided(&Decision::deny("no"), Some(Decider::Human));
    assert_eq!(
        serde_json::to_value(&deny).unwrap(),
        json!({"v":1,"decision":"deny","reason":"no","decider":"human"})
    );
    let allow = Response::decided(
        &Decision::Allow {
            note: Some("careful".into()),
            input: None,
        },
        Some(Decider::Rule),
    );
    assert_eq!(
        serde_json::to_value(&allow).unwrap(),
        json!({"v":1,"decision":"allow","note":"careful","decider":"rule"})
    );
    assert_eq!(
        serde_json::to_value(Response::error("bad")).unwrap(),
        json!({"v":1,"error":"bad"})
    );
}

#[test]
fn a_client_reads_every_decision_back_and_never_allows_what_it_cannot_read() {
    for decision in [
        Decision::allow(),
        Decision::Allow {
            note: Some("n".into()),
            input: None,
        },
        Decision::deny("r"),
        Decision::defer("d"),
    ] {
        let line = Response::decided(&decision, None).to_line();
        let back: Response = serde_json::from_slice(&line).unwrap();
        assert_eq!(back.decision(), decision);
    }
    let odd = [
        json!({"v":1,"error":"bad"}),
        json!({"v":2,"decision":"allow"}),
        json!({"v":1,"decision":"yes"}),
        json!({"v":1}),
    ];
    for value in odd {
        let response: Response = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(response.decision().name(), "defer", "{value}");
    }
    let bare_deny: Response = serde_json::from_value(json!({"v":1,"decision":"deny"})).unwrap();
    assert_eq!(bare_deny.decision(), Decision::deny("denied by gatehouse"));
}

#[test]
fn an_answer_round_trips_typed_and_an_unknown_decider_is_no_decider() {
    for answer in [
        Answer::Decided {
            decision: Decision::deny("no"),
            decider: Some(Decider::Human),
        },
        Answer::Decided {
            decision: Decision::Allow {
                note: Some("careful".into()),
                input: None,
            },
            decider: None,
        },
        Answer::Refused("too long".into()),
    ] {
        let line = answer.to_line();
        assert_eq!(Answer::from_line(&line[..line.len() - 1]).unwrap(), answer);
    }
    let newer = br#"{"v":1,"decision":"allow","decider":"oracle"}"#;
    assert_eq!(
        Answer::from_line(newer).unwrap(),
        Answer::Decided {
            decision: Decision::allow(),
            decider: None
        }
    );
    let refused = Answer::from_line(br#"{"v":1,"error":"bad"}"#).unwrap();
    assert_eq!(refused.decision().name(), "defer");
    let other_version = Answer::from_line(br#"{"v":2,"decision":"allow"}"#).unwrap();
    assert_eq!(other_version.decision().name(), "defer");
    assert!(Answer::from_line(b"not json").is_err());
}

#[test]
fn a_call_from_an_older_hook_leaves_its_kind_to_the_server() {
    let line = br#"{"v":1,"call":{"agent":"claude-code","tool":"Read","input":{}}}"#;
    let Ok(Request::Call(call)) = parse_request(line) else {
        panic!("a call");
    };
    assert_eq!(call.kind, None);
}

#[test]
fn a_remote_call_carries_its_host_and_project_files_and_an_older_line_has_neither() {
    use crate::core::origin::{Carried, Content, Remote};
    let mut remote = call();
    remote.remote = Some(Remote {
        host: "build-box".into(),
        projects: vec![Carried {
            path: "/srv/p/.gatehouse.toml".into(),
            content: Content::Unreadable("permission denied".into()),
        }],
    });
    let line = request_line(&remote);
    let text = String::from_utf8_lossy(&line);
    assert!(
        text.contains(r#""remote":{"host":"build-box","projects":[{"path":"/srv/p/.gatehouse.toml","content":{"unreadable":"permission denied"}}]}"#),
        "{text}"
    );
    assert_eq!(
        parse_request(&line[..line.len() - 1]),
        Ok(Request::Call(remote))
    );
    let local = request_line(&call());
    assert!(!String::from_utf8_lossy(&local).contains("remote"));
    let mut spoof = call();
    spoof.remote = Some(Remote {
        host: "a › Claude Code".into(),
        projects: Vec::new(),
    });
    let line = request_line(&spoof);
    let refused = parse_request(&line[..line.len() - 1]).unwrap_err();
    assert!(matches!(refused, ProtocolError::BadCall(_)), "{refused}");
}

#[test]
fn an_edited_allow_travels_under_its_own_word_and_never_arrives_without_its_input() {
    let edited = Decision::Allow {
        note: None,
        input: Some(serde_json::json!({"command": "ls"})),
    };
    let response = Response::decided(&edited, Some(Decider::Human));
    assert_eq!(response.decision.as_deref(), Some(ALLOW_EDITED));
    let line: Response = serde_json::from_slice(&response.to_line()).unwrap();
    assert_eq!(line.decision(), edited);
    // Its input lost on the way: refused, not an allow of the original.
    let bare = Response {
        input: None,
        ..line
    };
    assert!(matches!(bare.decision(), Decision::Deny { .. }));
}
