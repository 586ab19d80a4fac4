//! `gatehouse acp`, the real binary, between a scripted ACP editor (the crate's client side,
//! `common::acp`) and a scripted ACP agent (`tests/fixtures/acp/scripted_agent.py`, which asks
//! one permission per prompt with the tool call and options the prompt names and reports the
//! answer it got): what the agent is answered per console, rule and option, and that nothing
//! but a console's allow or a proven read ever selects an allow.

use std::io::{BufRead, BufReader};
use std::path::Path;

use serde_json::{Value, json};

use crate::common::acp::{self, EditorAnswer, Turn};
use crate::common::e2e::{GATEHOUSE, ScriptedConsole};
use crate::common::place::Place;

fn agent_script() -> String {
    format!(
        "{}/tests/fixtures/acp/scripted_agent.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn all_options() -> Value {
    json!([
        {"optionId": "always", "name": "Always allow", "kind": "allow_always"},
        {"optionId": "once", "name": "Allow", "kind": "allow_once"},
        {"optionId": "no", "name": "Reject", "kind": "reject_once"},
    ])
}

fn shell(command: &str, options: Value) -> String {
    json!({"toolCall": {"toolCallId": format!("t-{command}"), "title": command,
        "kind": "execute", "rawInput": {"command": command}}, "options": options})
    .to_string()
}

/// Runs the prompts through `gatehouse acp -- python3 scripted_agent.py` of `place`.
fn turns(place: &Place, prompts: &[String], answer: EditorAnswer) -> Vec<Turn> {
    turns_cancelling(place, prompts, answer, None)
}

/// [`turns`], the editor cancelling its turn when `cancel` fires.
fn turns_cancelling(
    place: &Place,
    prompts: &[String],
    answer: EditorAnswer,
    cancel: Option<tokio::sync::oneshot::Receiver<()>>,
) -> Vec<Turn> {
    let args: Vec<String> = [
        "acp",
        "--config",
        place.config().to_str().unwrap(),
        "--socket",
        place.socket().to_str().unwrap(),
        "--",
        "python3",
        &agent_script(),
    ]
    .map(String::from)
    .to_vec();
    acp::run(GATEHOUSE, &args, &[], place.path(), prompts, answer, cancel)
}

/// The option the agent was answered with in `turn`: an id, `cancelled`, or the error.
fn outcome(turn: &Turn) -> String {
    let text = turn.text.split("OUTCOME ").nth(1).unwrap_or("null");
    let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    match value["outcome"]["outcome"].as_str() {
        Some("selected") => value["outcome"]["optionId"].as_str().unwrap().to_string(),
        Some(other) => other.to_string(),
        None => format!("no outcome in {turn:?}"),
    }
}

#[test]
fn serve_allows_a_read_once_and_rejects_a_writer_once_without_the_editor() {
    let place = Place::new("").without_api_keys();
    let serve = place.serve(&["--on-ask", "deny"]);
    let got = turns(
        &place,
        &[
            shell("ls -la", all_options()),
            shell("rm -rf build", all_options()),
        ],
        EditorAnswer::Cancel,
    );
    assert_eq!(outcome(&got[0]), "once", "{got:?}");
    assert_eq!(outcome(&got[1]), "no", "{got:?}");
    assert!(got.iter().all(|t| t.asked.is_empty()), "{got:?}");
    assert!(
        got.iter().all(|t| t.text.starts_with("asking")),
        "updates pass: {got:?}"
    );
    let (_, log) = serve.stop();
    let audit = place.audit();
    let agents: Vec<&str> = audit.iter().filter_map(|r| r["agent"].as_str()).collect();
    assert_eq!(agents, ["acp-agent", "acp-agent"], "{log}");
    assert_eq!(audit[1]["subject"], "rm -rf build");
    assert_eq!(audit[1]["session"], "scripted-1");
}

#[test]
fn without_a_console_a_read_passes_a_denied_command_is_rejected_and_the_rest_asks_the_editor() {
    let place = Place::new("denied_commands = [\"git push\"]").without_api_keys();
    let got = turns(
        &place,
        &[
            shell("cat notes.txt", all_options()),
            shell("git push -f", all_options()),
            shell("touch made.txt", all_options()),
        ],
        EditorAnswer::Choose("no".into()),
    );
    assert_eq!(outcome(&got[0]), "once", "{got:?}");
    assert_eq!(outcome(&got[1]), "no", "{got:?}");
    assert!(
        got[0].asked.is_empty() && got[1].asked.is_empty(),
        "{got:?}"
    );
    // The editor got the request as the agent sent it, and its answer went back.
    assert_eq!(got[2].asked.len(), 1, "{got:?}");
    assert_eq!(got[2].asked[0]["rawInput"]["command"], "touch made.txt");
    assert_eq!(outcome(&got[2]), "no", "{got:?}");
}

#[test]
fn an_allow_the_agent_offers_no_allow_once_for_goes_to_the_editor_and_a_deny_without_reject_once_cancels()
 {
    let place = Place::new("denied_commands = [\"git push\"]").without_api_keys();
    let lasting = json!([
        {"optionId": "always", "name": "Always allow", "kind": "allow_always"},
        {"optionId": "never", "name": "Never", "kind": "reject_always"},
    ]);
    let got = turns(
        &place,
        &[shell("ls", lasting.clone()), shell("git push", lasting)],
        EditorAnswer::Choose("never".into()),
    );
    assert_eq!(got[0].asked.len(), 1, "{got:?}");
    assert_eq!(
        outcome(&got[0]),
        "never",
        "the editor's own answer: {got:?}"
    );
    assert!(got[1].asked.is_empty(), "{got:?}");
    assert_eq!(outcome(&got[1]), "cancelled", "{got:?}");
}

#[test]
fn a_malformed_permission_request_goes_to_the_editor_unchanged_and_its_answer_back() {
    let place = Place::new("").without_api_keys();
    let bad = json!({"toolCall": {"toolCallId": "t", "kind": "execute",
        "rawInput": {"command": "ls"}}, "options": [{"optionId": "x", "kind": "allow_forever"}]});
    let got = turns(&place, &[bad.to_string()], EditorAnswer::Cancel);
    // The scripted editor's typed side refuses it as it came (the unknown option kind quoted
    // back), and the agent gets that refusal, no option.
    let text = &got[0].text;
    assert!(
        text.contains("-32602") && text.contains("allow_forever"),
        "{got:?}"
    );
    assert!(!text.contains("selected"), "{got:?}");
}

/// A console that takes each call and dies before answering (its connection closes).
fn dying_console(place: &Place) -> std::thread::JoinHandle<usize> {
    let listener = place.fake_console();
    std::thread::spawn(move || {
        let mut taken = 0;
        while let Ok((stream, _)) = listener.accept() {
            let mut line = String::new();
            let _ = BufReader::new(&stream).read_line(&mut line);
            if line.contains("\"stop\"") {
                break;
            }
            taken += 1;
            drop(stream);
        }
        taken
    })
}

#[test]
fn a_console_lost_mid_request_is_never_an_allow() {
    let place = Place::new("denied_commands = [\"git push\"]").without_api_keys();
    let console = dying_console(&place);
    let got = turns(
        &place,
        &[
            shell("ls", all_options()),
            shell("touch made.txt", all_options()),
            shell("git push", all_options()),
        ],
        EditorAnswer::Cancel,
    );
    // Even a read it could prove: the console may have been asking a human about it.
    assert_eq!(got[0].asked.len(), 1, "{got:?}");
    assert_eq!(outcome(&got[0]), "cancelled", "{got:?}");
    assert_eq!(got[1].asked.len(), 1, "{got:?}");
    assert_eq!(outcome(&got[1]), "cancelled", "{got:?}");
    assert!(got[2].asked.is_empty(), "a deny stays a deny: {got:?}");
    assert_eq!(outcome(&got[2]), "no", "{got:?}");
    stop(&place.socket());
    assert_eq!(console.join().unwrap(), 3);
}

#[test]
fn the_editor_cancelling_its_turn_answers_a_question_open_at_the_console_cancelled() {
    let place = Place::new("").without_api_keys();
    let listener = place.fake_console();
    let (asked, cancel) = tokio::sync::oneshot::channel();
    // A console that takes the call and sits on it; the editor cancels once it has it.
    let console = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut line = String::new();
        BufReader::new(&stream).read_line(&mut line).unwrap();
        let _ = asked.send(());
        let mut rest = String::new();
        let _ = BufReader::new(&stream).read_line(&mut rest);
        line
    });
    let got = turns_cancelling(
        &place,
        &[shell("touch made.txt", all_options())],
        EditorAnswer::Choose("once".into()),
        Some(cancel),
    );
    assert_eq!(outcome(&got[0]), "cancelled", "{got:?}");
    assert!(got[0].asked.is_empty(), "{got:?}");
    assert!(console.join().unwrap().contains("touch made.txt"));
}

fn stop(socket: &Path) {
    use std::io::Write;
    let mut stream = std::os::unix::net::UnixStream::connect(socket).unwrap();
    stream.write_all(b"{\"stop\":1}\n").unwrap();
}

#[test]
fn a_human_answers_in_a_dialog_that_offers_no_note_and_no_reason_for_the_model() {
    use gatehouse::core::barrier::HumanAnswer;
    let place = Place::new("").without_api_keys();
    let (caps_tx, caps_rx) = std::sync::mpsc::channel();
    let console = ScriptedConsole::answering(place.path(), move |call| {
        let _ = caps_tx.send(call.caps);
        if call.subject().starts_with("touch") {
            HumanAnswer::Allow { note: None }
        } else {
            HumanAnswer::Deny {
                reason: String::new(),
            }
        }
    });
    let got = turns(
        &place,
        &[
            shell("touch made.txt", all_options()),
            shell("rm -rf build", all_options()),
        ],
        EditorAnswer::Cancel,
    );
    assert_eq!(console.dialogs(), 2);
    drop(console);
    assert_eq!(outcome(&got[0]), "once", "{got:?}");
    assert_eq!(outcome(&got[1]), "no", "{got:?}");
    assert!(got.iter().all(|t| t.asked.is_empty()), "{got:?}");
    for _ in 0..2 {
        let caps = caps_rx.try_recv().expect("two dialogs opened");
        assert_eq!(caps, gatehouse::acp::permission::CAPS);
        assert!(!caps.reason);
        assert_eq!(caps.note, gatehouse::core::caps::NoteEffect::None);
    }
}

#[test]
fn an_agent_command_that_cannot_run_is_said_plainly_and_nothing_reaches_the_editor() {
    let place = Place::new("").without_api_keys();
    let plain = place.path().join("notes.txt");
    std::fs::write(&plain, "not a program").unwrap();
    for (program, why) in [
        ("/nonexistent/agent", "No such file"),
        ("gatehouse-no-such-agent", "no such program on PATH"),
        (plain.to_str().unwrap(), "not an executable file"),
    ] {
        let out = place
            .command(&["acp", "--", program, "--acp"])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(out.stdout.is_empty(), "the editor's stream stays clean");
        assert!(stderr.contains(program) && stderr.contains(why), "{stderr}");
        assert!(stderr.contains("after `--`"), "{stderr}");
    }
}
