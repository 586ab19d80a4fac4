//! What the console and `serve` start beside the barrier when asked: the web console (from
//! `[web]` or `--web`) and the `notify_command` follower, each on its own tap of the
//! prompter's events; and what stops them again.

use std::path::Path;

use super::{Hub, Running, Settings, Start, WebError};
use crate::core::prompter::Prompter;
use crate::tui::app::{WebAsk, WebPanel};

/// The web console and the notifier, as far as they run.
pub struct Extras {
    pub web: Option<Running>,
    notifier: Option<tokio::task::JoinHandle<()>>,
}

/// Starts the web console when `web` is set and the notifier when `notify_command` is.
pub async fn start(
    prompter: &mut Prompter,
    web: Option<Settings>,
    notify_command: Option<String>,
    audit_log: &Path,
    socket: &Path,
) -> Result<Extras, WebError> {
    let notifier =
        notify_command.map(|command| tokio::spawn(super::notify::follow(command, prompter.tap())));
    let web = match web {
        None => None,
        Some(settings) => Some(
            super::start(Start {
                settings,
                responder: prompter.responder(),
                tap: prompter.tap(),
                state: crate::paths::state_dir(),
                audit_log: Some(audit_log.to_path_buf()),
                socket: Some(socket.to_path_buf()),
            })
            .await?,
        ),
    };
    Ok(Extras { web, notifier })
}

impl Extras {
    pub async fn stop(self) {
        if let Some(web) = self.web {
            web.stop().await;
        }
        if let Some(notifier) = self.notifier {
            notifier.abort();
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
                let qr = super::qr::lines(&link.link).unwrap_or_default();
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
