//! Attaching to a server that speaks OpenCode 2.x's permission API (`fake_v2.rs`): the API is
//! found at attach, a read is allowed without a dialog, a writer listed before the attach opens
//! one and its answer reaches the 2.x reply route of its session, a deny's reason is sent as
//! the reject's message, and with a password every call signs in. No reply ever goes to a 1.x
//! route, which 2.x answers with its web app.

use gatehouse::agents::opencode::api::Api;
use gatehouse::agents::opencode::attach::Link;
use gatehouse::agents::opencode::client::{Auth, Server};
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::HumanAnswer;
use serde_json::{Value, json};

use super::fake_v2::FakeV2;
use super::{PROJECT, console};

fn request(id: &str, action: &str, resources: &[&str], metadata: Value) -> Value {
    json!({
        "id": id,
        "sessionID": "ses_v2",
        "action": action,
        "resources": resources,
        "save": ["*"],
        "metadata": metadata,
        "source": {"type": "tool", "messageID": "msg_1", "callID": "call_7"},
    })
}

fn shell(id: &str, command: &str) -> Value {
    request(id, "bash", &[command], json!({ "command": command }))
}

fn server(fake: &FakeV2) -> Server {
    Server {
        url: fake.url.clone(),
        auth: None,
    }
}

/// No request went to a 1.x reply route.
fn no_1x_reply(fake: &FakeV2) {
    let requests = fake.requests();
    assert!(
        !requests.iter().any(|r| r.starts_with("POST /permission")),
        "{requests:?}"
    );
}

#[tokio::test]
async fn a_2x_server_is_found_and_a_read_only_line_is_allowed_through_its_session_route() {
    let fake = FakeV2::start(PROJECT, None).await;
    let console = console(Mode::AllowRead);
    console.attachments.attach(server(&fake)).unwrap();
    let link = console.link(|l| matches!(l, Link::Attached(_))).await;
    assert_eq!(link, Link::Attached(Api::V2));
    assert!(console.attachments.status().unwrap().contains("2.x API"));
    fake.ask(shell("per_r1", "cat README.md | head -n 3"));
    fake.until("the allow", |f| !f.replies().is_empty()).await;
    let reply = &fake.replies()[0];
    assert_eq!(
        (reply.session.as_str(), reply.id.as_str()),
        ("ses_v2", "per_r1")
    );
    assert_eq!(reply.body, json!({"reply": "once"}));
    assert!(console.prompter.open_dialogs().is_empty());
    no_1x_reply(&fake);
}

#[tokio::test]
async fn a_writer_listed_before_the_attach_opens_a_dialog_and_the_allow_reaches_its_session() {
    let fake = FakeV2::start(PROJECT, None).await;
    fake.pend(shell("per_w1", "rm -rf build && echo removed"));
    let mut console = console(Mode::AllowRead);
    console.attachments.attach(server(&fake)).unwrap();
    let (id, call) = console.opened().await;
    assert_eq!(call.agent.as_str(), "opencode");
    assert_eq!(call.shell_line(), Some("rm -rf build && echo removed"));
    assert_eq!(call.cwd, PROJECT);
    assert_eq!(call.tool_use_id.as_deref(), Some("call_7"));
    assert!(fake.replies().is_empty(), "answered before the human did");
    assert!(
        console
            .prompter
            .answer(id, HumanAnswer::Allow { note: None })
    );
    fake.until("the allow", |f| !f.replies().is_empty()).await;
    let reply = &fake.replies()[0];
    assert_eq!(
        (reply.session.as_str(), reply.id.as_str()),
        ("ses_v2", "per_w1")
    );
    assert_eq!(reply.body, json!({"reply": "once"}));
    no_1x_reply(&fake);
}

#[tokio::test]
async fn an_edit_on_the_stream_denied_with_a_reason_sends_the_reason_as_the_message() {
    let fake = FakeV2::start(PROJECT, None).await;
    let mut console = console(Mode::AllowRead);
    console.attachments.attach(server(&fake)).unwrap();
    console.link(|l| matches!(l, Link::Attached(_))).await;
    let metadata = json!({"filepath": format!("{PROJECT}/config.txt"), "diff": "-a\n+b\n"});
    fake.ask(request("per_e1", "edit", &["config.txt"], metadata));
    let (id, call) = console.opened().await;
    assert_eq!(call.input["file_path"], format!("{PROJECT}/config.txt"));
    assert!(console.prompter.answer(
        id,
        HumanAnswer::Deny {
            reason: "config.txt is generated".into()
        }
    ));
    fake.until("the reject", |f| !f.replies().is_empty()).await;
    assert_eq!(
        fake.replies()[0].body,
        json!({"reply": "reject", "message": "config.txt is generated"})
    );
    no_1x_reply(&fake);
}

#[tokio::test]
async fn with_a_password_every_2x_call_signs_in_and_a_wrong_one_never_attaches() {
    let fake = FakeV2::start(PROJECT, Some("s3cret")).await;
    let console = console(Mode::AllowRead);
    let auth = |password: &str| Server {
        url: fake.url.clone(),
        auth: Some(Auth {
            username: "opencode".into(),
            password: password.into(),
        }),
    };
    console.attachments.attach(auth("wrong")).unwrap();
    let Link::Down { why, .. } = console.link(|l| matches!(l, Link::Down { .. })).await else {
        unreachable!()
    };
    assert!(why.contains("401"), "{why}");
    console.attachments.detach(&fake.url);

    let console = super::console(Mode::AllowRead);
    console.attachments.attach(auth("s3cret")).unwrap();
    console.link(|l| *l == Link::Attached(Api::V2)).await;
    fake.ask(shell("per_a1", "ls"));
    fake.until("the allow", |f| !f.replies().is_empty()).await;
    assert_eq!(fake.replies()[0].body, json!({"reply": "once"}));
}
