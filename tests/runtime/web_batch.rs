//! The web page's batch answer over real HTTP against a real barrier: refused without a device
//! token and for an empty batch (each said plainly), and its preview lists which marked calls
//! would get the answer and which would be left out and why, answering nothing.

use crate::common;

use common::bash;
use gatehouse::core::caps::{Caps, NoteEffect};
use gatehouse::core::event::Event;
use gatehouse::web::listen::Limits;
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_preview_lists_who_gets_the_answer_and_a_bad_batch_is_refused_plainly() {
    let mut rig = common::web_rig::start(Limits::default()).await;
    let base = rig.base.clone();
    let http = gatehouse::plumbing::http::client();
    let mut mute = bash("rm -rf build-b");
    mute.caps = Caps {
        note: NoteEffect::None,
        ..Caps::FULL
    };
    let mut waiting = Vec::new();
    let mut ids = Vec::new();
    for call in [bash("rm -rf build-a"), mute] {
        let barrier = rig.barrier.clone();
        waiting.push(tokio::spawn(async move { barrier.submit(call).await }));
        loop {
            if let Event::Opened(dialog) = rig.prompter.next_event().await.unwrap() {
                ids.push(dialog.id.0);
                break;
            }
        }
    }
    let post = |body: Value, token: Option<String>| {
        let request = http.post(format!("{base}/api/batch")).json(&body);
        let request = match token {
            Some(token) => request.bearer_auth(token),
            None => request,
        };
        async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.unwrap())
        }
    };
    let (status, _) = post(json!({"ids": ids, "answer": "deny"}), None).await;
    assert_eq!(status, 401);
    let link = rig.running.hub.pair_link().unwrap();
    let code = link.link.split("#pair=").nth(1).unwrap();
    let token = common::pair_device(&http, &base, code, "phone").await;
    let (status, body) = post(json!({"ids": [], "answer": "deny"}), Some(token.clone())).await;
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("mark some"),
        "{body}"
    );
    let preview = json!({"ids": ids, "answer": "note", "text": "check it", "preview": true});
    let (status, body) = post(preview, Some(token)).await;
    assert_eq!(status, 200);
    assert_eq!(body["answer"], "allow with a note");
    assert_eq!(body["included"], json!([ids[0]]));
    assert_eq!(
        body["left"],
        json!([{"id": ids[1], "why": "its agent cannot carry a note"}])
    );
    // A preview answers nothing.
    assert_eq!(rig.prompter.open_dialogs().len(), 2);
    let refused: Vec<u64> = common::audit_records(&rig.audit_log)
        .iter()
        .filter(|l| l["web"] == "refused")
        .map(|l| l["status"].as_u64().unwrap())
        .collect();
    assert_eq!(refused, vec![401, 400]);
    rig.running.stop().await;
    drop(waiting);
}
