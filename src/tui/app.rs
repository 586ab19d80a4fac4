//! The console's model and its `update`: messages in, effects out. No I/O and no clock here:
//! every message comes with the time it happened, so tests can drive it exactly.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use ratatui::crossterm::event::KeyEvent;

use super::keymap::{self, BoxKey, Intent};
use super::textbox::{BoxKind, Submit, TextBox};
use crate::core::audit::Ending;
use crate::core::call::CallId;
use crate::core::escape::visible;
use crate::core::event::{ClassifierState, Dialog, Event, Outcome};
use crate::core::mode::{Mode, ModeCycle};
use crate::core::prompter::HumanAnswer;
use crate::core::route::Route;
use crate::core::rules::SessionRule;
use crate::preview::Preview;

/// How long a newly shown dialog ignores decision keys (safety contract 4).
pub use crate::core::offer::ARMING;
/// How many activity lines are kept.
pub const LOG_CAPACITY: usize = 10_000;
const NOTICE_FOR: Duration = Duration::from_secs(5);
/// How long the footer says what a mode change did (the status bar shows the mode itself).
const MODE_NOTICE_FOR: Duration = Duration::from_secs(30);
/// How long an agent session with nothing open may stay quiet before the console forgets it.
pub const SESSION_IDLE: Duration = Duration::from_secs(30 * 60);

/// The moment a message happened, monotonic and by the wall clock.
#[derive(Debug, Clone, Copy)]
pub struct Now {
    pub at: Instant,
    pub wall: SystemTime,
}

/// Which screen is up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Main,
    Help,
    ConfirmQuit,
    /// Allow-all is due while dialogs are open: it asks once before allowing them.
    ConfirmAllowAll,
    /// The session rules panel.
    Rules,
    /// One activity log entry, whole ([`App::log_focus`]).
    Activity,
    /// The web console's pairing QR code and devices.
    Web,
    /// The batch box: one answer for the marked calls.
    Batch,
    /// The chooser of a session's or agent's mode (`M`), or of a mode for a while (`T`).
    ModeChooser,
}

/// The focused dialog's state.
pub enum DialogState {
    Choosing,
    Writing(Box<TextBox>),
}

/// An open dialog as the console keeps it.
pub struct Open {
    pub dialog: Arc<Dialog>,
    pub preview: Preview,
    pub short: String,
    pub route: Route,
    pub classifier: Option<ClassifierState>,
    pub claimed: bool,
}

pub struct App {
    /// The mode in force: the last one sent to the barrier.
    pub mode: Mode,
    /// A mode that lets more run, waiting for the hotkey to be left alone.
    pub pending: Option<PendingMode>,
    /// What the last mode change did, and until when the footer shows it.
    pub mode_notice: Option<(String, Instant)>,
    tally: ModeTally,
    pub cycle: ModeCycle,
    pub dialogs: VecDeque<Open>,
    pub focus: usize,
    pub state: DialogState,
    pub screen: Screen,
    pub log: VecDeque<LogLine>,
    pub notice: Option<(String, Instant)>,
    /// Agent sessions heard from, by `agent:session`, with when each was last heard from.
    /// A session idle for [`SESSION_IDLE`] with nothing open is forgotten.
    pub sessions: HashMap<String, Instant>,
    pub socket: String,
    /// How the person at this console runs gatehouse: `gatehouse` when that name on PATH is
    /// this program, else this program's path (as after `cargo run`).
    pub command: String,
    /// Whether the web console is serving, for the status bar.
    pub web_on: bool,
    pub classifier: String,
    /// What open dialogs become on quit: `defer` or `deny`.
    pub on_quit: &'static str,
    pub scroll: u16,
    /// How far the help screen is scrolled, for terminals shorter than the help.
    pub help_scroll: u16,
    pub now: Now,
    shown_at: Instant,
    /// The session rules as last read, and the one the panel points at.
    pub rules: Vec<SessionRule>,
    /// The lasting rules and policy files, as last read.
    pub lasting: Lasting,
    pub rules_focus: usize,
    /// The web panel's contents, once the web console answered.
    pub web: Option<WebPanel>,
    pub web_focus: usize,
    /// The activity entry the opened log points at.
    pub log_focus: usize,
    /// How long a dialog waits before the barrier answers it with its timeout fallback.
    pub ask_timeout: Option<Duration>,
    pub rearm: Rearm,
    /// After this many identical answers a rule is offered (0: never).
    pub suggest_after: usize,
    learner: crate::core::learn::Learner,
    /// The rule last offered from the human's answers, until saved or replaced.
    pub offer: Option<crate::core::learn::Suggestion>,
    /// The queue's marks, filter and order, and the batch box.
    pub queue: Queue,
    /// The modes given to sessions and agents, the global mode's timer, the chooser.
    pub scope_modes: scope_modes::ScopeModes,
}

impl App {
    pub fn new(
        mode: Mode,
        cycle: ModeCycle,
        socket: String,
        on_quit: &'static str,
        now: Now,
    ) -> App {
        App {
            mode,
            pending: None,
            mode_notice: None,
            tally: ModeTally::default(),
            cycle,
            dialogs: VecDeque::new(),
            focus: 0,
            state: DialogState::Choosing,
            screen: Screen::Main,
            log: VecDeque::new(),
            notice: None,
            sessions: HashMap::new(),
            socket,
            command: "gatehouse".into(),
            web_on: false,
            classifier: "off".into(),
            on_quit,
            scroll: 0,
            help_scroll: 0,
            now,
            shown_at: now.at,
            rules: Vec::new(),
            lasting: Lasting::default(),
            rules_focus: 0,
            web: None,
            web_focus: 0,
            log_focus: 0,
            ask_timeout: None,
            rearm: Rearm::NotSetUp,
            suggest_after: 3,
            learner: Default::default(),
            offer: None,
            queue: Queue::default(),
            scope_modes: Default::default(),
        }
    }

    /// The focused call, only while the queue shows it: with a filter that hides every call
    /// nothing is focused, so no decision key can answer a call the human cannot see.
    pub fn focused(&self) -> Option<&Open> {
        self.dialogs
            .get(self.focus)
            .filter(|open| self.shown_in_queue(open))
    }

    /// How many open calls the filter hides, when it hides them all (the dialog area says so).
    pub fn all_hidden(&self) -> Option<usize> {
        (self.focused().is_none() && !self.dialogs.is_empty()).then_some(self.dialogs.len())
    }

    /// How long `open` has left before its timeout answer, if the console knows its ask
    /// timeout: the call's own limit, shorter where its agent kills the hook sooner.
    pub fn time_left(&self, open: &Open) -> Option<Duration> {
        let limit = open.dialog.call.time_limit(self.ask_timeout?);
        Some((open.dialog.opened + limit).saturating_duration_since(self.now.at))
    }

    pub fn update(&mut self, msg: Msg, now: Now) -> Vec<Effect> {
        self.now = now;
        if self
            .notice
            .as_ref()
            .is_some_and(|(_, until)| now.at >= *until)
        {
            self.notice = None;
        }
        // A mode still changing keeps its notice until the change is done.
        if self.pending.is_none()
            && self
                .mode_notice
                .as_ref()
                .is_some_and(|(_, until)| now.at >= *until)
        {
            self.mode_notice = None;
        }
        // A pending mode takes effect on a message that carries only time, never on a key:
        // the key that comes just then was not pressed to answer a question not yet shown.
        let mut effects = match msg {
            Msg::Key(_) | Msg::Paste(_) => vec![],
            _ => self.settle_pending(),
        };
        effects.extend(self.on_msg(msg));
        self.keep_focus_shown();
        effects
    }

    fn on_msg(&mut self, msg: Msg) -> Vec<Effect> {
        match msg {
            Msg::Key(key) => self.on_key(key),
            Msg::Paste(text) => self.paste(&text),
            Msg::Tick => {
                self.forget_idle_sessions();
                match self.screen {
                    // The open panel keeps its hit counts fresh.
                    Screen::Rules => vec![Effect::ListRules],
                    _ => vec![],
                }
            }
            Msg::Rules(rules) => {
                self.rules = rules;
                self.clamp_rules_focus();
                vec![]
            }
            Msg::Lasting(lasting) => {
                self.lasting = lasting;
                self.clamp_rules_focus();
                vec![]
            }
            Msg::Web(mut panel) => {
                // An unpairing answers with the devices only: the link shown stays.
                if panel.link.is_none()
                    && panel.error.is_none()
                    && let Some(shown) = self.web.take()
                {
                    panel.link = shown.link;
                    panel.fingerprint = shown.fingerprint;
                }
                self.web_focus = self.web_focus.min(panel.devices.len().saturating_sub(1));
                self.web = Some(panel);
                vec![]
            }
            Msg::Opened(dialog, preview) => self.on_opened(dialog, preview),
            Msg::Barrier(event) => {
                self.on_event(event);
                vec![]
            }
            Msg::ClassifierStatus(status) => {
                self.classifier = status;
                vec![]
            }
            Msg::Notice(text) => {
                self.notify(text);
                vec![]
            }
            Msg::Judged(id, judged) => self.judged(id, judged),
            Msg::Batched(done) => self.batched(done),
        }
    }

    fn on_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        match self.screen {
            Screen::Help => return self.help_key(&key),
            Screen::ConfirmQuit => {
                return match (keymap::intent_of(&key), keymap::box_key(&key)) {
                    (Some(Intent::AllowOnce | Intent::Quit), _) | (_, BoxKey::Submit) => {
                        vec![Effect::Quit]
                    }
                    _ => {
                        self.screen = Screen::Main;
                        vec![]
                    }
                };
            }
            Screen::ConfirmAllowAll => return self.confirm_allow_all(&key),
            Screen::Rules => return self.rules_key(&key),
            Screen::Web => return self.web_key(&key),
            Screen::ModeChooser => return self.chooser_key(&key),
            Screen::Activity => return self.activity_key(&key),
            Screen::Batch => return self.batch_key(&key),
            Screen::Main => {}
        }
        if let Some(effects) = self.writing_key(key) {
            return effects;
        }
        if let Some(effects) = self.filter_key(&key) {
            return effects;
        }
        let Some(intent) = keymap::intent_of(&key) else {
            return vec![];
        };
        if let Some(effects) = self.batch_intent(intent) {
            return effects;
        }
        if intent.decides() {
            // A key the focused dialog's agent cannot honour does nothing, like one pressed
            // while the dialog arms.
            let offered = self.focused().is_some_and(|o| {
                keymap::honours(&o.dialog.call.caps, intent)
                    && (intent != Intent::Edit || o.dialog.offer.edit.is_some())
            });
            if let Some(n) = self.all_hidden() {
                self.notify(format!(
                    "{HIDDEN_ALL} /{}: nothing was answered ({n} waiting; Esc clears the filter)",
                    visible(&self.queue.filter)
                ));
                return vec![];
            }
            if !offered || self.arming() {
                return vec![];
            }
        }
        match intent {
            Intent::AllowOnce if !self.plan_focused() => {
                let id = self.dialogs[self.focus].dialog.id;
                self.answered(id, HumanAnswer::Allow { note: None })
            }
            Intent::AllowOnce
            | Intent::AllowAlways
            | Intent::AllowWithNote
            | Intent::Deny
            | Intent::Edit => self.open_box(intent),
            Intent::CycleMode => self.step_mode(Step::Forward),
            Intent::CycleModeBack => self.step_mode(Step::Back),
            Intent::ScopeMode => self.choose_scope_mode(),
            Intent::ModeWhile => self.choose_mode_while(),
            Intent::Next | Intent::Previous => self.step_focus(intent),
            Intent::Mark | Intent::MarkShape | Intent::Filter | Intent::Sort => {
                self.queue_intent(intent)
            }
            Intent::ScrollDown => {
                self.scroll = self.scroll.saturating_add(10);
                vec![]
            }
            Intent::ScrollUp => {
                self.scroll = self.scroll.saturating_sub(10);
                vec![]
            }
            Intent::RearmClassifier => match self.rearm {
                Rearm::Offered => vec![Effect::RearmClassifier],
                Rearm::NotSetUp => {
                    self.notify(
                        "r re-arms a classifier, and none is set up ([classifier] in the config)"
                            .into(),
                    );
                    vec![]
                }
            },
            Intent::AskAdvice => self.ask_advice(),
            Intent::Copy => self.copy(),
            Intent::Page => match self.focused() {
                Some(open) => vec![Effect::Page(open.preview.text())],
                None => vec![],
            },
            Intent::Activity if self.log.is_empty() => {
                self.notify("nothing in the activity log yet".into());
                vec![]
            }
            Intent::Activity => {
                self.screen = Screen::Activity;
                self.log_focus = self.log.len() - 1;
                vec![]
            }
            Intent::Rules => {
                self.screen = Screen::Rules;
                vec![Effect::ListRules]
            }
            Intent::Web => {
                self.screen = Screen::Web;
                self.web_focus = 0;
                vec![Effect::Web(WebAsk::Pair)]
            }
            // Revoking means something only in the rules panel.
            Intent::Revoke => vec![],
            Intent::SaveOffer => self.save_offer(),
            Intent::Help => {
                self.screen = Screen::Help;
                self.help_scroll = 0;
                vec![]
            }
            Intent::Quit if self.dialogs.is_empty() => vec![Effect::Quit],
            Intent::Quit => {
                self.screen = Screen::ConfirmQuit;
                vec![]
            }
        }
    }
}

mod advice;
mod batch_box;
mod messages;
pub use advice::Rearm;
pub use messages::{Effect, Msg};
mod boxes;
mod copy;
pub use copy::osc52;
mod events;
mod help;
mod learned;
mod log_line;
mod mode_keys;
mod queue;
use queue::HIDDEN_ALL;
mod rules_panel;
pub mod scope_modes;
mod web_panel;

pub use batch_box::{BatchBox, BatchKind};
pub use log_line::LogLine;
pub use queue::{FilterState, Order, Queue};
pub use web_panel::{WebAsk, WebPanel};

pub use rules_panel::{Lasting, LastingRule};

pub(crate) use events::clock;

use mode_keys::ModeTally;
pub use mode_keys::{PendingMode, SETTLE, Step};

#[cfg(test)]
#[path = "app_tests.rs"]
pub(crate) mod tests;

#[cfg(test)]
#[path = "app_advice_tests.rs"]
mod advice_tests;

#[cfg(test)]
#[path = "app_caps_tests.rs"]
mod caps_tests;

#[cfg(test)]
#[path = "app_mode_tests.rs"]
mod mode_tests;

#[cfg(test)]
#[path = "app_allow_tests.rs"]
pub(crate) mod allow_tests;

#[cfg(test)]
#[path = "app_web_tests.rs"]
mod web_tests;

#[cfg(test)]
#[path = "app_lasting_tests.rs"]
mod lasting_tests;
