//! "Always" from the web page with the console's choices, over real HTTP on loopback against a
//! real barrier: kept for the call's project until the console quits (a rule in memory, no file
//! written, allowing the next call of another session there), and every choice the console's
//! box would not give refused with a clear error and audited, whatever the page sent.

use crate::common;

use std::sync::Arc;

use gatehouse::core::call::Call;
use gatehouse::core::decision::{Decider, Decision};
use gatehouse::core::event::{Dialog, Event};
use gatehouse::core::policy::Layer;
use gatehouse::core::prompter::Prompter;
use serde_json::{Value, json};

async fn opened(prompter: &mut Prompter) -> Arc<Dialog> {
    loop {
        if let Event::Opened(dialog) = prompter.next_event().await.unwrap() {
            // The page refuses an answer within the arming delay: wait for it to pass.
            tokio::time::sleep_until((dialog.opened + dialog.offer.arming).into()).await;
            return dialog;
        }
    }
}

fn bash_in(session: &str, cwd: &std::path::Path, line: &str) -> Call {
    Call {
        cwd: cwd.display().to_string(),
        ..common::call_in(session, "Bash", json!({ "command": line }))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_always_for_the_project_until_quit_from_the_page_is_kept_in_memory_and_bad_choices_are_refused()
 {
    let rig = common::web_rig::start(Default::default()).await;
    let mut prompter = rig.prompter;
    let http = gatehouse::plumbing::http::client();
    let link = rig.running.hub.pair_link().unwrap();
    let code = link.link.split("#pair=").nth(1).unwrap();
    let token = common::pair_device(&http, &rig.base, code, "phone").await;
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir(project.path().join(".git")).unwrap();
    let post = |body: Value| {
        http.post(format!("{}/api/answer", rig.base))
            .bearer_auth(&token)
            .json(&body)
            .send()
    };

    // A call in no project: the project scope is refused, the others wait for a good answer.
    let submitted = tokio::spawn({
        let barrier = rig.barrier.clone();
        async move { barrier.submit(common::bash("make lint")).await }
    });
    let outside = opened(&mut prompter).await;
    let always = |d: &Dialog, extra: Value| {
        let mut body = json!({"id": d.id.0, "answer": "always", "text": "make lint"});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    for (extra, why) in [
        (json!({"scope": "project"}), "in no project"),
        (json!({"until_quit": true}), "scope project or everyone"),
        (
            json!({"scope": "everyone", "lasts_secs": 1800}),
            "not offered",
        ),
        (
            json!({"scope": "everyone", "lasts_secs": 900, "until_quit": true}),
            "not both",
        ),
    ] {
        let reply = post(always(&outside, extra.clone())).await.unwrap();
        assert_eq!(reply.status(), 400, "{extra}");
        let text = reply.text().await.unwrap();
        assert!(text.contains(why), "{extra}: {text}");
    }
    // A prefix saved beyond the session asks to be confirmed, as the console's box does.
    let mut broad = always(&outside, json!({"scope": "everyone"}));
    broad["text"] = json!("make *");
    let reply = post(broad).await.unwrap();
    assert_eq!(reply.status(), 409);
    assert!(reply.text().await.unwrap().contains("BROAD"));
    assert!(
        prompter.open_dialogs().len() == 1,
        "nothing refused was answered"
    );
    let reply = post(json!({"id": outside.id.0, "answer": "deny", "text": "no"}))
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    assert_eq!(submitted.await.unwrap().decision, Decision::deny("no"));

    // A call in a project: always for the project until the console quits.
    let submitted = tokio::spawn({
        let barrier = rig.barrier.clone();
        let call = bash_in("s1", project.path(), "make lint");
        async move { barrier.submit(call).await }
    });
    let inside = opened(&mut prompter).await;
    let reply = post(always(
        &inside,
        json!({"scope": "project", "until_quit": true}),
    ))
    .await
    .unwrap();
    assert_eq!(reply.status(), 200, "{}", reply.text().await.unwrap());
    assert_eq!(submitted.await.unwrap().decision, Decision::allow());
    let kept: Vec<_> = prompter
        .policy()
        .known()
        .into_iter()
        .flatten()
        .filter(|f| f.layer == Layer::Memory)
        .flat_map(|f| f.rules.clone())
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(kept[0].project.as_deref(), Some(project.path()));
    let later = rig
        .barrier
        .submit(bash_in("s2", project.path(), "make lint"))
        .await;
    assert_eq!(
        (later.decision, later.decider),
        (Decision::allow(), Decider::Rule)
    );
    let audit = common::audit_records(&rig.audit_log);
    let refused = audit.iter().filter(|r| r["web"] == "refused").count();
    assert!(refused >= 4, "each refusal is audited: {audit:?}");
    rig.running.stop().await;
}
