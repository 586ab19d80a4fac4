//! The runner: the one place that touches the terminal. It turns terminal input and barrier
//! events into messages, feeds them to `App::update`, carries out the effects, and redraws.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use ratatui::crossterm::event::{self, Event as TermEvent, KeyEventKind};
use tokio::sync::mpsc;

use super::app::{App, Effect, Msg, Now, Rearm};
pub use super::app::{WebAsk, WebPanel};
use super::terminal::TerminalGuard;
use super::view;
use crate::config::Notify;
use crate::core::event::Event;
use crate::core::mode::ModeCycle;
use crate::core::prompter::Prompter;
use crate::preview::Preview;

/// What the console needs besides the prompter.
pub struct Options {
    pub cycle: ModeCycle,
    pub socket: String,
    pub on_quit: &'static str,
    pub notify: Notify,
    /// Called for the classifier re-arm key.
    pub rearm: Option<Box<dyn Fn() + Send>>,
    /// The classifier's state for the status bar, re-read every tick.
    pub classifier_status: Option<Box<dyn Fn() -> String + Send>>,
    /// How long a dialog waits before its timeout fallback, shown as time left.
    pub ask_timeout: Option<Duration>,
    /// Answers the web panel's asks, when the web console runs.
    pub web: Option<Box<dyn Fn(WebAsk) -> WebPanel + Send>>,
    /// After this many identical answers the console offers a rule (0: never).
    pub suggest_after: usize,
    /// The audit log, whose records give the rules panel its hit counts.
    pub audit_log: Option<std::path::PathBuf>,
    /// The config file, read again when it changes.
    pub config: Option<crate::config_watch::ConfigWatch>,
}

fn now() -> Now {
    Now {
        at: Instant::now(),
        wall: SystemTime::now(),
    }
}

/// Runs the console until the human quits. The caller answers whatever is still open.
pub async fn run(
    mut prompter: Prompter,
    mut options: Options,
    stop: impl std::future::Future<Output = ()>,
) -> io::Result<()> {
    let mut stop = std::pin::pin!(stop);
    let mut guard = TerminalGuard::enter()?;
    let (keys, mut terminal_events) = mpsc::channel(256);
    let paused = Arc::new(Paused::default());
    let reader = {
        let paused = paused.clone();
        std::thread::spawn(move || read_terminal(keys, &paused))
    };
    let mut app = App::new(
        prompter.mode(),
        options.cycle.clone(),
        options.socket.clone(),
        options.on_quit,
        now(),
    );
    app.command = crate::plumbing::paths::command_name();
    app.web_on = options.web.is_some();
    app.ask_timeout = options.ask_timeout;
    app.suggest_after = options.suggest_after;
    app.rearm = match options.rearm {
        Some(_) => Rearm::Offered,
        None => Rearm::NotSetUp,
    };
    if let Some(status) = &options.classifier_status {
        app.update(Msg::ClassifierStatus(status()), now());
    }
    let mut last_tick = Instant::now();
    let mut config = options.config.take();
    let result = async {
        loop {
            guard.terminal.draw(|frame| view::draw(frame, &app))?;
            // Wake when the model next has something to do by time alone (a dialog armed, a
            // pending mode due), and at least every second for the status bar.
            let wake = app
                .wake_at()
                .map_or(Duration::from_secs(1), |at| {
                    at.saturating_duration_since(Instant::now())
                })
                .min(Duration::from_secs(1));
            // Cancellation: whichever branch wins, the others lose nothing. A terminal event or
            // barrier event not taken now is taken on the next turn.
            let first = tokio::select! {
                event = terminal_events.recv() => match event {
                    Some(event) => message_of_terminal(event),
                    None => return Ok(()),
                },
                event = prompter.next_event() => match event {
                    Some(event) => Some(message_of_barrier(event)),
                    None => return Ok(()),
                },
                _ = &mut stop => return Ok(()),
                _ = tokio::time::sleep(wake) => None,
            };
            // Take everything already waiting before drawing again, so a burst costs one frame.
            let mut batch: VecDeque<Msg> = first.into_iter().collect();
            while batch.len() < 512 {
                match prompter.try_event() {
                    Some(event) => batch.push_back(message_of_barrier(event)),
                    None => break,
                }
            }
            // Time passes for the model at least every second, however busy the barrier is, and
            // whenever the wake-up came: a pending mode, an arming dialog, idle sessions.
            let due = last_tick.elapsed() >= Duration::from_secs(1);
            if due || batch.is_empty() {
                batch.push_back(Msg::Tick);
                if due {
                    last_tick = Instant::now();
                    if let Some(said) = config.as_mut().and_then(|c| reload(c, &prompter)) {
                        batch.push_back(Msg::Notice(said));
                    }
                    app.ask_timeout = options.ask_timeout;
                    app.rearm = match options.rearm {
                        Some(_) => Rearm::Offered,
                        None => Rearm::NotSetUp,
                    };
                    if let Some(status) = &options.classifier_status {
                        batch.push_back(Msg::ClassifierStatus(status()));
                    }
                }
            }
            // An effect can answer with a message (the session rules asked for): it is taken in
            // the same turn.
            while let Some(msg) = batch.pop_front() {
                for effect in app.update(msg, now()) {
                    if let Effect::Page(text) = effect {
                        page(&mut guard, &paused, &text)?;
                        continue;
                    }
                    match apply(effect, &prompter, &options)? {
                        Applied::Done => {}
                        Applied::Replies(replies) => {
                            for reply in replies.into_iter().rev() {
                                batch.push_front(reply);
                            }
                        }
                        Applied::Quit => return Ok(()),
                    }
                }
            }
        }
    }
    .await;
    drop(guard);
    // Not joined: the reader stops at its next look at the terminal, and a terminal that went
    // away must not hold the shutdown up.
    drop(terminal_events);
    drop(reader);
    result
}

/// What carrying out an effect led to.
enum Applied {
    Done,
    /// Messages for the model in answer, in order.
    Replies(Vec<Msg>),
    Quit,
}

/// The session rules and the lasting rules, as the panel shows them.
fn rule_lists(prompter: &Prompter, options: &Options) -> Applied {
    Applied::Replies(vec![
        Msg::Rules(prompter.session_rules()),
        Msg::Lasting({
            let hits = options
                .audit_log
                .as_deref()
                .map(crate::core::policy::hits::Hits::read)
                .unwrap_or_default();
            let mut lasting = super::lasting::read(&prompter.policy(), &hits);
            (lasting.denied, lasting.safe) = prompter.listed_commands();
            lasting
        }),
    ])
}

/// Carries out one effect.
fn apply(effect: Effect, prompter: &Prompter, options: &Options) -> io::Result<Applied> {
    match effect {
        Effect::ListRules => return Ok(rule_lists(prompter, options)),
        Effect::Revoke(id) => {
            prompter.revoke(id);
            return Ok(rule_lists(prompter, options));
        }
        Effect::Unsave(id) => {
            if let Err(err) = prompter.unsave_rule(&id) {
                tracing::warn!("deleting saved rule {id}: {err}");
            }
            return Ok(rule_lists(prompter, options));
        }
        Effect::Forget(id) => {
            if !prompter.forget_kept_rule(&id) {
                tracing::warn!("no rule {id} is kept in memory any more");
            }
            return Ok(rule_lists(prompter, options));
        }
        Effect::SaveRule(rule) => {
            if let Err(err) = prompter.save_rule(rule) {
                tracing::warn!("saving a learned rule: {err}");
            }
        }
        Effect::Answer(id, answer) => {
            prompter.answer(id, answer);
        }
        Effect::AnswerBatch(ids, answer) => {
            let done = prompter.answer_batch(&ids, answer);
            return Ok(Applied::Replies(vec![Msg::Batched(done)]));
        }
        Effect::Claim(id) => {
            prompter.claim(id);
        }
        Effect::AskAdvice(id) => {
            prompter.ask_advice(id);
        }
        Effect::Judge(id, line) => {
            if let Some(judged) = prompter.judge_edit(id, &line) {
                return Ok(Applied::Replies(vec![Msg::Judged(id, judged)]));
            }
        }
        Effect::SetMode(mode) => {
            prompter.set_mode(mode);
        }
        Effect::SetModeFor(mode, lasts) => {
            prompter.set_mode_for(mode, lasts);
        }
        Effect::SetScopeMode(scope, mode) => {
            prompter.set_scope_mode(scope, mode);
        }
        Effect::Notify => notify(options.notify)?,
        // Carried out by the loop, which holds the terminal.
        Effect::Page(_) => {}
        Effect::Copy(text) => {
            let mut out = io::stdout();
            out.write_all(&super::app::osc52(&text))?;
            out.flush()?;
        }
        Effect::RearmClassifier => {
            if let Some(rearm) = &options.rearm {
                rearm();
            }
        }
        Effect::Web(ask) => {
            let panel = match &options.web {
                Some(web) => web(ask),
                None => WebPanel {
                    error: Some(
                        "the web console is off: start gatehouse with --web, or add [web] to the config"
                            .into(),
                    ),
                    ..WebPanel::default()
                },
            };
            return Ok(Applied::Replies(vec![Msg::Web(panel)]));
        }
        Effect::Quit => return Ok(Applied::Quit),
    }
    Ok(Applied::Done)
}

fn notify(how: Notify) -> io::Result<()> {
    let sequence: &[u8] = match how {
        Notify::Bell => b"\x07",
        Notify::Osc9 => b"\x1b]9;gatehouse: a call needs you\x07",
        Notify::Osc777 => b"\x1b]777;notify;gatehouse;a call needs you\x07",
        Notify::Off => return Ok(()),
    };
    let mut out = io::stdout();
    out.write_all(sequence)?;
    out.flush()
}

fn message_of_barrier(event: Event) -> Msg {
    match event {
        Event::Opened(dialog) => {
            let preview = Preview::build(&dialog.call, &dialog.assessment);
            Msg::Opened(dialog, preview)
        }
        other => Msg::Barrier(other),
    }
}

fn message_of_terminal(event: TermEvent) -> Option<Msg> {
    match event {
        TermEvent::Key(key) if key.kind != KeyEventKind::Release => Some(Msg::Key(key)),
        TermEvent::Paste(text) => Some(Msg::Paste(text)),
        TermEvent::Resize(..) => Some(Msg::Tick),
        _ => None,
    }
}

/// What a look at the terminal found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Look {
    /// Input is waiting.
    Input,
    /// Nothing yet.
    Quiet,
    /// The terminal hung up or failed (EOF, EIO): the console's human is gone.
    Gone,
}

/// Waits up to `timeout` for input on standard input (the terminal the console reads). A
/// hangup is seen here, before crossterm reads: crossterm's reader spins on a terminal that
/// returns end of file or EIO instead of reporting it.
fn look(timeout: Duration) -> Look {
    let mut fd = libc::pollfd {
        fd: libc::STDIN_FILENO,
        events: libc::POLLIN,
        revents: 0,
    };
    let ms = libc::c_int::try_from(timeout.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: one valid pollfd, and its count.
    let n = unsafe { libc::poll(&mut fd, 1, ms) };
    if n < 0 {
        return match io::Error::last_os_error().kind() {
            io::ErrorKind::Interrupted => Look::Quiet,
            _ => Look::Gone,
        };
    }
    if fd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
        return Look::Gone;
    }
    if fd.revents & libc::POLLIN != 0 {
        // Readable with nothing to read is end of file.
        let mut waiting: libc::c_int = 0;
        // SAFETY: FIONREAD writes one int.
        let ok = unsafe { libc::ioctl(libc::STDIN_FILENO, libc::FIONREAD, &mut waiting) };
        if ok < 0 || waiting == 0 {
            return Look::Gone;
        }
        return Look::Input;
    }
    Look::Quiet
}

/// Reads terminal events on a thread of its own until the console stops listening or the
/// terminal goes away; either way it returns, which closes the channel and ends the console.
fn read_terminal(keys: mpsc::Sender<TermEvent>, paused: &Paused) {
    loop {
        if keys.is_closed() {
            return;
        }
        // While a pager has the terminal, its keys are its own.
        if paused.asked.load(Ordering::SeqCst) {
            paused.idle.store(true, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        paused.idle.store(false, Ordering::SeqCst);
        if look(Duration::from_millis(200)) == Look::Gone {
            return;
        }
        // Everything crossterm has parsed from what is waiting, and a resize (crossterm learns
        // of those from a signal, not from the terminal's input).
        loop {
            match event::poll(Duration::ZERO) {
                Ok(true) => match event::read() {
                    Ok(event) => {
                        if keys.blocking_send(event).is_err() {
                            return;
                        }
                    }
                    Err(_) => return,
                },
                Ok(false) => break,
                Err(_) => return,
            }
        }
    }
}

/// The reader's pause while a pager has the terminal: `asked` by the loop, `idle` once the
/// reader has stopped looking at the terminal.
#[derive(Default)]
struct Paused {
    asked: AtomicBool,
    idle: AtomicBool,
}

/// Shows `text` in `$PAGER` (`less` if unset): the reader stops taking keys, the terminal goes
/// back to the shell's state while the pager runs, and the console takes it again after. A
/// pager that cannot start is told in the log; the console goes on either way.
fn page(guard: &mut TerminalGuard, paused: &Paused, text: &str) -> io::Result<()> {
    paused.asked.store(true, Ordering::SeqCst);
    let started = std::time::Instant::now();
    while !paused.idle.load(Ordering::SeqCst) && started.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let shown = show_in_pager(text);
    let back = guard.resume();
    paused.asked.store(false, Ordering::SeqCst);
    if let Err(err) = shown {
        tracing::warn!("opening the pager: {err}");
    }
    back
}

fn show_in_pager(text: &str) -> io::Result<()> {
    let mut file = tempfile::NamedTempFile::new()?;
    file.write_all(text.as_bytes())?;
    file.flush()?;
    super::terminal::restore();
    let pager = std::env::var("PAGER").unwrap_or_else(|_| "less".into());
    // `$PAGER` may carry arguments (`less -R`), as a shell would split it.
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{pager} \"$1\""))
        .arg("gatehouse-pager")
        .arg(file.path())
        .status()?;
    if !status.success() {
        tracing::info!("the pager exited with {status}");
    }
    Ok(())
}

/// Reads the config again if it changed: its rules go in force, or, if it no longer reads, the
/// ones in force stay. What to tell the human, if anything changed.
fn reload(watch: &mut crate::config_watch::ConfigWatch, prompter: &Prompter) -> Option<String> {
    use crate::config_watch::Reloaded;
    Some(match watch.look()? {
        Reloaded::Read(config) => {
            prompter.set_rules(config.settings.rules);
            "config read again: its rules are in force (other settings at the next start)".into()
        }
        Reloaded::Refused(why) => format!("config not read again: {why}"),
    })
}
