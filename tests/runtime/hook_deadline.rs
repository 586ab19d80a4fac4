//! A call's deadline is the earlier of the console's ask timeout and its agent's hook timeout
//! less a margin: the hook `gatehouse install` writes says how long the agent waits for it
//! (`--timeout`), its calls carry it, and the barrier answers before the agent would kill the
//! hook (Copilot CLI lets a call run when its hook is killed). Paused tokio time measures it.

use crate::common;

use std::time::Duration;

use common::rig::{Rig, write_call};
use common::socket_console::SocketConsole;
use gatehouse::core::barrier::Settings;
use gatehouse::core::call::HOOK_MARGIN;
use gatehouse::core::decision::{Decider, Decision};
use gatehouse::core::prompter::HumanAnswer;

fn settings() -> Settings {
    Settings {
        ask_timeout: Duration::from_secs(540),
        ..Settings::default()
    }
}

#[tokio::test(start_paused = true)]
async fn a_call_whose_agent_kills_its_hook_sooner_times_out_before_the_agent_does() {
    let rig = Rig::with(settings(), None);
    let mut call = write_call();
    call.hook_timeout_secs = Some(30);
    let start = tokio::time::Instant::now();
    let answer = rig.barrier.submit(call).await;
    assert_eq!(start.elapsed(), Duration::from_secs(30) - HOOK_MARGIN);
    assert_eq!(answer.decider, Decider::Timeout);
    match answer.decision {
        Decision::Deny { reason } => {
            assert!(reason.contains("within 25 s"), "{reason}");
            assert!(
                reason.contains("before the agent's own hook timeout"),
                "{reason}"
            );
        }
        other => panic!("expected a deny, got {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn a_hook_timeout_past_the_ask_timeout_leaves_the_ask_timeout_in_charge() {
    let rig = Rig::with(settings(), None);
    let mut call = write_call();
    call.hook_timeout_secs = Some(600);
    let start = tokio::time::Instant::now();
    let answer = rig.barrier.submit(call).await;
    assert_eq!(start.elapsed(), Duration::from_secs(540));
    assert_eq!(answer.decider, Decider::Timeout);
}

#[tokio::test]
async fn the_real_copilot_hook_carries_its_installed_timeout_to_the_console() {
    let mut console = SocketConsole::start(settings());
    let payload = common::fixture("copilot-cli/pretooluse-bash.json");
    let mut hook = std::process::Command::new(common::e2e::GATEHOUSE)
        .arg("--socket")
        .arg(&console.socket)
        .args(["hook", "copilot", "--timeout", "30"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    hook.stdin.take().unwrap().write_all(&payload).unwrap();
    let dialog = console.opened().await;
    assert_eq!(dialog.call.hook_timeout_secs, Some(30));
    assert_eq!(
        dialog.call.time_limit(Duration::from_secs(540)),
        Duration::from_secs(25)
    );
    assert!(console.prompter.answer(
        dialog.id,
        HumanAnswer::Deny {
            reason: "checked".into()
        }
    ));
    let out = tokio::task::spawn_blocking(move || hook.wait_with_output().unwrap())
        .await
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("checked"));
}
