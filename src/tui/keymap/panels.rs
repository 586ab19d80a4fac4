//! The keys of the panels and boxes that are not the key table's (the quit and allow-all
//! confirmations, the rules and web panels, the batch box, the filter line, the mode chooser,
//! the help screen, the activity entry, the text boxes): each drawn in its box and the footer.

/// The keys of the quit confirmation, for its box and the footer.
pub const QUIT_KEYS: &[(&str, &str)] = &[("y/Enter", "quit"), ("n/Esc", "stay")];

/// The keys of the allow-all confirmation, for its box and the footer.
pub const ALLOW_ALL_KEYS: &[(&str, &str)] =
    &[("y/Enter", "enter allow-all"), ("any other key", "stay")];

/// The keys of the session rules panel, for its box and the footer.
pub const RULES_KEYS: &[(&str, &str)] = &[
    ("j/k", "move"),
    ("x", "revoke or delete"),
    ("s/Esc", "close"),
];

/// The keys of the web panel, for its box and the footer.
pub const WEB_KEYS: &[(&str, &str)] = &[
    ("C", "copy link"),
    ("j/k", "move"),
    ("x", "unpair"),
    ("W/Esc", "close"),
];

/// The keys of the batch box, for its box and the footer.
pub const BATCH_KEYS: &[(&str, &str)] = &[("Enter", "answer them"), ("Esc", "back (marks kept)")];

/// The keys of the filter line, for the footer.
pub const FILTER_KEYS: &[(&str, &str)] = &[("Enter", "keep"), ("Esc", "clear")];
/// The keys of the mode chooser (`M`, `T`), for its box and the footer.
pub const CHOOSER_KEYS: &[(&str, &str)] = &[
    ("j/k", "mode"),
    ("Tab", "session/agent"),
    ("Ctrl+T", "how long"),
    ("Enter", "apply"),
    ("Esc", "close"),
];

/// The keys of the help screen, for the footer.
pub const HELP_KEYS: &[(&str, &str)] = &[("j/k PgDn/PgUp", "scroll"), ("?/Esc", "close")];

/// The keys of the activity entry, for its box and the footer.
pub const ACTIVITY_KEYS: &[(&str, &str)] = &[("j/k", "newer/older"), ("l/Esc", "close")];

/// The text-box hints, for the footer and the help screen.
pub const BOX_KEYS: &[(&str, &str)] = &[
    ("Enter", "send"),
    ("Alt+Enter", "new line"),
    ("Esc", "back"),
];
