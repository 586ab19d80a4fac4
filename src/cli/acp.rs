//! `gatehouse acp -- AGENT ARGS...`: the ACP proxy's runtime. Loads the config as the hook
//! does (an unreadable one leaves every call the console does not answer to the editor), then
//! serves the editor on stdin and stdout until it or the agent closes.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use gatehouse::agents::client::Timeouts;
use gatehouse::agents::hook::HookSetup;
use gatehouse::config::Config;
use gatehouse::wire::socket::socket_path;

use super::hook::HOOK_WAIT_MARGIN;

/// Runs `command` behind gatehouse. stdout is the editor's protocol stream: nothing else is
/// ever printed there; what gatehouse has to say goes to stderr.
pub fn acp(config: Option<&Path>, socket: Option<PathBuf>, command: &[String]) -> Result<()> {
    let (ask_timeout, rules) = match Config::load(config) {
        Ok(config) => (config.settings.ask_timeout, Ok(config.settings.rules)),
        Err(err) => {
            eprintln!(
                "gatehouse acp: the config cannot be used ({err}); until it is fixed, a call \
                 the console does not answer is left to the editor"
            );
            (
                gatehouse::core::barrier::Settings::default().ask_timeout,
                Err(err.to_string()),
            )
        }
    };
    let setup = HookSetup {
        socket: socket_path(socket.as_deref()),
        timeouts: Timeouts::for_ask_timeout(ask_timeout, HOOK_WAIT_MARGIN),
        rules,
        host: None,
        hook_timeout_secs: None,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(gatehouse::acp::run(command, setup))?;
    Ok(())
}
