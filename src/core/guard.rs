//! What gatehouse guards beyond the analyser's own knowledge: its own files, which an agent
//! must not change unasked (issue 22, section 3), and the credentials it must not read unasked
//! (the analyser's built-in list with the config's `sensitive_paths` added).
//!
//! Changing one of gatehouse's own files (its config, the saved rules, the trusted projects,
//! the paired devices, the audit log, the floor, a project's `.gatehouse.toml`, the hook
//! settings `gatehouse install` wrote for an agent) can switch the gate off or rewrite what it
//! allows. An edit tool on one, or a shell line that can write one, is `tamper`: asked in every
//! mode, never raced, never listed by a rule or an "always". A shell line counts when a part
//! that is not proven read-only (a writer, an unknown program, a writing redirection) names
//! the file, or a folder above it, as a word; relative words are read from the call's folder
//! and from each literal `cd` target in the line.

use std::path::{Path, PathBuf};

use super::call::Call;
use super::pathword::{PathPattern, Place, Reach, candidates};
use super::shell::{Safety, Secrets, ShellAnalysis};

/// Everything guarded, as the config and the agents' registry name it.
#[derive(Debug, Clone, Default)]
pub struct Guards {
    pub own: OwnFiles,
    pub secrets: Secrets,
    /// The user's home folder, for `~` and `$HOME` in words.
    pub home: Option<PathBuf>,
    /// Input keys, beside the path keys, whose values a read tool reads or searches (a folder,
    /// a list of files, a search's file filter), as the dialects name them.
    pub read_keys: Vec<String>,
}

impl Guards {
    /// These guards with the credential `patterns` a project file or the floor adds.
    pub fn with(&self, patterns: &[String]) -> Guards {
        let mut guards = self.clone();
        for pattern in patterns {
            guards.secrets.add(pattern);
        }
        guards
    }
}

/// gatehouse's own files, each with what changing it would disable.
#[derive(Debug, Clone)]
pub struct OwnFiles {
    entries: Vec<(PathPattern, String)>,
}

impl Default for OwnFiles {
    /// A project's `.gatehouse.toml`, wherever it is: the rest is known only from the config.
    fn default() -> Self {
        let mut own = OwnFiles {
            entries: Vec::new(),
        };
        own.add(".gatehouse.toml", "a project's rules (.gatehouse.toml)");
        own
    }
}

impl OwnFiles {
    /// Guards `pattern` (an absolute path, `~/…`, or a tail such as `.claude/settings.json`
    /// that may end any path), described as `what` in the dialog.
    pub fn add(&mut self, pattern: &str, what: impl Into<String>) {
        let what = what.into();
        let pattern = PathPattern::new(pattern);
        if !self.entries.iter().any(|(p, _)| *p == pattern) {
            self.entries.push((pattern, what));
        }
    }

    /// What changing the path `word` (as written, read from `cwd`) would disable, if it may
    /// be, or be a folder above, one of gatehouse's own files.
    pub fn touched(&self, word: &str, place: Place) -> Option<&str> {
        let cands = candidates(word, place);
        self.entries.iter().find_map(|(pattern, what)| {
            cands
                .iter()
                .any(|c| pattern.reached_by(c, Reach::Under))
                .then_some(what.as_str())
        })
    }

    /// Why a shell line may change one of gatehouse's own files: the part that may write it
    /// and what that would disable.
    pub fn tampered_by(&self, analysis: &ShellAnalysis, place: Place) -> Option<String> {
        let mut bases: Vec<PathBuf> = place.cwd.map(Path::to_path_buf).into_iter().collect();
        for command in &analysis.commands {
            if let [cd, dir] = &command.words[..]
                && matches!(cd.as_str(), "cd" | "pushd")
            {
                let at = place.cwd.map_or(PathBuf::from(dir), |c| c.join(dir));
                bases.push(at);
            }
        }
        let check = |word: &str| -> Option<&str> {
            if bases.is_empty() {
                return self.touched(word, place);
            }
            bases.iter().find_map(|base| {
                let at = Place {
                    cwd: Some(base),
                    ..place
                };
                self.touched(word, at)
            })
        };
        for command in &analysis.commands {
            if command.safety == Safety::ReadOnly {
                continue;
            }
            for word in command.words.iter().skip(1).flat_map(|w| operands(w)) {
                if let Some(what) = check(word) {
                    let name = command.words[0].rsplit('/').next().unwrap_or("");
                    return Some(format!("{name} may change {word}: {}", disables(what)));
                }
            }
        }
        for finding in &analysis.findings {
            if finding.safety < Safety::Writer {
                continue;
            }
            let target = redirect_target(&finding.what);
            if let Some(what) = check(target) {
                return Some(format!(
                    "{} writes {target}: {}",
                    finding.what,
                    disables(what)
                ));
            }
        }
        None
    }
}

/// Where a call's words are read: the user's home and the call's folder (when absolute).
pub(crate) fn place<'a>(call: &'a Call, guards: &'a Guards) -> Place<'a> {
    let cwd = Path::new(&call.cwd);
    Place {
        home: guards.home.as_deref(),
        cwd: cwd.is_absolute().then_some(cwd),
    }
}

/// Why an edit call changes one of gatehouse's own files (`files`, as it names them), if it
/// does.
pub(crate) fn edit_tampers(files: &[&str], guards: &Guards, place: Place) -> Option<String> {
    files.iter().find_map(|path| {
        let what = guards.own.touched(path, place)?;
        Some(format!("edits {path}: {}", disables(what)))
    })
}

/// Why a read tool's call may show a secret: the first of its paths (under any path key, or
/// any of the dialects' other keys a read tool reads or searches under, [`Guards::read_keys`],
/// a string or a list of strings) that can name a credential file or a folder above one.
pub(crate) fn read_secret(call: &Call, guards: &Guards, place: Place) -> Option<String> {
    read_paths(call, guards).find_map(|path| {
        let what = guards.secrets.named(path, place)?;
        Some(format!("reads {what} ({path})"))
    })
}

/// Every path a read tool's call names: under its path keys, and under the dialects' other
/// keys a read tool reads or searches under, each a string or a list of strings.
pub(crate) fn read_paths<'c>(call: &'c Call, guards: &'c Guards) -> impl Iterator<Item = &'c str> {
    let named = call.paths().into_iter().filter_map(|(_, v)| v);
    let more = guards
        .read_keys
        .iter()
        .filter_map(|key| call.input.get(key.as_str()))
        .flat_map(|value| match value {
            serde_json::Value::Array(items) => items.iter().filter_map(|i| i.as_str()).collect(),
            other => other.as_str().into_iter().collect::<Vec<_>>(),
        });
    named.chain(more)
}

/// The words of an argument that may be paths: itself, and what follows its first `=`
/// (`--output=FILE`, `of=FILE`).
pub(crate) fn operands(word: &str) -> impl Iterator<Item = &str> {
    let value = word
        .split_once('=')
        .map(|(_, v)| v)
        .filter(|v| !v.is_empty());
    std::iter::once(word).chain(value)
}

/// The target of a redirection as the analyser shows it (`2>> ~/x` gives `~/x`).
fn redirect_target(what: &str) -> &str {
    what.trim_start_matches(|c: char| c.is_ascii_digit() || "&<>|".contains(c))
        .trim()
}

/// The dialog's words for what a change of an own file would disable.
pub fn disables(what: &str) -> String {
    format!("would change {what}, which can switch gatehouse off or widen what it allows")
}

#[cfg(test)]
#[path = "guard_tests.rs"]
mod tests;
