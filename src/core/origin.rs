//! Where a call came from when it is not this machine: the host label the remote hook was
//! installed with (`gatehouse hook claude --host build-box`), and the project policy files
//! that govern the call's folder there, read by the hook on the remote side, since the console
//! cannot read the remote's files. The console parses them as project files that are never
//! trusted, so they can only tighten; it never walks its own disk for a remote call's folder.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// The most project files one call carries (the walk up from a folder meets a few at most).
pub const MAX_CARRIED_FILES: usize = 16;

/// A call's origin on another machine or in a container.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Remote {
    /// The label the console shows and rules match (`host = "build-box"`).
    pub host: String,
    /// Every `.gatehouse.toml` from the call's folder up, nearest first, as the remote read it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub projects: Vec<Carried>,
}

/// One project file as the remote hook read it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Carried {
    /// Its path on the remote.
    pub path: String,
    pub content: Content,
}

/// What the remote hook found in a project file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Content {
    /// Its text.
    Text(String),
    /// Why it could not be read there: the console refuses the call, as it would a local
    /// project file it cannot read.
    Unreadable(String),
}

impl Remote {
    /// A call from `host` made in `cwd`: the project files that govern `cwd` on this machine
    /// (the hook runs on the remote, so "this machine" is the remote), each read within the
    /// policy reader's bound.
    pub fn here(host: &str, cwd: &str, home: Option<&Path>) -> Remote {
        let projects = match super::policy::place::unplaced(cwd) {
            Some(_) => Vec::new(),
            None => super::policy::place::standing(Path::new(cwd), home)
                .files
                .into_iter()
                .take(MAX_CARRIED_FILES)
                .map(|path| Carried {
                    content: match super::policy::read::read_bounded(&path) {
                        Ok(bytes) => match String::from_utf8(bytes) {
                            Ok(text) => Content::Text(text),
                            Err(_) => Content::Unreadable("it is not UTF-8 text".into()),
                        },
                        Err(err) => Content::Unreadable(err.message),
                    },
                    path: path.display().to_string(),
                })
                .collect(),
        };
        Remote {
            host: host.to_string(),
            projects,
        }
    }

    /// Whether `label` is usable as a host label: short, printable, no spaces, no `›`, not
    /// an option (`-x`) where it is passed as an argument.
    pub fn valid_label(label: &str) -> bool {
        !label.is_empty()
            && !label.starts_with('-')
            && label.len() <= 64
            && label
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.@".contains(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_remote_side_carries_every_project_file_above_the_folder_nearest_first() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("outer/inner");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::write(
            dir.path().join("outer/.gatehouse.toml"),
            "denied_commands = []",
        )
        .unwrap();
        std::fs::write(inner.join(".gatehouse.toml"), vec![0xff, 0xfe]).unwrap();
        let remote = Remote::here("box", inner.to_str().unwrap(), Some(dir.path()));
        assert_eq!(remote.host, "box");
        assert_eq!(remote.projects.len(), 2);
        assert!(remote.projects[0].path.ends_with("inner/.gatehouse.toml"));
        assert!(matches!(remote.projects[0].content, Content::Unreadable(_)));
        assert_eq!(
            remote.projects[1].content,
            Content::Text("denied_commands = []".into())
        );
        assert!(Remote::here("box", "relative", None).projects.is_empty());
    }

    /// The barrier judges a remote call by the files it carries, never by this disk: a deny
    /// carried from the remote holds, and a project file here at the same folder is not read.
    #[test]
    fn a_remote_call_is_judged_by_its_carried_project_files_only() {
        use crate::core::barrier::assess_bounded;
        use crate::core::call::test_call;
        use crate::core::route::Class;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(".gatehouse.toml"),
            "denied_commands = [\"make\"]\n",
        )
        .unwrap();
        let rules = crate::core::rules::Rules::default();
        let mut call = test_call("Bash", serde_json::json!({"command": "make deploy"}));
        call.cwd = dir.path().display().to_string();
        assert_eq!(assess_bounded(&call, &rules, &[]).class, Class::Denied);
        call.remote = Some(Remote {
            host: "box".into(),
            projects: Vec::new(),
        });
        assert_ne!(assess_bounded(&call, &rules, &[]).class, Class::Denied);
        call.remote = Some(Remote {
            host: "box".into(),
            projects: vec![Carried {
                path: "/srv/p/.gatehouse.toml".into(),
                content: Content::Text("denied_commands = [\"make deploy\"]\n".into()),
            }],
        });
        let assessed = assess_bounded(&call, &rules, &[]);
        assert_eq!(assessed.class, Class::Denied);
        assert!(
            assessed.explanation.contains("box:/srv/p/.gatehouse.toml"),
            "{}",
            assessed.explanation
        );
    }

    #[test]
    fn a_host_label_is_one_plain_word() {
        assert!(Remote::valid_label("build-box"));
        assert!(Remote::valid_label("dev@vm.1"));
        for bad in ["", "-it", "a b", "a›b", "x\u{1b}[2J", &"x".repeat(65)] {
            assert!(!Remote::valid_label(bad), "{bad:?}");
        }
    }
}
