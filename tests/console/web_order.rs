//! The web queue's order, in headless Chromium against the real `gatehouse serve` and real
//! hooks: two Claude Code calls, then a Copilot CLI call whose hook was installed with a 30 s
//! timeout. By arrival the Copilot call is last; ordered by time left it comes first, as the
//! console's `O` orders it, because the console answers it before Copilot would kill its hook.

use crate::common;
use crate::web_chromium::{Web, chromedriver};

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::json;

/// The queue's rows as the page lists them, by their subject lines.
const ROWS: &str = "return [...document.querySelectorAll('#queue li .subject')] \
                    .map(e => e.textContent).join('|')";

#[tokio::test]
async fn the_page_orders_the_queue_by_time_left_as_the_console_does() {
    let Some((_driver, driver)) = chromedriver().await else {
        return;
    };
    let web = Web::serve();
    let claude = |session: &str, line: &str| {
        let payload = json!({
            "session_id": session, "cwd": "/tmp", "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": line}, "tool_use_id": session
        });
        common::claude_hook(&web.place.socket(), &payload)
    };
    let first = claude("web-order-a", "rm -rf order-a");
    let second = claude("web-order-b", "rm -rf order-b");
    let profiles = tempfile::tempdir().unwrap();
    let browser = web.paired(&driver, &profiles.path().join("phone")).await;
    browser
        .until(
            "both Claude calls on the page",
            "return document.querySelectorAll('#queue li').length === 1",
        )
        .await;
    let mut copilot = Command::new(common::e2e::GATEHOUSE)
        .arg("--socket")
        .arg(web.place.socket())
        .args(["hook", "copilot", "--timeout", "30"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    copilot
        .stdin
        .take()
        .unwrap()
        .write_all(&common::fixture("copilot-cli/pretooluse-bash.json"))
        .unwrap();
    browser
        .until(
            "the Copilot call last, by arrival",
            "return document.querySelectorAll('#queue li').length === 2 && \
             document.getElementById('order').textContent === 'order: arrival'",
        )
        .await;
    let rows = browser.script(ROWS).await;
    assert_eq!(rows, json!("rm -rf order-b|rm -rf build"), "arrival");
    browser.click("#order").await;
    browser
        .until(
            "the Copilot call first, by time left",
            "return document.getElementById('order').textContent === 'order: time left'",
        )
        .await;
    let rows = browser.script(ROWS).await;
    assert_eq!(rows, json!("rm -rf build|rm -rf order-b"), "time left");
    browser.click("#order").await;
    let rows = browser.script(ROWS).await;
    assert_eq!(rows, json!("rm -rf order-b|rm -rf build"), "arrival again");
    browser.close().await;
    drop(web);
    for hook in [first, second, copilot] {
        let _ = hook.wait_with_output();
    }
}
