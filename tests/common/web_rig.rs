//! The web console in process on a loopback port, beside a real barrier with its prompter and
//! a private audit log: what the web API tests send real HTTP to.

use std::path::PathBuf;

use gatehouse::core::audit::Audit;
use gatehouse::core::barrier::{Barrier, Settings};
use gatehouse::core::prompter::Prompter;
use gatehouse::web::listen::Limits;
use gatehouse::web::{self, Running, Start};
use tempfile::TempDir;

pub struct WebRig {
    pub barrier: Barrier,
    pub prompter: Prompter,
    pub running: Running,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    pub audit_log: PathBuf,
    pub dir: TempDir,
}

/// A barrier with default settings and its web console within `limits`.
pub async fn start(limits: Limits) -> WebRig {
    let dir = tempfile::tempdir().unwrap();
    let audit_log = dir.path().join("audit.jsonl");
    let (barrier, mut prompter) =
        Barrier::new(Settings::default(), Audit::open(&audit_log).unwrap(), None);
    let running = web::start(Start {
        settings: web::Settings {
            listen: "127.0.0.1:0".parse().unwrap(),
            limits,
            ..web::Settings::default()
        },
        responder: prompter.responder(),
        tap: prompter.tap(),
        state: dir.path().join("state"),
        audit_log: Some(audit_log.clone()),
    })
    .await
    .unwrap();
    let base = format!("http://{}", running.addr);
    WebRig {
        barrier,
        prompter,
        running,
        base,
        audit_log,
        dir,
    }
}
