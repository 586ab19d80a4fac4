//! Edit before approving on the web page, in headless Chromium against the real `gatehouse
//! serve` and a real Claude Code hook: the Edit button opens the command, the edited line is
//! judged afresh (its class shown), and sending it makes the hook print the edited command as
//! Claude Code's `updatedInput`; the audit names the edit and the device.

use crate::common;
use crate::web_chromium::{Web, chromedriver, paired};

use serde_json::{Value, json};

#[tokio::test]
async fn the_edit_button_allows_the_edited_line_once_and_the_hook_runs_it_instead() {
    let Some((_driver, driver)) = chromedriver().await else {
        return;
    };
    let web = Web::serve();
    let payload = json!({
        "session_id": "web-edit", "cwd": "/tmp", "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build-web-edit", "description": "Clean"},
        "tool_use_id": "t1"
    });
    let hook = common::claude_hook(&web.place.socket(), &payload);
    let profiles = tempfile::tempdir().unwrap();
    let browser = paired(&driver, &web, profiles.path()).await;
    browser
        .until(
            "the Edit button armed on the call",
            "return !document.getElementById('call').hidden && \
             document.getElementById('subject').textContent.includes('build-web-edit') && \
             !document.getElementById('edit').hidden && \
             !document.getElementById('edit').disabled",
        )
        .await;
    browser.click("#edit").await;
    assert_eq!(
        browser
            .script("return document.getElementById('text').value")
            .await,
        json!("rm -rf build-web-edit")
    );
    browser.type_into("#text", "/cache").await;
    browser
        .until(
            "the edited line judged",
            "return document.getElementById('box-hint').textContent \
             .startsWith('writer: ') && document.getElementById('box-hint').textContent \
             .includes('in place of the original')",
        )
        .await;
    browser.click("#send").await;
    let out = hook.wait_with_output().unwrap();
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let specific = &printed["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "allow", "{printed}");
    assert_eq!(
        specific["updatedInput"],
        json!({"command": "rm -rf build-web-edit/cache", "description": "Clean"})
    );
    browser
        .until(
            "the answer in this device's history",
            "return document.getElementById('history').textContent \
             .startsWith('allowed edited #1')",
        )
        .await;
    browser.close().await;
    let audit = web.place.audit();
    let record = audit
        .iter()
        .find(|r| r["tool"] == "Bash")
        .unwrap_or_else(|| panic!("no record in {audit:?}"));
    assert_eq!(record["edited"], "rm -rf build-web-edit/cache", "{record}");
    assert_eq!(record["device"], "headless browser", "{record}");
}
