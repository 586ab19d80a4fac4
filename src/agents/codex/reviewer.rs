//! Codex's own automatic reviewer: when the user's `config.toml` says
//! `approvals_reviewer = "auto_review"` (Codex 0.169 knows `user` and `auto_review`), Codex
//! asks a second model before it runs what would otherwise need the user's approval. A
//! `PermissionRequest` hook is asked first and its grant or refusal replaces the reviewer, so
//! `install codex` says so, and `--keep-reviewer` hooks `PreToolUse` alone, leaving those
//! approvals to the reviewer while gatehouse still blocks and notes every call.

use std::path::Path;

/// Who answers Codex's approvals, as the user's config says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reviewer {
    /// The user (Codex's default), or a config gatehouse cannot read.
    User,
    /// Codex's automatic reviewer.
    Automatic,
}

/// The reviewer the `config.toml` at `path` routes approvals to: its top-level
/// `approvals_reviewer`, or that of the profile it selects.
pub fn reviewer_of(path: &Path) -> Reviewer {
    let Some(config) = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| t.parse::<toml::Table>().ok())
    else {
        return Reviewer::User;
    };
    let profile = config
        .get("profile")
        .and_then(toml::Value::as_str)
        .and_then(|name| config.get("profiles")?.get(name));
    let chosen = profile
        .and_then(|p| p.get("approvals_reviewer"))
        .or_else(|| config.get("approvals_reviewer"))
        .and_then(toml::Value::as_str);
    match chosen {
        Some("auto_review") => Reviewer::Automatic,
        _ => Reviewer::User,
    }
}

impl Reviewer {
    /// What `install codex` tells the user about the reviewer, if anything.
    pub fn note(self, keep_reviewer: bool) -> Option<String> {
        match (self, keep_reviewer) {
            (Reviewer::User, false) => None,
            (Reviewer::Automatic, false) => Some(
                "your Codex config routes approvals to its automatic reviewer \
                 (approvals_reviewer = \"auto_review\"); gatehouse's PermissionRequest hook now \
                 answers them first, and the reviewer is asked only when gatehouse defers. To \
                 leave those approvals to the reviewer, run `gatehouse install codex \
                 --keep-reviewer`."
                    .into(),
            ),
            (Reviewer::Automatic, true) => Some(
                "PermissionRequest is left to Codex's automatic reviewer; gatehouse hooks \
                 PreToolUse only (it blocks and adds notes, and cannot grant)."
                    .into(),
            ),
            (Reviewer::User, true) => Some(
                "PermissionRequest is left to Codex (your config sends approvals to you, not to \
                 the automatic reviewer); gatehouse hooks PreToolUse only."
                    .into(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reviewer(text: &str) -> Reviewer {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, text).unwrap();
        reviewer_of(&path)
    }

    #[test]
    fn only_auto_review_routes_approvals_to_the_reviewer() {
        assert_eq!(
            reviewer("approvals_reviewer = \"auto_review\"\n"),
            Reviewer::Automatic
        );
        assert_eq!(reviewer("approvals_reviewer = \"user\"\n"), Reviewer::User);
        assert_eq!(reviewer("model = \"gpt-5.5\"\n"), Reviewer::User);
        assert_eq!(reviewer("not toml ["), Reviewer::User);
        assert_eq!(
            reviewer_of(Path::new("/nonexistent/config.toml")),
            Reviewer::User
        );
    }

    #[test]
    fn the_selected_profile_decides_over_the_top_level() {
        let text = "approvals_reviewer = \"user\"\nprofile = \"auto\"\n\
                    [profiles.auto]\napprovals_reviewer = \"auto_review\"\n";
        assert_eq!(reviewer(text), Reviewer::Automatic);
    }

    #[test]
    fn install_names_the_reviewer_only_where_it_is_in_use_or_kept() {
        assert_eq!(Reviewer::User.note(false), None);
        assert!(
            Reviewer::Automatic
                .note(false)
                .unwrap()
                .contains("--keep-reviewer")
        );
        assert!(
            Reviewer::Automatic
                .note(true)
                .unwrap()
                .contains("PreToolUse only")
        );
    }
}
