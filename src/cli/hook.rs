//! `gatehouse hook <agent>`: reads the agent's hook input (at most 64 MiB), asks the console,
//! prints the dialect's answer. Never fails and never exits non-zero.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use gatehouse::agents::client::Timeouts;
use gatehouse::agents::dialect::Dialect;
use gatehouse::agents::hook::{self, HookSetup};
use gatehouse::config::Config;
use gatehouse::wire::MAX_STDIN;
use gatehouse::wire::socket::socket_path;

/// How much longer than the ask timeout the hook waits for the console's answer.
pub(super) const HOOK_WAIT_MARGIN: Duration = Duration::from_secs(5);

/// The arguments of a hook run, read without the full command line: `hook <agent>` with
/// `--config`/`--socket`/`--host` (either form, before or after) and nothing else.
pub struct HookArgs {
    pub dialect: &'static dyn Dialect,
    pub config: Option<PathBuf>,
    pub socket: Option<PathBuf>,
    pub host: Option<String>,
    /// `--timeout`: how long the agent waits for this hook, as installed.
    pub timeout: Option<u64>,
}

/// The hook's arguments when `args` (without the program name) are exactly a hook run the
/// registry knows; anything else (help, an unknown agent or flag) is `None`, for clap to
/// parse and explain. The hook runs before every tool call of every agent, so it skips
/// building the whole command line.
pub fn fast_args(args: impl IntoIterator<Item = OsString>) -> Option<HookArgs> {
    let mut words = Vec::new();
    let (mut config, mut socket, mut host, mut timeout) = (None, None, None, None);
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let text = arg.to_str()?;
        let slot = match text.split_once('=').map_or(text, |(flag, _)| flag) {
            "--config" => &mut config,
            "--socket" => &mut socket,
            "--host" => &mut host,
            "--timeout" => &mut timeout,
            word if !word.starts_with('-') => {
                words.push(word.to_string());
                continue;
            }
            _ => return None,
        };
        let value = match text.split_once('=') {
            Some((_, value)) => OsString::from(value),
            None => args.next()?,
        };
        if slot.replace(PathBuf::from(value)).is_some() {
            return None;
        }
    }
    match &words[..] {
        [hook, agent] if hook == "hook" => Some(HookArgs {
            dialect: gatehouse::agents::registry::find(agent)?,
            config,
            socket,
            host: host.map(|h: PathBuf| h.to_string_lossy().into_owned()),
            // A timeout that is not a number is for clap to explain.
            timeout: match timeout {
                Some(secs) => Some(secs.to_str()?.parse().ok()?),
                None => None,
            },
        }),
        _ => None,
    }
}

/// `gatehouse hook <agent>`: never fails, never exits non-zero; whatever goes wrong is the
/// dialect's defer (which blocks where nothing else would).
pub fn run_hook(
    dialect: &dyn Dialect,
    config: Option<&Path>,
    socket: Option<&Path>,
    (host, timeout): (Option<String>, Option<u64>),
) {
    // A panic anywhere becomes a defer with one line on stderr, not a backtrace.
    std::panic::set_hook(Box::new(|_| {}));
    if io::stdin().is_terminal() {
        // A person typed it: say what it is for, then read a pasted call as an agent sends it.
        let names = dialect.names();
        let mut err = io::stderr().lock();
        let _ = writeln!(
            err,
            "`gatehouse hook {cli}` is run by {agent} before each tool call, with the call as \
             JSON on stdin; `gatehouse install {cli}` connects it. Paste a call and press \
             Ctrl-D to see the answer, or Ctrl-C to leave.",
            cli = names.cli,
            agent = names.display,
        );
    }
    let mut stdin = Vec::new();
    let bound = MAX_STDIN as u64 + 1;
    let read = io::stdin().lock().take(bound).read_to_end(&mut stdin);
    let output = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if let Err(err) = read {
            return hook::broken(dialect, &format!("cannot read stdin ({err})"));
        }
        if stdin.len() > MAX_STDIN {
            return hook::broken(
                dialect,
                &format!(
                    "the hook input is longer than {} MiB, more than gatehouse reads",
                    MAX_STDIN / (1024 * 1024)
                ),
            );
        }
        let (ask_timeout, rules) = match Config::load(config) {
            Ok(config) => (config.settings.ask_timeout, Ok(config.settings.rules)),
            Err(err) => (
                gatehouse::core::barrier::Settings::default().ask_timeout,
                Err(err.to_string()),
            ),
        };
        let setup = HookSetup {
            socket: socket_path(socket),
            timeouts: Timeouts::for_ask_timeout(ask_timeout, HOOK_WAIT_MARGIN),
            rules,
            host: host
                .or_else(|| std::env::var("GATEHOUSE_HOST").ok())
                .filter(|h| !h.is_empty()),
            hook_timeout_secs: timeout,
        };
        hook::run(dialect, &stdin, &setup)
    }))
    .unwrap_or_else(|_| hook::broken(dialect, "internal error"));
    if let Some(stdout) = output.stdout {
        let mut out = io::stdout().lock();
        let _ = writeln!(out, "{stdout}");
        let _ = out.flush();
    }
    // Not `eprintln!`, which panics on a closed stderr: the status must stay 0, or an agent
    // that reads the answer only from a clean exit would drop a deny already written.
    let mut err = io::stderr().lock();
    for line in output.stderr {
        let _ = writeln!(err, "{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Option<(String, Option<PathBuf>, Option<PathBuf>)> {
        fast_args(args.iter().map(OsString::from))
            .map(|a| (a.dialect.names().cli.to_string(), a.config, a.socket))
    }

    #[test]
    fn a_hook_run_reads_its_host_label() {
        let args = ["hook", "claude", "--host", "build-box", "--socket=/s"];
        let hook = fast_args(args.iter().map(OsString::from)).unwrap();
        assert_eq!(hook.host.as_deref(), Some("build-box"));
        assert_eq!(hook.socket.as_deref(), Some(Path::new("/s")));
        let twice = ["hook", "claude", "--host", "a", "--host=b"];
        assert!(fast_args(twice.iter().map(OsString::from)).is_none());
    }

    #[test]
    fn a_hook_run_is_read_with_its_paths_in_either_place_and_form() {
        assert_eq!(
            parsed(&["hook", "codex"]),
            Some(("codex".into(), None, None))
        );
        assert_eq!(
            parsed(&["--socket", "/s", "hook", "claude", "--config=/c"]),
            Some(("claude".into(), Some("/c".into()), Some("/s".into())))
        );
        assert_eq!(
            parsed(&["hook", "gemini-cli"]).map(|p| p.0),
            Some("gemini".into())
        );
    }

    #[test]
    fn anything_but_a_plain_hook_run_is_left_to_clap() {
        for args in [
            &["hook"][..],
            &["hook", "aider"],
            &["hook", "claude", "--help"],
            &["hook", "claude", "extra"],
            &["install", "claude"],
            &["hook", "claude", "--config"],
            &["--config", "/a", "hook", "claude", "--config", "/b"],
            &["--mode", "auto", "hook", "claude"],
        ] {
            assert!(parsed(args).is_none(), "{args:?}");
        }
    }
}
