//! Rules learned from the human's answers in this console: each answer of the human's is
//! given to the learner with its call's shape, and after `suggest_after` identical answers the
//! narrowest rule is offered in a notice, saved with one key (`L`). Never from another
//! decider's answers (the learner only sees the human's here).

use super::*;
use crate::core::decision::Decider;
use crate::core::event::Outcome;
use crate::core::learn::{Answered, shape_of_call};
use crate::core::rule::Ruling;

impl App {
    /// Feeds a human's answer to the learner; an offer it makes replaces the last one.
    pub(super) fn learn(&mut self, outcome: &Outcome) {
        if outcome.decider != Decider::Human || self.suggest_after == 0 {
            return;
        }
        let ruling = match outcome.decision.name() {
            "allow" => Ruling::Allow,
            "deny" => Ruling::Deny,
            _ => return,
        };
        let Some(shape) = shape_of_call(&outcome.call) else {
            return;
        };
        let answer = Answered {
            tool: outcome.call.tool.clone(),
            kind: outcome.call.kind(&[]),
            subject: outcome.call.subject(),
            shape,
            ruling,
            reason: match ruling {
                Ruling::Deny => outcome.decision.text().map(str::to_string),
                Ruling::Allow | Ruling::Ask => None,
            },
            call_id: outcome.id.0,
        };
        if let Some(offer) = self.learner.record(answer, self.suggest_after) {
            // The key first: a narrow footer cuts the end of a long rule.
            self.notify(format!(
                "L saves it for everyone: {} ({} identical answers)",
                visible(&offer.rule.summary()),
                offer.answers
            ));
            self.offer = Some(offer);
        }
    }

    /// `L`: saves the offered rule, if there is one.
    pub(super) fn save_offer(&mut self) -> Vec<Effect> {
        match self.offer.take() {
            Some(offer) => {
                self.notify(format!("saved: {}", visible(&offer.rule.summary())));
                vec![Effect::SaveRule(offer.rule)]
            }
            None => {
                self.notify("no rule is on offer yet".into());
                vec![]
            }
        }
    }
}
