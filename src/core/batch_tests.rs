//! What one answer does to each call of a batch: exactly what it would do alone, or the call is
//! left out with why.

use std::sync::Arc;
use std::time::Instant;

use super::*;
use crate::core::call::test_call;
use crate::core::caps::{Caps, NoteEffect};
use crate::core::classify::assess;
use crate::core::route::Route;
use crate::core::rules::{Rules, SessionAllow};
use serde_json::json;

fn dialog(id: u64, line: &str) -> Dialog {
    dialog_of(id, test_call("Bash", json!({ "command": line })))
}

fn dialog_of(id: u64, call: crate::core::call::Call) -> Dialog {
    let assessment = assess(&call, &Rules::default(), &[]);
    Dialog::new(
        CallId(id),
        Arc::new(call),
        assessment,
        Route::Ask,
        Instant::now(),
    )
}

fn no_note(id: u64, line: &str) -> Dialog {
    let mut call = test_call("Bash", json!({ "command": line }));
    call.caps = Caps {
        note: NoteEffect::None,
        ..Caps::FULL
    };
    dialog_of(id, call)
}

#[test]
fn a_batch_allow_always_remembers_each_calls_own_pattern_and_never_a_guarded_one() {
    let dialogs = [
        dialog(1, "rm -rf build"),
        dialog(2, "cat ~/.ssh/id_rsa"),
        dialog(3, "ls && gatehouse rules trust"),
        dialog(4, "touch out.txt"),
    ];
    let plan = Plan::of(BatchAnswer::AllowAlways, &dialogs);
    let always = |text: &str| HumanAnswer::AllowAlways {
        allow: SessionAllow::shell(text).unwrap(),
        note: None,
        lasts: None,
    };
    assert_eq!(
        plan.included,
        vec![
            (CallId(1), always("rm -rf build")),
            (CallId(4), always("touch out.txt")),
        ]
    );
    // A credential and a change of gatehouse's own files: not allowed at all by the batch.
    assert_eq!(
        plan.left,
        vec![(CallId(2), LeftOut::Guarded), (CallId(3), LeftOut::Guarded)]
    );
    assert_eq!(plan.batch(), Some(Batch { id: 1, size: 2 }));
}

#[test]
fn a_note_leaves_out_the_calls_whose_agent_cannot_carry_one_and_a_deny_takes_every_call() {
    let dialogs = [dialog(5, "rm a"), no_note(6, "rm b")];
    let note = BatchAnswer::Allow {
        note: Some("careful".into()),
    };
    let plan = Plan::of(note, &dialogs);
    assert_eq!(plan.included.len(), 1);
    assert_eq!(plan.left, vec![(CallId(6), LeftOut::NoNote)]);
    // Without a note, the same calls are both allowed; a deny reaches each with its reason.
    let plain = Plan::of(BatchAnswer::Allow { note: None }, &dialogs);
    assert_eq!(plain.included.len(), 2);
    let reason = "not now".to_string();
    let deny = Plan::of(
        BatchAnswer::Deny {
            reason: reason.clone(),
        },
        &dialogs,
    );
    assert!(deny.left.is_empty());
    assert!(deny.included.iter().all(|(_, a)| *a
        == HumanAnswer::Deny {
            reason: reason.clone()
        }));
    assert_eq!(deny.batch(), Some(Batch { id: 5, size: 2 }));
}

#[test]
fn an_empty_plan_names_no_batch() {
    let plan = Plan::of(BatchAnswer::AllowAlways, &[dialog(7, "cat ~/.ssh/id_rsa")]);
    assert_eq!(plan.batch(), None);
}

#[test]
fn calls_share_a_shape_when_allow_always_would_propose_the_same_thing_for_the_same_kind() {
    let a = dialog(1, "rm -rf build");
    let b = dialog(2, "rm -rf build");
    let c = dialog(3, "rm -rf dist");
    let read = dialog_of(4, test_call("Read", json!({"file_path": "rm -rf build"})));
    assert!(same_shape(&a, &b));
    assert!(!same_shape(&a, &c));
    assert!(!same_shape(&a, &read));
    // Two fetches from one host share it, whatever their paths.
    let x = dialog(5, "curl -s https://api.github.com/a");
    let y = dialog(6, "curl -s https://api.github.com/b");
    assert!(same_shape(&x, &y));
}
