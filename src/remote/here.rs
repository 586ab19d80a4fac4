//! What `gatehouse remote add` and `doctor` ask the remote's own gatehouse (`gatehouse remote
//! here`, run over ssh): which agents are there (their program on PATH, or the folder of
//! their user hooks file), and whether each has gatehouse's hook for a host label. One line
//! per agent, `WORD<TAB>found|absent<TAB>hooked|unhooked`, so that the local side reads the
//! remote's registry rather than guessing its paths.

use std::path::Path;

use crate::agents::dialect::{HookState, Scope};
use crate::agents::registry;

/// One agent on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentHere {
    /// Its `gatehouse hook` word.
    pub cli: String,
    pub found: bool,
    /// Its user hooks file holds gatehouse's hook with `--host` the label asked about.
    pub hooked: bool,
}

/// Every agent of the registry on this machine (its user files, where its dialect finds them:
/// the home, or a folder its environment names); hooked for `host`.
pub fn survey(host: Option<&str>) -> Vec<AgentHere> {
    registry::all()
        .iter()
        .map(|dialect| {
            let user = dialect
                .hook_places(Path::new("/"))
                .into_iter()
                .find(|p| p.scope == Scope::User);
            let folder_there = user
                .as_ref()
                .and_then(|p| p.path.parent())
                .is_some_and(Path::is_dir);
            let program = crate::agents::doctor::on_path(dialect.names().program).is_some();
            let hooked = match (&user, host) {
                (Some(place), Some(host)) if place.state != HookState::Absent => {
                    hooked_in(&place.path, host)
                }
                _ => false,
            };
            AgentHere {
                cli: dialect.names().cli.to_string(),
                found: program || folder_there,
                hooked,
            }
        })
        .collect()
}

/// True when the hooks file at `path` names the host label `host`: `--host HOST` ending the
/// hook's command or followed by its other options (`--timeout`).
fn hooked_in(path: &Path, host: &str) -> bool {
    let flag = format!("--host {host}");
    std::fs::read_to_string(path).is_ok_and(|text| {
        text.match_indices(&flag)
            .any(|(at, _)| matches!(text[at + flag.len()..].chars().next(), Some('"' | ' ')))
    })
}

/// The survey as lines.
pub fn render(agents: &[AgentHere]) -> String {
    agents
        .iter()
        .map(|a| {
            format!(
                "{}\t{}\t{}\n",
                a.cli,
                if a.found { "found" } else { "absent" },
                if a.hooked { "hooked" } else { "unhooked" }
            )
        })
        .collect()
}

/// The lines read back; lines it cannot read are left out.
pub fn parse(text: &str) -> Vec<AgentHere> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.split('\t');
            let (cli, found, hooked) = (parts.next()?, parts.next()?, parts.next()?);
            Some(AgentHere {
                cli: cli.to_string(),
                found: found == "found",
                hooked: hooked == "hooked",
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hooks_file_is_hooked_for_the_host_label_it_names_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        std::fs::write(
            &path,
            r#"{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command",
            "command":"/g hook claude --host box","timeout":90}]}]}}"#,
        )
        .unwrap();
        assert!(hooked_in(&path, "box"));
        assert!(!hooked_in(&path, "bo"));
        assert!(!hooked_in(&dir.path().join("none.json"), "box"));
        // Installs since hooks carry their time limit write it after the host label.
        std::fs::write(
            &path,
            r#"{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command",
            "command":"/g hook claude --host box --timeout 600","timeout":600}]}]}}"#,
        )
        .unwrap();
        assert!(hooked_in(&path, "box"));
        assert!(!hooked_in(&path, "bo"));
    }

    #[test]
    fn the_survey_reads_back_as_it_was_written() {
        let agents = vec![
            AgentHere {
                cli: "claude".into(),
                found: true,
                hooked: true,
            },
            AgentHere {
                cli: "codex".into(),
                found: false,
                hooked: false,
            },
        ];
        assert_eq!(parse(&render(&agents)), agents);
        assert!(parse("garbage\n").is_empty());
    }
}
