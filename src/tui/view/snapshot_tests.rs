//! A snapshot of every state the console can be in, drawn on a `TestBackend`.

use std::sync::Arc;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::{Value, json};

use crate::agents::{codex, gemini};
use crate::core::advice::{Advice, Assessment, Category, Opinion, Risk};
use crate::core::call::{Agent, CallId};
use crate::core::decision::{Decider, Decision, Verdict};
use crate::core::event::{ClassifierState, Event, Outcome};
use crate::core::mode::{Mode, ModeCycle};
use crate::core::route::{Class, Route};
use crate::tui::app::tests::{dialog, dialog_of, later, start};
use crate::tui::app::{App, Msg, Now};

pub(super) fn app(now: Now) -> App {
    App::new(
        Mode::AllowRead,
        ModeCycle::default(),
        "/run/user/1000/gatehouse/gatehouse.sock".into(),
        "defer",
        now,
    )
}

pub(super) fn open(app: &mut App, id: u64, tool: &str, input: Value, now: Now) {
    let (d, p) = dialog(id, tool, input, now);
    app.update(Msg::Opened(d, p), now);
}

pub(super) fn key(app: &mut App, code: KeyCode, now: Now) {
    app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)), now);
}

pub(super) fn draw(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| super::draw(f, app)).unwrap();
    terminal.backend().to_string()
}

pub(super) fn passed(
    app: &mut App,
    id: u64,
    tool: &str,
    input: Value,
    decision: Decision,
    decider: Decider,
) {
    let now = app.now;
    let (d, _) = dialog(id, tool, input, now);
    let outcome = Outcome {
        id: CallId(id),
        call: d.call.clone(),
        class: Class::ReadOnly,
        route: Route::Allow,
        mode: Mode::AllowRead,
        mode_of: crate::core::mode_scope::ModeOwner::Global,
        decision,
        decider,
        latency: std::time::Duration::ZERO,
        device: None,
        rule: None,
        edited: None,
    };
    app.update(Msg::Barrier(Event::Passed(Arc::new(outcome))), now);
}

pub(super) fn write_input() -> Value {
    json!({"file_path": "notes/todo.md", "content": "# Todo\n\n- [ ] ship the console\n- [ ] write the README\n"})
}

#[test]
fn empty_console() {
    let t = start();
    insta::assert_snapshot!(draw(&app(t), 80, 24));
}

#[test]
fn bash_dialog() {
    let t = start();
    let mut app = app(t);
    let input = json!({
        "command": "cargo build --release 2>&1 | tail -5 && ./target/release/app --selftest",
        "description": "Build and run the self test"
    });
    open(&mut app, 1, "Bash", input, t);
    insta::assert_snapshot!(draw(&app, 80, 24));
}

#[test]
fn long_wrapped_command() {
    let t = start();
    let mut app = app(t);
    let line = "find . -name '*.rs' -not -path './target/*' -print0 | xargs -0 grep -l 'unsafe' | while read -r f; do echo \"$f: $(grep -c unsafe \"$f\")\"; done | sort -t: -k2 -n -r | head -20 > unsafe-report.txt && git add unsafe-report.txt && git commit -m 'Report unsafe blocks per file'";
    open(&mut app, 1, "Bash", json!({ "command": line }), t);
    let top = draw(&app, 60, 12);
    assert!(
        top.contains("more lines (PgDn)"),
        "a cut is never silent:\n{top}"
    );
    key(&mut app, KeyCode::PageDown, t);
    let scrolled = draw(&app, 60, 12);
    for screen in [&top, &scrolled] {
        assert!(
            screen.contains("#1 Bash") && screen.contains("Claude Code · session"),
            "the header stays in view:\n{screen}"
        );
        assert!(
            screen.contains("why "),
            "the reason stays in view:\n{screen}"
        );
    }
    assert!(
        !scrolled.contains("$ find"),
        "the subject scrolled:\n{scrolled}"
    );
    insta::assert_snapshot!(format!("{top}\n{scrolled}"));
}

#[test]
fn a_shell_command_full_of_escape_sequences() {
    let t = start();
    let mut app = app(t);
    let line = "echo ok\u{1b}[2J\u{1b}[H\u{1b}[32mAllowed by gatehouse\u{1b}[0m\r\nrm -rf ~ \u{7}";
    open(
        &mut app,
        1,
        "Bash",
        json!({ "command": line, "description": "\u{1b}]0;pwned\u{7}" }),
        t,
    );
    let screen = draw(&app, 80, 24);
    assert!(!screen.contains('\u{1b}') && !screen.contains('\u{7}'));
    insta::assert_snapshot!(screen);
}

#[test]
fn write_preview() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Write", write_input(), t);
    insta::assert_snapshot!(draw(&app, 80, 24));
}

#[test]
fn edit_diff() {
    let t = start();
    let mut app = app(t);
    let input = json!({"file_path": "src/lib.rs", "old_string": "pub fn add(a: i32) -> i32 {\n    a + 1\n}", "new_string": "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}"});
    open(&mut app, 1, "Edit", input, t);
    insta::assert_snapshot!(draw(&app, 80, 24));
}

#[test]
fn mcp_call() {
    let t = start();
    let mut app = app(t);
    let input = json!({"owner": "acme", "repo": "api", "title": "Flaky test", "labels": ["ci"]});
    open(&mut app, 1, "mcp__github__create_issue", input, t);
    insta::assert_snapshot!(draw(&app, 80, 24));
}

#[test]
fn reason_box_with_text() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Write", write_input(), t);
    let t = later(t, 300);
    key(&mut app, KeyCode::Char('n'), t);
    app.update(
        Msg::Paste("Put todos in the issue tracker instead.".into()),
        t,
    );
    insta::assert_snapshot!(draw(&app, 80, 24));
}

#[test]
fn note_box() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Write", write_input(), t);
    let t = later(t, 300);
    key(&mut app, KeyCode::Char('e'), t);
    app.update(Msg::Paste("Keep the list short.".into()), t);
    insta::assert_snapshot!(draw(&app, 80, 24));
}

#[test]
fn allow_always_pattern_editor() {
    let t = start();
    let mut app = app(t);
    open(
        &mut app,
        1,
        "WebFetch",
        json!({"url": "https://docs.rs/ratatui", "prompt": "API of Paragraph"}),
        t,
    );
    key(&mut app, KeyCode::Char('a'), later(t, 300));
    insta::assert_snapshot!(draw(&app, 80, 24));
}

#[test]
fn classifier_pending_and_unsure() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "mcp__db__query", json!({"sql": "select 1"}), t);
    app.update(
        Msg::Barrier(Event::Rerouted {
            id: CallId(1),
            route: Route::Race,
        }),
        t,
    );
    app.update(
        Msg::Barrier(Event::Classifier {
            id: CallId(1),
            state: ClassifierState::Asking,
        }),
        t,
    );
    let pending = draw(&app, 80, 16);
    app.update(
        Msg::Barrier(Event::Classifier {
            id: CallId(1),
            state: ClassifierState::Advised(Advice {
                opinions: vec![Opinion::judged(
                    "openai m",
                    Assessment {
                        verdict: Verdict::Unsure,
                        risk: Risk::Medium,
                        categories: vec![Category::CodeExecution],
                        rationale: "It may run code.\u{1b}[2J".into(),
                        confidence: 0.4,
                    },
                    0.8,
                )],
            }),
        }),
        t,
    );
    let unsure = draw(&app, 80, 16);
    insta::assert_snapshot!(format!("{pending}\n{unsure}"));
}

#[test]
fn a_queue_of_several_agents_with_activity() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Write", write_input(), t);
    let (mut d, p) = dialog(2, "mcp__github__create_issue", json!({"title": "x"}), t);
    Arc::get_mut(&mut d).unwrap();
    let mut call = (*d.call).clone();
    call.agent = Agent::new("codex");
    call.session = "019a-codex-session".into();
    let d2 = Arc::new(crate::core::event::Dialog::new(
        d.id,
        Arc::new(call),
        d.assessment.clone(),
        d.route,
        d.opened,
    ));
    app.update(Msg::Opened(d2, p), t);
    open(
        &mut app,
        3,
        "WebFetch",
        json!({"url": "https://example.com"}),
        t,
    );
    let t = later(t, 65_000);
    app.update(Msg::Tick, t);
    passed(
        &mut app,
        10,
        "Read",
        json!({"file_path": "Cargo.toml"}),
        Decision::allow(),
        Decider::Rule,
    );
    passed(
        &mut app,
        11,
        "Write",
        json!({"file_path": "out.txt"}),
        Decision::deny("use the build folder"),
        Decider::Human,
    );
    insta::assert_snapshot!(draw(&app, 100, 24));
}

#[test]
fn each_mode_in_the_status_bar() {
    let t = start();
    let mut app = app(t);
    let mut bars = Vec::new();
    for mode in Mode::ALL {
        app.mode = mode;
        let mut terminal = Terminal::new(TestBackend::new(80, 12)).unwrap();
        terminal.draw(|f| super::draw(f, &app)).unwrap();
        let badge = terminal.backend().buffer()[(1, 0)].bg;
        let red = badge == ratatui::style::Color::Red;
        assert_eq!(red, mode == Mode::AllowAll, "{mode}: only allow-all is red");
        let screen = terminal.backend().to_string();
        bars.push(format!(
            "{:<10} {}",
            format!("{badge:?}"),
            screen.lines().next().unwrap()
        ));
    }
    insta::assert_snapshot!(bars.join("\n"));
}

#[test]
fn help_screen() {
    let t = start();
    let mut app = app(t);
    key(&mut app, KeyCode::Char('?'), t);
    insta::assert_snapshot!(draw(&app, 100, 64));
}

#[test]
fn help_on_a_short_terminal_scrolls_and_says_so() {
    let t = start();
    let mut app = app(t);
    key(&mut app, KeyCode::Char('?'), t);
    let top = draw(&app, 80, 16);
    assert!(top.contains("more (j/PgDn)"), "{top}");
    for _ in 0..90 {
        key(&mut app, KeyCode::Char('j'), t);
    }
    let bottom = draw(&app, 80, 16);
    assert!(
        bottom.contains("cannot answer it"),
        "the end of the help is reachable:\n{bottom}"
    );
    insta::assert_snapshot!(format!("{top}\n{bottom}"));
}

#[test]
fn quit_confirmation() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Write", write_input(), t);
    open(
        &mut app,
        2,
        "WebFetch",
        json!({"url": "https://example.com"}),
        t,
    );
    key(&mut app, KeyCode::Char('q'), t);
    insta::assert_snapshot!(draw(&app, 80, 24));
}

#[test]
fn a_small_terminal_of_60_by_15() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Write", write_input(), t);
    open(
        &mut app,
        2,
        "WebFetch",
        json!({"url": "https://example.com"}),
        t,
    );
    insta::assert_snapshot!(draw(&app, 60, 15));
}

#[test]
fn escape_sequences_from_an_agent_are_drawn_visible() {
    let t = start();
    let mut app = app(t);
    let input = json!({"file_path": "x\x1b[2J.txt", "content": "\x1b[2J\x1b[H\x1b[32mAllowed\x1b[0m\r\n\x07"});
    open(&mut app, 1, "Write", input, t);
    let screen = draw(&app, 80, 24);
    assert!(!screen.contains('\x1b'), "no raw escape reaches the screen");
    insta::assert_snapshot!(screen);
}

#[test]
fn codex_permission_request_offers_no_note() {
    let t = start();
    let mut app = app(t);
    let stdin = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/codex/permissionrequest-bash.json"
    ));
    let (_, call) = codex::parse(stdin).unwrap();
    let (d, p) = dialog_of(1, call, t);
    app.update(Msg::Opened(d, p), t);
    let t = later(t, 300);
    key(&mut app, KeyCode::Char('e'), t);
    let choosing = draw(&app, 80, 24);
    key(&mut app, KeyCode::Char('?'), t);
    let help = draw(&app, 100, 30);
    insta::assert_snapshot!(format!("{choosing}\n{help}"));
}

#[test]
fn gemini_before_tool_passes_and_its_note_arrives_after_the_output() {
    let t = start();
    let mut app = app(t);
    let stdin = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/gemini-cli/beforetool-run_shell_command.json"
    ));
    let (_, call) = gemini::parse(stdin).unwrap();
    let (d, p) = dialog_of(1, call, t);
    app.update(Msg::Opened(d, p), t);
    let t = later(t, 300);
    let choosing = draw(&app, 80, 24);
    key(&mut app, KeyCode::Char('e'), t);
    app.update(
        Msg::Paste("The build folder is regenerated by make.".into()),
        t,
    );
    let note = draw(&app, 80, 24);
    key(&mut app, KeyCode::Esc, t);
    key(&mut app, KeyCode::Char('?'), t);
    let help = draw(&app, 100, 30);
    insta::assert_snapshot!(format!("{choosing}\n{note}\n{help}"));
}

#[test]
fn codex_apply_patch_diff() {
    let t = start();
    let mut app = app(t);
    let stdin = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/codex/pretooluse-apply_patch.json"
    ));
    let (_, call) = codex::parse(stdin).unwrap();
    let (d, p) = dialog_of(1, call, t);
    app.update(Msg::Opened(d, p), t);
    insta::assert_snapshot!(draw(&app, 80, 24));
}

#[cfg(test)]
#[path = "snapshot_size_tests.rs"]
mod size_tests;

#[cfg(test)]
#[path = "snapshot_state_tests.rs"]
mod state_tests;

#[test]
fn a_sub_agents_call_shows_under_its_parent_session() {
    let t0 = start();
    let mut app = app(t0);
    let (d, _) = dialog(1, "Bash", json!({"command": "rm -rf build"}), t0);
    let mut call = (*d.call).clone();
    call.subagent = Some(crate::core::call::SubAgent {
        id: "a1b2c3".into(),
        kind: Some("Explore".into()),
    });
    let (d, p) = dialog_of(1, call, t0);
    app.update(Msg::Opened(d, p), t0);
    let screen = draw(&app, 100, 30);
    assert!(screen.contains("session 5f0c1a2b › Explore"), "{screen}");
    // The queue is narrow: what the call is comes first, then who asks.
    assert!(screen.contains("›rm -rf build · Claude Code"), "{screen}");
    let wide = draw(&app, 80, 30);
    assert!(
        wide.contains("›rm -rf build · Claude Code 5f0c1a2b › Explore Bash"),
        "{wide}"
    );
}

#[cfg(test)]
#[path = "snapshot_web_tests.rs"]
mod web_tests;
