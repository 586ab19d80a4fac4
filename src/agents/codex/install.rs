//! `gatehouse install codex` / `uninstall codex`: gatehouse's hook in Codex's `hooks.json`
//! (user: `$CODEX_HOME/hooks.json`, else `~/.codex/hooks.json`; project:
//! `.codex/hooks.json`), for `PreToolUse` (blocks, notes) and `PermissionRequest` (grants),
//! and the trust Codex requires before it runs a user or project hook.
//!
//! Codex 0.169 skips an untrusted hook without a word. Trust lives in the user `config.toml`
//! as `[hooks.state."<file>:<event>:<group>:<hook>"] trusted_hash = "sha256:<hex>"`, the hash
//! being sha256 of the compact, key-sorted JSON of the normalised hook (recipe and its check
//! against Codex's own `hooks/list` in `shared/realclients/README.md`). The installer writes
//! those entries in a marked block at the end of `config.toml`, leaving the rest of the file's
//! text as it was, and checks that the result still parses.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::TABLE;
pub use super::reviewer::{Reviewer, reviewer_of};
use crate::agents::dialect::{
    HookPlace, HookState, InstallRequest, Installed, Scope, UninstallRequest,
};
use crate::agents::hook_file;
use crate::agents::install_file::{
    self, Change, InstallError, Report, is_hook_of, read_old, replace,
};

const BEGIN: &str =
    "# BEGIN gatehouse hook trust (written by `gatehouse install codex`; keep this block last)";
const END: &str = "# END gatehouse hook trust";

/// The hook to install, and where.
#[derive(Debug, Clone)]
pub struct CodexHook {
    pub hooks_path: PathBuf,
    /// The user `config.toml` that holds the trust entries.
    pub config_path: PathBuf,
    pub command: String,
    /// Codex's hook timeout, in seconds.
    pub timeout_secs: u64,
    /// Leave `PermissionRequest` to Codex's automatic reviewer: hook `PreToolUse` only.
    pub keep_reviewer: bool,
}

impl CodexHook {
    /// The events this hook is installed for.
    fn events(&self) -> Vec<&'static str> {
        let mut events = hook_file::event_names(&TABLE);
        if self.keep_reviewer {
            events.truncate(1);
        }
        events
    }
}

/// The name Codex gives `event` in its trust keys and hashes: `PreToolUse` is `pre_tool_use`.
fn snake_name(event: &str) -> String {
    let mut name = String::new();
    for c in event.chars() {
        if c.is_ascii_uppercase() && !name.is_empty() {
            name.push('_');
        }
        name.push(c.to_ascii_lowercase());
    }
    name
}

/// Codex's trust hash of a command hook for `event` (Codex's name) in a group with `matcher`.
pub fn trust_hash(event: &str, matcher: Option<&str>, command: &str, timeout: u64) -> String {
    // serde_json keeps insertion order here, so keys are inserted sorted.
    let mut identity = Map::new();
    identity.insert("event_name".into(), json!(snake_name(event)));
    identity.insert(
        "hooks".into(),
        json!([{"async": false, "command": command, "timeout": timeout.max(1), "type": "command"}]),
    );
    if let Some(matcher) = matcher {
        identity.insert("matcher".into(), json!(matcher));
    }
    let text = Value::Object(identity).to_string();
    format!("sha256:{:x}", Sha256::digest(text.as_bytes()))
}

/// Codex's `hooks.json` for `scope` and the user's `config.toml` that trusts it.
fn paths(scope: Scope, project: &Path) -> Result<(PathBuf, PathBuf), InstallError> {
    let config = TABLE.hooks.home.find()?.join("config.toml");
    Ok((hook_file::path(&TABLE, scope, project)?, config))
}

/// `gatehouse install codex`: both events (or `PreToolUse` alone with `--keep-reviewer`), and
/// their trust; says when Codex's config routes approvals to its automatic reviewer.
pub fn install_for(request: &InstallRequest) -> Result<Installed, InstallError> {
    if request.event.is_some() {
        return Err(InstallError::Usage(
            "--event is for Claude Code only; Codex gets PreToolUse and PermissionRequest (or \
             PreToolUse alone with --keep-reviewer)"
                .into(),
        ));
    }
    let (hooks_path, config_path) = paths(request.scope, &request.project)?;
    let reviewer = reviewer_of(&config_path);
    let hook = CodexHook {
        hooks_path,
        config_path,
        command: request.command.for_agent(TABLE.names.cli),
        timeout_secs: request.timeout_secs,
        keep_reviewer: request.keep_reviewer,
    };
    let reports = install(&hook, request.dry_run)?;
    let mut notes = hook_file::notes(&TABLE, request.scope);
    notes.extend(reviewer.note(request.keep_reviewer));
    Ok(Installed { reports, notes })
}

/// `gatehouse uninstall codex`: the hooks and their trust entries.
pub fn uninstall_for(request: &UninstallRequest) -> Result<Installed, InstallError> {
    let (hooks_path, config_path) = paths(request.scope, &request.project)?;
    Ok(Installed {
        reports: uninstall(&hooks_path, &config_path, request.dry_run)?,
        notes: Vec::new(),
    })
}

/// Each `hooks.json`, and whether gatehouse's hooks there are trusted by the hash of what is
/// in the file now (Codex skips an untrusted or edited hook without a word).
pub fn places(project: &Path) -> Vec<HookPlace> {
    [Scope::User, Scope::Project]
        .into_iter()
        .filter_map(|scope| {
            let (path, config) = paths(scope, project).ok()?;
            let state = trust_state(&path, &config);
            Some(HookPlace { scope, path, state })
        })
        .collect()
}

/// Whether the hooks file at `path` holds gatehouse's hooks, each trusted in `config`.
fn trust_state(path: &Path, config: &Path) -> HookState {
    let Some(settings) = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
    else {
        return HookState::Absent;
    };
    let Some(settings) = settings.as_object() else {
        return HookState::Absent;
    };
    let placed = positions(settings);
    if placed.is_empty() {
        return HookState::Absent;
    }
    let trusted: toml::Table = std::fs::read_to_string(config)
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or_default();
    let state = trusted
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(toml::Value::as_table);
    let file = absolute(path);
    for (event, group) in placed {
        let entry = &settings["hooks"][event][group];
        let hook = &entry["hooks"][0];
        let command = hook["command"].as_str().unwrap_or("");
        let timeout = hook["timeout"].as_u64().unwrap_or(600);
        let hash = trust_hash(event, entry["matcher"].as_str(), command, timeout);
        let key = format!("{}:{}:{group}:0", file.display(), snake_name(event));
        let found = state
            .and_then(|s| s.get(&key))
            .and_then(|e| e.get("trusted_hash"))
            .and_then(toml::Value::as_str);
        if found != Some(hash.as_str()) {
            return HookState::Inactive(format!(
                "its {} hook is not trusted by its hash in {}, so Codex skips it; run \
                 `gatehouse install codex` again",
                event,
                config.display()
            ));
        }
    }
    HookState::Active
}

/// Installs the hooks and their trust. Returns the reports for `hooks.json` and `config.toml`.
pub fn install(hook: &CodexHook, dry_run: bool) -> Result<Vec<Report>, InstallError> {
    let events = hook.events();
    let hooks = hook_file::add(
        &TABLE,
        &hook.hooks_path,
        &events,
        &hook.command,
        hook.timeout_secs,
        dry_run,
    )?;
    let placed = match serde_json::from_str::<Value>(&hooks.text) {
        Ok(Value::Object(settings)) => positions(&settings),
        _ => Vec::new(),
    };
    let path = absolute(&hook.hooks_path);
    let block: String = placed
        .iter()
        .map(|(event, group)| {
            let key = format!("{}:{}:{group}:0", path.display(), snake_name(event));
            let hash = trust_hash(event, Some("*"), &hook.command, hook.timeout_secs);
            format!(
                "[hooks.state.{}]\ntrusted_hash = {}\n",
                json!(key),
                json!(hash)
            )
        })
        .collect();
    let trust = edit_trust(&hook.config_path, Some(&block), dry_run)?;
    Ok(vec![hooks, trust])
}

/// Where gatehouse's group sits in each event's list.
pub(super) fn positions(settings: &Map<String, Value>) -> Vec<(&'static str, usize)> {
    TABLE
        .events
        .iter()
        .filter_map(|event| {
            let event = event.name;
            let groups = settings.get("hooks")?.get(event)?.as_array()?;
            let index = groups.iter().position(|g| {
                g.get("hooks")
                    .and_then(Value::as_array)
                    .is_some_and(|h| h.first().is_some_and(|e| is_hook_of(e, "codex")))
            })?;
            Some((event, index))
        })
        .collect()
}

/// Removes gatehouse's codex hooks and their trust entries.
pub fn uninstall(
    hooks_path: &Path,
    config_path: &Path,
    dry_run: bool,
) -> Result<Vec<Report>, InstallError> {
    let hooks = hook_file::remove(&TABLE, hooks_path, dry_run)?;
    let trust = edit_trust(config_path, None, dry_run)?;
    Ok(vec![hooks, trust])
}

/// Replaces (or, with `None`, removes) gatehouse's trust block in `config.toml`.
fn edit_trust(path: &Path, block: Option<&str>, dry_run: bool) -> Result<Report, InstallError> {
    let old = read_old(path)?;
    let text = old.clone().unwrap_or_default();
    let mut rest = match (text.find(BEGIN), text.find(END)) {
        (Some(begin), Some(end)) if end > begin => {
            let after = text[end + END.len()..].trim_start_matches('\n');
            format!("{}{after}", &text[..begin])
        }
        _ => text.clone(),
    };
    if let Some(block) = block.filter(|b| !b.is_empty()) {
        if !rest.is_empty() && !rest.ends_with('\n') {
            rest.push('\n');
        }
        rest.push_str(&format!("{BEGIN}\n{block}{END}\n"));
    }
    if let Err(e) = rest.parse::<toml::Table>() {
        return Err(InstallError::NotToml {
            path: path.to_path_buf(),
            message: format!("with gatehouse's trust entries it would not be valid TOML: {e}"),
        });
    }
    let change = if rest == text {
        Change::Unchanged
    } else if block.is_some() {
        Change::Updated
    } else {
        Change::Removed(1)
    };
    let mut report = Report {
        holds: install_file::Holds::Trust,
        path: path.to_path_buf(),
        change,
        spec: None,
        backup: None,
        dry_run,
        text: rest,
    };
    if dry_run || report.change == Change::Unchanged {
        return Ok(report);
    }
    report.backup = replace(path, old.as_deref(), &report.text)?;
    Ok(report)
}

pub(super) fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
#[path = "install_tests.rs"]
mod tests;
