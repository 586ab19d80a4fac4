//! The mode hotkey: no sequence of presses allows a dialog that the mode it ends in would not.
//!
//! A step that only closes routes (toward asking or refusing) is sent to the barrier at once.
//! A step that opens some route waits as the *pending* mode until the hotkey has been left
//! alone for [`SETTLE`]; entering allow-all while dialogs are open then asks once. Time comes
//! in with every message (`Now`), so all of this stays free of clocks.

use super::scope_modes::Confirming;
use super::*;

/// How long the hotkey must be left alone before a mode that lets more run takes effect.
pub const SETTLE: Duration = Duration::from_secs(1);

/// A mode the human stepped to that would let more run than the mode in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PendingMode {
    pub mode: Mode,
    /// When it takes effect if no other mode key comes first.
    pub due: Instant,
}

/// Which way a mode key steps through the cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Forward,
    Back,
}

/// How the open dialogs fared under the mode change the barrier is carrying out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ModeTally {
    pub allowed: usize,
    pub denied: usize,
}

impl App {
    /// The mode the human has chosen: the pending one if there is one, else the one in force.
    pub fn chosen_mode(&self) -> Mode {
        self.pending.map_or(self.mode, |p| p.mode)
    }

    /// True while the focused dialog is too new to take decision keys.
    pub fn arming(&self) -> bool {
        self.now.at < self.armed_at()
    }

    /// When the focused dialog takes decision keys: the arming delay its offer carries after
    /// it was shown.
    pub fn armed_at(&self) -> Instant {
        let arming = self
            .focused()
            .map_or(ARMING, |open| open.dialog.offer.arming);
        self.shown_at + arming
    }

    /// The next moment `update` has something to do without any input, if there is one.
    pub fn wake_at(&self) -> Option<Instant> {
        let arming = self.arming().then_some(self.armed_at());
        let pending = self.pending.map(|p| p.due);
        arming.into_iter().chain(pending).min()
    }

    /// A mode key was pressed.
    pub(super) fn step_mode(&mut self, step: Step) -> Vec<Effect> {
        let from = self.chosen_mode();
        let to = match step {
            Step::Forward => self.cycle.next(from),
            Step::Back => self.cycle.previous(from),
        };
        if Mode::widens(self.mode, to) {
            self.pending = Some(PendingMode {
                mode: to,
                due: self.now.at + SETTLE,
            });
            return vec![];
        }
        self.pending = None;
        if to == self.mode {
            self.say_mode(format!("mode: still {}", to.name()));
            return vec![];
        }
        self.set_mode(to)
    }

    /// Called with every message: a pending mode whose time has come takes effect, or asks
    /// first when it is allow-all and dialogs are open. Waits while another screen is up.
    pub(super) fn settle_pending(&mut self) -> Vec<Effect> {
        let Some(pending) = self.pending else {
            return vec![];
        };
        if self.now.at < pending.due || self.screen != Screen::Main {
            return vec![];
        }
        if pending.mode == Mode::AllowAll && !self.dialogs.is_empty() {
            self.screen = Screen::ConfirmAllowAll;
            return vec![];
        }
        self.pending = None;
        self.set_mode(pending.mode)
    }

    /// A key while allow-all waits for its confirmation: `y` or Enter enters it, anything
    /// else goes back to the mode in force.
    pub(super) fn confirm_allow_all(&mut self, key: &KeyEvent) -> Vec<Effect> {
        self.screen = Screen::Main;
        let yes = keymap::intent_of(key) == Some(Intent::AllowOnce)
            || keymap::box_key(key) == BoxKey::Submit;
        // Allow-all chosen for a while (`T`) asks the same way.
        match self.scope_modes.confirming.take() {
            Some(Confirming::While(lasts)) if yes => {
                return self.set_mode_for(Mode::AllowAll, lasts);
            }
            Some(Confirming::While(_)) => {
                // A widening still settling from the mode keys goes too: the answer was no.
                self.pending = None;
                self.say_mode(format!(
                    "allow-all for a while not entered: still {}",
                    self.mode.name()
                ));
                return vec![];
            }
            Some(Confirming::Scope(scope)) if yes => {
                return vec![Effect::SetScopeMode(scope, Some(Mode::AllowAll))];
            }
            Some(Confirming::Scope(scope)) => {
                self.say_mode(format!("allow-all not given to {scope}"));
                return vec![];
            }
            None => {}
        }
        let Some(pending) = self.pending.take() else {
            return vec![];
        };
        if yes {
            return self.set_mode(pending.mode);
        }
        self.say_mode(format!(
            "{} not entered: still {}",
            pending.mode.name(),
            self.mode.name()
        ));
        vec![]
    }

    fn set_mode(&mut self, mode: Mode) -> Vec<Effect> {
        self.mode = mode;
        self.tally = ModeTally::default();
        self.say_mode(format!("mode: {} (changing)", mode.name()));
        vec![Effect::SetMode(mode)]
    }

    /// The barrier finished a mode change: the footer says what it did for a while.
    pub(super) fn mode_changed(&mut self, mode: Mode, refusing: usize) {
        let ModeTally { allowed, denied } = std::mem::take(&mut self.tally);
        let dialogs = |n: usize| match n {
            1 => "1 open dialog".to_string(),
            n => format!("{n} open dialogs"),
        };
        let did = match (allowed, denied) {
            (0, 0) => "no open dialog resolved".to_string(),
            (n, 0) => format!("{} allowed", dialogs(n)),
            (0, n) => format!("{} denied", dialogs(n)),
            (a, d) => format!("{} allowed, {d} denied", dialogs(a)),
        };
        let grace = match refusing {
            0 => String::new(),
            n => format!(
                "; {} refused in {} s unless you step back (Tab)",
                dialogs(n),
                crate::core::barrier::REFUSAL_GRACE.as_secs()
            ),
        };
        self.say_mode(format!("mode: {}: {did}{grace}", mode.name()));
    }

    /// Shows `text` about the mode in the footer for [`MODE_NOTICE_FOR`], in place of any
    /// other notice: the newest wins.
    pub(super) fn say_mode(&mut self, text: String) {
        self.mode_notice = Some((text, self.now.at + MODE_NOTICE_FOR));
        self.notice = None;
    }
}
