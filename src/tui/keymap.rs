//! Keys are data: one table maps keys to intents, and the footer hints and the help screen are
//! drawn from the same table, so they cannot drift apart. A second table words the decision
//! keys for what they really do in the agent a dialog came from ([`offered`]): the footer and
//! the help read the key table through it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::core::caps::{AllowEffect, Caps, NoteEffect};
use crate::core::offer::Offer;

/// What a key asks for, before the model decides whether it applies now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    AllowOnce,
    AllowAlways,
    AllowWithNote,
    Deny,
    Edit,
    CycleMode,
    CycleModeBack,
    ScopeMode,
    ModeWhile,
    Next,
    Previous,
    ScrollDown,
    ScrollUp,
    Mark,
    MarkShape,
    Filter,
    Sort,
    RearmClassifier,
    AskAdvice,
    Copy,
    Page,
    Rules,
    Web,
    Revoke,
    SaveOffer,
    Activity,
    Help,
    Quit,
}

impl Intent {
    /// Intents that answer a dialog: ignored while a new dialog is arming.
    pub fn decides(self) -> bool {
        matches!(
            self,
            Intent::AllowOnce
                | Intent::AllowAlways
                | Intent::AllowWithNote
                | Intent::Deny
                | Intent::Edit
        )
    }
}

/// One row of the key table.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    /// How the key is written in hints and help.
    pub keys: &'static str,
    /// The short footer hint.
    pub hint: &'static str,
    /// The help screen's line.
    pub help: &'static str,
    pub intent: Intent,
    /// Shown in the footer only when a dialog is open.
    pub needs_dialog: bool,
    matches: fn(&KeyEvent) -> bool,
}

fn plain(key: &KeyEvent, c: char) -> bool {
    key.code == KeyCode::Char(c)
        && !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}

pub const KEYMAP: &[Binding] = &[
    Binding {
        keys: "y/1",
        hint: "allow",
        help: "allow this call once",
        intent: Intent::AllowOnce,
        needs_dialog: true,
        matches: |k| plain(k, 'y') || plain(k, '1'),
    },
    Binding {
        keys: "a/2",
        hint: "always",
        help: "allow, and allow the same for the rest of this agent session (edit the pattern, Enter to confirm)",
        intent: Intent::AllowAlways,
        needs_dialog: true,
        matches: |k| plain(k, 'a') || plain(k, '2'),
    },
    Binding {
        keys: "e",
        hint: "allow+note",
        help: "allow with a note the model reads after the result",
        intent: Intent::AllowWithNote,
        needs_dialog: true,
        matches: |k| plain(k, 'e'),
    },
    Binding {
        keys: "n/3",
        hint: "deny",
        help: "deny, with a reason the model reads (empty: \"denied by user\")",
        intent: Intent::Deny,
        needs_dialog: true,
        matches: |k| plain(k, 'n') || plain(k, '3'),
    },
    Binding {
        keys: "E",
        hint: "edit",
        help: "edit the command, then allow the edited line once (judged afresh; never always)",
        intent: Intent::Edit,
        needs_dialog: true,
        matches: |k| plain(k, 'E'),
    },
    Binding {
        keys: "⇧Tab",
        hint: "mode",
        help: "next mode: one that lets less run acts at once, one that lets more run after 1 s untouched (allow-all asks if dialogs are open)",
        intent: Intent::CycleMode,
        needs_dialog: false,
        matches: |k| k.code == KeyCode::BackTab,
    },
    Binding {
        keys: "Tab",
        hint: "mode back",
        help: "step back to the previous mode, under the same rules",
        intent: Intent::CycleModeBack,
        needs_dialog: false,
        matches: |k| k.code == KeyCode::Tab,
    },
    Binding {
        keys: "M",
        hint: "own mode",
        help: "give the focused call's session, or every session of its agent, its own mode (or back to the global one); the ceilings still cap it",
        intent: Intent::ScopeMode,
        needs_dialog: true,
        matches: |k| plain(k, 'M'),
    },
    Binding {
        keys: "T",
        hint: "timed",
        help: "set the mode for a while (15 min to 2 h), then back to the mode before; changing the mode by hand ends the while",
        intent: Intent::ModeWhile,
        needs_dialog: false,
        matches: |k| plain(k, 'T'),
    },
    Binding {
        keys: "j/↓",
        hint: "next",
        help: "focus the next call in the queue",
        intent: Intent::Next,
        needs_dialog: true,
        matches: |k| plain(k, 'j') || k.code == KeyCode::Down,
    },
    Binding {
        keys: "k/↑",
        hint: "prev",
        help: "focus the previous call in the queue",
        intent: Intent::Previous,
        needs_dialog: true,
        matches: |k| plain(k, 'k') || k.code == KeyCode::Up,
    },
    Binding {
        keys: "PgDn",
        hint: "scroll",
        help: "scroll a long command, file or diff down",
        intent: Intent::ScrollDown,
        needs_dialog: true,
        matches: |k| k.code == KeyCode::PageDown,
    },
    Binding {
        keys: "PgUp",
        hint: "",
        help: "scroll back up",
        intent: Intent::ScrollUp,
        needs_dialog: true,
        matches: |k| k.code == KeyCode::PageUp,
    },
    Binding {
        keys: "Space",
        hint: "mark",
        help: "mark or unmark the call in front for one answer to many: with calls marked, y/a/e/n open a box that lists which calls get the answer and which are left out and why (Enter sends, Esc keeps the marks)",
        intent: Intent::Mark,
        needs_dialog: true,
        matches: |k| plain(k, ' '),
    },
    Binding {
        keys: "*",
        hint: "",
        help: "mark every call shown of the focused call's shape (the same kind of tool, and the same command, host, file or tool its allow-always would propose)",
        intent: Intent::MarkShape,
        needs_dialog: true,
        matches: |k| plain(k, '*'),
    },
    Binding {
        keys: "/",
        hint: "filter",
        help: "filter the queue: type a piece of the agent, session, tool or command (Enter keeps it, Esc clears it)",
        intent: Intent::Filter,
        needs_dialog: true,
        matches: |k| plain(k, '/'),
    },
    Binding {
        keys: "O",
        hint: "",
        help: "order the queue by arrival or by time left before the ask timeout",
        intent: Intent::Sort,
        needs_dialog: true,
        matches: |k| plain(k, 'O'),
    },
    Binding {
        keys: "r",
        hint: "",
        help: "re-arm the classifier after its breaker tripped (says so when none is set up)",
        intent: Intent::RearmClassifier,
        needs_dialog: false,
        matches: |k| plain(k, 'r'),
    },
    Binding {
        keys: "c",
        hint: "",
        help: "ask the classifier's advice, in any mode (outside auto, advice only)",
        intent: Intent::AskAdvice,
        needs_dialog: true,
        matches: |k| plain(k, 'c'),
    },
    Binding {
        keys: "C",
        hint: "copy",
        help: "copy the call's command, path or subject to the clipboard (through the terminal, OSC 52)",
        intent: Intent::Copy,
        needs_dialog: true,
        matches: |k| plain(k, 'C'),
    },
    Binding {
        keys: "o",
        hint: "open",
        help: "open the call's whole subject (a long command, file or diff) in $PAGER (less if unset)",
        intent: Intent::Page,
        needs_dialog: true,
        matches: |k| plain(k, 'o'),
    },
    Binding {
        keys: "s",
        hint: "rules",
        help: "every rule in force: the config's denied and safe commands, the policy files, the session and saved rules (origin, hits); x revokes a session rule or deletes a saved one",
        intent: Intent::Rules,
        needs_dialog: false,
        matches: |k| plain(k, 's'),
    },
    Binding {
        keys: "W",
        hint: "",
        help: "pair a phone with the web console: a one-time link as a QR code (good once, for two minutes), and the paired devices; x unpairs one",
        intent: Intent::Web,
        needs_dialog: false,
        matches: |k| plain(k, 'W'),
    },
    Binding {
        keys: "x",
        hint: "",
        help: "in the session rules: revoke the rule in front (later calls it covered ask again)",
        intent: Intent::Revoke,
        needs_dialog: false,
        matches: |k| plain(k, 'x') || k.code == KeyCode::Delete,
    },
    Binding {
        keys: "L",
        hint: "save offer",
        help: "save the rule offered from your repeated answers (for everyone)",
        intent: Intent::SaveOffer,
        needs_dialog: false,
        matches: |k| plain(k, 'L'),
    },
    Binding {
        keys: "l",
        hint: "log",
        help: "open the activity log's entries whole (subject, reason or note, how it was routed, who decided); j/k older and newer",
        intent: Intent::Activity,
        needs_dialog: false,
        matches: |k| plain(k, 'l'),
    },
    Binding {
        keys: "?",
        hint: "help",
        help: "show or hide this help",
        intent: Intent::Help,
        needs_dialog: false,
        matches: |k| plain(k, '?'),
    },
    Binding {
        keys: "q",
        hint: "quit",
        help: "quit (asks first when dialogs are open; they are answered as configured, never allowed); also Ctrl+C",
        intent: Intent::Quit,
        needs_dialog: false,
        matches: |k| {
            plain(k, 'q')
                || (k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL))
        },
    },
];

/// The words of a decision key where the agent honours it otherwise than Claude Code's
/// `PreToolUse` does. The first row with the key's intent whose `when` holds for the dialog's
/// caps replaces the key table's hint and help.
struct Reword {
    intent: Intent,
    when: fn(&Caps) -> bool,
    hint: &'static str,
    help: &'static str,
}

fn passes(caps: &Caps) -> bool {
    caps.allow == AllowEffect::Pass
}

const REWORDS: &[Reword] = &[
    Reword {
        intent: Intent::AllowOnce,
        when: passes,
        hint: "pass",
        help: "pass this call on: the agent's own permission checks still apply, so it may still ask or refuse",
    },
    Reword {
        intent: Intent::AllowAlways,
        when: passes,
        hint: "always pass",
        help: "pass, and pass the same for the rest of this agent session; the agent's own checks still apply (edit the pattern, Enter to confirm)",
    },
    Reword {
        intent: Intent::AllowWithNote,
        when: |c| passes(c) && c.note == NoteEffect::AfterTool,
        hint: "pass+note (after output)",
        help: "pass with a note the model reads after the tool's output; the agent's own checks still apply",
    },
    Reword {
        intent: Intent::AllowWithNote,
        when: |c| passes(c) && c.note == NoteEffect::User,
        hint: "pass+note (you only)",
        help: "pass with a note only you see (the model does not); the agent's own checks still apply",
    },
    Reword {
        intent: Intent::AllowWithNote,
        when: passes,
        hint: "pass+note",
        help: "pass with a note the model reads beside the result; the agent's own checks still apply",
    },
    Reword {
        intent: Intent::AllowWithNote,
        when: |c| c.note == NoteEffect::AfterTool,
        hint: "allow+note (after output)",
        help: "allow with a note the model reads after the tool's output",
    },
    Reword {
        intent: Intent::AllowWithNote,
        when: |c| c.note == NoteEffect::User,
        hint: "allow+note (you only)",
        help: "allow with a note only you see; the model does not",
    },
    Reword {
        intent: Intent::Deny,
        when: |c| !c.reason,
        hint: "deny",
        help: "deny; the model only learns the call was blocked, not your reason",
    },
];

/// Whether a dialog whose answers can do `caps` offers `intent`: a note is offered only where
/// something carries it.
pub fn honours(caps: &Caps, intent: Intent) -> bool {
    !(intent == Intent::AllowWithNote && caps.note == NoteEffect::None)
}

/// The key table as the focused dialog offers it (`None`: no dialog is focused, every key as
/// the table words it): keys the agent cannot honour are left out, decision keys are worded
/// for what they really do there.
pub fn offered(caps: Option<&Caps>) -> Vec<Binding> {
    let Some(caps) = caps else {
        return KEYMAP.to_vec();
    };
    KEYMAP
        .iter()
        .filter(|b| honours(caps, b.intent))
        .map(|b| {
            match REWORDS
                .iter()
                .find(|r| r.intent == b.intent && (r.when)(caps))
            {
                Some(r) => Binding {
                    hint: r.hint,
                    help: r.help,
                    ..*b
                },
                None => *b,
            }
        })
        .collect()
}

/// The key table as the focused dialog `offer` offers it: [`offered`] for its caps, and `E`
/// only where there is a shell line to edit.
pub fn offered_on(offer: Option<&Offer>) -> Vec<Binding> {
    let mut keys = offered(offer.map(|o| &o.caps));
    if offer.is_some_and(|o| o.edit.is_none()) {
        keys.retain(|b| b.intent != Intent::Edit);
    }
    keys
}

mod panels;
pub use panels::*;

/// The intent of a key outside text boxes, if it has one.
pub fn intent_of(key: &KeyEvent) -> Option<Intent> {
    KEYMAP.iter().find(|b| (b.matches)(key)).map(|b| b.intent)
}

/// Keys inside a text box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoxKey {
    /// Send what was typed.
    Submit,
    /// A new line (Alt+Enter or Shift+Enter).
    Newline,
    /// Leave the box without sending.
    Leave,
    /// Tab: in an allow-always box, the next scope (session, project, everyone).
    Scope,
    /// Ctrl+T: in an allow-always box saved as a rule, how long it lasts.
    Lasts,
    /// Anything else: the text box handles it.
    Edit,
}

pub fn box_key(key: &KeyEvent) -> BoxKey {
    match key.code {
        KeyCode::Enter
            if key
                .modifiers
                .intersects(KeyModifiers::ALT | KeyModifiers::SHIFT) =>
        {
            BoxKey::Newline
        }
        KeyCode::Enter => BoxKey::Submit,
        KeyCode::Esc => BoxKey::Leave,
        KeyCode::Tab => BoxKey::Scope,
        KeyCode::Char('t') if key.modifiers.contains(KeyModifiers::CONTROL) => BoxKey::Lasts,
        _ => BoxKey::Edit,
    }
}

#[cfg(test)]
#[path = "keymap_tests.rs"]
mod tests;
