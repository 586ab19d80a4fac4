//! The configured remotes: `remotes.toml` beside the config file, one `[[remote]]` table each,
//! written by `gatehouse remote add` and `rm` and read by the console and `serve` at start.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::RemoteError;
use super::ssh::Target;
use crate::core::origin::Remote as Origin;

/// The file's name beside the config file.
pub const FILE: &str = "remotes.toml";

/// One remote as `remote add` left it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoteHost {
    /// The label its calls carry and the console shows.
    pub name: String,
    #[serde(flatten)]
    pub target: Target,
    /// The gatehouse its hooks run, on the remote.
    pub exe: String,
    /// The socket on the remote the tunnel forwards to the console's.
    pub socket: String,
    /// The agents (their `gatehouse hook` words) whose hooks `remote add` installed there.
    #[serde(default)]
    pub agents: Vec<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default)]
    remote: Vec<RemoteHost>,
}

/// The remotes file and what it holds.
#[derive(Debug, Clone, Default)]
pub struct Remotes {
    pub path: PathBuf,
    pub hosts: Vec<RemoteHost>,
}

impl Remotes {
    /// The remotes file in `folder` (the config file's), empty if there is none yet. A file
    /// that does not read is an error, never an empty list.
    pub fn load(folder: &Path) -> Result<Remotes, RemoteError> {
        let path = folder.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Remotes {
                    path,
                    hosts: Vec::new(),
                });
            }
            Err(err) => {
                return Err(RemoteError::File {
                    path,
                    message: format!("cannot read it: {err}"),
                    fix: "make it readable, or remove it and add the remotes again".into(),
                });
            }
        };
        let raw: Raw = toml::from_str(&text).map_err(|err| RemoteError::File {
            path: path.clone(),
            message: err.message().trim().to_string(),
            fix: "it is written by `gatehouse remote add`: fix the entry or remove it with \
                  `gatehouse remote rm NAME --forget`"
                .into(),
        })?;
        for host in &raw.remote {
            if !Origin::valid_label(&host.name) {
                return Err(RemoteError::File {
                    path,
                    message: format!("{:?} is not a usable remote name", host.name),
                    fix: "use letters, digits, `-`, `_`, `.` or `@`".into(),
                });
            }
        }
        Ok(Remotes {
            path,
            hosts: raw.remote,
        })
    }

    pub fn find(&self, name: &str) -> Option<&RemoteHost> {
        self.hosts.iter().find(|h| h.name == name)
    }

    /// Adds `host`, replacing the entry of the same name.
    pub fn put(&mut self, host: RemoteHost) {
        self.hosts.retain(|h| h.name != host.name);
        self.hosts.push(host);
    }

    /// Removes the entry named `name`; false if there was none.
    pub fn remove(&mut self, name: &str) -> bool {
        let before = self.hosts.len();
        self.hosts.retain(|h| h.name != name);
        self.hosts.len() != before
    }

    /// Writes the file whole (atomically, mode 0600, the old one kept as `.bak`).
    pub fn save(&self) -> Result<(), RemoteError> {
        let raw = Raw {
            remote: self.hosts.clone(),
        };
        let body = toml::to_string(&raw).unwrap_or_default();
        let text =
            format!("# gatehouse remotes: written by `gatehouse remote add` and `rm`.\n\n{body}");
        crate::core::policy::write::write_atomic(&self.path, &text).map_err(|err| {
            RemoteError::File {
                path: self.path.clone(),
                message: format!("cannot write it: {err}"),
                fix: "check that its folder exists and is writable".into(),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(name: &str) -> RemoteHost {
        RemoteHost {
            name: name.into(),
            target: Target {
                host: "10.0.0.2".into(),
                user: Some("dev".into()),
                port: Some(2222),
                ssh_config: None,
            },
            exe: "/home/dev/.local/bin/gatehouse".into(),
            socket: "/home/dev/.local/state/gatehouse/remote/gatehouse.sock".into(),
            agents: vec!["claude".into()],
        }
    }

    #[test]
    fn remotes_are_written_and_read_back_and_replaced_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let mut remotes = Remotes::load(dir.path()).unwrap();
        assert!(remotes.hosts.is_empty());
        remotes.put(host("build-box"));
        remotes.put(host("gpu"));
        let mut again = host("build-box");
        again.agents.push("codex".into());
        remotes.put(again.clone());
        remotes.save().unwrap();
        let read = Remotes::load(dir.path()).unwrap();
        assert_eq!(read.hosts.len(), 2);
        assert_eq!(read.find("build-box"), Some(&again));
        let mut read = read;
        assert!(read.remove("gpu"));
        assert!(!read.remove("gpu"));
    }

    #[test]
    fn a_remotes_file_that_does_not_read_is_an_error_with_a_fix() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), "[[remote]]\nname = \"x\"\n").unwrap();
        let err = Remotes::load(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("remotes.toml") && err.contains("fix:"),
            "{err}"
        );
        std::fs::write(
            dir.path().join(FILE),
            toml::to_string(&Raw {
                remote: vec![host("a b")],
            })
            .unwrap(),
        )
        .unwrap();
        let err = Remotes::load(dir.path()).unwrap_err().to_string();
        assert!(err.contains("not a usable remote name"), "{err}");
    }
}
