//! `gatehouse hook <agent>`: reads the agent's hook input (at most 64 MiB), asks the console,
//! prints the dialect's answer. Never fails and never exits non-zero.

use std::io::{self, Read, Write};
use std::path::Path;
use std::time::Duration;

use gatehouse::agents::client::Timeouts;
use gatehouse::agents::dialect::Dialect;
use gatehouse::agents::hook::{self, HookSetup};
use gatehouse::config::Config;
use gatehouse::server::protocol::MAX_STDIN;
use gatehouse::server::socket::socket_path;

/// How much longer than the ask timeout the hook waits for the console's answer.
const HOOK_WAIT_MARGIN: Duration = Duration::from_secs(5);

/// `gatehouse hook <agent>`: never fails, never exits non-zero; whatever goes wrong is the
/// dialect's defer (which blocks where nothing else would).
pub fn run_hook(dialect: &dyn Dialect, config: Option<&Path>, socket: Option<&Path>) {
    // A panic anywhere becomes a defer with one line on stderr, not a backtrace.
    std::panic::set_hook(Box::new(|_| {}));
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
        };
        hook::run(dialect, &stdin, &setup)
    }))
    .unwrap_or_else(|_| hook::broken(dialect, "internal error"));
    if let Some(stdout) = output.stdout {
        let mut out = io::stdout().lock();
        let _ = writeln!(out, "{stdout}");
        let _ = out.flush();
    }
    for line in output.stderr {
        eprintln!("{line}");
    }
}
