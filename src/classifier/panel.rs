//! Several classifiers asked as one (`[[classifier]]`): each is asked at once, with its own
//! cache, breaker, timeout and threshold, and the advice holds every one's opinion in config
//! order. Only when all of them clear the call does the advice allow it; a failure, a timeout,
//! an invalid answer or one dissent leaves the dialog with the human.
//!
//! Dropping the panel's future (the human answered first) drops every member's request with it.

use std::sync::Arc;

use tokio::task::JoinSet;

use super::breaker::BreakerState;
use super::model::ModelClassifier;
use crate::core::advice::{Advice, Opinion};
use crate::core::classifier::{BoxFuture, Classifier, ClassifierError, Question};

/// The configured classifiers, at least one. Cheap to clone.
#[derive(Clone)]
pub struct Panel {
    members: Arc<Vec<ModelClassifier>>,
}

impl Panel {
    /// A panel of `members` in order; `None` when there are none.
    pub fn new(members: Vec<ModelClassifier>) -> Option<Panel> {
        (!members.is_empty()).then(|| Panel {
            members: Arc::new(members),
        })
    }

    /// Sends each member's warming request in the background (see [`ModelClassifier::warm`]),
    /// so the first real race does not find a cold model. Needs a tokio runtime.
    pub fn warm(&self) {
        for member in self.members() {
            let member = member.clone();
            tokio::spawn(async move { member.warm().await });
        }
    }

    pub fn members(&self) -> &[ModelClassifier] {
        &self.members
    }

    /// Re-arms every member's breaker (the console's re-arm key).
    pub fn rearm(&self) {
        for member in self.members.iter() {
            member.rearm();
        }
    }

    /// Each member's name and breaker state, for the status bar.
    pub fn states(&self) -> Vec<(String, BreakerState)> {
        self.members
            .iter()
            .map(|m| (m.name(), m.breaker()))
            .collect()
    }

    /// Every member's opinion on `question`, asked at once, in config order.
    pub async fn advise(&self, question: Arc<Question>) -> Advice {
        let mut asked = JoinSet::new();
        for (at, member) in self.members.iter().cloned().enumerate() {
            let question = question.clone();
            asked.spawn(async move { (at, member.opinion(&question).await) });
        }
        let mut opinions: Vec<Option<Opinion>> = vec![None; self.members.len()];
        while let Some(joined) = asked.join_next().await {
            if let Ok((at, opinion)) = joined {
                opinions[at] = Some(opinion);
            }
        }
        let opinions = opinions
            .into_iter()
            .zip(self.members.iter())
            .map(|(o, m)| o.unwrap_or_else(|| Opinion::failed(m.name(), "the request was lost")))
            .collect();
        Advice { opinions }
    }
}

/// One member alone is just that classifier (a failure is an error, shown as such); with
/// several, every opinion is advice, and the advice only allows when all clear.
impl Classifier for Panel {
    fn classify(&self, question: Arc<Question>) -> BoxFuture<Result<Advice, ClassifierError>> {
        if let [only] = self.members.as_slice() {
            return only.classify(question);
        }
        let panel = self.clone();
        Box::pin(async move { Ok(panel.advise(question).await) })
    }

    /// Any member that reviews allow-all makes the panel review it: an alarm only asks.
    fn reviews_allow_all(&self) -> bool {
        self.members.iter().any(|m| m.reviews_allow_all())
    }
}
