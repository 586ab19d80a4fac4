//! What `gatehouse agents` prints, from the registry alone: the capability table (the same
//! Markdown `docs/agents.md` shows, and a test keeps them equal), and for each agent whether
//! its program is on `PATH` (with its version), and where gatehouse's hook is installed and
//! whether the agent will run it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::dialect::{Dialect, EventSpec, HookState, Source};
use super::registry::{REGISTRY, Registry};
use crate::core::call::Stage;
use crate::core::caps::{AllowEffect, NoteEffect};

/// The capability table of every agent in the registry, as Markdown.
pub fn capability_table() -> String {
    capability_table_of(&REGISTRY)
}

/// The capability table of every agent in `registry`, and OpenCode's, as Markdown.
pub fn capability_table_of(registry: &Registry) -> String {
    let mut out = String::from(
        "| agent | event | allow | deny reason | note on allow | if the hook fails | checked |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for dialect in registry.all() {
        for event in dialect.table().events {
            let _ = writeln!(
                out,
                "| {} |",
                row(dialect.names().display, dialect.table().source, event).join(" | ")
            );
        }
    }
    // OpenCode has no hook, so no dialect: the console attaches to its server.
    for event in super::opencode::doctor::EVENTS {
        let display = super::opencode::doctor::DISPLAY;
        let source = super::opencode::doctor::SOURCE;
        let _ = writeln!(out, "| {} |", row(display, source, event).join(" | "));
    }
    out
}

/// One row of the table, cell by cell: `event` of `agent`, its facts from `source`.
fn row(agent: &str, source: Source, event: &EventSpec) -> Vec<String> {
    let checked = match source {
        Source::Verified(version) => format!("run against {version}"),
        Source::Documented => "from its documentation".to_string(),
        Source::Reported(by) => format!("from its documentation, and {by}"),
    };
    let (allow, reason, note) = match event.stage {
        Stage::AfterTool => (
            "not a question: prints the note kept for the call it follows",
            "",
            "",
        ),
        Stage::SessionEnd => (
            "not a question: tells the console the session ended",
            "",
            "",
        ),
        Stage::Question | Stage::PermissionFirst => (
            match event.caps.allow {
                AllowEffect::Grant => "grants: the call runs, skipping the agent's prompt",
                AllowEffect::Pass => "passes: the agent's own checks still apply",
            },
            if event.caps.reason {
                "reaches the model"
            } else {
                "not shown: the model only learns it was blocked"
            },
            match event.caps.note {
                NoteEffect::Model => "reaches the model",
                NoteEffect::AfterTool => "reaches the model after the output (after-tool hook)",
                NoteEffect::User => "shown to the user only",
                NoteEffect::None => "not offered",
            },
        ),
    };
    vec![
        agent.to_string(),
        format!("`{}`", event.name),
        allow.to_string(),
        reason.to_string(),
        note.to_string(),
        match event.stage {
            Stage::SessionEnd => "nothing: the session is forgotten after it is idle".to_string(),
            _ => event.fail.words().to_string(),
        },
        checked,
    ]
}

/// For every agent: its program on `PATH` and version, and the hook in each scope.
pub fn report(project: &Path) -> String {
    report_of(&REGISTRY, project)
}

/// [`report`] for the agents of `registry`, and OpenCode.
pub fn report_of(registry: &Registry, project: &Path) -> String {
    let mut out = String::new();
    for dialect in registry.all() {
        let names = dialect.names();
        let installed = on_path(names.program).map(|path| {
            let version = version(&path);
            (path, version)
        });
        let program = match &installed {
            Some((path, Some(version))) => format!("{} ({version})", path.display()),
            Some((path, None)) => path.display().to_string(),
            None => format!("not installed (no `{}` on PATH)", names.program),
        };
        let _ = writeln!(
            out,
            "{} (`gatehouse hook {}`): {program}",
            names.display, names.cli
        );
        let version = installed.as_ref().and_then(|(_, v)| v.as_deref());
        let _ = writeln!(
            out,
            "  answers: {}",
            checked(dialect.table().source, version)
        );
        hooks(&mut out, *dialect, project);
    }
    let program = match on_path("opencode") {
        Some(path) => match version(&path) {
            Some(version) => format!("{} ({version})", path.display()),
            None => path.display().to_string(),
        },
        None => "not installed (no `opencode` on PATH)".to_string(),
    };
    super::opencode::doctor::report(&mut out, &program);
    out
}

fn hooks(out: &mut String, dialect: &dyn Dialect, project: &Path) {
    let places = dialect.hook_places(project);
    if places.iter().all(|p| p.state == HookState::Absent) {
        let _ = writeln!(
            out,
            "  hook: not installed (`gatehouse install {}`)",
            dialect.names().cli
        );
        return;
    }
    for place in places {
        let state = match &place.state {
            HookState::Active => {
                let mut state = match dialect.on_failure(&place.path) {
                    Some(failure) => format!("installed, active, {failure}"),
                    None => "installed, active".to_string(),
                };
                if lacks_timeout(&place.path, dialect.names().cli) {
                    let _ = write!(
                        state,
                        "; written without its time limit (`--timeout`), so the console cannot \
                         answer before the agent stops waiting if that comes first: run \
                         `gatehouse install {}` again",
                        dialect.names().cli
                    );
                }
                state
            }
            HookState::Inactive(why) => format!("installed, NOT active: {why}"),
            HookState::Absent => continue,
        };
        let _ = writeln!(
            out,
            "  hook ({}): {} {state}",
            place.scope.name(),
            place.path.display()
        );
    }
}

/// True when a hook of `gatehouse hook <cli>` in the hooks file at `path` does not carry the
/// time limit written for its agent (`--timeout`, which older installs did not write): its
/// calls then tell the console nothing of when the agent stops waiting.
fn lacks_timeout(path: &Path, cli: &str) -> bool {
    super::install_file::hooks_holding(path, cli)
        .iter()
        .any(|(_, line)| !line.split_whitespace().any(|word| word == "--timeout"))
}

/// How far what the table says of an agent's answers holds for the version installed
/// (`installed`, as its `--version` printed it): run against this very version, against
/// another one (not checked again), or taken from documentation or others' live probes.
pub fn checked(source: Source, installed: Option<&str>) -> String {
    let number = |text: &str| {
        text.split(|c: char| c.is_whitespace() || c == 'v')
            .find(|w| w.starts_with(|c: char| c.is_ascii_digit()))
            .map(|w| {
                w.trim_end_matches(|c: char| !c.is_ascii_digit())
                    .to_string()
            })
    };
    match source {
        Source::Verified(run) => match (number(run), installed.and_then(number)) {
            (Some(ran), Some(here)) if ran == here => {
                format!("as run against {run}, this very version")
            }
            (_, Some(here)) => format!(
                "as run against {run}; this is {here}, not checked again (docs/agents.md says \
                 what each answer did there)"
            ),
            _ => format!("as run against {run}"),
        },
        Source::Documented => {
            "from its documentation only: no version was run against gatehouse".to_string()
        }
        Source::Reported(by) => format!("from its documentation, and {by}"),
    }
}

/// The first executable file named `program` in `$PATH`.
pub fn on_path(program: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|file| {
            file.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// The first line `program --version` prints within a few seconds, if any.
pub fn version(program: &Path) -> Option<String> {
    let mut child = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let output = child.wait_with_output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    Some(crate::core::escape::visible(line).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_doctor_says_whether_the_installed_version_is_the_one_run_against() {
        let run = Source::Verified("Claude Code 2.1.328");
        assert!(checked(run, Some("2.1.328 (Claude Code)")).contains("this very version"));
        let newer = checked(run, Some("2.1.332 (Claude Code)"));
        assert!(
            newer.contains("this is 2.1.332, not checked again"),
            "{newer}"
        );
        assert!(checked(run, Some("gemini v0.61.0")).contains("this is 0.61.0"));
        assert_eq!(checked(run, None), "as run against Claude Code 2.1.328");
        assert!(checked(Source::Documented, None).contains("documentation only"));
        assert!(checked(Source::Reported("a probe"), None).ends_with("and a probe"));
    }

    #[test]
    fn the_docs_table_is_the_one_the_registry_generates() {
        let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/agents.md"))
            .unwrap();
        let table = capability_table();
        assert!(
            docs.contains(&table),
            "docs/agents.md's capability table differs from the registry's; regenerate it \
             with `gatehouse agents --markdown`:\n{table}"
        );
    }

    #[test]
    fn the_table_has_a_row_for_every_event_of_every_agent() {
        let table = capability_table();
        let rows = table.lines().count() - 2;
        let events: usize = REGISTRY
            .all()
            .iter()
            .map(|d| d.table().events.len())
            .sum::<usize>()
            + super::super::opencode::doctor::EVENTS.len();
        assert_eq!(rows, events);
        assert!(table.contains("| Codex | `PreToolUse` | passes"));
    }

    #[test]
    fn a_program_is_found_on_path_only_where_it_is_executable() {
        assert!(on_path("sh").is_some());
        assert!(on_path("gatehouse-no-such-program").is_none());
    }
}
