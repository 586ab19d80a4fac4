//! Every `ssh` gatehouse runs, built from one [`Target`]: the short commands of `remote add`,
//! `rm` and `doctor`, and the tunnel. Always `BatchMode=yes` (a tunnel started by the console
//! cannot answer a password or host-key prompt: keys and known hosts are the user's ssh setup,
//! or the `-F` file given to `remote add --ssh-config`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::{Deserialize, Serialize};

/// What the tunnel's ssh runs on the remote once its forward is in place: a line that says
/// so, then a `cat` of the pipe the console holds, so the session (and the forward) ends when
/// the console does, however it ends.
pub const TUNNEL_COMMAND: &str = "echo gatehouse-tunnel-up; exec cat >/dev/null";

/// The line [`TUNNEL_COMMAND`] prints when the forward is up.
pub const TUNNEL_UP: &str = "gatehouse-tunnel-up";

/// Where to ssh to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    pub host: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<u16>,
    /// An ssh config file to use instead of the user's (`ssh -F`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ssh_config: Option<PathBuf>,
}

impl Target {
    /// `[USER@]HOST`, with `--user` and `--port` given apart; a user given twice must agree.
    pub fn parse(
        destination: &str,
        user: Option<String>,
        port: Option<u16>,
    ) -> Result<Target, String> {
        let (named, host) = match destination.rsplit_once('@') {
            Some((u, h)) => (Some(u.to_string()), h.to_string()),
            None => (None, destination.to_string()),
        };
        let bad = |what: &str| {
            format!("{destination:?} is not [USER@]HOST: {what}; write it as dev@build-box")
        };
        if host.is_empty() || host.starts_with('-') || host.contains(char::is_whitespace) {
            return Err(bad("the host is empty, starts with `-` or has spaces"));
        }
        if named
            .as_deref()
            .is_some_and(|u| u.is_empty() || u.starts_with('-'))
        {
            return Err(bad("the user is empty or starts with `-`"));
        }
        let user = match (named, user) {
            (Some(a), Some(b)) if a != b => {
                return Err(format!(
                    "the user is given twice, as {a:?} and --user {b:?}: give it once"
                ));
            }
            (a, b) => a.or(b),
        };
        Ok(Target {
            host,
            user,
            port,
            ssh_config: None,
        })
    }

    /// `user@host:port`, as people read it.
    pub fn display(&self) -> String {
        let mut out = match &self.user {
            Some(user) => format!("{user}@{}", self.host),
            None => self.host.clone(),
        };
        if let Some(port) = self.port {
            out.push_str(&format!(":{port}"));
        }
        out
    }

    /// The options every invocation shares, up to the host.
    fn options(&self) -> Vec<String> {
        let mut args: Vec<String> = ["-o", "BatchMode=yes", "-o", "ConnectTimeout=10"]
            .map(String::from)
            .to_vec();
        if let Some(config) = &self.ssh_config {
            args.extend(["-F".to_string(), config.display().to_string()]);
        }
        if let Some(port) = self.port {
            args.extend(["-p".to_string(), port.to_string()]);
        }
        if let Some(user) = &self.user {
            args.extend(["-l".to_string(), user.clone()]);
        }
        args
    }

    /// The arguments of `ssh` running `script` on the remote.
    pub fn command_args(&self, script: &str) -> Vec<String> {
        let mut args = self.options();
        args.extend([self.host.clone(), script.to_string()]);
        args
    }

    /// The arguments of the tunnel's `ssh`: the remote socket forwarded to `local`, failing
    /// when the forward fails, a stale socket there unlinked where the server allows it (sshd's
    /// own `StreamLocalBindUnlink`; the supervisor removes it first in any case), keep-alives
    /// that notice a dead link within a minute, then [`TUNNEL_COMMAND`].
    pub fn tunnel_args(&self, remote: &str, local: &Path) -> Vec<String> {
        let mut args = self.options();
        for option in [
            "ExitOnForwardFailure=yes",
            "StreamLocalBindUnlink=yes",
            "ServerAliveInterval=15",
            "ServerAliveCountMax=3",
        ] {
            args.extend(["-o".to_string(), option.to_string()]);
        }
        args.extend([
            "-R".to_string(),
            format!("{remote}:{}", local.display()),
            self.host.clone(),
            TUNNEL_COMMAND.to_string(),
        ]);
        args
    }

    /// Runs `script` on the remote, `stdin` (a file) sent to it; its stdout, or why it failed
    /// (ssh's or the script's stderr).
    pub fn run(&self, script: &str, stdin: Option<&Path>) -> Result<String, String> {
        let mut command = Command::new("ssh");
        command
            .args(self.command_args(script))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command.stdin(match stdin {
            Some(_) => Stdio::piped(),
            None => Stdio::null(),
        });
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot run ssh ({e}); is OpenSSH's client installed?"))?;
        if let (Some(path), Some(mut pipe)) = (stdin, child.stdin.take()) {
            let mut file =
                std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
            std::io::copy(&mut file, &mut pipe).map_err(|e| format!("sending the file: {e}"))?;
            let _ = pipe.flush();
        }
        let out = child
            .wait_with_output()
            .map_err(|e| format!("waiting for ssh: {e}"))?;
        if out.status.success() {
            return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
        Err(match (out.status.code(), last) {
            (Some(255), Some(line)) => format!("ssh could not connect: {}", line.trim()),
            (_, Some(line)) => line.trim().to_string(),
            (code, None) => format!("ssh exited with {code:?}"),
        })
    }
}

/// `word` quoted for the remote's POSIX shell.
pub fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_destination_is_user_at_host_with_the_user_given_once() {
        let t = Target::parse("dev@build-box", None, Some(2222)).unwrap();
        assert_eq!(
            (t.user.as_deref(), t.host.as_str()),
            (Some("dev"), "build-box")
        );
        assert_eq!(t.display(), "dev@build-box:2222");
        let t = Target::parse("build-box", Some("dev".into()), None).unwrap();
        assert_eq!(t.user.as_deref(), Some("dev"));
        assert!(Target::parse("a@box", Some("b".into()), None).is_err());
        for bad in ["", "@box", "-oProxyCommand=x", "a b", "dev@"] {
            assert!(Target::parse(bad, None, None).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_tunnel_forwards_the_remote_socket_and_fails_when_the_forward_fails() {
        let mut t = Target::parse("dev@box", None, Some(2222)).unwrap();
        t.ssh_config = Some("/t/ssh_config".into());
        let args = t.tunnel_args("/home/dev/r.sock", Path::new("/run/g.sock"));
        let line = args.join(" ");
        for part in [
            "-o BatchMode=yes",
            "-F /t/ssh_config",
            "-p 2222",
            "-l dev",
            "-o ExitOnForwardFailure=yes",
            "-o StreamLocalBindUnlink=yes",
            "-o ServerAliveInterval=15",
            "-R /home/dev/r.sock:/run/g.sock box",
        ] {
            assert!(line.contains(part), "{part} in {line}");
        }
        assert_eq!(args.last().map(String::as_str), Some(TUNNEL_COMMAND));
        let run = t.command_args("true");
        assert_eq!(&run[run.len() - 2..], ["box", "true"]);
    }

    #[test]
    fn quoting_keeps_a_word_whole_in_the_remote_shell() {
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
    }
}
