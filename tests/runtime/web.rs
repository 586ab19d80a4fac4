//! The web console in process, over real HTTP on loopback, against a real barrier: what the
//! page's API gives without a token, the first answer winning between the console's own
//! prompter and a paired device (each refusal audited), the arming delay (safety contract 4)
//! and `notify_command`.

use crate::common;

use common::bash;
use gatehouse::core::audit::Audit;
use gatehouse::core::barrier::{Barrier, Settings};
use gatehouse::core::decision::{Decider, Decision};
use gatehouse::core::event::Event;
use gatehouse::core::prompter::HumanAnswer;
use gatehouse::web;
use gatehouse::web::listen::Limits;
use serde_json::{Value, json};

fn audit_lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_token_no_call_is_shown_and_the_first_answer_wins_over_a_later_web_one() {
    let mut rig = common::web_rig::start(Limits::default()).await;
    let base = rig.base.clone();
    let http = gatehouse::plumbing::http::client();

    let submitted = tokio::spawn({
        let barrier = rig.barrier.clone();
        async move { barrier.submit(bash("rm -rf build-secret-name")).await }
    });
    let id = match rig.prompter.next_event().await.unwrap() {
        Event::Opened(dialog) => dialog.id,
        other => panic!("expected a dialog, got {other:?}"),
    };

    // No token: refused, and not a byte of the call.
    let response = http.get(format!("{base}/api/state")).send().await.unwrap();
    assert_eq!(response.status(), 401);
    assert!(!response.text().await.unwrap().contains("build-secret-name"));
    let response = http
        .get(format!("{base}/api/state"))
        .bearer_auth("0".repeat(64))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);

    // A paired device sees it.
    let link = rig.running.hub.pair_link().unwrap();
    let code = link.link.split("#pair=").nth(1).unwrap();
    let token = common::pair_device(&http, &base, code, "phone").await;
    let state: Value = http
        .get(format!("{base}/api/state"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        state["dialogs"][0]["preview"]["line"],
        "rm -rf build-secret-name"
    );

    // The console answers first; the web's later answer loses, and says so.
    assert!(rig.prompter.answer(
        id,
        HumanAnswer::Deny {
            reason: "from the console".into()
        }
    ));
    let late = http
        .post(format!("{base}/api/answer"))
        .bearer_auth(&token)
        .json(&json!({ "id": id.0, "answer": "allow" }))
        .send()
        .await
        .unwrap();
    assert_eq!(late.status(), 409);
    let answer = submitted.await.unwrap();
    assert_eq!(answer.decision, Decision::deny("from the console"));
    assert_eq!(answer.decider, Decider::Human);

    let lines = audit_lines(&rig.audit_log);
    let decided: Vec<&Value> = lines.iter().filter(|l| l["id"].is_u64()).collect();
    assert_eq!(decided.len(), 1, "{lines:?}");
    assert!(
        decided[0].get("device").is_none(),
        "the console's answer names no device"
    );
    let refused: Vec<u64> = lines
        .iter()
        .filter(|l| l["web"] == "refused")
        .map(|l| l["status"].as_u64().unwrap())
        .collect();
    assert_eq!(refused, vec![401, 401, 409], "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l["web"] == "paired" && l["device"] == "phone")
    );
    // A phone following the live updates does not hold the console open when it stops.
    let mut live = http
        .get(format!("{base}/api/events"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(live.status(), 200);
    let first = live.chunk().await.unwrap().unwrap();
    assert!(String::from_utf8_lossy(&first).contains("event: state"));
    tokio::time::timeout(std::time::Duration::from_secs(1), rig.running.stop())
        .await
        .expect("the web console stops with a live stream open");
    let rest = tokio::time::timeout(std::time::Duration::from_secs(1), async {
        while let Ok(Some(_)) = live.chunk().await {}
    });
    rest.await.expect("the live stream ended");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notify_command_runs_for_each_dialog_that_opens_with_the_call_in_its_environment() {
    let dir = tempfile::tempdir().unwrap();
    let (barrier, mut prompter) = Barrier::new(Settings::default(), Audit::disabled(), None);
    let out = dir.path().join("notified");
    let command = format!(
        "printf '%s|%s|%s|%s' \"$GATEHOUSE_ID\" \"$GATEHOUSE_AGENT\" \"$GATEHOUSE_TOOL\" \"$GATEHOUSE_SUBJECT\" > {}.part && mv {0}.part {0}",
        out.display()
    );
    let notifier = tokio::spawn(web::notify::follow(command, prompter.tap()));
    let submitted = tokio::spawn({
        let barrier = barrier.clone();
        async move {
            barrier
                .submit(bash("rm -rf build\necho \u{1b}[2J done"))
                .await
        }
    });
    let id = match prompter.next_event().await.unwrap() {
        Event::Opened(dialog) => dialog.id,
        other => panic!("expected a dialog, got {other:?}"),
    };
    let started = std::time::Instant::now();
    while !out.exists() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "the notify command never ran"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let said = std::fs::read_to_string(&out).unwrap();
    assert_eq!(said, format!("{}|claude-code|Bash|rm -rf build", id.0));
    prompter.answer(
        id,
        HumanAnswer::Deny {
            reason: String::new(),
        },
    );
    submitted.await.unwrap();
    notifier.abort();
}

/// Safety contract 4, the web's half: an answer that reaches the page's API within the arming
/// delay of its dialog opening is refused and the call stays open; once armed, the same answer
/// is taken. The test cannot choose how fast the request travels, so it only draws its
/// conclusion from an answer it knows arrived inside the delay (it measures from the dialog's
/// own opening to the response), and tries again with a new call when the machine was slower.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contract_4_the_web_refuses_an_answer_within_the_arming_delay() {
    let mut rig = common::web_rig::start(Limits::default()).await;
    let http = gatehouse::plumbing::http::client();
    let link = rig.running.hub.pair_link().unwrap();
    let code = link.link.split("#pair=").nth(1).unwrap();
    let token = common::pair_device(&http, &rig.base, code, "phone").await;
    let allow = |id: u64| {
        http.post(format!("{}/api/answer", rig.base))
            .bearer_auth(&token)
            .json(&json!({ "id": id, "answer": "allow" }))
            .send()
    };
    for _ in 0..5 {
        let submitted = tokio::spawn({
            let barrier = rig.barrier.clone();
            async move { barrier.submit(bash("rm -rf build")).await }
        });
        let dialog = match rig.prompter.next_event().await.unwrap() {
            Event::Opened(dialog) => dialog,
            other => panic!("expected a dialog, got {other:?}"),
        };
        let early = allow(dialog.id.0).await.unwrap();
        let inside_the_delay = dialog.opened.elapsed() < dialog.offer.arming;
        let status = early.status();
        if !inside_the_delay {
            // Too slow to say anything: settle this call and try again.
            if status != 200 {
                rig.prompter.answer(
                    dialog.id,
                    HumanAnswer::Deny {
                        reason: String::new(),
                    },
                );
            }
            submitted.await.unwrap();
            continue;
        }
        assert_eq!(status, 409, "an answer inside the arming delay was taken");
        assert!(early.text().await.unwrap().contains("only just opened"));
        assert!(
            rig.prompter
                .open_dialogs()
                .iter()
                .any(|d| d.id == dialog.id),
            "the call stays open"
        );
        tokio::time::sleep_until((dialog.opened + dialog.offer.arming).into()).await;
        assert_eq!(allow(dialog.id.0).await.unwrap().status(), 200);
        let answer = submitted.await.unwrap();
        assert_eq!(answer.decision, Decision::allow());
        assert_eq!(answer.decider, Decider::Human);
        let decided: Vec<Value> = audit_lines(&rig.audit_log)
            .into_iter()
            .filter(|l| l["id"] == dialog.id.0)
            .collect();
        assert_eq!(decided.len(), 1, "{decided:?}");
        assert_eq!(decided[0]["device"], "phone");
        return;
    }
    panic!("no answer reached the page within the arming delay in five tries: machine too slow");
}
