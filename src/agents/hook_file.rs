//! Where an agent keeps its hooks and what gatehouse writes there, as data ([`HookFile`], part
//! of the agent's [`Table`]), and install, uninstall and the doctor's look at the file written
//! once over it. Two layouts: Claude Code's matcher groups (`hooks.<event>[].hooks[]`, which
//! Codex, Gemini CLI and Qwen Code share) and entries straight in each event's list (Cursor,
//! Crush, Copilot CLI). An agent that needs more (Codex's trust entries, Gemini CLI's policy
//! file, Claude Code's choice of event) adds its part around these functions.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::dialect::{HookPlace, HookState, InstallRequest, Installed, Scope, UninstallRequest};
use super::install_file::{self, Change, HookSpec, InstallError, Report, io_error};
use super::table::Table;

/// An agent's hooks file, and gatehouse's entry in it.
#[derive(Debug)]
pub struct HookFile {
    /// The agent's folder of the user's files.
    pub home: Home,
    /// The hooks file of each scope the agent has, the default first: the user's under
    /// [`HookFile::home`], the others under the project folder.
    pub files: &'static [(Scope, &'static str)],
    pub layout: Layout,
    /// Gatehouse's entry, for the hook's command line and its timeout in seconds.
    pub entry: fn(&str, u64) -> Value,
    /// Which events must hold the hook for the agent to gate its calls.
    pub needs: Needs,
    /// The file is gatehouse's own (Copilot CLI's `hooks/gatehouse.json`): uninstall removes it
    /// when nothing else is left in it.
    pub owned: bool,
    /// Told after every install.
    pub notes: &'static [&'static str],
    /// Told after an install in a project.
    pub project_notes: &'static [&'static str],
}

impl HookFile {
    /// Hooks in Claude Code's matcher groups, each a command with its timeout in seconds,
    /// any one event gating every call, nothing to tell after an install: the file of
    /// `home` and `files`.
    pub const fn groups(home: Home, files: &'static [(Scope, &'static str)]) -> HookFile {
        HookFile {
            home,
            files,
            layout: Layout::Groups,
            entry: command_entry,
            needs: Needs::Any,
            owned: false,
            notes: &[],
            project_notes: &[],
        }
    }

    /// [`HookFile::groups`] with the hooks straight in each event's list, each `entry`.
    pub const fn flat(
        home: Home,
        files: &'static [(Scope, &'static str)],
        entry: fn(&str, u64) -> Value,
    ) -> HookFile {
        HookFile {
            layout: Layout::Flat { version: false },
            entry,
            ..HookFile::groups(home, files)
        }
    }
}

/// An agent's folder of the user's files.
#[derive(Debug)]
pub struct Home {
    /// The environment variable that moves it, and the folder it means under there (Gemini
    /// CLI's `$GEMINI_CLI_HOME/.gemini`; empty for the variable's own folder).
    pub var: Option<(&'static str, &'static str)>,
    /// Where it is otherwise, under the home folder: `~/.claude`.
    pub default: &'static str,
}

impl Home {
    /// `default` under the home folder: `~/.cursor`.
    pub const fn at(default: &'static str) -> Home {
        Home { var: None, default }
    }

    /// The folder `$var` names, else `default`.
    pub const fn var(var: &'static str, default: &'static str) -> Home {
        Home {
            var: Some((var, "")),
            default,
        }
    }

    /// The folder `under` in the one `$var` names, else `default`.
    pub const fn under(var: &'static str, under: &'static str, default: &'static str) -> Home {
        Home {
            var: Some((var, under)),
            default,
        }
    }

    /// The folder, if the home folder can be found.
    pub fn dir(&self) -> Option<PathBuf> {
        if let Some((var, under)) = self.var
            && let Some(dir) = std::env::var_os(var).filter(|d| !d.is_empty())
        {
            let dir = PathBuf::from(dir);
            return Some(if under.is_empty() {
                dir
            } else {
                dir.join(under)
            });
        }
        let under = self.default.strip_prefix("~/").unwrap_or(self.default);
        directories::BaseDirs::new().map(|b| b.home_dir().join(under))
    }

    /// [`Home::dir`], or the error that says it cannot be found.
    pub fn find(&self) -> Result<PathBuf, InstallError> {
        self.dir().ok_or(InstallError::NoHome(self.default))
    }
}

/// How the hooks sit in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `hooks.<event>[]` of matcher groups, gatehouse's `{"matcher":"*","hooks":[entry]}`.
    Groups,
    /// `hooks.<event>[]` of entries; `"version": 1` beside them where `version`.
    Flat { version: bool },
}

/// Which of an agent's events must hold gatehouse's hook for the agent to gate its calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// Any one: each gates every call (Claude Code, where the user picks the event).
    Any,
    /// The first, which gates every call; the others only add to it.
    First,
    /// Every one.
    All,
}

/// A command hook with its timeout in seconds: `{"type":"command","command":…,"timeout":…}`.
pub fn command_entry(command: &str, timeout_secs: u64) -> Value {
    json!({"type": "command", "command": command, "timeout": timeout_secs})
}

/// A command hook with its timeout in milliseconds (Gemini CLI, Qwen Code).
pub fn command_entry_ms(command: &str, timeout_secs: u64) -> Value {
    command_entry(command, timeout_secs * 1000)
}

/// The hooks file of `scope` for `project`.
pub fn path(table: &Table, scope: Scope, project: &Path) -> Result<PathBuf, InstallError> {
    let hooks = &table.hooks;
    let Some((_, file)) = hooks.files.iter().find(|(s, _)| *s == scope) else {
        let names: Vec<&str> = hooks.files.iter().map(|(s, _)| s.name()).collect();
        return Err(InstallError::Usage(format!(
            "{} has no {} scope; use --scope {}",
            table.names.display,
            scope.name(),
            names.join(" or ")
        )));
    };
    match scope {
        Scope::User => Ok(hooks.home.find()?.join(file)),
        Scope::Project | Scope::Local => Ok(project.join(file)),
    }
}

/// The agent's event names, in the table's order.
pub fn event_names(table: &Table) -> Vec<&'static str> {
    table.events.iter().map(|e| e.name).collect()
}

/// `gatehouse install <agent>` where the agent takes no options: the hook for every event.
pub fn install(table: &Table, request: &InstallRequest) -> Result<Installed, InstallError> {
    if request.event.is_some() || request.keep_reviewer {
        return Err(InstallError::Usage(format!(
            "--event and --keep-reviewer are not options for {}",
            table.names.display
        )));
    }
    install_events(table, request, &event_names(table))
}

/// The hook for `events` in the file of the request's scope, and the notes to tell.
pub fn install_events(
    table: &Table,
    request: &InstallRequest,
    events: &[&'static str],
) -> Result<Installed, InstallError> {
    install_events_with(table, request, events, &Map::new())
}

/// [`install_events`], with `extra` keys in gatehouse's hook entry (Claude Code's
/// `onFailure`).
pub fn install_events_with(
    table: &Table,
    request: &InstallRequest,
    events: &[&'static str],
    extra: &Map<String, Value>,
) -> Result<Installed, InstallError> {
    let path = path(table, request.scope, &request.project)?;
    let command = request.command.for_agent(table.names.cli);
    let report = add_with(
        table,
        &path,
        (events, &command),
        request.timeout_secs,
        extra,
        request.dry_run,
    )?;
    Ok(Installed {
        reports: vec![report],
        notes: notes(table, request.scope),
    })
}

/// What to tell after an install in `scope`.
pub fn notes(table: &Table, scope: Scope) -> Vec<String> {
    let project = match scope {
        Scope::Project => table.hooks.project_notes,
        Scope::User | Scope::Local => &[],
    };
    let notes = table.hooks.notes.iter().chain(project);
    notes.map(|note| note.to_string()).collect()
}

/// `gatehouse uninstall <agent>`: gatehouse's entries in the file of the request's scope.
pub fn uninstall(table: &Table, request: &UninstallRequest) -> Result<Installed, InstallError> {
    let path = path(table, request.scope, &request.project)?;
    Ok(Installed {
        reports: vec![remove(table, &path, request.dry_run)?],
        notes: Vec::new(),
    })
}

/// Each scope's hooks file, and whether it holds the hook for the events the agent needs.
pub fn places(table: &Table, project: &Path) -> Vec<HookPlace> {
    let scopes = table.hooks.files.iter().map(|(scope, _)| *scope);
    scopes
        .filter_map(|scope| {
            let path = path(table, scope, project).ok()?;
            let state = state(table, &path);
            Some(HookPlace { scope, path, state })
        })
        .collect()
}

/// Whether the hooks file at `path` holds gatehouse's hook for the events the agent needs.
pub fn state(table: &Table, path: &Path) -> HookState {
    let held = install_file::hooks_holding(path, table.names.cli);
    if held.is_empty() {
        return HookState::Absent;
    }
    let needed = match table.hooks.needs {
        Needs::Any => &[][..],
        Needs::First => &table.events[..1],
        Needs::All => table.events,
    };
    let missing: Vec<&str> = needed
        .iter()
        .map(|e| e.name)
        .filter(|name| !held.iter().any(|(event, _)| event == name))
        .collect();
    if missing.is_empty() {
        HookState::Active
    } else {
        HookState::Inactive(format!(
            "no hook for {}; run `gatehouse install {}` again",
            missing.join(", "),
            table.names.cli
        ))
    }
}

/// Adds gatehouse's hook for `events` to the hooks file at `path` (created if missing),
/// replacing every older entry of gatehouse's for this agent.
pub fn add(
    table: &Table,
    path: &Path,
    events: &[&'static str],
    command: &str,
    timeout_secs: u64,
    dry_run: bool,
) -> Result<Report, InstallError> {
    add_with(
        table,
        path,
        (events, command),
        timeout_secs,
        &Map::new(),
        dry_run,
    )
}

/// [`add`], with `extra` keys in gatehouse's hook entry.
fn add_with(
    table: &Table,
    path: &Path,
    (events, command): (&[&'static str], &str),
    timeout_secs: u64,
    extra: &Map<String, Value>,
    dry_run: bool,
) -> Result<Report, InstallError> {
    let mut entry = (table.hooks.entry)(command, timeout_secs);
    if let Some(map) = entry.as_object_mut() {
        map.extend(extra.clone());
    }
    let word = table.names.cli;
    match table.hooks.layout {
        Layout::Groups => {
            let spec = Some(HookSpec {
                events: events.to_vec(),
                command: command.to_string(),
                timeout_secs,
            });
            let group = json!({"matcher": "*", "hooks": [entry]});
            install_file::edit(path, dry_run, spec.as_ref(), |settings| {
                install_file::add_group_to_each(settings, events, &group, word)
            })
        }
        Layout::Flat { version } => install_file::edit(path, dry_run, None, |file| {
            add_flat(file, events, &entry, word, version)
        }),
    }
}

/// Removes every entry of gatehouse's for this agent from the hooks file at `path`, and the
/// file itself where it is gatehouse's own and nothing else is left in it.
pub fn remove(table: &Table, path: &Path, dry_run: bool) -> Result<Report, InstallError> {
    let word = table.names.cli;
    let mut report = install_file::edit(path, dry_run, None, |file| {
        Ok(Change::removed(match table.hooks.layout {
            Layout::Groups => install_file::remove_ours(file, None, word),
            Layout::Flat { .. } => install_file::remove_flat(file, word),
        }))
    })?;
    if table.hooks.owned
        && let Change::Removed(_) = report.change
        && is_empty(&report.text)
    {
        report.text = String::new();
        if !dry_run {
            std::fs::remove_file(path).map_err(|e| io_error("cannot remove", path, e))?;
        }
    }
    Ok(report)
}

/// Adds `entry` to each event's list, first removing every entry of `gatehouse hook <word>`.
/// Unchanged when every event has it and gatehouse has no other.
fn add_flat(
    file: &mut Map<String, Value>,
    events: &[&str],
    entry: &Value,
    word: &str,
    version: bool,
) -> Result<Change, String> {
    let there = events.iter().all(|event| {
        let list = file.get("hooks").and_then(|h| h.get(event));
        list.and_then(Value::as_array)
            .is_some_and(|list| list.contains(entry))
    });
    if there && install_file::count_flat(file, word) == events.len() {
        return Ok(Change::Unchanged);
    }
    let removed = install_file::remove_flat(file, word);
    if version {
        file.entry("version").or_insert(json!(1));
    }
    let hooks = file.entry("hooks").or_insert_with(|| json!({}));
    let hooks = hooks.as_object_mut().ok_or("`hooks`")?;
    for event in events {
        let list = hooks.entry(*event).or_insert_with(|| json!([]));
        let list = list.as_array_mut().ok_or(format!("`hooks.{event}`"))?;
        list.push(entry.clone());
    }
    Ok(if removed > 0 {
        Change::Updated
    } else {
        Change::Added
    })
}

/// True for a hooks file with no hooks and nothing else but `version`.
fn is_empty(text: &str) -> bool {
    let Ok(Value::Object(file)) = serde_json::from_str::<Value>(text) else {
        return false;
    };
    file.iter().all(|(key, value)| match key.as_str() {
        "version" => true,
        "hooks" => value.as_object().is_some_and(Map::is_empty),
        _ => false,
    })
}

#[cfg(test)]
#[path = "hook_file_tests.rs"]
mod tests;
