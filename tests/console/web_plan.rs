//! Plan review on the web page, in headless Chromium against the real `gatehouse serve` and a
//! real Claude Code hook: an `ExitPlanMode` call shows its plan whole in a block that scrolls on
//! its own, Approve opens a box with the mode to move to, and sending it makes the hook print
//! an allow, moves the console to the mode chosen and audits both with the device.

use crate::common;
use crate::web_chromium::{Web, chromedriver};

use serde_json::{Value, json};

#[tokio::test]
async fn the_plan_scrolls_in_its_block_and_approve_moves_the_console_to_the_mode_chosen() {
    let Some((_driver, driver)) = chromedriver().await else {
        return;
    };
    let web = Web::serve();
    let steps: Vec<String> = (1..=80)
        .map(|n| format!("{n}. web plan step {n}"))
        .collect();
    let plan = format!("## Plan\n{}", steps.join("\n"));
    let payload = json!({
        "session_id": "web-plan", "cwd": "/tmp", "permission_mode": "plan",
        "hook_event_name": "PreToolUse", "tool_name": "ExitPlanMode",
        "tool_input": {"plan": plan}, "tool_use_id": "t1"
    });
    let hook = common::claude_hook(&web.place.socket(), &payload);
    let profiles = tempfile::tempdir().unwrap();
    let browser = web.paired(&driver, &profiles.path().join("phone")).await;
    browser
        .until(
            "the plan shown whole, scrolling in its own block",
            "const pre = document.querySelector('#subject pre.plan'); \
             return !!pre && pre.textContent.includes('80. web plan step 80') && \
             pre.scrollHeight > pre.clientHeight && \
             getComputedStyle(pre).overflowY === 'auto' && \
             !document.getElementById('allow').disabled",
        )
        .await;
    assert_eq!(
        browser
            .script("return document.getElementById('always').hidden")
            .await,
        json!(true),
        "a plan is approved once, never always"
    );
    browser.click("#allow").await;
    browser
        .until(
            "the approve box with its mode choice",
            "return !document.getElementById('plan-choice').hidden && \
             document.getElementById('plan-mode').value === ''",
        )
        .await;
    browser
        .script("document.getElementById('plan-mode').value = 'auto'; return true")
        .await;
    browser.type_into("#text", "small commits").await;
    browser.click("#send").await;
    let out = hook.wait_with_output().unwrap();
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let specific = &printed["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "allow", "{printed}");
    assert_eq!(specific["additionalContext"], "small commits", "{printed}");
    browser
        .until(
            "the console moved to auto",
            "const b = document.querySelector('#modes .mode-auto'); \
             return !!b && b.getAttribute('aria-pressed') === 'true'",
        )
        .await;
    browser.close().await;
    let audit = web.place.audit();
    let record = audit
        .iter()
        .find(|r| r["tool"] == "ExitPlanMode")
        .unwrap_or_else(|| panic!("no record in {audit:?}"));
    assert_eq!(record["class"], "plan", "{record}");
    assert_eq!(
        record["rule"], "plan approved; mode allow-read -> auto",
        "{record}"
    );
    assert_eq!(record["device"], "headless browser", "{record}");
}
