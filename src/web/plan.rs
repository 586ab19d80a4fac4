//! A plan approved from the web page: the answer a paired device sends for a plan dialog, with
//! the mode the console moves to once the plan is approved. As the mode buttons do, a move to
//! allow-all asks the device to confirm first.

use crate::core::call::ToolKind;
use crate::core::event::Dialog;
use crate::core::mode::Mode;
use crate::core::prompter::HumanAnswer;

/// Why a plan answer was not taken.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum PlanRefusal {
    /// The dialog presents no plan: nothing to approve, and no mode to move to with it.
    NotAPlan,
    /// allow-all was chosen and not yet confirmed: the words to show before it is sent again.
    Confirm(&'static str),
}

impl PlanRefusal {
    pub(super) fn words(&self) -> &'static str {
        match self {
            PlanRefusal::NotAPlan => {
                "this call presents no plan: answer it with allow or deny instead"
            }
            PlanRefusal::Confirm(why) => why,
        }
    }
}

/// The answer approving `dialog`'s plan with `note`, then moving to `mode` (`None`: the mode
/// stays); `confirmed` once the device was shown what allow-all does.
pub(super) fn approve(
    dialog: &Dialog,
    mode: Option<Mode>,
    note: String,
    confirmed: bool,
) -> Result<HumanAnswer, PlanRefusal> {
    if dialog.assessment.kind != ToolKind::Plan {
        return Err(PlanRefusal::NotAPlan);
    }
    if mode == Some(Mode::AllowAll) && !confirmed {
        return Err(PlanRefusal::Confirm(
            "allow-all lets every later call through but denied ones: send again to approve \
             the plan and switch",
        ));
    }
    Ok(HumanAnswer::AllowPlan {
        mode,
        note: (!note.is_empty()).then_some(note),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::call::test_call;
    use crate::core::classify::assess;
    use crate::core::route::Route;
    use crate::core::rules::Rules;
    use serde_json::json;
    use std::sync::Arc;
    use std::time::Instant;

    fn dialog(kind: ToolKind) -> Dialog {
        let call = crate::core::call::Call {
            kind: Some(kind),
            ..test_call("ExitPlan", json!({"plan": "1. do it"}))
        };
        let assessment = assess(&call, &Rules::default(), &[]);
        Dialog::new(
            crate::core::call::CallId(1),
            Arc::new(call),
            assessment,
            Route::Ask,
            Instant::now(),
        )
    }

    #[test]
    fn a_plan_is_approved_with_its_note_and_mode_and_allow_all_is_confirmed_first() {
        let plan = dialog(ToolKind::Plan);
        assert_eq!(
            approve(&plan, Some(Mode::Auto), "go".into(), false),
            Ok(HumanAnswer::AllowPlan {
                mode: Some(Mode::Auto),
                note: Some("go".into())
            })
        );
        let unconfirmed = approve(&plan, Some(Mode::AllowAll), String::new(), false);
        assert!(matches!(unconfirmed, Err(PlanRefusal::Confirm(_))));
        assert!(approve(&plan, Some(Mode::AllowAll), String::new(), true).is_ok());
        assert_eq!(
            approve(&dialog(ToolKind::Other), None, String::new(), true),
            Err(PlanRefusal::NotAPlan)
        );
    }
}
