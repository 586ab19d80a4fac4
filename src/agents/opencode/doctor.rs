//! OpenCode in `gatehouse agents`: its row of the capability table (OpenCode's one question,
//! `permission.asked`, answered over HTTP) and its lines in the report. It is not a hook
//! dialect (no hook to parse, render or install), so the registry does not list it; the doctor
//! adds these after the dialects.

use std::fmt::Write as _;

use super::call::CAPS;
use crate::agents::dialect::{EventSpec, FailMode, Source};

/// The events OpenCode asks on, as the capability table shows them. With no console attached,
/// OpenCode's own prompt decides (its request waits for whoever answers).
pub const EVENTS: &[EventSpec] = &[EventSpec::question(
    "permission.asked",
    CAPS,
    FailMode::ToAgent,
)];

/// Where its row comes from.
pub const SOURCE: Source = Source::Verified("OpenCode 1.18.33");

/// The name people read.
pub const DISPLAY: &str = "OpenCode";

/// The report's lines for OpenCode: where its program is, and how to attach to it.
pub fn report(out: &mut String, program: &str) {
    let _ = writeln!(
        out,
        "{DISPLAY} (`gatehouse attach opencode URL`): {program}"
    );
    let _ = writeln!(
        out,
        "  no hook: the console attaches to a running `opencode serve` (`gatehouse attach \
         opencode URL`, or [[opencode]] url = \"…\" in the config); it speaks the 1.x API or \
         2.x's /api, whichever the server serves, and with no URL attaches to the 2.x service \
         registered in $XDG_STATE_HOME/opencode/service.json"
    );
}
