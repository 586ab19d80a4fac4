//! The console's live mode: one policy for every agent at once, cycled by a hotkey.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::route::{Route, Row, route};

/// What the console does with calls that no rule settles (see `route`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Mode {
    /// Everything that is not denied or doomed passes.
    AllowAll,
    /// Proven reads pass; everything else asks the human.
    #[default]
    AllowRead,
    /// As allow-read, but unverified shell lines race a classifier against the human.
    Auto,
    /// As auto, and unverified MCP calls race the classifier too.
    AutoMcp,
    /// Every call that is not refused outright asks the human.
    BlockAll,
    /// The plan is reviewed, nothing executes: proven reads pass, the plan the agent presents
    /// for approval is asked, every other call is refused at once with a reason that tells the
    /// agent it is in plan mode.
    Plan,
}

impl Mode {
    pub const ALL: [Mode; 6] = [
        Mode::AllowAll,
        Mode::AllowRead,
        Mode::Auto,
        Mode::AutoMcp,
        Mode::BlockAll,
        Mode::Plan,
    ];

    /// The name used in config, flags, the wire and the audit log.
    pub fn name(self) -> &'static str {
        match self {
            Mode::AllowAll => "allow-all",
            Mode::AllowRead => "allow-read",
            Mode::Auto => "auto",
            Mode::AutoMcp => "auto+mcp",
            Mode::BlockAll => "block-all",
            Mode::Plan => "plan",
        }
    }

    /// True when some call would be routed more openly under `to` than under `from` (reject,
    /// ask, race, allow, from closed to open): a change the console makes only once the hotkey
    /// has been left alone.
    pub fn widens(from: Mode, to: Mode) -> bool {
        fn openness(route: Route) -> u8 {
            match route {
                Route::Reject => 0,
                Route::Ask => 1,
                Route::Race => 2,
                Route::Allow => 3,
            }
        }
        Row::ALL
            .iter()
            .any(|&row| openness(route(to, row)) > openness(route(from, row)))
    }

    /// What the mode does, in one sentence, for the console's help.
    pub fn describe(self) -> &'static str {
        match self {
            Mode::AllowAll => "everything that is not denied or doomed passes",
            Mode::AllowRead => "proven reads pass; everything else asks you",
            Mode::Auto => "as allow-read, but unproven shell lines race the classifier against you",
            Mode::AutoMcp => "as auto, and unproven MCP calls race the classifier too",
            Mode::BlockAll => "every call that is not refused outright asks you",
            Mode::Plan => "proven reads pass; everything else is refused while the agent plans",
        }
    }

    /// The reason sent to the agent when this mode itself refuses a call (not a denied command
    /// or a rule): in plan mode it tells the agent what to do instead.
    pub fn refusal(self) -> String {
        match self {
            Mode::Plan => "gatehouse is in plan mode: nothing may run or change while the plan \
                           is reviewed. Only read. Finish your plan, then ask the user to leave \
                           plan mode before you carry it out."
                .to_string(),
            Mode::AllowAll | Mode::AllowRead | Mode::Auto | Mode::AutoMcp | Mode::BlockAll => {
                format!("gatehouse: refused by the {} mode", self.name())
            }
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A mode name that is not one of the six.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown mode {given:?}; the modes are allow-all, allow-read, auto, auto+mcp, block-all, plan"
)]
pub struct UnknownMode {
    pub given: String,
}

impl FromStr for Mode {
    type Err = UnknownMode;

    /// Case-insensitive; `_` and `-` are interchangeable and `auto-mcp` means `auto+mcp`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let folded = s.trim().to_ascii_lowercase().replace('_', "-");
        match folded.as_str() {
            "allow-all" => Ok(Mode::AllowAll),
            "allow-read" => Ok(Mode::AllowRead),
            "auto" => Ok(Mode::Auto),
            "auto+mcp" | "auto-mcp" => Ok(Mode::AutoMcp),
            "block-all" => Ok(Mode::BlockAll),
            "plan" => Ok(Mode::Plan),
            _ => Err(UnknownMode {
                given: s.to_string(),
            }),
        }
    }
}

impl From<Mode> for String {
    fn from(mode: Mode) -> String {
        mode.name().to_string()
    }
}

impl TryFrom<String> for Mode {
    type Error = UnknownMode;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

/// The order the mode hotkey walks through. Never empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModeCycle(Vec<Mode>);

impl Default for ModeCycle {
    /// Most restrictive to most permissive, wrapping back to the safe end; plan mode comes
    /// after block-all.
    fn default() -> Self {
        ModeCycle(vec![
            Mode::BlockAll,
            Mode::Plan,
            Mode::AllowRead,
            Mode::Auto,
            Mode::AutoMcp,
            Mode::AllowAll,
        ])
    }
}

impl ModeCycle {
    /// A cycle of the given modes, or `None` when the list is empty.
    pub fn new(modes: Vec<Mode>) -> Option<Self> {
        (!modes.is_empty()).then_some(ModeCycle(modes))
    }

    pub fn modes(&self) -> &[Mode] {
        &self.0
    }

    /// The mode after `current`; a mode outside the cycle goes to the cycle's first mode.
    pub fn next(&self, current: Mode) -> Mode {
        match self.0.iter().position(|&m| m == current) {
            Some(i) => self.0[(i + 1) % self.0.len()],
            None => self.0[0],
        }
    }

    /// The mode before `current`; a mode outside the cycle goes to the cycle's first mode.
    pub fn previous(&self, current: Mode) -> Mode {
        let n = self.0.len();
        match self.0.iter().position(|&m| m == current) {
            Some(i) => self.0[(i + n - 1) % n],
            None => self.0[0],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_case_insensitively_and_round_trip() {
        for mode in Mode::ALL {
            assert_eq!(mode.name().parse::<Mode>(), Ok(mode));
            assert_eq!(mode.name().to_uppercase().parse::<Mode>(), Ok(mode));
        }
        assert_eq!("Auto_MCP".parse::<Mode>(), Ok(Mode::AutoMcp));
    }

    #[test]
    fn a_bad_mode_name_lists_the_good_ones() {
        let err = "yolo".parse::<Mode>().unwrap_err().to_string();
        assert!(err.contains("\"yolo\""), "{err}");
        for mode in Mode::ALL {
            assert!(err.contains(mode.name()), "{err}");
        }
    }

    #[test]
    fn the_default_cycle_runs_from_safe_to_permissive_and_wraps_to_safe() {
        let cycle = ModeCycle::default();
        let mut mode = Mode::BlockAll;
        let mut seen = vec![mode];
        for _ in 0..6 {
            mode = cycle.next(mode);
            seen.push(mode);
        }
        assert_eq!(
            seen,
            [
                Mode::BlockAll,
                Mode::Plan,
                Mode::AllowRead,
                Mode::Auto,
                Mode::AutoMcp,
                Mode::AllowAll,
                Mode::BlockAll
            ]
        );
    }

    #[test]
    fn stepping_back_undoes_a_step_forward() {
        let cycle = ModeCycle::default();
        for mode in Mode::ALL {
            assert_eq!(cycle.previous(cycle.next(mode)), mode);
        }
        assert_eq!(cycle.previous(Mode::BlockAll), Mode::AllowAll);
        assert_eq!(cycle.previous(Mode::AllowRead), Mode::Plan);
        assert_eq!(cycle.previous(Mode::Plan), Mode::BlockAll);
    }

    #[test]
    fn only_changes_that_open_some_route_widen() {
        assert!(Mode::widens(Mode::AllowRead, Mode::Auto));
        assert!(Mode::widens(Mode::BlockAll, Mode::AllowRead));
        assert!(Mode::widens(Mode::AutoMcp, Mode::AllowAll));
        assert!(!Mode::widens(Mode::AllowAll, Mode::BlockAll));
        assert!(!Mode::widens(Mode::Auto, Mode::AllowRead));
        assert!(!Mode::widens(Mode::AllowRead, Mode::AllowRead));
        assert!(!Mode::widens(Mode::AllowRead, Mode::Plan));
        assert!(
            Mode::widens(Mode::Plan, Mode::BlockAll),
            "plan rejects what block-all asks"
        );
    }

    #[test]
    fn the_plan_refusal_tells_the_agent_to_finish_its_plan_and_ask_the_user() {
        let reason = Mode::Plan.refusal();
        assert!(reason.contains("plan mode"), "{reason}");
        assert!(reason.contains("Finish your plan"), "{reason}");
        assert!(
            reason.contains("ask the user to leave plan mode"),
            "{reason}"
        );
        assert!(!Mode::BlockAll.refusal().contains("plan"));
    }

    #[test]
    fn a_mode_outside_a_short_cycle_enters_at_its_start() {
        let cycle = ModeCycle::new(vec![Mode::AllowRead, Mode::Auto]).unwrap();
        assert_eq!(cycle.next(Mode::AllowAll), Mode::AllowRead);
        assert_eq!(cycle.next(Mode::Auto), Mode::AllowRead);
        assert!(ModeCycle::new(vec![]).is_none());
    }
}
