//! How long one frame takes with a full console (1,000 or 10,000 open calls and 10,000 log
//! lines), and how long a key press, a new dialog and a mode change settling every open call
//! take with 10,000 open.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use gatehouse::core::call::{Agent, Call, CallId};
use gatehouse::core::classify::assess;
use gatehouse::core::decision::{Decider, Decision};
use gatehouse::core::event::{Dialog, Event, Outcome};
use gatehouse::core::mode::{Mode, ModeCycle};
use gatehouse::core::route::{Class, Route};
use gatehouse::core::rules::Rules;
use gatehouse::preview::Preview;
use gatehouse::tui::app::{App, Msg, Now};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::json;

fn main() {
    divan::main();
}

fn full_console(open: u64) -> App {
    let now = Now {
        at: Instant::now(),
        wall: SystemTime::now(),
    };
    let mut app = App::new(
        Mode::AllowRead,
        ModeCycle::default(),
        "sock".into(),
        "defer",
        now,
    );
    for i in 0..open {
        let call = Call {
            agent: Agent::new("claude-code"),
            session: format!("session-{}", i % 7),
            cwd: "/home/dev/project".into(),
            tool: "Write".into(),
            kind: Some(gatehouse::agents::claude::kind_of("Write")),
            subagent: None,
            input: json!({"file_path": format!("src/file{i}.rs"), "content": "fn main() {}\n".repeat(40)}),
            tool_use_id: None,
            stage: Default::default(),
            caps: Default::default(),
            transcript_path: None,
            path_key: None,
            remote: None,
            hook_timeout_secs: None,
        };
        let assessment = assess(&call, &Rules::default(), &[]);
        let preview = Preview::build(&call, &assessment);
        let dialog = Arc::new(Dialog::new(
            CallId(i),
            Arc::new(call),
            assessment,
            Route::Ask,
            now.at,
        ));
        app.update(Msg::Opened(dialog, preview), now);
    }
    let read = Arc::new(Call {
        agent: Agent::new("codex"),
        session: "s".into(),
        cwd: "/".into(),
        tool: "Read".into(),
        kind: Some(gatehouse::agents::claude::kind_of("Read")),
        subagent: None,
        input: json!({"file_path": "Cargo.toml"}),
        tool_use_id: None,
        stage: Default::default(),
        caps: Default::default(),
        transcript_path: None,
        path_key: None,
        remote: None,
        hook_timeout_secs: None,
    });
    for i in 0..10_000u64 {
        let outcome = Outcome {
            id: CallId(100_000 + i),
            call: read.clone(),
            class: Class::ReadOnly,
            route: Route::Allow,
            mode: Mode::AllowRead,
            mode_of: gatehouse::core::mode_scope::ModeOwner::Global,
            decision: Decision::allow(),
            decider: Decider::Rule,
            latency: Duration::from_micros(20),
            device: None,
            rule: None,
            edited: None,
        };
        app.update(Msg::Barrier(Event::Passed(Arc::new(outcome))), now);
    }
    app
}

#[divan::bench(args = [(120, 40), (80, 24)])]
fn frame_with_1000_open_calls_and_10000_log_lines(bencher: divan::Bencher, size: (u16, u16)) {
    let app = full_console(1_000);
    let mut terminal = Terminal::new(TestBackend::new(size.0, size.1)).unwrap();
    bencher.bench_local(|| {
        terminal
            .draw(|f| gatehouse::tui::view::draw(f, divan::black_box(&app)))
            .unwrap();
    });
}

#[divan::bench(args = [(120, 40), (80, 24)], sample_count = 30)]
fn frame_with_10000_open_calls_and_10000_log_lines(bencher: divan::Bencher, size: (u16, u16)) {
    let app = full_console(10_000);
    let mut terminal = Terminal::new(TestBackend::new(size.0, size.1)).unwrap();
    bencher.bench_local(|| {
        terminal
            .draw(|f| gatehouse::tui::view::draw(f, divan::black_box(&app)))
            .unwrap();
    });
}

/// A moment well past the arming of the dialog in front.
fn armed(app: &App) -> Now {
    Now {
        at: app.now.at + Duration::from_secs(1),
        wall: app.now.wall + Duration::from_secs(1),
    }
}

fn key(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

/// `j`: focus the next of 10,000 open calls, then draw the frame the human sees.
#[divan::bench(sample_count = 30)]
fn key_next_and_frame_with_10000_open(bencher: divan::Bencher) {
    let mut app = full_console(10_000);
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let now = armed(&app);
    bencher.bench_local(|| {
        app.update(key('j'), now);
        terminal
            .draw(|f| gatehouse::tui::view::draw(f, &app))
            .unwrap();
    });
}

/// `y`: answer the call in front of 10,000 open ones (it leaves the queue).
#[divan::bench(sample_count = 30)]
fn key_allow_with_10000_open(bencher: divan::Bencher) {
    let mut app = full_console(10_000);
    let mut at = armed(&app);
    bencher.bench_local(|| {
        // Each answer shows the next dialog, which arms afresh.
        at.at += Duration::from_secs(1);
        divan::black_box(app.update(key('y'), at));
    });
}

/// A mode change that settles all 10,000 open calls: the barrier's 10,000 resolved events.
#[divan::bench(sample_count = 5)]
fn ten_thousand_resolved_events(bencher: divan::Bencher) {
    bencher
        .with_inputs(|| {
            let app = full_console(10_000);
            let events: Vec<Msg> = app
                .dialogs
                .iter()
                .map(|o| {
                    Msg::Barrier(Event::Resolved(Arc::new(Outcome {
                        id: o.dialog.id,
                        call: o.dialog.call.clone(),
                        class: Class::Writer,
                        route: Route::Allow,
                        mode: Mode::AllowAll,
                        mode_of: gatehouse::core::mode_scope::ModeOwner::Global,
                        decision: Decision::allow(),
                        decider: Decider::Mode,
                        latency: Duration::ZERO,
                        device: None,
                        rule: None,
                        edited: None,
                    })))
                })
                .collect();
            (app, events)
        })
        .bench_local_values(|(mut app, events)| {
            let now = app.now;
            for msg in events {
                app.update(msg, now);
            }
            app
        });
}
