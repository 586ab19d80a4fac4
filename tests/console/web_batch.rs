//! One answer to many calls on the web page, in headless Chromium against the real `gatehouse
//! serve` and two real hooks, Claude Code's and Codex's: both calls are marked (the shown one
//! by its box, the other in the queue), the batch box lists both before Send, one deny with a
//! typed reason reaches both hooks, and the audit has each call's line with the batch and the
//! device. The filter box hides the calls it does not match, and with every call hidden the page
//! answers none.

use crate::common;
use crate::web_chromium::{Web, chromedriver};

use serde_json::{Value, json};

#[tokio::test]
async fn two_calls_marked_on_the_page_get_one_deny_and_both_agents_hooks_print_it() {
    let Some((_driver, driver)) = chromedriver().await else {
        return;
    };
    let web = Web::serve();
    let payload = json!({
        "session_id": "web-batch", "cwd": "/tmp", "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build-web-batch"}, "tool_use_id": "t1"
    });
    let claude = common::claude_hook(&web.place.socket(), &payload);
    let mut codex_payload: Value =
        serde_json::from_slice(&common::fixture("codex/pretooluse-bash.json")).unwrap();
    codex_payload["tool_input"] = json!({"command": "touch codex-web-batch"});
    let codex = common::hook(
        &web.place.socket(),
        "codex",
        codex_payload.to_string().as_bytes(),
    );
    let profiles = tempfile::tempdir().unwrap();
    let browser = web.paired(&driver, &profiles.path().join("phone")).await;
    browser
        .until(
            "both calls on the page",
            "return !document.getElementById('call').hidden && \
             document.querySelectorAll('#queue li').length === 1",
        )
        .await;
    // The filter hides every call, the shown one too: the page says so and answers nothing,
    // even asked to by its own code (the hooks below get the batch's deny, not an allow).
    browser.type_into("#filter", "no-such-call").await;
    browser
        .until(
            "the queue filtered",
            "return document.querySelectorAll('#queue li').length === 0 && \
             document.getElementById('call').hidden && \
             document.getElementById('all-hidden').textContent \
               .startsWith('No call matches the filter “no-such-call”: 2 calls wait') && \
             document.getElementById('queue-title').textContent === 'Also waiting (0 of 2)'",
        )
        .await;
    let sent = browser
        .script(
            "return send('allow').then(() => current() === null && \
               document.getElementById('history').children.length === 0)",
        )
        .await;
    assert_eq!(
        sent,
        json!(true),
        "the page answered a call its filter hides"
    );
    browser
        .script(
            "const f = document.getElementById('filter'); \
             f.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'})); return true",
        )
        .await;
    browser
        .until(
            "the filter cleared",
            "return document.querySelectorAll('#queue li').length === 1",
        )
        .await;
    browser.click("#mark-call").await;
    browser.click("#queue input.mark").await;
    browser
        .until(
            "two calls marked",
            "return document.getElementById('batch-count').textContent === '2 marked'",
        )
        .await;
    browser.click("#batch-deny").await;
    browser.type_into("#batch-text", "not in this sprint").await;
    browser
        .until(
            "the box lists both calls",
            "return document.getElementById('batch-plan').textContent \
             .startsWith('2 of 2 marked get deny')",
        )
        .await;
    browser.click("#batch-send").await;
    let out = claude.wait_with_output().unwrap();
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (decision, reason) = common::decision_of(&printed);
    assert_eq!(
        (decision.as_str(), reason.as_str()),
        ("deny", "not in this sprint")
    );
    let out = codex.wait_with_output().unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("not in this sprint"), "{printed}");
    browser
        .until(
            "the page says what the batch did",
            "return document.getElementById('batch-said').textContent \
             .includes('answered 2 calls')",
        )
        .await;
    browser.close().await;
    let audit = web.place.audit();
    let batched: Vec<&Value> = audit.iter().filter(|r| r["batch"]["size"] == 2).collect();
    assert_eq!(batched.len(), 2, "{audit:?}");
    for record in batched {
        assert_eq!(record["decider"], "human", "{record}");
        assert_eq!(record["device"], "headless browser", "{record}");
        assert_eq!(record["reason"], "not in this sprint", "{record}");
    }
}
