//! Modes beside the global one on the web page, in headless Chromium against the real
//! `gatehouse serve` and two real Claude Code hooks in two sessions: the page gives the shown
//! call's session its own mode (the call then says so, and once another call is shown the
//! queue row marks it), and sets the global mode for a while (the page says what is left and
//! what comes back). Both changes are audited with the device.

use crate::common;
use crate::web_chromium::{Web, chromedriver};

use serde_json::json;

#[tokio::test]
async fn the_page_gives_a_session_its_own_mode_and_sets_the_mode_for_a_while() {
    let Some((_driver, driver)) = chromedriver().await else {
        return;
    };
    let web = Web::serve();
    let hook = |session: &str, line: &str| {
        let payload = json!({
            "session_id": session, "cwd": "/tmp", "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": line}, "tool_use_id": session
        });
        common::claude_hook(&web.place.socket(), &payload)
    };
    let first = hook("web-modes-a", "rm -rf modes-a");
    let profiles = tempfile::tempdir().unwrap();
    let browser = web.paired(&driver, &profiles.path().join("phone")).await;
    browser
        .until(
            "the first call shown with its own-mode control",
            "return document.getElementById('subject').textContent.includes('modes-a') && \
             document.querySelector('#own-mode button') !== null",
        )
        .await;
    let second = hook("web-modes-b", "rm -rf modes-b");
    browser
        .until(
            "the second call waiting in the queue, unmarked",
            "const q = document.getElementById('queue').textContent; \
             return q.includes('modes-b') && !q.includes('[')",
        )
        .await;

    browser
        .script(
            "document.querySelector('#own-mode select[aria-label=\"whose mode\"]').value = \
             'session'; document.querySelector('#own-mode select[aria-label=\"its mode\"]') \
             .value = 'block-all'; return true",
        )
        .await;
    browser.click("#own-mode button").await;
    browser
        .until(
            "the shown call says its session's own mode",
            "return document.getElementById('own-mode').textContent \
             .includes(\"this session's own mode: block-all\")",
        )
        .await;
    browser.click("#queue li").await;
    browser
        .until(
            "the first call, now in the queue, marked with its session's mode",
            "const q = document.getElementById('queue').textContent; \
             return q.includes('modes-a') && q.includes('[block-all]') && \
             document.getElementById('subject').textContent.includes('modes-b') && \
             document.getElementById('own-mode').textContent \
             .includes('this session follows the global mode')",
        )
        .await;

    browser
        .script(
            "document.querySelector('#mode-while select[aria-label=\"mode for a while\"]') \
             .value = 'auto'; return true",
        )
        .await;
    browser.click("#mode-while button").await;
    browser
        .until(
            "the page says what is left of the while and what comes back",
            "const t = document.getElementById('mode-while').textContent; \
             return /auto for \\d+ min more, then allow-read/.test(t)",
        )
        .await;
    browser.close().await;
    let audit = web.place.audit();
    let by_web = |what: &str| {
        audit
            .iter()
            .find(|r| r["web"] == what)
            .unwrap_or_else(|| panic!("no {what} record in {audit:?}"))
            .clone()
    };
    let scope = by_web("scope-mode");
    assert_eq!(scope["mode"], "block-all", "{scope}");
    assert!(scope["device"].is_string(), "{scope}");
    let timed = by_web("mode-while");
    assert_eq!(timed["mode"], "auto", "{timed}");
    assert!(timed["device"].is_string(), "{timed}");
    drop(web);
    for hook in [first, second] {
        let _ = hook.wait_with_output();
    }
}
