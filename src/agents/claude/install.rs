//! `gatehouse install claude` / `uninstall claude`: gatehouse's hook in Claude Code's settings
//! files (`~/.claude/settings.json`, or under `$CLAUDE_CONFIG_DIR`; the project's
//! `.claude/settings.json`; this checkout's `.claude/settings.local.json`).
//!
//! The hook goes under `hooks.PreToolUse` (or `hooks.PermissionRequest`) as its own matcher
//! group, `{"matcher":"*","hooks":[{"type":"command","command":"… hook claude","timeout":N}]}`,
//! with a timeout longer than the console's ask timeout so that Claude Code never kills the
//! hook first (a killed hook fails open). Every other setting and hook is kept, key order
//! included; installing twice changes nothing; the old file is backed up before a write; a
//! file that is not valid JSON is left untouched. A hook entry is ours when its command runs a
//! program named `gatehouse` with `hook claude`; uninstall removes those and nothing else.
//! All of it is [`hook_file`]'s, over the table's hooks file; only the choice of event is
//! Claude Code's own, and `onFailure: "block"` where the installed Claude Code takes it
//! ([`fail_closed`]).

use super::TABLE;
use super::fail_closed::{self, OnFailure};
use crate::agents::dialect::{InstallRequest, Installed};
use crate::agents::hook_file;
use crate::agents::install_file::InstallError;

/// `gatehouse install claude`: the hook for `--event` (default `PreToolUse`) in the settings
/// file of the request's scope.
pub fn install_for(request: &InstallRequest) -> Result<Installed, InstallError> {
    if request.keep_reviewer {
        return Err(InstallError::Usage(
            "--keep-reviewer is for Codex only; Claude Code has no automatic reviewer".into(),
        ));
    }
    let event = match request.event.as_deref() {
        None | Some("pre-tool-use") | Some("PreToolUse") => "PreToolUse",
        Some("permission-request") | Some("PermissionRequest") => "PermissionRequest",
        Some(other) => {
            return Err(InstallError::Usage(format!(
                "--event {other:?} is not one of Claude Code's: use pre-tool-use (every tool \
                 call, recommended) or permission-request (only the calls it would prompt for)"
            )));
        }
    };
    let on_failure = OnFailure::for_version(fail_closed::installed_version().as_deref());
    install_with(request, event, &on_failure)
}

/// The hook for `event`, failing closed as `on_failure` says, which the notes tell.
pub fn install_with(
    request: &InstallRequest,
    event: &'static str,
    on_failure: &OnFailure,
) -> Result<Installed, InstallError> {
    let extra = on_failure.entry_keys();
    // SessionEnd tells the console the session is over, so it stops counting it as live.
    let events = [event, "SessionEnd"];
    let mut installed = hook_file::install_events_with(&TABLE, request, &events, &extra)?;
    installed.notes.push(on_failure.note());
    Ok(installed)
}

#[cfg(test)]
#[path = "install_tests.rs"]
mod tests;
