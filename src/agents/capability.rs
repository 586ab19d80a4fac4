//! The capability table: for each agent and hook event, what a decision can really do there,
//! as verified against the real clients (`shared/realclients/README.md`) or, for Cursor, as
//! its documentation says. The dialects put the row on every call they submit, so the console
//! offers only what the agent can honour.

use crate::core::call::Agent;
use crate::core::caps::{AllowEffect, Caps, NoteEffect};

/// The hook events of every dialect, by what they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Claude Code `PreToolUse`: grant, note to the model, deny reason to the model.
    ClaudePreToolUse,
    /// Claude Code `PermissionRequest`: grant; no channel to the model on allow.
    ClaudePermissionRequest,
    /// Codex `PreToolUse`: cannot grant (an allow decision is ignored, so allow only means "do
    /// not block"); a note rides on `additionalContext` without a decision; deny reaches the
    /// model.
    CodexPreToolUse,
    /// Codex `PermissionRequest`: grants; no note reaches the model (an `additionalContext`
    /// makes Codex reject the whole answer).
    CodexPermissionRequest,
    /// Gemini CLI `BeforeTool`: an allow leaves Gemini's own policy in charge; a note reaches
    /// the model only through the `AfterTool` hook; deny reaches the model.
    GeminiBeforeTool,
    /// Cursor `beforeShellExecution`, `beforeMCPExecution`: `permission` allow or deny with
    /// `user_message`/`agent_message` (documented, not run here).
    CursorShellOrMcp,
    /// Cursor `beforeReadFile`: only `permission`; no message reaches anyone.
    CursorReadFile,
    /// Cursor `preToolUse`: allow or deny with messages (documented, not run here).
    CursorPreToolUse,
    /// Qwen Code `PreToolUse`: runs only on calls Qwen already approved, so it cannot grant;
    /// deny reaches the model; a note reaches the model only through the `PostToolUse` hook.
    QwenPreToolUse,
    /// Qwen Code `PermissionRequest`: fires where Qwen would ask, and grants; deny reaches the
    /// model; a note only through the `PostToolUse` hook (Qwen drops it here).
    QwenPermissionRequest,
    /// Copilot CLI `preToolUse`: grants (even over the user's `--deny-tool`), a note reaches
    /// the model as `additionalContext`, deny reaches the model.
    CopilotPreToolUse,
    /// Copilot CLI `permissionRequest`: grants or denies with a message; no note channel.
    CopilotPermissionRequest,
}

impl Event {
    /// The agent this event belongs to.
    pub fn agent(self) -> Agent {
        match self {
            Event::ClaudePreToolUse | Event::ClaudePermissionRequest => Agent::ClaudeCode,
            Event::CodexPreToolUse | Event::CodexPermissionRequest => Agent::Codex,
            Event::GeminiBeforeTool => Agent::GeminiCli,
            Event::CursorShellOrMcp | Event::CursorReadFile | Event::CursorPreToolUse => {
                Agent::Cursor
            }
            Event::QwenPreToolUse | Event::QwenPermissionRequest => Agent::QwenCode,
            Event::CopilotPreToolUse | Event::CopilotPermissionRequest => Agent::CopilotCli,
        }
    }

    /// What a decision can do on this event.
    pub fn caps(self) -> Caps {
        let caps = |allow, note, reason| Caps {
            allow,
            note,
            reason,
        };
        use AllowEffect::{Grant, Pass};
        match self {
            Event::ClaudePreToolUse => Caps::FULL,
            Event::ClaudePermissionRequest => caps(Grant, NoteEffect::User, true),
            Event::CodexPreToolUse => caps(Pass, NoteEffect::Model, true),
            Event::CodexPermissionRequest => caps(Grant, NoteEffect::None, true),
            Event::GeminiBeforeTool => caps(Pass, NoteEffect::AfterTool, true),
            Event::CursorShellOrMcp | Event::CursorPreToolUse => {
                caps(Grant, NoteEffect::None, true)
            }
            Event::CursorReadFile => caps(Grant, NoteEffect::None, false),
            Event::QwenPreToolUse => caps(Pass, NoteEffect::AfterTool, true),
            Event::QwenPermissionRequest => caps(Grant, NoteEffect::AfterTool, true),
            Event::CopilotPreToolUse => Caps::FULL,
            Event::CopilotPermissionRequest => caps(Grant, NoteEffect::None, true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_events_that_can_grant_say_so() {
        for event in [
            Event::CodexPreToolUse,
            Event::GeminiBeforeTool,
            Event::QwenPreToolUse,
        ] {
            assert_eq!(event.caps().allow, AllowEffect::Pass, "{event:?}");
        }
        for event in [
            Event::ClaudePreToolUse,
            Event::ClaudePermissionRequest,
            Event::CodexPermissionRequest,
            Event::CursorShellOrMcp,
            Event::CursorReadFile,
            Event::CursorPreToolUse,
            Event::QwenPermissionRequest,
            Event::CopilotPreToolUse,
            Event::CopilotPermissionRequest,
        ] {
            assert_eq!(event.caps().allow, AllowEffect::Grant, "{event:?}");
        }
    }

    #[test]
    fn a_note_is_offered_only_where_something_carries_it() {
        assert_eq!(Event::CodexPermissionRequest.caps().note, NoteEffect::None);
        assert_eq!(Event::GeminiBeforeTool.caps().note, NoteEffect::AfterTool);
        assert_eq!(Event::CodexPreToolUse.caps().note, NoteEffect::Model);
        assert!(!Event::CursorReadFile.caps().reason);
        assert_eq!(Event::QwenPreToolUse.caps().note, NoteEffect::AfterTool);
        assert_eq!(
            Event::QwenPermissionRequest.caps().note,
            NoteEffect::AfterTool
        );
        assert_eq!(Event::CopilotPreToolUse.caps().note, NoteEffect::Model);
        assert_eq!(
            Event::CopilotPermissionRequest.caps().note,
            NoteEffect::None
        );
    }
}
