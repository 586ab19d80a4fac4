//! Claude Code's `onFailure` on a hook entry (2.1.295 and later): with `"block"`, a hook that
//! crashes, times out or is missing blocks the call instead of letting it through. Verified
//! with Claude Code 2.1.328 (`tests/e2e/claude_fail_closed.rs`): with the gatehouse binary gone,
//! the call is refused with `blocking because onFailure is "block"`; without the key it runs.
//!
//! `gatehouse install claude` sets it when the `claude` on `PATH` says a version that takes it,
//! and says so either way; an older or unknown Claude Code is left without it, since an older
//! one may not read the key.

use std::path::Path;

use serde_json::{Map, Value, json};

use crate::agents::doctor;
use crate::agents::install_file::is_hook_of;

/// The first Claude Code that takes `onFailure` on a hook entry.
pub const SINCE: [u32; 3] = [2, 1, 295];

/// Whether the installed hook can fail closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OnFailure {
    /// The Claude Code found takes `"onFailure": "block"`.
    Block { version: String },
    /// It does not, or none was found: the hook fails open (the reason says which).
    Open(String),
}

impl OnFailure {
    /// For the version text `claude --version` printed (`2.1.328 (Claude Code)`), if any.
    pub fn for_version(version: Option<&str>) -> OnFailure {
        let Some(text) = version else {
            return OnFailure::Open(
                "no `claude` on PATH says its version, so the hook is installed without \
                 onFailure and a missing or crashing gatehouse lets calls run; install Claude \
                 Code 2.1.295 or later and run `gatehouse install claude` again"
                    .into(),
            );
        };
        let number = text.split_whitespace().next().unwrap_or("");
        let parts: Vec<u32> = number.split('.').map_while(|p| p.parse().ok()).collect();
        match parts[..] {
            [a, b, c, ..] if [a, b, c] >= SINCE => OnFailure::Block {
                version: number.to_string(),
            },
            _ => OnFailure::Open(format!(
                "Claude Code {number} is older than 2.1.295 (or its version is not read: \
                 {text:?}), so the hook is installed without onFailure and a missing or \
                 crashing gatehouse lets calls run; update Claude Code and run `gatehouse \
                 install claude` again"
            )),
        }
    }

    /// The keys to add to gatehouse's hook entry.
    pub fn entry_keys(&self) -> Map<String, Value> {
        match self {
            OnFailure::Block { .. } => Map::from_iter([("onFailure".into(), json!("block"))]),
            OnFailure::Open(_) => Map::new(),
        }
    }

    /// What the install says about it.
    pub fn note(&self) -> String {
        match self {
            OnFailure::Block { version } => format!(
                "Claude Code {version} takes onFailure: the hook is set to \"block\", so a \
                 missing, crashing or timed-out gatehouse blocks the call instead of letting it run"
            ),
            OnFailure::Open(why) => why.clone(),
        }
    }
}

/// The version the `claude` on `PATH` prints, if any.
pub fn installed_version() -> Option<String> {
    doctor::version(&doctor::on_path(super::TABLE.names.program)?)
}

/// What the doctor says of gatehouse's hook in the settings file at `path`.
pub fn describe(path: &Path) -> String {
    let settings: Value = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    let word = super::TABLE.names.cli;
    let ours: Vec<&Value> = settings["hooks"]
        .as_object()
        .into_iter()
        .flat_map(|events| events.values())
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(|group| group["hooks"].as_array())
        .flatten()
        .filter(|entry| is_hook_of(entry, word))
        .collect();
    if !ours.is_empty() && ours.iter().all(|e| e["onFailure"] == "block") {
        "fails closed (onFailure: block)".into()
    } else {
        "fails open: a missing or crashing gatehouse lets the call run (Claude Code 2.1.295+ \
         takes onFailure: block; `gatehouse install claude` sets it)"
            .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_claude_code_from_2_1_295_gets_on_failure_block() {
        for (text, block) in [
            ("2.1.328 (Claude Code)", true),
            ("2.1.295 (Claude Code)", true),
            ("2.2.0", true),
            ("3.0.1 (Claude Code)", true),
            ("2.1.294 (Claude Code)", false),
            ("2.0.999", false),
            ("1.9", false),
            ("claude", false),
        ] {
            let on_failure = OnFailure::for_version(Some(text));
            assert_eq!(
                matches!(on_failure, OnFailure::Block { .. }),
                block,
                "{text}"
            );
            assert_eq!(on_failure.entry_keys().is_empty(), !block, "{text}");
        }
        let unknown = OnFailure::for_version(None);
        assert!(
            unknown.note().contains("no `claude` on PATH"),
            "{unknown:?}"
        );
        assert!(unknown.entry_keys().is_empty());
    }
}
