//! The mode an approved plan moves the console to, chosen with Tab in the plan's approve box:
//! the mode in force (it stays), or any other. Out of plan mode the box starts on allow-read,
//! the mode that lets reads run and asks before every write; in any other mode it starts on
//! staying, so approving a plan never opens the console by itself.

use crate::core::mode::Mode;

/// The choice open in a plan's approve box.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanChoice {
    /// The mode in force when the box opened.
    pub from: Mode,
    /// `None` first (the mode stays), then every other mode in the cycle's order.
    options: Vec<Option<Mode>>,
    at: usize,
}

impl PlanChoice {
    pub fn new(from: Mode) -> PlanChoice {
        let others = Mode::ALL.into_iter().filter(|&m| m != from).map(Some);
        let options: Vec<Option<Mode>> = std::iter::once(None).chain(others).collect();
        let start = match from {
            Mode::Plan => Some(Mode::AllowRead),
            _ => None,
        };
        let at = options.iter().position(|o| *o == start).unwrap_or(0);
        PlanChoice { from, options, at }
    }

    /// Tab: the next choice, round.
    pub fn next(&mut self) {
        self.at = (self.at + 1) % self.options.len();
    }

    /// The mode to change to once the plan is approved; `None`: the mode stays.
    pub fn chosen(&self) -> Option<Mode> {
        self.options[self.at]
    }

    /// What Enter does, in words, below the note: the mode after, and a warning when it lets
    /// the other `open` dialogs through.
    pub fn words(&self, open: usize) -> String {
        let from = self.from.name();
        match self.chosen() {
            None if self.from == Mode::Plan => " approve; the console stays in plan, which \
                refuses every write the plan needs (Tab: switch mode) "
                .to_string(),
            None => format!(" approve; the console stays in {from} (Tab: switch mode) "),
            Some(to) => {
                let warn = match (to, open) {
                    (Mode::AllowAll, 0) => ". NOTE: allow-all lets every later call run unasked",
                    (Mode::AllowAll, _) => {
                        ". NOTE: allow-all lets every later call run unasked, and the other open \
                         dialogs with it"
                    }
                    _ => "",
                };
                format!(
                    " approve, then switch {from} -> {} (Tab: another){warn} ",
                    to.name()
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_plan_mode_the_box_starts_on_allow_read_and_tab_reaches_every_mode_and_staying() {
        let mut choice = PlanChoice::new(Mode::Plan);
        assert_eq!(choice.chosen(), Some(Mode::AllowRead));
        let mut seen = vec![choice.chosen()];
        for _ in 0..5 {
            choice.next();
            seen.push(choice.chosen());
        }
        assert!(seen.contains(&None));
        for mode in Mode::ALL.into_iter().filter(|&m| m != Mode::Plan) {
            assert!(seen.contains(&Some(mode)), "{mode}");
        }
        choice.next();
        assert_eq!(choice.chosen(), Some(Mode::AllowRead), "round");
    }

    #[test]
    fn in_any_other_mode_the_box_starts_on_staying() {
        for mode in Mode::ALL.into_iter().filter(|&m| m != Mode::Plan) {
            assert_eq!(PlanChoice::new(mode).chosen(), None, "{mode}");
        }
        let mut choice = PlanChoice::new(Mode::AllowRead);
        while choice.chosen() != Some(Mode::AllowAll) {
            choice.next();
        }
        assert!(choice.words(2).contains("other open dialogs"));
    }
}
