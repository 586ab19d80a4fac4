//! Modes beside the global one (issue 23 sections 2 and 6): a session or an agent given its own
//! mode, routed in it and still capped by the project's `mode_ceiling`, with the audit naming
//! whose mode applied; and the global mode set for a while, going back when the while is over
//! (paused tokio time) unless changed by hand first. The last tests go through the real
//! `gatehouse hook claude` over the console's real socket.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::rig::Rig;
use common::socket_console::SocketConsole;
use common::{call_in, claude_hook, fixture};
use gatehouse::core::barrier::Settings;
use gatehouse::core::call::{Agent, Call};
use gatehouse::core::decision::{Decider, Decision};
use gatehouse::core::event::{Event, TimerState};
use gatehouse::core::mode::Mode;
use gatehouse::core::mode_scope::ModeScope;
use gatehouse::core::prompter::HumanAnswer;
use gatehouse::core::route::Route;
use serde_json::{Value, json};

fn session(name: &str) -> ModeScope {
    ModeScope::Session {
        agent: Agent::new("claude-code"),
        session: name.into(),
    }
}

/// A write in session `name`, made in `cwd` (a real folder: an unplaced call asks in every mode).
fn write_in(name: &str, cwd: &Path) -> Call {
    let mut call = call_in(
        name,
        "Write",
        json!({"file_path": cwd.join("a.txt"), "content": "x"}),
    );
    call.cwd = cwd.display().to_string();
    call
}

/// Submits `call` and, once its dialog opens, answers it with a deny saying `reason`; fails
/// (not hangs) if the call was settled without a dialog.
async fn asked(rig: &mut Rig, call: Call, reason: &str) -> gatehouse::core::barrier::Answer {
    let b = rig.barrier.clone();
    let mut submit = tokio::spawn(async move { b.submit(call).await });
    // Cancellation: whichever comes first wins; a settled call is a failure here.
    let opened = tokio::select! {
        id = rig.opened() => Ok(id),
        answer = &mut submit => Err(answer.unwrap()),
    };
    let id = opened.unwrap_or_else(|answer| panic!("settled without a dialog: {answer:?}"));
    let no = HumanAnswer::Deny {
        reason: reason.into(),
    };
    assert!(rig.prompter.answer(id, no));
    submit.await.unwrap()
}

#[tokio::test]
async fn a_session_given_allow_all_passes_a_write_that_another_given_block_all_asks_about() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    let cwd = tempfile::tempdir().unwrap();
    rig.prompter
        .set_scope_mode(session("open"), Some(Mode::AllowAll));
    rig.prompter
        .set_scope_mode(session("held"), Some(Mode::BlockAll));

    let open = rig.barrier.submit(write_in("open", cwd.path())).await;
    assert_eq!(
        (open.decision, open.decider),
        (Decision::allow(), Decider::Mode)
    );

    let held = asked(&mut rig, write_in("held", cwd.path()), "under review").await;
    assert_eq!(held.route, Route::Ask);
    assert_eq!(held.decision, Decision::deny("under review"));

    // A session with no mode of its own meets the global one: allow-read asks about a write.
    let other = asked(&mut rig, write_in("other", cwd.path()), "no").await;
    assert_eq!(other.route, Route::Ask);

    let audit = rig.audit();
    assert_eq!(audit[0]["mode"], "allow-all");
    assert_eq!(audit[0]["mode_of"], "session");
    assert_eq!(audit[1]["mode"], "block-all");
    assert_eq!(audit[1]["mode_of"], "session");
    assert_eq!(audit[2]["mode"], "allow-read");
    assert!(
        audit[2].get("mode_of").is_none(),
        "the global mode: {}",
        audit[2]
    );
}

#[tokio::test]
async fn a_session_that_ends_loses_its_own_mode_and_its_agent_keeps_its() {
    let rig = Rig::new(Mode::AllowRead, None);
    let agent = ModeScope::Agent(Agent::new("claude-code"));
    rig.prompter
        .set_scope_mode(session("done"), Some(Mode::AllowAll));
    rig.prompter
        .set_scope_mode(agent.clone(), Some(Mode::BlockAll));
    let mut end = call_in("done", "Bash", json!({}));
    end.stage = gatehouse::core::call::Stage::SessionEnd;
    rig.barrier.submit(end).await;
    let modes = rig.prompter.scope_modes();
    assert_eq!(modes.get(&session("done")), None);
    assert_eq!(modes.get(&agent), Some(Mode::BlockAll));
}

#[tokio::test]
async fn an_agent_mode_applies_to_its_sessions_and_a_session_mode_comes_before_it() {
    let rig = Rig::new(Mode::AllowRead, None);
    let cwd = tempfile::tempdir().unwrap();
    let agent = ModeScope::Agent(Agent::new("claude-code"));
    rig.prompter.set_scope_mode(agent, Some(Mode::Plan));
    let planned = rig.barrier.submit(write_in("any", cwd.path())).await;
    assert!(matches!(&planned.decision, Decision::Deny { reason } if reason.contains("plan")));
    rig.prompter
        .set_scope_mode(session("mine"), Some(Mode::AllowAll));
    let mine = rig.barrier.submit(write_in("mine", cwd.path())).await;
    assert_eq!(mine.decision, Decision::allow());
    let audit = rig.audit();
    assert_eq!(
        (&audit[0]["mode"], &audit[0]["mode_of"]),
        (&json!("plan"), &json!("agent"))
    );
    assert_eq!(audit[1]["mode_of"], "session");
}

#[tokio::test]
async fn giving_a_session_a_mode_reroutes_its_open_dialogs_and_no_other_sessions() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    let cwd = tempfile::tempdir().unwrap();
    let (b1, b2) = (rig.barrier.clone(), rig.barrier.clone());
    let (mine, theirs) = (write_in("mine", cwd.path()), write_in("theirs", cwd.path()));
    let mine = tokio::spawn(async move { b1.submit(mine).await });
    rig.opened().await;
    let theirs = tokio::spawn(async move { b2.submit(theirs).await });
    let their_id = rig.opened().await;
    let settled = rig
        .prompter
        .set_scope_mode(session("mine"), Some(Mode::AllowAll));
    assert_eq!(settled, 1, "only the open dialog of that session");
    let mine = mine.await.unwrap();
    assert_eq!(
        (mine.decision, mine.decider),
        (Decision::allow(), Decider::Mode)
    );
    assert!(!theirs.is_finished());
    assert_eq!(rig.prompter.open_dialogs().len(), 1);
    assert_eq!(rig.prompter.open_dialogs()[0].id, their_id);
    // Back to the global mode: a new write of that session asks again.
    rig.prompter.set_scope_mode(session("mine"), None);
    assert!(rig.prompter.scope_modes().is_empty());
    rig.barrier.shutdown();
    theirs.await.unwrap();
}

#[tokio::test]
async fn a_session_given_allow_all_still_asks_about_tampering_with_gatehouse() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    rig.prompter
        .set_scope_mode(session("s1"), Some(Mode::AllowAll));
    let tamper = common::call("Bash", json!({"command": "gatehouse rules trust ."}));
    assert_eq!(asked(&mut rig, tamper, "no").await.route, Route::Ask);
}

#[tokio::test(start_paused = true)]
async fn a_mode_set_for_a_while_goes_back_when_it_is_over_and_the_audit_says_both() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    rig.prompter
        .set_mode_for(Mode::BlockAll, Duration::from_secs(30 * 60));
    assert_eq!(rig.prompter.mode(), Mode::BlockAll);
    let timer = rig.prompter.mode_timer().expect("a timer runs");
    assert_eq!(
        (timer.mode, timer.back_to),
        (Mode::BlockAll, Mode::AllowRead)
    );
    tokio::time::sleep(Duration::from_secs(29 * 60)).await;
    assert_eq!(rig.prompter.mode(), Mode::BlockAll, "not over yet");
    tokio::time::sleep(Duration::from_secs(61)).await;
    let returned = loop {
        if let Some(Event::ModeTimer(TimerState::Returned(mode))) = rig.prompter.next_event().await
        {
            break mode;
        }
    };
    assert_eq!(returned, Mode::AllowRead);
    assert_eq!(rig.prompter.mode(), Mode::AllowRead);
    assert!(rig.prompter.mode_timer().is_none());
    let audit = rig.audit();
    let changes: Vec<_> = audit
        .iter()
        .map(|r| {
            (
                r["mode_change"].clone(),
                r["mode"].clone(),
                r["from"].clone(),
            )
        })
        .collect();
    assert_eq!(
        changes,
        [
            (json!("timed"), json!("block-all"), json!("allow-read")),
            (json!("returned"), json!("allow-read"), json!("block-all")),
        ]
    );
    assert_eq!(audit[0]["for_secs"], 1800);
    assert!(audit.iter().all(|r| r.get("id").is_none()), "not decisions");
}

#[tokio::test(start_paused = true)]
async fn changing_the_mode_by_hand_ends_the_while_and_nothing_goes_back_later() {
    let rig = Rig::new(Mode::AllowRead, None);
    rig.prompter
        .set_mode_for(Mode::Auto, Duration::from_secs(15 * 60));
    rig.prompter.set_mode(Mode::BlockAll);
    assert!(rig.prompter.mode_timer().is_none());
    tokio::time::sleep(Duration::from_secs(60 * 60)).await;
    assert_eq!(rig.prompter.mode(), Mode::BlockAll, "the hand's mode stays");
    let ends: Vec<_> = rig
        .audit()
        .iter()
        .map(|r| r["mode_change"].clone())
        .collect();
    assert_eq!(ends, [json!("timed"), json!("ended")]);
}

#[tokio::test(start_paused = true)]
async fn a_while_of_allow_all_and_a_session_given_it_are_still_capped_by_the_floor() {
    use gatehouse::core::policy::file::parse_file;
    use gatehouse::core::policy::load::Policy;
    use gatehouse::core::policy::{Layer, Trust};
    use gatehouse::core::rules::Rules;
    let floor = parse_file(
        "mode_ceiling = \"allow-read\"\n",
        Path::new("/etc/gatehouse/policy.toml"),
        Layer::Floor,
        Trust::Own,
        &[],
    )
    .unwrap();
    let settings = Settings {
        mode: Mode::AllowRead,
        rules: Rules {
            policy: std::sync::Arc::new(Policy::of_files(Some(floor), None)),
            ..Rules::default()
        },
        ..Settings::default()
    };
    let mut rig = Rig::with(settings, None);
    let cwd = tempfile::tempdir().unwrap();
    rig.prompter
        .set_mode_for(Mode::AllowAll, Duration::from_secs(15 * 60));
    rig.prompter
        .set_scope_mode(session("s2"), Some(Mode::AllowAll));
    for name in ["s1", "s2"] {
        let b = rig.barrier.clone();
        let write = write_in(name, cwd.path());
        let mut asked = tokio::spawn(async move { b.submit(write).await });
        // Cancellation: a call settled before any dialog opened fails the test at once.
        let id = tokio::select! {
            id = rig.opened() => id,
            settled = &mut asked => panic!("{name}: settled without a dialog: {settled:?}"),
        };
        assert!(rig.prompter.answer(
            id,
            HumanAnswer::Deny {
                reason: "no".into()
            }
        ));
        assert_eq!(asked.await.unwrap().route, Route::Ask, "{name}");
    }
}

/// A console on a real socket in allow-read.
fn console() -> SocketConsole {
    SocketConsole::start(Settings {
        mode: Mode::AllowRead,
        ..Settings::default()
    })
}

/// Runs the real Claude hook for `rm -rf build` in `session`, made in `cwd`; `answer`
/// answers the dialog if one opens. Returns the hook's decision and reason.
async fn rm(
    console: &mut SocketConsole,
    session: &str,
    cwd: &Path,
    answer: Option<HumanAnswer>,
) -> (String, String) {
    let mut payload: Value =
        serde_json::from_slice(&fixture("claude-code/pretooluse-bash.json")).unwrap();
    payload["session_id"] = json!(session);
    payload["cwd"] = json!(cwd.display().to_string());
    let hook = claude_hook(&console.socket, &payload);
    let mut done = tokio::task::spawn_blocking(move || hook.wait_with_output().unwrap());
    if let Some(answer) = answer {
        let opened = async { console.opened().await.id };
        // Cancellation: a hook answered before any dialog opened fails the test.
        let id = tokio::select! {
            id = opened => id,
            out = &mut done => panic!("answered without a dialog: {:?}", out.unwrap()),
        };
        assert!(console.prompter.answer(id, answer));
    } else {
        // Settled without a dialog: take its event, so the next dialog is the next event.
        while !matches!(
            console.prompter.next_event().await,
            Some(gatehouse::core::event::Event::Passed(_))
        ) {}
    }
    let out = done.await.unwrap();
    assert!(out.status.success());
    let out: Value = serde_json::from_slice(&out.stdout).unwrap();
    let specific = &out["hookSpecificOutput"];
    (
        specific["permissionDecision"].as_str().unwrap_or("").into(),
        specific["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .into(),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn through_the_real_hook_one_session_in_allow_all_runs_a_write_another_in_block_all_is_refused()
 {
    let mut console = console();
    let cwd = tempfile::tempdir().unwrap();
    console
        .prompter
        .set_scope_mode(session("sandboxed"), Some(Mode::AllowAll));
    console
        .prompter
        .set_scope_mode(session("reviewed"), Some(Mode::BlockAll));
    let (decision, _) = rm(&mut console, "sandboxed", cwd.path(), None).await;
    assert_eq!(decision, "allow");
    let no = HumanAnswer::Deny {
        reason: "not in review".into(),
    };
    let (decision, reason) = rm(&mut console, "reviewed", cwd.path(), Some(no)).await;
    assert_eq!(
        (decision.as_str(), reason.as_str()),
        ("deny", "not in review")
    );
    let audit = console.audit();
    let whose: Vec<_> = audit
        .iter()
        .map(|r| {
            (
                r["session"].clone(),
                r["mode"].clone(),
                r["decision"].clone(),
            )
        })
        .collect();
    assert_eq!(
        whose,
        [
            (json!("sandboxed"), json!("allow-all"), json!("allow")),
            (json!("reviewed"), json!("block-all"), json!("deny")),
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn through_the_real_hook_a_projects_mode_ceiling_caps_a_session_given_allow_all() {
    let mut console = console();
    let repo = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("git")
        .args(["init", "-q"])
        .arg(repo.path())
        .status()
        .expect("git runs");
    assert!(status.success());
    std::fs::write(
        repo.path().join(".gatehouse.toml"),
        "mode_ceiling = \"allow-read\"\n",
    )
    .unwrap();
    console
        .prompter
        .set_scope_mode(session("sandboxed"), Some(Mode::AllowAll));
    let no = HumanAnswer::Deny {
        reason: "capped".into(),
    };
    let (decision, reason) = rm(&mut console, "sandboxed", repo.path(), Some(no)).await;
    assert_eq!((decision.as_str(), reason.as_str()), ("deny", "capped"));
    let outside = tempfile::tempdir().unwrap();
    let (decision, _) = rm(&mut console, "sandboxed", outside.path(), None).await;
    assert_eq!(
        decision, "allow",
        "outside the project the session's allow-all passes"
    );
    let audit = console.audit();
    assert_eq!(audit[0]["route"], "ask");
    assert_eq!(audit[0]["mode"], "allow-all");
    assert_eq!(audit[0]["mode_of"], "session");
}
