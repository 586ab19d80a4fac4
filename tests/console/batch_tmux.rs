//! One answer for many calls in the real console in a real terminal (tmux): two hooks wait,
//! Space marks both, `n` opens the batch box listing them, the typed reason and Enter deny
//! both, each hook prints that reason, and the audit names the batch on each line. The `/`
//! filter narrows the queue on screen.

use crate::common;
use crate::tmux::{Console, printed};

#[test]
fn two_marked_calls_are_denied_with_one_typed_reason_from_the_batch_box() {
    let Some(console) = Console::start() else {
        return;
    };
    let tui = &console.tmux;
    let first = console.hook("rm -rf build-tmux-batch");
    tui.wait_for("$ rm -rf build-tmux-batch", 10);
    let second = console.hook("touch tmux-batch-file");
    tui.wait_for("queue (2)", 10);
    tui.keys(&["/"]);
    tui.type_text("touch");
    tui.wait_for("queue (1 of 2)", 5);
    tui.keys(&["Escape"]);
    tui.wait_for("queue (2)", 5);
    tui.keys(&["Space", "j", "Space"]);
    tui.wait_for("2 marked", 5);
    tui.keys(&["n"]);
    tui.wait_for("2 of the 2 marked calls get deny", 5);
    tui.type_text("one reason for both");
    tui.wait_for("one reason for both", 5);
    tui.keys(&["Enter"]);
    for hook in [first, second] {
        let out = printed(hook);
        let answer = &out["hookSpecificOutput"];
        assert_eq!(answer["permissionDecision"], "deny", "{out}");
        assert_eq!(answer["permissionDecisionReason"], "one reason for both");
    }
    tui.wait_for("answered 2 calls", 5);
    let audit = common::audit_records(&console.dir.path().join("state/gatehouse/audit.jsonl"));
    let batched: Vec<_> = audit.iter().filter(|r| r["batch"]["size"] == 2).collect();
    assert_eq!(batched.len(), 2, "{audit:?}");
    tui.keys(&["q"]);
    tui.wait_for("EXITED 0", 10);
}
