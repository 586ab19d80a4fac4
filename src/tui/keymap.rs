//! Keys are data: one table maps keys to intents, and the footer hints and the help screen are
//! drawn from the same table, so they cannot drift apart.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What a key asks for, before the model decides whether it applies now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    AllowOnce,
    AllowAlways,
    AllowWithNote,
    Deny,
    CycleMode,
    Next,
    Previous,
    ScrollDown,
    ScrollUp,
    RearmClassifier,
    Help,
    Quit,
}

impl Intent {
    /// Intents that answer a dialog: ignored while a new dialog is arming.
    pub fn decides(self) -> bool {
        matches!(
            self,
            Intent::AllowOnce | Intent::AllowAlways | Intent::AllowWithNote | Intent::Deny
        )
    }
}

/// One row of the key table.
#[derive(Debug)]
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
        keys: "y",
        hint: "allow",
        help: "allow this call once",
        intent: Intent::AllowOnce,
        needs_dialog: true,
        matches: |k| plain(k, 'y'),
    },
    Binding {
        keys: "a",
        hint: "always",
        help: "allow, and allow the same for the rest of this agent session (edit the pattern, Enter to confirm)",
        intent: Intent::AllowAlways,
        needs_dialog: true,
        matches: |k| plain(k, 'a'),
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
        keys: "n",
        hint: "deny",
        help: "deny, with a reason the model reads (empty: \"denied by user\")",
        intent: Intent::Deny,
        needs_dialog: true,
        matches: |k| plain(k, 'n'),
    },
    Binding {
        keys: "⇧Tab",
        hint: "mode",
        help: "switch to the next mode; open dialogs are re-routed at once",
        intent: Intent::CycleMode,
        needs_dialog: false,
        matches: |k| k.code == KeyCode::BackTab,
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
        matches: |k| k.code == KeyCode::PageDown || plain(k, ' '),
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
        keys: "r",
        hint: "",
        help: "re-arm the classifier after its breaker tripped",
        intent: Intent::RearmClassifier,
        needs_dialog: false,
        matches: |k| plain(k, 'r'),
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
    /// Anything else: the text box handles it.
    Edit,
}

/// The text-box hints, for the footer and the help screen.
pub const BOX_KEYS: &[(&str, &str)] = &[
    ("Enter", "send"),
    ("Alt+Enter", "new line"),
    ("Esc", "back"),
];

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
        _ => BoxKey::Edit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn every_intent_has_exactly_one_binding() {
        for b in KEYMAP {
            let n = KEYMAP.iter().filter(|o| o.intent == b.intent).count();
            assert_eq!(n, 1, "{:?}", b.intent);
        }
    }

    #[test]
    fn keys_map_to_intents() {
        let none = KeyModifiers::NONE;
        assert_eq!(
            intent_of(&key(KeyCode::Char('y'), none)),
            Some(Intent::AllowOnce)
        );
        assert_eq!(
            intent_of(&key(KeyCode::BackTab, KeyModifiers::SHIFT)),
            Some(Intent::CycleMode)
        );
        assert_eq!(intent_of(&key(KeyCode::Down, none)), Some(Intent::Next));
        assert_eq!(
            intent_of(&key(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Intent::Quit)
        );
        assert_eq!(
            intent_of(&key(KeyCode::Char('y'), KeyModifiers::CONTROL)),
            None
        );
        assert_eq!(intent_of(&key(KeyCode::Char('x'), none)), None);
    }

    #[test]
    fn enter_sends_and_alt_or_shift_enter_breaks_the_line() {
        assert_eq!(
            box_key(&key(KeyCode::Enter, KeyModifiers::NONE)),
            BoxKey::Submit
        );
        assert_eq!(
            box_key(&key(KeyCode::Enter, KeyModifiers::ALT)),
            BoxKey::Newline
        );
        assert_eq!(
            box_key(&key(KeyCode::Enter, KeyModifiers::SHIFT)),
            BoxKey::Newline
        );
        assert_eq!(
            box_key(&key(KeyCode::Esc, KeyModifiers::NONE)),
            BoxKey::Leave
        );
    }
}
