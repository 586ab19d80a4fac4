//! The advice key: the human asks the classifier about the focused dialog in any mode. The
//! barrier decides what the answer may do (only a race's allow resolves); the console only
//! asks, or says in the footer why it cannot.

use super::{App, Effect};
use crate::core::event::ClassifierState;

/// Whether the classifier re-arm key has something to re-arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rearm {
    /// A classifier is set up: `r` re-arms it after its breaker tripped.
    Offered,
    /// None is set up: `r` says so.
    NotSetUp,
}

impl App {
    /// Asks the classifier about the focused dialog, or says why it cannot.
    pub(super) fn ask_advice(&mut self) -> Vec<Effect> {
        let Some(open) = self.focused() else {
            return vec![];
        };
        let (id, asking) = (
            open.dialog.id,
            open.classifier == Some(ClassifierState::Asking),
        );
        match self.rearm {
            Rearm::NotSetUp => {
                self.notify(
                    "c asks a classifier for advice, and none is set up ([classifier] in the config)"
                        .into(),
                );
                vec![]
            }
            Rearm::Offered if asking => {
                self.notify("the classifier is already asked about this call".into());
                vec![]
            }
            Rearm::Offered => vec![Effect::AskAdvice(id)],
        }
    }
}
