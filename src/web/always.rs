//! The web page's "always": where it lasts (this session, this project, everyone) and for how
//! long (always, 15 min, 1 h, or for a saved scope until the console quits), as the console's
//! allow-always box offers them. The server checks every choice again and never trusts the
//! page: a scope the call cannot have, a while the console does not offer, "until quit" for a
//! session, or a broad pattern not confirmed is refused with what to send instead.

use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::core::event::Dialog;
use crate::core::offer::ALWAYS_WHILES;
use crate::core::prompter::{HumanAnswer, Keeping, SavedScope};

/// Where the page asks an "always" to last.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Default, Debug)]
#[serde(rename_all = "kebab-case")]
pub(super) enum Scope {
    /// This agent session (the default, as in the console).
    #[default]
    Session,
    /// A saved rule for the call's project.
    Project,
    /// A saved rule for every project.
    Everyone,
}

/// How long the page asks an "always" to last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lasts {
    /// Always (for a session: while the console runs).
    Always,
    /// One of [`ALWAYS_WHILES`].
    While(Duration),
    /// Kept in the console's memory only, until it quits (a saved scope's).
    UntilQuit,
}

/// Why the server will not take an "always" as sent.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    /// Fine once the human confirms it: the words to show.
    Confirm(String),
    /// Not an answer the console would give: what is wrong and what to send.
    Bad(String),
}

/// The page's `lasts_secs` and `until_quit` as one choice; only the offered whiles are taken.
pub(super) fn lasts_of(secs: Option<u64>, until_quit: bool) -> Result<Lasts, Refusal> {
    let offered: Vec<u64> = ALWAYS_WHILES.iter().map(Duration::as_secs).collect();
    match (secs, until_quit) {
        (None, false) => Ok(Lasts::Always),
        (None, true) => Ok(Lasts::UntilQuit),
        (Some(_), true) => Err(Refusal::Bad(
            "send lasts_secs or until_quit, not both: a rule kept until the console quits has \
             no while"
                .into(),
        )),
        (Some(secs), false) if offered.contains(&secs) => {
            Ok(Lasts::While(Duration::from_secs(secs)))
        }
        (Some(secs), false) => Err(Refusal::Bad(format!(
            "lasts_secs {secs} is not offered for an always: send one of {offered:?}, or none \
             for always"
        ))),
    }
}

/// The answer an "always" of `text` for `dialog` gives, where and for as long as asked, after
/// the checks the console's box makes: the scopes the call can have, "until quit" only beyond
/// the session, and a broad pattern (any prefix saved beyond the session) only once confirmed.
pub(super) fn answer(
    dialog: &Dialog,
    text: &str,
    (scope, lasts): (Scope, Lasts),
    confirm: bool,
) -> Result<HumanAnswer, Refusal> {
    let offer = &dialog.offer;
    let Some(allow) = offer.always.allow(text) else {
        return Err(Refusal::Bad("the pattern matches nothing".into()));
    };
    let saved = match scope {
        Scope::Session => None,
        Scope::Project => Some(SavedScope::Project),
        Scope::Everyone => Some(SavedScope::Everyone),
    };
    if let Some(saved) = saved
        && !offer.saves_beyond_session(saved == SavedScope::Project)
    {
        let why = if offer.saves_beyond_session(false) {
            "this call is in no project (no git root): send scope session or everyone"
        } else {
            "an edit of a file is only ever allowed for the session: send scope session"
        };
        return Err(Refusal::Bad(why.into()));
    }
    if saved.is_none() && lasts == Lasts::UntilQuit {
        return Err(Refusal::Bad(
            "until the console quits is for scope project or everyone: a session's always \
             already lasts that long"
                .into(),
        ));
    }
    if offer.always.needs_confirming(&allow, saved.is_some()) && !confirm {
        return Err(Refusal::Confirm(format!("BROAD: {}", allow.describe())));
    }
    let (duration, kept) = match lasts {
        Lasts::Always => (None, Keeping::Saved),
        Lasts::While(d) => (Some(d), Keeping::Saved),
        Lasts::UntilQuit => (None, Keeping::UntilQuit),
    };
    Ok(match saved {
        None => HumanAnswer::AllowAlways {
            allow,
            note: None,
            lasts: duration,
        },
        Some(scope) => HumanAnswer::AllowSaved {
            allow,
            scope,
            note: None,
            lasts: duration,
            kept,
        },
    })
}

/// What the page's snapshot says of a call's "always" choices: the scopes it may have (with
/// the project's root) and the whiles offered.
pub(super) fn choices(dialog: &Dialog) -> Value {
    let offer = &dialog.offer;
    let mut scopes = vec!["session"];
    if offer.saves_beyond_session(true) {
        scopes.push("project");
    }
    if offer.saves_beyond_session(false) {
        scopes.push("everyone");
    }
    let whiles: Vec<u64> = ALWAYS_WHILES.iter().map(Duration::as_secs).collect();
    json!({
        "scopes": scopes,
        "project": offer.project.as_ref().map(|root| super::snapshot::text(&root.display().to_string())),
        "whiles": whiles,
    })
}

#[cfg(test)]
#[path = "always_tests.rs"]
mod tests;
