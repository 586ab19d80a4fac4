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
    assert_eq!(intent_of(&key(KeyCode::Char('z'), none)), None);
    assert_eq!(
        intent_of(&key(KeyCode::Char('x'), none)),
        Some(Intent::Revoke)
    );
    assert_eq!(
        intent_of(&key(KeyCode::Tab, none)),
        Some(Intent::CycleModeBack)
    );
}

fn hint(bindings: &[Binding], intent: Intent) -> Option<&'static str> {
    bindings.iter().find(|b| b.intent == intent).map(|b| b.hint)
}

#[test]
fn claude_codes_full_caps_read_as_the_key_table() {
    let full = offered(Some(&Caps::FULL));
    assert_eq!(full.len(), KEYMAP.len());
    for (b, k) in full.iter().zip(KEYMAP) {
        assert_eq!((b.keys, b.hint, b.help), (k.keys, k.hint, k.help));
    }
}

#[test]
fn a_note_nothing_carries_is_not_offered() {
    let caps = Caps {
        note: NoteEffect::None,
        ..Caps::FULL
    };
    assert!(!honours(&caps, Intent::AllowWithNote));
    assert!(honours(&caps, Intent::AllowOnce));
    assert_eq!(hint(&offered(Some(&caps)), Intent::AllowWithNote), None);
    assert_eq!(
        hint(&offered(Some(&caps)), Intent::AllowOnce),
        Some("allow")
    );
}

#[test]
fn where_allow_only_passes_the_allow_keys_say_so() {
    let caps = Caps {
        allow: AllowEffect::Pass,
        note: NoteEffect::AfterTool,
        reason: true,
        input: crate::core::caps::InputEffect::Fixed,
    };
    let keys = offered(Some(&caps));
    assert_eq!(hint(&keys, Intent::AllowOnce), Some("pass"));
    assert_eq!(hint(&keys, Intent::AllowAlways), Some("always pass"));
    assert_eq!(
        hint(&keys, Intent::AllowWithNote),
        Some("pass+note (after output)")
    );
    assert_eq!(hint(&keys, Intent::Deny), Some("deny"));
    let once = keys.iter().find(|b| b.intent == Intent::AllowOnce).unwrap();
    assert!(once.help.contains("own permission checks still apply"));
}

#[test]
fn a_note_only_the_user_sees_and_a_reason_that_does_not_travel_are_labelled() {
    let caps = Caps {
        allow: AllowEffect::Grant,
        note: NoteEffect::User,
        reason: false,
        input: crate::core::caps::InputEffect::Fixed,
    };
    let keys = offered(Some(&caps));
    assert_eq!(
        hint(&keys, Intent::AllowWithNote),
        Some("allow+note (you only)")
    );
    let deny = keys.iter().find(|b| b.intent == Intent::Deny).unwrap();
    assert!(deny.help.contains("only learns the call was blocked"));
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
