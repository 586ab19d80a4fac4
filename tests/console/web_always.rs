//! "Always" with the console's choices on the web page, in headless Chromium against the real
//! console in a real terminal (tmux) and real Claude Code hooks: the page allows a call for the
//! project until the console quits, the next call of another session in that project is
//! allowed by the rule without a dialog, the console's rules panel lists it as in-memory, and
//! no rules file is written.

use crate::common;
use crate::web_chromium::{Web, chromedriver};

use std::path::Path;
use std::process::Child;

use common::e2e::GATEHOUSE;
use common::place::Place;
use common::tmux::{Tmux, quoted};
use serde_json::{Value, json};

fn hook(web: &Web, cwd: &Path, session: &str) -> Child {
    let payload = json!({
        "session_id": session, "cwd": cwd, "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "make web-always"}, "tool_use_id": session
    });
    common::claude_hook(&web.place.socket(), &payload)
}

fn decision(child: Child) -> Value {
    let out = child.wait_with_output().unwrap();
    let value: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    value["hookSpecificOutput"]["permissionDecision"].clone()
}

#[tokio::test]
async fn an_always_for_the_project_until_quit_made_on_the_page_shows_in_the_consoles_rules() {
    let Some((_driver, driver)) = chromedriver().await else {
        return;
    };
    let port = common::free_port();
    let place = Place::new(&format!("[web]\nlisten = \"127.0.0.1:{port}\"")).without_api_keys();
    std::fs::write(place.path().join("no-floor.toml"), "").unwrap();
    let line = format!(
        "env XDG_STATE_HOME={state} GATEHOUSE_POLICY={floor} {exe} --config {config} --socket {socket}; sleep 60",
        state = quoted(&place.path().join("state")),
        floor = quoted(&place.path().join("no-floor.toml")),
        exe = quoted(Path::new(GATEHOUSE)),
        config = quoted(&place.config()),
        socket = quoted(&place.socket()),
    );
    let Some(tui) = Tmux::start(&line, 110, 32) else {
        return;
    };
    tui.wait_for("Waiting for agents", 20);
    let web = Web::beside(place, port);
    let project = web.place.path().join("project");
    std::fs::create_dir_all(project.join(".git")).unwrap();

    let first = hook(&web, &project, "web-always-a");
    let profiles = tempfile::tempdir().unwrap();
    let browser = web.paired(&driver, &profiles.path().join("phone")).await;
    browser
        .until(
            "the call shown",
            "return document.getElementById('subject').textContent.includes('make web-always') \
             && !document.getElementById('always').disabled",
        )
        .await;
    browser.click("#always").await;
    browser
        .until(
            "the box offers the project and until quit",
            "const s = document.getElementById('always-scope'); \
             return !s.hidden && [...s.options].map(o => o.value).join() === 'session,project,everyone'",
        )
        .await;
    browser
        .script(
            "const s = document.getElementById('always-scope'); s.value = 'project'; \
             s.dispatchEvent(new Event('change')); \
             document.getElementById('lasts').value = 'quit'; return true",
        )
        .await;
    browser.click("#send").await;
    assert_eq!(decision(first), "allow");
    browser
        .until(
            "the page remembers the answer",
            "return document.getElementById('history').textContent.includes('always allowed')",
        )
        .await;
    browser.close().await;

    let second = hook(&web, &project, "web-always-b");
    assert_eq!(
        decision(second),
        "allow",
        "another session in the project is allowed by the rule, without a dialog"
    );
    tui.keys(&["s"]);
    let screen = tui.wait_for("rules in force", 5);
    let screen = if screen.contains("in-memory allow") {
        screen
    } else {
        tui.wait_for("in-memory allow", 5)
    };
    assert!(
        screen.contains("the console's memory (until it quits)"),
        "{screen}"
    );
    assert!(!web.place.path().join("rules.toml").exists());
    let audit = web.place.audit();
    let ruled = audit
        .iter()
        .find(|r| r["session"] == "web-always-b")
        .unwrap_or_else(|| panic!("no record of the second call: {audit:?}"));
    assert_eq!(ruled["decider"], "rule", "{ruled}");
    tui.keys(&["Escape", "q"]);
}
