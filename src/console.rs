//! `gatehouse` with no arguments: the console. The barrier, the socket server, the classifier
//! and the attachments to OpenCode servers run inside it; the TUI answers. Every way out (`q`, SIGHUP, SIGTERM, SIGINT, the
//! terminal going away, a panic) answers every open dialog with the shutdown fallback, never
//! allow, audits it, removes the socket and restores the terminal.

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use tokio::sync::oneshot;

use crate::agents::opencode::attach::Log;
use crate::classifier::model::Warmth;
use crate::classifier::{ClassifierSetup, Panel};
use crate::config::Config;
use crate::core::barrier::Fallback;
use crate::core::classifier::Classifier;
use crate::core::mode::Mode;
use crate::remote::state::Board;
use crate::server;
use crate::tui::runner::{self, Options};
use crate::wiring::{Assembled, assemble};

/// The status bar's right part: the classifiers, the OpenCode attachments if any, and the
/// remotes' tunnels if any (`remotes: build-box up`).
pub fn status_line(classifier: String, links: Option<String>, tunnels: Option<&Board>) -> String {
    let mut status = classifier;
    if let Some(links) = links {
        status = format!("{status} · {links}");
    }
    match tunnels.and_then(Board::summary) {
        Some(tunnels) => format!("{status} · remotes: {tunnels}"),
        None => status,
    }
}

/// What the status bar says of the classifiers: each one's model and state, `+`-joined.
pub fn classifier_status(panel: Option<&Panel>) -> String {
    let Some(panel) = panel else {
        return "none set up (auto asks you)".into();
    };
    let parts: Vec<String> = panel
        .members()
        .iter()
        .map(|model| {
            let name = &model.endpoint().model;
            if model.breaker().is_open() {
                return format!("{name} OFF after failures (r re-arms)");
            }
            let off = model.sessions_off();
            if off > 0 {
                let s = if off == 1 { "" } else { "s" };
                return format!("{name} off for {off} looping or failing session{s} (r re-arms)");
            }
            match model.warmth() {
                Warmth::Warming => format!("{name} warming"),
                Warmth::Failed(_) => format!("{name} not answering"),
                Warmth::Cold | Warmth::Warm => name.clone(),
            }
        })
        .collect();
    parts.join(" + ")
}

/// Runs the console on `socket` until the human quits or `stop` completes.
pub async fn run(
    config: Config,
    socket: PathBuf,
    mode: Option<Mode>,
    stop: impl Future<Output = ()>,
) -> Result<()> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        anyhow::bail!(
            "the console needs a terminal; to answer agents without a screen, run `gatehouse serve`"
        );
    }
    let mut settings = config.settings.clone();
    if let Some(mode) = mode {
        settings.mode = mode;
    }
    let on_quit = match settings.on_shutdown {
        Fallback::Deny => "deny",
        Fallback::Defer => "defer",
    };
    let setup = ClassifierSetup::from_env(&config.classifier);
    let model = setup.start().map_err(|e| anyhow::anyhow!(e))?;
    if let Some(panel) = &model {
        panel.warm();
    }
    let classifier = model.clone().map(|m| Arc::new(m) as Arc<dyn Classifier>);
    let ask_timeout = Some(settings.ask_timeout);
    let log: Log = Arc::new(|line| tracing::info!("{line}"));
    let Assembled {
        barrier,
        prompter,
        bound,
        extras,
        control,
    } = assemble(&config, settings, classifier, &socket, log).await?;
    let attachments = control
        .attachments
        .clone()
        .expect("the console attaches to OpenCode servers");

    let (stop_server, server_stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(server::run_supported(
        bound.listener,
        barrier.clone(),
        config.server,
        control.support(),
        async {
            let _ = server_stopped.await;
        },
    ));
    let status_model = model.clone();
    let status_links = attachments.clone();
    let status_tunnels = extras.tunnels.as_ref().map(|t| t.board.clone());
    let options = Options {
        cycle: config.cycle.clone(),
        socket: socket.display().to_string(),
        on_quit,
        notify: config.notify,
        rearm: model
            .clone()
            .map(|m| Box::new(move || m.rearm()) as Box<dyn Fn() + Send>),
        classifier_status: Some(Box::new(move || {
            status_line(
                classifier_status(status_model.as_ref()),
                status_links.status(),
                status_tunnels.as_ref(),
            )
        })),
        ask_timeout,
        web: extras.web.as_ref().map(|web| {
            let hub = web.hub.clone();
            Box::new(move |ask| crate::wiring::panel(&hub, ask))
                as Box<dyn Fn(runner::WebAsk) -> runner::WebPanel + Send>
        }),
        suggest_after: config.suggest_after as usize,
        audit_log: Some(config.audit_log.clone()),
        config: config
            .source
            .clone()
            .map(crate::config_watch::ConfigWatch::new),
    };
    // A panic in the console itself is caught here (its terminal guard has already restored
    // the terminal while unwinding), so the shutdown below still answers what is open.
    let result = crate::plumbing::stop::catching(runner::run(prompter, options, stop)).await;
    // The human has gone: nothing open may wait for them, and nothing is allowed on the way out.
    // OpenCode's requests are let go first, unanswered: they stay OpenCode's to answer.
    attachments.detach_all().await;
    barrier.shutdown();
    let _ = stop_server.send(());
    let _ = server.await;
    extras.stop().await;
    drop(bound.file);
    match result {
        Err(panicked) => Err(panicked).context("the console stopped"),
        Ok(_) if crate::plumbing::stop::panicked() => {
            anyhow::bail!("the console stopped: a task panicked")
        }
        Ok(result) => result.context("running the console"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::remote::state::Link;

    #[test]
    fn the_status_bar_says_each_remotes_tunnel() {
        let board = Board::new(None);
        assert_eq!(status_line("qwen".into(), None, Some(&board)), "qwen");
        board.set("build-box", Link::Up { ssh_pid: 7 });
        board.set(
            "gpu",
            Link::Down {
                why: "refused".into(),
                retry_secs: 8,
            },
        );
        assert_eq!(
            status_line("qwen".into(), Some("opencode 1".into()), Some(&board)),
            "qwen · opencode 1 · remotes: build-box up · gpu down (8 s)"
        );
    }
}
