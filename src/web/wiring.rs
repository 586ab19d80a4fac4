//! What the console and `serve` start beside the barrier when asked: the web console (from
//! `[web]` or `--web`) and the `notify_command` follower, each on its own tap of the
//! prompter's events; and what stops them again.

use std::path::Path;

use super::{Running, Settings, Start, WebError};
use crate::core::prompter::Prompter;

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
