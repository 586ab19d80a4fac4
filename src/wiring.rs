//! What the console and `serve` assemble around the barrier, in one place ([`assemble`]): the
//! audit log, the barrier, the bound socket, the web console (from `[web]` or `--web`) and the
//! `notify_command` follower, each on its own tap of the prompter's events, the tunnels to the
//! remotes in `remotes.toml`, the attachments to
//! OpenCode servers, and the [`ConsoleControl`] that carries out the requests `gatehouse
//! attach`, `detach` and `pair` send on the socket; and what stops them again.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;

use crate::agents::opencode::Attachments;
use crate::agents::opencode::attach::{Log, Timing};
use crate::config::Config;
use crate::core::audit::Audit;
use crate::core::barrier::{Barrier, Settings as BarrierSettings};
use crate::core::classifier::Classifier;
use crate::core::prompter::Prompter;
use crate::remote::tunnel::Tunnels;
use crate::server::{self, Bound, Support};
use crate::tui::app::{WebAsk, WebPanel};
use crate::web::{Hub, Running, Settings, Start, WebError};
use crate::wire::control::{Control, Link, NO_WEB, NoControl, Target};

/// The web console, the notifier and the tunnels to remotes, as far as they run.
pub struct Extras {
    pub web: Option<Running>,
    notifier: Option<tokio::task::JoinHandle<()>>,
    /// One supervised `ssh -R` per configured remote (`remotes.toml`).
    pub tunnels: Option<Tunnels>,
}

/// What the console and `serve` run: the barrier and its prompter, the socket bound for the
/// server, the web console and notifier, and the control the server hands requests to.
pub struct Assembled {
    pub barrier: Barrier,
    pub prompter: Prompter,
    pub bound: Bound,
    pub extras: Extras,
    pub control: Arc<ConsoleControl>,
}

/// Opens the audit log, makes the barrier with `settings` and `classifier`, binds `socket`,
/// starts what the config asks for beside it, and attaches to the configured OpenCode
/// servers (`log` says what the attachments do). Must run inside a tokio runtime.
pub async fn assemble(
    config: &Config,
    settings: BarrierSettings,
    classifier: Option<Arc<dyn Classifier>>,
    socket: &Path,
    log: Log,
) -> anyhow::Result<Assembled> {
    let audit = Audit::open(&config.audit_log)
        .with_context(|| format!("opening the audit log {}", config.audit_log.display()))?;
    let (barrier, mut prompter) = Barrier::new(settings, audit, classifier);
    let bound = server::bind(socket)?;
    let extras = start(
        &mut prompter,
        config.web.clone(),
        config.notify_command.clone(),
        &config.audit_log,
    )
    .await?;
    let mut extras = extras;
    extras.tunnels = start_tunnels(config, socket)?;
    let attachments = Attachments::new(barrier.clone(), Timing::default(), log);
    attachments.attach_configured(&config.opencode);
    let control = Arc::new(ConsoleControl {
        attachments: Some(attachments),
        web: extras.hub(),
    });
    Ok(Assembled {
        barrier,
        prompter,
        bound,
        extras,
        control,
    })
}

/// Starts the web console when `web` is set and the notifier when `notify_command` is.
pub async fn start(
    prompter: &mut Prompter,
    web: Option<Settings>,
    notify_command: Option<String>,
    audit_log: &Path,
) -> Result<Extras, WebError> {
    let notifier = notify_command
        .map(|command| tokio::spawn(crate::web::notify::follow(command, prompter.tap())));
    let web = match web {
        None => None,
        Some(settings) => Some(
            crate::web::start(Start {
                settings,
                responder: prompter.responder(),
                tap: prompter.tap(),
                state: crate::plumbing::paths::state_dir(),
                audit_log: Some(audit_log.to_path_buf()),
            })
            .await?,
        ),
    };
    Ok(Extras {
        web,
        notifier,
        tunnels: None,
    })
}

/// Keeps a tunnel for each remote in the remotes file beside the config, following the file
/// while the console runs. A remotes file that does not read stops the start, saying why.
fn start_tunnels(config: &Config, socket: &Path) -> anyhow::Result<Option<Tunnels>> {
    let folder = config
        .source
        .as_deref()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .or_else(crate::plumbing::paths::config_dir);
    let Some(folder) = folder else {
        return Ok(None);
    };
    let states = crate::remote::state::folder(&crate::plumbing::paths::state_dir());
    Ok(Some(Tunnels::follow(&folder, socket, Some(states))?))
}

impl Extras {
    /// The web console's hub, when it runs.
    pub fn hub(&self) -> Option<Arc<Hub>> {
        self.web.as_ref().map(|web| web.hub.clone())
    }

    pub async fn stop(self) {
        if let Some(web) = self.web {
            web.stop().await;
        }
        if let Some(notifier) = self.notifier {
            notifier.abort();
        }
        if let Some(tunnels) = self.tunnels {
            tunnels.stop().await;
        }
    }
}

/// Answers the TUI's web panel: unpairs a device if asked, then a fresh pairing link with its
/// QR code, and the devices paired now.
pub fn panel(hub: &Hub, ask: WebAsk) -> WebPanel {
    let mut panel = WebPanel::default();
    if let WebAsk::Unpair(name) = &ask
        && let Err(err) = hub.devices().revoke(name)
    {
        panel.error = Some(err.to_string());
    }
    if ask == WebAsk::Pair {
        match hub.pair_link() {
            Ok(link) => {
                let qr = crate::web::qr::lines(&link.link).unwrap_or_default();
                panel.fingerprint = link.fingerprint;
                panel.link = Some((link.link, qr, link.expires_secs));
            }
            Err(err) => panel.error = Some(err.to_string()),
        }
    }
    match hub.devices().list() {
        Ok(devices) => panel.devices = devices.into_iter().map(|d| d.name).collect(),
        Err(err) => panel.error = Some(err.to_string()),
    }
    panel
}

/// Carries out the console's own requests: attach and detach with the OpenCode attachments,
/// pair with the web console's hub; what the console does not run it refuses, saying why.
#[derive(Default)]
pub struct ConsoleControl {
    pub attachments: Option<Arc<Attachments>>,
    pub web: Option<Arc<Hub>>,
}

impl ConsoleControl {
    /// What the server needs besides the barrier: this, and the registry's tool kinds for
    /// calls from older hooks.
    pub fn support(self: Arc<Self>) -> Support {
        Support {
            control: self,
            kind_of: Some(crate::agents::registry::kind_of),
        }
    }

    /// Lets go of every attached server, answering nothing (on the way out).
    pub async fn detach_all(&self) {
        if let Some(attachments) = &self.attachments {
            attachments.detach_all().await;
        }
    }
}

impl Control for ConsoleControl {
    fn attach(&self, target: Target) -> Result<String, String> {
        match &self.attachments {
            Some(attachments) => attachments.attach_to(target),
            None => NoControl.attach(target),
        }
    }

    fn detach(&self, target: Target) -> Result<String, String> {
        match &self.attachments {
            Some(attachments) => attachments.detach_from(target),
            None => NoControl.detach(target),
        }
    }

    fn pair(&self) -> Result<Link, String> {
        let hub = self.web.as_ref().ok_or(NO_WEB)?;
        hub.pair_link().map_err(|err| err.to_string())
    }
}
