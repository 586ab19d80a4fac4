//! The global mode set for a while ("auto for 30 minutes"): when the while is over it goes
//! back to the mode before. Changing the mode by hand, or setting another while, ends the
//! timer. The change, its return and a timer ended by hand are written to the audit log.
//! The ceilings and the floor apply to the mode set for a while as to any mode: they cap the
//! route, not the mode.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::Shared;
use crate::core::audit;
use crate::core::event::{Event, ModeTimer, TimerState};
use crate::core::mode::Mode;

/// The timer of a mode set for a while.
#[derive(Debug, Clone, Copy)]
pub(super) struct Timer {
    pub(super) shown: ModeTimer,
    /// Tells this timer from a later one: a return that finds another serial does nothing.
    serial: u64,
}

/// The audit line of a mode change with a timer (it carries no `id`: it is not a decision).
#[derive(Serialize)]
struct ModeLine<'a> {
    time: String,
    /// `timed` (set for a while), `returned` (the while is over), `ended` (changed by hand).
    mode_change: &'a str,
    mode: Mode,
    from: Mode,
    #[serde(skip_serializing_if = "Option::is_none")]
    for_secs: Option<u64>,
}

impl Shared {
    /// Sets the global mode to `mode` for `lasts`, then back to the mode in force now, unless
    /// the mode is changed by hand (or set for another while) first. Returns how many open
    /// dialogs the change settled now.
    pub(super) fn set_mode_for(self: &Arc<Self>, mode: Mode, lasts: Duration) -> usize {
        let mut from = mode;
        let mut serial = 0;
        let (resolved, refusing) = self.change_modes(|state| {
            // A while set over another goes back to where the first would have.
            from = state.timer.map_or(state.mode, |t| t.shown.back_to);
            serial = state.timer.map_or(0, |t| t.serial) + 1;
            state.mode = mode;
            state.timer = Some(Timer {
                shown: ModeTimer {
                    mode,
                    back_to: from,
                    until: Instant::now() + lasts,
                },
                serial,
            });
        });
        self.audit_mode("timed", mode, from, Some(lasts.as_secs()));
        self.emit(Event::ModeChanged {
            mode,
            resolved,
            refusing,
        });
        if let Some(timer) = self.mode_timer() {
            self.emit(Event::ModeTimer(TimerState::Running(timer)));
        }
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let shared = self.clone();
            // Cancellation: the task only sleeps; if the timer was replaced or ended by then,
            // its serial no longer matches and it does nothing.
            runtime.spawn(async move {
                tokio::time::sleep(lasts).await;
                shared.mode_time_up(serial);
            });
        }
        resolved
    }

    /// The timer with `serial` is due: the mode goes back, if that timer still runs.
    fn mode_time_up(self: &Arc<Self>, serial: u64) {
        let mut shown = None;
        let (resolved, refusing) = self.change_modes(|state| {
            let Some(timer) = state.timer.filter(|t| t.serial == serial) else {
                return;
            };
            state.mode = timer.shown.back_to;
            state.timer = None;
            shown = Some(timer.shown);
        });
        let Some(timer) = shown else {
            return;
        };
        self.audit_mode("returned", timer.back_to, timer.mode, None);
        self.emit(Event::ModeChanged {
            mode: timer.back_to,
            resolved,
            refusing,
        });
        self.emit(Event::ModeTimer(TimerState::Returned(timer.back_to)));
    }

    /// The global mode changed by hand while a timer ran: the timer is over (audited).
    pub(super) fn timer_ended_by_hand(&self, ended: Option<ModeTimer>, now: Mode) {
        if let Some(timer) = ended {
            self.audit_mode("ended", now, timer.mode, None);
            self.emit(Event::ModeTimer(TimerState::Ended));
        }
    }

    /// The timer running now, if any.
    pub(super) fn mode_timer(&self) -> Option<ModeTimer> {
        self.lock().timer.map(|t| t.shown)
    }

    fn audit_mode(&self, change: &str, mode: Mode, from: Mode, for_secs: Option<u64>) {
        let line = ModeLine {
            time: audit::now_rfc3339(),
            mode_change: change,
            mode,
            from,
            for_secs,
        };
        let written = self.audit.write_other(&line);
        self.report_audit(&written);
    }
}
