//! How long one frame takes with a full console: 1,000 open calls and 10,000 log lines.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use gatehouse::core::call::{Agent, Call, CallId};
use gatehouse::core::classify::assess;
use gatehouse::core::decision::{Decider, Decision};
use gatehouse::core::event::{Dialog, Event, Outcome};
use gatehouse::core::mode::{Mode, ModeCycle};
use gatehouse::core::route::{Class, Route};
use gatehouse::core::rules::Rules;
use gatehouse::tui::app::{App, Msg, Now};
use gatehouse::tui::preview::Preview;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;

fn main() {
    divan::main();
}

fn full_console() -> App {
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
    for i in 0..1_000u64 {
        let call = Call {
            agent: Agent::ClaudeCode,
            session: format!("session-{}", i % 7),
            cwd: "/home/dev/project".into(),
            tool: "Write".into(),
            input: json!({"file_path": format!("src/file{i}.rs"), "content": "fn main() {}\n".repeat(40)}),
            tool_use_id: None,
            event: None,
            caps: Default::default(),
        };
        let assessment = assess(&call, &Rules::default(), &[]);
        let preview = Preview::build(&call, &assessment);
        let dialog = Arc::new(Dialog {
            id: CallId(i),
            call: Arc::new(call),
            assessment,
            route: Route::Ask,
            opened: now.at,
        });
        app.update(Msg::Opened(dialog, preview), now);
    }
    let read = Arc::new(Call {
        agent: Agent::Codex,
        session: "s".into(),
        cwd: "/".into(),
        tool: "Read".into(),
        input: json!({"file_path": "Cargo.toml"}),
        tool_use_id: None,
        event: None,
        caps: Default::default(),
    });
    for i in 0..10_000u64 {
        let outcome = Outcome {
            id: CallId(10_000 + i),
            call: read.clone(),
            class: Class::ReadOnly,
            route: Route::Allow,
            mode: Mode::AllowRead,
            decision: Decision::allow(),
            decider: Decider::Rule,
            latency: Duration::from_micros(20),
        };
        app.update(Msg::Barrier(Event::Passed(Arc::new(outcome))), now);
    }
    app
}

#[divan::bench(args = [(120, 40), (80, 24)])]
fn frame_with_1000_open_calls_and_10000_log_lines(bencher: divan::Bencher, size: (u16, u16)) {
    let app = full_console();
    let mut terminal = Terminal::new(TestBackend::new(size.0, size.1)).unwrap();
    bencher.bench_local(|| {
        terminal
            .draw(|f| gatehouse::tui::view::draw(f, divan::black_box(&app)))
            .unwrap();
    });
}
