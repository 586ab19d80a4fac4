//! The commands that run the server: the console (the TUI with the server inside it),
//! `serve` (no screen: rules, the mode and --on-ask decide) and the demo, each on its own
//! runtime, and the signals that stop them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::ValueEnum;

use gatehouse::classifier::ClassifierSetup;
use gatehouse::config::Config;
use gatehouse::core::audit::Audit;
use gatehouse::core::barrier::{Barrier, Fallback};
use gatehouse::core::classifier::Classifier;
use gatehouse::core::mode::Mode;
use gatehouse::headless;
use gatehouse::server::{self, socket::socket_path};

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

/// `gatehouse serve`: the server without a screen, until Ctrl+C or SIGTERM.
pub fn serve(
    config: Option<&Path>,
    socket: Option<PathBuf>,
    mode: Option<Mode>,
    on_ask: OnAsk,
) -> Result<()> {
    let config = Config::load(config)?;
    let mut settings = config.settings;
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
    let classifier: Option<Arc<dyn Classifier>> = setup
        .start()
        .map_err(|e| anyhow::anyhow!(e))?
        .map(|model| Arc::new(model) as Arc<dyn Classifier>);
    let policy = headless::Unattended {
        on_ask,
        classifier: classifier.is_some(),
    };
    runtime.block_on(async {
        let audit = Audit::open(&config.audit_log)
            .with_context(|| format!("opening the audit log {}", config.audit_log.display()))?;
        let (barrier, prompter) = Barrier::new(settings, audit, classifier);
        let socket = socket_path(socket.as_deref());
        let bound = server::bind(&socket)?;
        eprintln!(
            "gatehouse serve: listening on {}, mode {mode}; calls that need a human get {on_ask_name}; audit log {}",
            socket.display(),
            config.audit_log.display()
        );
        eprintln!("gatehouse serve: {}", setup.describe());
        headless::serve(bound, barrier, prompter, policy, config.server, stop_signal())
            .await;
        eprintln!("gatehouse serve: stopped");
        Ok(())
    })
}

/// The console: the TUI with the server inside it.
pub fn console(config: Option<&Path>, socket: Option<PathBuf>, mode: Option<Mode>) -> Result<()> {
    let config = Config::load(config)?;
    let socket = socket_path(socket.as_deref());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(gatehouse::console::run(
        config,
        socket,
        mode,
        terminate_signal(),
    ))
}

/// Completes on SIGTERM or SIGHUP (in the console, Ctrl+C is a key).
async fn terminate_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut hup)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::hangup()),
    ) else {
        return std::future::pending().await;
    };
    // Cancellation: whichever signal comes first ends the wait; the other is simply dropped.
    tokio::select! {
        _ = term.recv() => {}
        _ = hup.recv() => {}
    }
}

/// Completes on Ctrl+C or SIGTERM.
async fn stop_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let Ok(mut term) = signal(SignalKind::terminate()) else {
        let _ = tokio::signal::ctrl_c().await;
        return;
    };
    // Cancellation: whichever signal comes first ends the wait; the other is simply dropped.
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}
