//! `gatehouse install AGENT --container NAME`: the hook installed inside a running Docker or
//! Podman container, for the console on this machine. The container must see the console's
//! socket folder (a bind mount, see docs/remote.md); inside it the hook runs with `--socket`
//! at the mount and `--host` the container's name. This gatehouse is copied in with `cp` when
//! the container has no gatehouse of the same version.

use std::path::Path;
use std::process::Command;

use super::RemoteError;

/// Where the console's socket folder is mounted inside a container, by default.
pub const SOCKET_INSIDE: &str = "/run/gatehouse/gatehouse.sock";

/// Where this gatehouse is put inside a container that has none of its version.
pub const EXE_INSIDE: &str = "/usr/local/bin/gatehouse";

/// The container runtime's command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runtime {
    Docker,
    Podman,
}

impl Runtime {
    pub fn program(self) -> &'static str {
        match self {
            Runtime::Docker => "docker",
            Runtime::Podman => "podman",
        }
    }

    /// Docker if its command is on PATH, else Podman if its is.
    pub fn on_path() -> Result<Runtime, RemoteError> {
        let path = std::env::var_os("PATH").unwrap_or_default();
        Runtime::in_path(&path).ok_or_else(|| {
            RemoteError::Usage(
                "neither docker nor podman is on PATH: install one, or install the hook in \
                 the container by hand (docs/remote.md)"
                    .into(),
            )
        })
    }

    /// The runtime found in `path` (a PATH value), Docker first.
    pub fn in_path(path: &std::ffi::OsStr) -> Option<Runtime> {
        [Runtime::Docker, Runtime::Podman]
            .into_iter()
            .find(|r| std::env::split_paths(path).any(|dir| dir.join(r.program()).is_file()))
    }
}

/// One running container.
#[derive(Debug, Clone)]
pub struct Container {
    pub runtime: Runtime,
    pub name: String,
}

impl Container {
    pub fn new(runtime: Runtime, name: &str) -> Result<Container, RemoteError> {
        if !crate::core::origin::Remote::valid_label(name) {
            return Err(RemoteError::Usage(format!(
                "{name:?} is not a container name gatehouse can label calls with: use its \
                 name of letters, digits, `-`, `_` and `.`"
            )));
        }
        Ok(Container {
            runtime,
            name: name.to_string(),
        })
    }

    /// The arguments of the runtime running `argv` in the container.
    pub fn exec_args(&self, argv: &[String]) -> Vec<String> {
        let mut args = vec!["exec".to_string(), self.name.clone()];
        args.extend(argv.iter().cloned());
        args
    }

    /// The arguments of the runtime copying `local` to `inside` in the container.
    pub fn copy_args(&self, local: &Path, inside: &str) -> Vec<String> {
        vec![
            "cp".to_string(),
            local.display().to_string(),
            format!("{}:{inside}", self.name),
        ]
    }

    /// Runs `argv` in the container; its stdout, or what went wrong.
    pub fn run(&self, argv: &[String]) -> Result<String, RemoteError> {
        self.runtime_run(&self.exec_args(argv), "running gatehouse in the container")
    }

    /// The path of a gatehouse of `version` in the container: one on its PATH or at
    /// [`EXE_INSIDE`], else `local` copied to [`EXE_INSIDE`].
    pub fn ensure_binary(&self, local: &Path, version: &str) -> Result<String, RemoteError> {
        let wanted = format!("gatehouse {version}");
        for exe in ["gatehouse", EXE_INSIDE] {
            let argv = [exe.to_string(), "--version".to_string()];
            if let Ok(out) = self.run(&argv)
                && out.trim() == wanted
            {
                return Ok(exe.to_string());
            }
        }
        self.runtime_run(
            &self.copy_args(local, EXE_INSIDE),
            "copying gatehouse into the container",
        )?;
        Ok(EXE_INSIDE.to_string())
    }

    fn runtime_run(&self, args: &[String], step: &'static str) -> Result<String, RemoteError> {
        let program = self.runtime.program();
        let out = Command::new(program)
            .args(args)
            .output()
            .map_err(|e| RemoteError::Step {
                step,
                target: self.name.clone(),
                why: format!("cannot run {program}: {e}"),
                fix: format!("install {program}, or put it on PATH"),
            })?;
        if out.status.success() {
            return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
        }
        let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
        Err(RemoteError::Step {
            step,
            target: self.name.clone(),
            fix: fix_for(program, &stderr, &self.name),
            why: if stderr.is_empty() {
                format!("{program} exited with {}", out.status)
            } else {
                stderr
            },
        })
    }
}

/// What to do about the runtime's error `stderr`.
fn fix_for(program: &str, stderr: &str, name: &str) -> String {
    if stderr.contains("Cannot connect to the Docker daemon")
        || stderr.contains("Is the docker daemon running")
        || stderr.contains("unable to connect to Podman")
    {
        format!(
            "{program} has no daemon to talk to: start it (systemctl start {program}), then try again"
        )
    } else if stderr.contains("No such container") || stderr.contains("no such container") {
        format!("start the container {name} first (`{program} ps` lists the running ones)")
    } else {
        format!("check `{program} exec {name} true` works, then try again")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtime_commands_name_the_container_and_the_paths_inside() {
        let c = Container::new(Runtime::Podman, "devbox").unwrap();
        let argv = ["gatehouse".to_string(), "--version".to_string()];
        assert_eq!(
            c.exec_args(&argv),
            ["exec", "devbox", "gatehouse", "--version"]
        );
        assert_eq!(
            c.copy_args(Path::new("/usr/bin/gatehouse"), EXE_INSIDE),
            [
                "cp",
                "/usr/bin/gatehouse",
                "devbox:/usr/local/bin/gatehouse"
            ]
        );
        assert!(Container::new(Runtime::Docker, "-it").is_err());
    }

    #[test]
    fn docker_is_chosen_before_podman_and_neither_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        let path = std::env::join_paths([&a, &b]).unwrap();
        assert_eq!(Runtime::in_path(&path), None);
        std::fs::write(b.join("podman"), "").unwrap();
        assert_eq!(Runtime::in_path(&path), Some(Runtime::Podman));
        std::fs::write(a.join("docker"), "").unwrap();
        assert_eq!(Runtime::in_path(&path), Some(Runtime::Docker));
    }

    #[test]
    fn a_runtime_without_its_daemon_is_said_plainly() {
        let fix = fix_for(
            "docker",
            "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?",
            "devbox",
        );
        assert!(fix.contains("no daemon"), "{fix}");
        assert!(
            fix_for("docker", "Error: No such container: devbox", "devbox")
                .contains("start the container")
        );
    }
}
