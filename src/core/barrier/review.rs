//! Allow-all's review (`review_allow_all`, opt-in): before allow-all lets through a call that
//! only it would pass (not a proven read, not a listed one), the classifier assesses it, and a
//! confident high or critical risk turns the allow into a dialog for the human. The model can
//! never allow or deny anything here: a failure, a timeout or a calm answer leaves the allow
//! as allow-all gave it, and an alarm only asks.

use std::sync::Arc;

use super::Shared;
use crate::core::advice::Advice;
use crate::core::call::Call;
use crate::core::classifier::Question;
use crate::core::classify::Assessment;
use crate::core::mode::Mode;
use crate::core::route::Route;

impl Shared {
    /// The classifier's alarm on `call`, if the review applies in `mode` and the advice
    /// alarms; `None` when the call passes as allow-all gave it.
    pub(super) async fn review(
        &self,
        call: &Arc<Call>,
        assessment: &Assessment,
        mode: Mode,
    ) -> Option<Advice> {
        let classifier = self.classifier.as_ref()?;
        if !classifier.reviews_allow_all() || !only_allow_all_passes(mode, assessment) {
            return None;
        }
        let question = Question::of(call.clone(), assessment).ok()?;
        let advice = classifier.classify(Arc::new(question)).await.ok()?;
        advice.alarms().then_some(advice)
    }
}

/// Whether `mode` is allow-all and allow-all is the only mode that would let the call pass
/// unasked (allow-read would ask): proven reads and listed calls are never reviewed.
pub(super) fn only_allow_all_passes(mode: Mode, assessment: &Assessment) -> bool {
    mode == Mode::AllowAll
        && assessment.route(Mode::AllowAll) == Route::Allow
        && assessment.route(Mode::AllowRead) != Route::Allow
}
