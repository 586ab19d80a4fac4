//! The commands that run the server: the console (the TUI with the server inside it),
//! `serve` (no screen: rules, the mode and --on-ask decide) and the demo, each on its own
//! runtime, and the signals that stop them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::ValueEnum;

use gatehouse::agents::opencode::attach::Log;
use gatehouse::classifier::ClassifierSetup;
use gatehouse::config::Config;
use gatehouse::core::barrier::Fallback;
use gatehouse::core::classifier::Classifier;
use gatehouse::core::escape::visible;
use gatehouse::core::mode::Mode;
use gatehouse::headless;
use gatehouse::plumbing::stop::{self, Signals};
use gatehouse::wire::socket::socket_path;
use gatehouse::wiring::{Assembled, assemble};
use std::io::Write;

/// What calls that need a human get under `serve`, since no one is watching.
#[derive(Clone, Copy, ValueEnum)]
pub enum OnAsk {
    Deny,
    Defer,
}

/// `gatehouse demo`: the guided tour.
pub fn demo(config: Option<&Path>) -> Result<()> {
    let config = Config::load(config)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(gatehouse::demo::run(config))
}

/// `gatehouse serve`: the server without a screen, until SIGINT (Ctrl+C), SIGTERM, SIGHUP or a
/// panic, each of which ends in the same orderly shutdown.
pub fn serve(
    config: Option<&Path>,
    socket: Option<PathBuf>,
    mode: Option<Mode>,
    on_ask: OnAsk,
    web: Option<String>,
) -> Result<()> {
    let mut config = Config::load(config)?;
    config.web = super::web::settings(config.web.take(), web)?;
    let mut settings = config.settings.clone();
    if let Some(mode) = mode {
        settings.mode = mode;
    }
    let mode = settings.mode;
    let (on_ask, on_ask_name) = match on_ask {
        OnAsk::Deny => (Fallback::Deny, "deny"),
        OnAsk::Defer => (Fallback::Defer, "defer"),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let setup = ClassifierSetup::from_env(&config.classifier);
    let panel = setup.start().map_err(|e| anyhow::anyhow!(e))?;
    let classifier = panel
        .clone()
        .map(|model| Arc::new(model) as Arc<dyn Classifier>);
    let policy = headless::Unattended {
        on_ask,
        classifier: classifier.is_some(),
    };
    runtime.block_on(async {
        // As the console does: the first race should not find a cold model.
        if let Some(panel) = &panel {
            panel.warm();
        }
        let signals = Signals::install().context("taking over the stop signals")?;
        let ask_timeout = settings.ask_timeout.as_secs();
        let socket = socket_path(socket.as_deref());
        let log: Log = Arc::new(|line| {
            let _ = writeln!(std::io::stderr(), "gatehouse serve: {}", visible(&line));
        });
        let Assembled {
            barrier,
            prompter,
            bound,
            extras,
            control,
        } = assemble(&config, settings, classifier, &socket, log).await?;
        let who = match &extras.web {
            Some(web) => {
                let _ = writeln!(
                    std::io::stderr(),
                    "gatehouse serve: web console on {}; pair a device with `gatehouse pair`",
                    web.url()
                );
                format!("wait up to {ask_timeout} s for an answer on the web")
            }
            None => format!("get {on_ask_name}"),
        };
        // Not `eprintln!`: a closed stderr must not stop serve before it listens.
        let _ = writeln!(
            std::io::stderr(),
            "gatehouse serve: listening on {}, mode {mode}; calls that need a human {who}; audit log {}",
            socket.display(),
            config.audit_log.display()
        );
        let _ = writeln!(std::io::stderr(), "gatehouse serve: {}", setup.describe());
        if let Some(tunnels) = &extras.tunnels {
            tokio::spawn(log_tunnels(tunnels.board.clone()));
        }
        let stop = async {
            let why = signals.stopped().await;
            let _ = writeln!(std::io::stderr(), "gatehouse serve: stopping ({why:?})");
        };
        let answering = match extras.web {
            Some(_) => headless::Answering::Web,
            None => headless::Answering::Unattended(policy),
        };
        let options = config.server;
        headless::serve_attached(bound, barrier, prompter, answering, options, control, stop)
            .await;
        extras.stop().await;
        let _ = writeln!(std::io::stderr(), "gatehouse serve: stopped");
        if stop::panicked() {
            anyhow::bail!("gatehouse serve stopped: a task panicked");
        }
        Ok(())
    })
}

/// Says on stderr each change of a remote's tunnel, until the board is gone.
async fn log_tunnels(board: gatehouse::remote::state::Board) {
    let mut changes = board.watch();
    let mut said = std::collections::BTreeMap::new();
    loop {
        for (name, link) in board.all() {
            let words = link.words();
            if said.get(&name) != Some(&words) {
                let _ = writeln!(
                    std::io::stderr(),
                    "gatehouse serve: remote {name}: tunnel {}",
                    visible(&words)
                );
                said.insert(name, words);
            }
        }
        if changes.changed().await.is_err() {
            return;
        }
    }
}

/// The console: the TUI with the server inside it.
pub fn console(
    config: Option<&Path>,
    socket: Option<PathBuf>,
    mode: Option<Mode>,
    web: Option<String>,
) -> Result<()> {
    let mut config = Config::load(config)?;
    config.web = super::web::settings(config.web.take(), web)?;
    let socket = socket_path(socket.as_deref());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let signals = Signals::install().context("taking over the stop signals")?;
        let stop = async {
            signals.stopped().await;
        };
        gatehouse::console::run(config, socket, mode, stop).await
    })
}
