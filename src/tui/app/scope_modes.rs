//! Modes beside the global one, at the console: `M` gives the focused call's session (or
//! every session of its agent) a mode of its own, or sends it back to the global mode; `T`
//! sets the global mode for a while, after which the barrier puts the mode before back. Both
//! open a small chooser; Enter applies what it shows. The barrier's events keep the model's
//! copy of the given modes and of the timer, which the status bar and the queue show.

use super::*;
use crate::core::event::{ModeTimer, TimerState};
use crate::core::mode_scope::{ModeOverrides, ModeScope};

/// How long `T` can set a mode for, in the order Ctrl+T cycles through.
pub const WHILES: [Duration; 4] = [
    Duration::from_secs(15 * 60),
    Duration::from_secs(30 * 60),
    Duration::from_secs(60 * 60),
    Duration::from_secs(2 * 60 * 60),
];

/// The modes given beside the global one and the global mode's timer, as the barrier said,
/// and the chooser while it is up.
#[derive(Debug, Default)]
pub struct ScopeModes {
    pub given: ModeOverrides,
    pub timer: Option<ModeTimer>,
    pub chooser: Option<Chooser>,
    /// Allow-all chosen with `T` or `M` while dialogs it would allow are open, waiting to be
    /// confirmed, as allow-all from the mode keys waits.
    pub confirming: Option<Confirming>,
}

/// Allow-all waiting to be confirmed: for a while, or for a session or agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirming {
    /// The global mode, for this long.
    While(Duration),
    /// The mode of this session or agent, until it is changed.
    Scope(ModeScope),
}

/// Who `M` gives a mode to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whom {
    /// The focused call's session.
    Session,
    /// Every session of the focused call's agent.
    Agent,
}

/// What the chooser sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choosing {
    /// A mode for a session or an agent (`None` in the list: back to the global mode).
    Scope {
        agent: crate::core::call::Agent,
        session: String,
        whom: Whom,
    },
    /// The global mode for one of [`WHILES`].
    While { lasts: usize },
}

/// The chooser: what it sets, and the mode it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chooser {
    pub choosing: Choosing,
    /// Index into [`Chooser::choices`].
    pub at: usize,
}

impl Chooser {
    /// The modes offered, in order: for a session or agent the global mode first (`None`).
    pub fn choices(&self) -> Vec<Option<Mode>> {
        let modes = Mode::ALL.iter().copied().map(Some);
        match self.choosing {
            Choosing::Scope { .. } => std::iter::once(None).chain(modes).collect(),
            Choosing::While { .. } => modes.collect(),
        }
    }

    /// The scope a `Scope` chooser sets now.
    pub fn scope(&self) -> Option<ModeScope> {
        match &self.choosing {
            Choosing::Scope {
                agent,
                session,
                whom: Whom::Session,
            } => Some(ModeScope::Session {
                agent: agent.clone(),
                session: session.clone(),
            }),
            Choosing::Scope {
                agent,
                whom: Whom::Agent,
                ..
            } => Some(ModeScope::Agent(agent.clone())),
            Choosing::While { .. } => None,
        }
    }
}

impl App {
    /// `M`: the chooser for the focused call's session, pointing at the mode it has now.
    pub(super) fn choose_scope_mode(&mut self) -> Vec<Effect> {
        let Some(open) = self.focused() else {
            self.notify(
                "M gives the focused call's session or agent its own mode; no call is open".into(),
            );
            return vec![];
        };
        let call = &open.dialog.call;
        let mut chooser = Chooser {
            choosing: Choosing::Scope {
                agent: call.agent.clone(),
                session: call.session.clone(),
                whom: Whom::Session,
            },
            at: 0,
        };
        let now = chooser.scope().and_then(|s| self.scope_modes.given.get(&s));
        chooser.at = chooser
            .choices()
            .iter()
            .position(|&m| m == now)
            .unwrap_or(0);
        self.scope_modes.chooser = Some(chooser);
        self.screen = Screen::ModeChooser;
        vec![]
    }

    /// `T`: the chooser for the global mode for a while, pointing at auto for 30 minutes.
    pub(super) fn choose_mode_while(&mut self) -> Vec<Effect> {
        let chooser = Chooser {
            choosing: Choosing::While { lasts: 1 },
            at: Mode::ALL.iter().position(|&m| m == Mode::Auto).unwrap_or(0),
        };
        self.scope_modes.chooser = Some(chooser);
        self.screen = Screen::ModeChooser;
        vec![]
    }

    /// A key while the chooser is up: ↑/↓ (k/j) pick the mode, Tab the session or the agent,
    /// Ctrl+T the while, Enter applies, Esc (or q) leaves.
    pub(super) fn chooser_key(&mut self, key: &KeyEvent) -> Vec<Effect> {
        let Some(chooser) = self.scope_modes.chooser.as_mut() else {
            self.screen = Screen::Main;
            return vec![];
        };
        let n = chooser.choices().len();
        match (keymap::box_key(key), keymap::intent_of(key)) {
            (BoxKey::Submit, _) => return self.apply_chooser(),
            (BoxKey::Leave, _) | (_, Some(Intent::Quit)) => {
                self.scope_modes.chooser = None;
                self.screen = Screen::Main;
            }
            (BoxKey::Scope, _) => {
                if let Choosing::Scope { whom, .. } = &mut chooser.choosing {
                    *whom = match whom {
                        Whom::Session => Whom::Agent,
                        Whom::Agent => Whom::Session,
                    };
                }
            }
            (BoxKey::Lasts, _) => {
                if let Choosing::While { lasts } = &mut chooser.choosing {
                    *lasts = (*lasts + 1) % WHILES.len();
                }
            }
            (_, Some(Intent::Next)) => chooser.at = (chooser.at + 1) % n,
            (_, Some(Intent::Previous)) => chooser.at = (chooser.at + n - 1) % n,
            _ => {}
        }
        vec![]
    }

    /// Enter in the chooser: the mode chosen goes to the barrier.
    fn apply_chooser(&mut self) -> Vec<Effect> {
        self.screen = Screen::Main;
        let Some(chooser) = self.scope_modes.chooser.take() else {
            return vec![];
        };
        let mode = chooser.choices()[chooser.at];
        match (&chooser.choosing, chooser.scope(), mode) {
            // Allow-all with dialogs open asks once first, as it does from the mode keys.
            (Choosing::While { lasts }, _, Some(Mode::AllowAll)) if !self.dialogs.is_empty() => {
                self.scope_modes.confirming = Some(Confirming::While(WHILES[*lasts]));
                self.screen = Screen::ConfirmAllowAll;
                vec![]
            }
            // So does allow-all for a session or agent with its calls open (the web asks too).
            (Choosing::Scope { .. }, Some(scope), Some(Mode::AllowAll))
                if self
                    .dialogs
                    .iter()
                    .any(|d| scope.covers(&d.dialog.call.agent, &d.dialog.call.session)) =>
            {
                self.scope_modes.confirming = Some(Confirming::Scope(scope));
                self.screen = Screen::ConfirmAllowAll;
                vec![]
            }
            (Choosing::While { lasts }, _, Some(mode)) => self.set_mode_for(mode, WHILES[*lasts]),
            (Choosing::Scope { .. }, Some(scope), mode) => {
                vec![Effect::SetScopeMode(scope, mode)]
            }
            _ => vec![],
        }
    }

    /// Sets the global mode to `mode` for `lasts`.
    pub(super) fn set_mode_for(&mut self, mode: Mode, lasts: Duration) -> Vec<Effect> {
        self.pending = None;
        self.mode = mode;
        self.say_mode(format!(
            "mode: {} for {} (changing)",
            mode.name(),
            while_text(lasts)
        ));
        vec![Effect::SetModeFor(mode, lasts)]
    }

    /// The barrier gave `scope` its own mode, or sent it back to the global one.
    pub(super) fn scope_mode_changed(&mut self, scope: ModeScope, mode: Option<Mode>) {
        self.scope_modes.given.set(&scope, mode);
        let text = match mode {
            Some(mode) => format!("{scope}: {} (not the global mode)", mode.name()),
            None => format!("{scope}: back to the global mode"),
        };
        self.say_mode(visible(&text).into_owned());
    }

    /// The barrier's word on the global mode's timer.
    pub(super) fn mode_timer_changed(&mut self, timer: TimerState) {
        match timer {
            TimerState::Running(timer) => self.scope_modes.timer = Some(timer),
            TimerState::Returned(mode) => {
                self.scope_modes.timer = None;
                self.pending = None;
                self.mode = mode;
                self.say_mode(format!("mode: back to {} (its while is over)", mode.name()));
            }
            TimerState::Ended => self.scope_modes.timer = None,
        }
    }

    /// What is left of the global mode's while, if it was set for one.
    pub fn mode_time_left(&self) -> Option<(ModeTimer, Duration)> {
        let timer = self.scope_modes.timer?;
        Some((timer, timer.until.saturating_duration_since(self.now.at)))
    }

    /// The mode given to `call`'s session or agent, where it differs from the global one.
    pub fn own_mode(&self, call: &crate::core::call::Call) -> Option<Mode> {
        let applied = self
            .scope_modes
            .given
            .applied(self.mode, &call.agent, &call.session);
        (applied.mode != self.mode).then_some(applied.mode)
    }
}

/// A while as the chooser and the footer say it: `15 min`, `1 h`.
pub fn while_text(lasts: Duration) -> String {
    let mins = lasts.as_secs() / 60;
    match mins % 60 {
        0 => format!("{} h", mins / 60),
        _ => format!("{mins} min"),
    }
}

/// A countdown as the status bar shows it: `29:41`, or `1:05:00` past an hour.
pub fn countdown(left: Duration) -> String {
    let secs = left.as_secs();
    match secs / 3600 {
        0 => format!("{}:{:02}", secs / 60, secs % 60),
        h => format!("{h}:{:02}:{:02}", secs / 60 % 60, secs % 60),
    }
}

#[cfg(test)]
#[path = "scope_modes_tests.rs"]
mod tests;
