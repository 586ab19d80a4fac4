//! Modes beside the global one and allows for a while, from the web page, over real HTTP on
//! loopback against a real barrier: a device gives an open call's session its own mode (the
//! call is settled by it, the state shows it, the audit names the device), sets the global
//! mode for a while, and answers "always" for 15 minutes; a while the page does not offer is
//! refused with a clear error.

use crate::common;

use common::bash;
use gatehouse::core::barrier::Barrier;
use gatehouse::core::decision::{Decider, Decision};
use gatehouse::core::event::Event;
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::Prompter;
use serde_json::{Value, json};

/// A barrier in allow-read with the web console on loopback (`common::web_rig`) and one
/// paired device.
struct Page {
    dir: tempfile::TempDir,
    audit_log: std::path::PathBuf,
    barrier: Barrier,
    prompter: Prompter,
    running: gatehouse::web::Running,
    base: String,
    http: reqwest::Client,
    token: String,
}

impl Page {
    async fn start() -> Page {
        let rig = common::web_rig::start(Default::default()).await;
        let http = gatehouse::plumbing::http::client();
        let link = rig.running.hub.pair_link().unwrap();
        let code = link.link.split("#pair=").nth(1).unwrap();
        let token = common::pair_device(&http, &rig.base, code, "phone").await;
        Page {
            dir: rig.dir,
            audit_log: rig.audit_log,
            barrier: rig.barrier,
            prompter: rig.prompter,
            running: rig.running,
            base: rig.base,
            http,
            token,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paired_device_gives_a_session_its_own_mode_and_sets_the_mode_for_a_while() {
    let Page {
        dir: _dir,
        audit_log,
        barrier,
        mut prompter,
        running,
        base,
        http,
        token,
    } = Page::start().await;
    let post = |path: &str, body: Value| {
        http.post(format!("{base}{path}"))
            .bearer_auth(&token)
            .json(&body)
            .send()
    };

    let submitted = tokio::spawn({
        let barrier = barrier.clone();
        async move { barrier.submit(bash("mytool --sync")).await }
    });
    let id = loop {
        if let Event::Opened(dialog) = prompter.next_event().await.unwrap() {
            break dialog.id;
        }
    };
    // allow-all asks to be confirmed, as the global mode does.
    let body = json!({"id": id.0, "whom": "session", "mode": "allow-all"});
    assert_eq!(post("/api/scope-mode", body).await.unwrap().status(), 409);
    let body = json!({"id": id.0, "whom": "session", "mode": "allow-all", "confirm": true});
    let done: Value = post("/api/scope-mode", body)
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(done["settled"], 1);
    let answer = submitted.await.unwrap();
    assert_eq!(
        (answer.decision, answer.decider),
        (Decision::allow(), Decider::Mode)
    );
    assert_eq!(prompter.scope_modes().list().len(), 1);

    // A while the page does not offer is refused, and nothing changes.
    let bad = post("/api/mode-while", json!({"mode": "auto", "secs": 7}))
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    assert!(bad.text().await.unwrap().contains("secs must be one of"));
    assert!(prompter.mode_timer().is_none());
    // allow-all for a while asks to be confirmed too, and nothing changes until it is.
    let unconfirmed = post("/api/mode-while", json!({"mode": "allow-all", "secs": 900}))
        .await
        .unwrap();
    assert_eq!(unconfirmed.status(), 409);
    assert!(unconfirmed.text().await.unwrap().contains("confirm"));
    assert_eq!(
        (prompter.mode(), prompter.mode_timer()),
        (Mode::AllowRead, None)
    );
    let ok = post("/api/mode-while", json!({"mode": "auto", "secs": 1800}))
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    assert_eq!(prompter.mode(), Mode::Auto);
    let state: Value = http
        .get(format!("{base}/api/state"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(state["beside"]["timer"]["back_to"], "allow-read");
    assert!(state["beside"]["timer"]["secs_left"].as_u64().unwrap() > 1700);

    let lines: Vec<Value> = std::fs::read_to_string(&audit_log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        lines.iter().any(|l| l["web"] == "scope-mode"
            && l["device"] == "phone"
            && l["mode"] == "allow-all")
    );
    let decided = lines.iter().find(|l| l["id"].is_u64()).unwrap();
    assert_eq!(decided["mode_of"], "session");
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn always_for_a_while_from_the_web_is_kept_for_that_while_and_an_odd_while_is_refused() {
    let Page {
        dir: _dir,
        audit_log: _,
        barrier,
        mut prompter,
        running,
        base,
        http,
        token,
    } = Page::start().await;
    let submitted = tokio::spawn({
        let barrier = barrier.clone();
        async move { barrier.submit(bash("mytool --sync")).await }
    });
    let dialog = loop {
        if let Event::Opened(dialog) = prompter.next_event().await.unwrap() {
            break dialog;
        }
    };
    // The page refuses an answer within the arming delay: wait for the dialog's arming.
    tokio::time::sleep_until((dialog.opened + dialog.offer.arming).into()).await;
    let pattern = dialog.offer.always.pattern.clone();
    let answer = |secs: u64| {
        http.post(format!("{base}/api/answer"))
            .bearer_auth(&token)
            .json(&json!({"id": dialog.id.0, "answer": "always", "text": pattern, "lasts_secs": secs}))
            .send()
    };
    let odd = answer(7).await.unwrap();
    assert_eq!(odd.status(), 400);
    assert!(odd.text().await.unwrap().contains("is not offered"));
    assert_eq!(answer(900).await.unwrap().status(), 200);
    assert_eq!(submitted.await.unwrap().decision, Decision::allow());
    let rules = prompter.session_rules();
    assert_eq!(rules.len(), 1);
    let left = rules[0]
        .expires
        .unwrap()
        .duration_since(std::time::SystemTime::now())
        .unwrap();
    assert!(left.as_secs() > 800 && left.as_secs() <= 900, "{left:?}");
    running.stop().await;
}
