//! The files that apply to a call from a remote host: the floor, the user's and the saved
//! rules as for any call, and the project files the remote hook read and sent with the call
//! ([`Remote::projects`]) in place of the project files on this disk, which the console never
//! walks for a remote folder. A carried file is never trusted (its allows are set aside, so it
//! can only tighten), and one the remote could not read, or that does not parse, or that is
//! larger than a project file may be, refuses the call as an unreadable local one would.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{InForce, Policy, hash};
use crate::core::origin::{Carried, Content, MAX_CARRIED_FILES, Remote};
use crate::core::policy::file::PolicyError;
use crate::core::policy::read::MAX_POLICY_BYTES;
use crate::core::policy::{Judgement, Layer, RuleFile, Trust};
use crate::core::rule::Subject;
use crate::core::shell::Command;

impl Policy {
    /// Judges a call from `remote` made in `cwd` there.
    pub fn judge_remote(
        &self,
        cwd: &str,
        remote: &Remote,
        subject: Subject<'_>,
        commands: &[Command],
    ) -> Result<Judgement, PolicyError> {
        let mut judgement = Self::judge_in(self.in_force_remote(cwd, remote), subject, commands)?;
        // A rule saved "for this project" names a folder of this machine: a remote call is in
        // no project here.
        judgement.root = None;
        Ok(judgement)
    }

    /// True when judging a call from `remote` reads and parses nothing: the floor and the
    /// saved rules are kept, and the call carries no project file.
    pub fn ready_for_remote(&self, remote: &Remote) -> bool {
        remote.projects.is_empty() && self.base_ready()
    }

    /// The files that apply to a call from `remote` made in `cwd` there.
    pub fn in_force_remote(&self, cwd: &str, remote: &Remote) -> InForce {
        let mut out = self.base();
        if let Some(why) = crate::core::policy::place::unplaced(cwd) {
            out.unplaced = Some(why);
            return out;
        }
        if remote.projects.len() > MAX_CARRIED_FILES {
            out.broken = out.broken.or(Some(PolicyError {
                path: PathBuf::from(format!("{}:{cwd}", remote.host)),
                line: None,
                message: format!(
                    "the call carries {} project files, more than the {MAX_CARRIED_FILES} a \
                     console reads",
                    remote.projects.len()
                ),
                fix: "remove the nested .gatehouse.toml files the project does not need".into(),
            }));
            return out;
        }
        for carried in &remote.projects {
            match self.carried(&remote.host, carried) {
                Ok(file) => out.files.push(file),
                Err(err) => out.broken = out.broken.or(Some(err)),
            }
        }
        out
    }

    /// One carried project file, parsed as an untrusted project file named `host:path`.
    fn carried(&self, host: &str, carried: &Carried) -> Result<Arc<RuleFile>, PolicyError> {
        let shown = PathBuf::from(format!("{host}:{}", carried.path));
        let error = |message: String, fix: &str| PolicyError {
            path: shown.clone(),
            line: None,
            message,
            fix: fix.to_string(),
        };
        let text = match &carried.content {
            Content::Text(text) => text,
            Content::Unreadable(why) => {
                return Err(error(
                    format!("the remote could not read it: {why}"),
                    "fix the file on the remote (readable, at most 1 MiB of UTF-8)",
                ));
            }
        };
        if text.len() > MAX_POLICY_BYTES {
            return Err(error(
                format!("it is larger than {} MiB", MAX_POLICY_BYTES / (1024 * 1024)),
                "keep a project policy under 1 MiB",
            ));
        }
        let remote_path = Path::new(&carried.path);
        if !remote_path.is_absolute() || remote_path.file_name().is_none() {
            return Err(error(
                "the remote sent a project file without an absolute path".into(),
                "update gatehouse on the remote",
            ));
        }
        let root = remote_path.parent().map(Path::to_path_buf);
        let digest = hash(text.as_bytes());
        let how = (Layer::Project, Trust::Untrusted);
        self.parsed.parse(
            &shown,
            (text.as_bytes(), &digest),
            how,
            &self.edit_tools,
            |file| {
                file.root = root;
            },
        )
    }
}

#[cfg(test)]
#[path = "carried_tests.rs"]
mod tests;
