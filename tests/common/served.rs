//! A barrier behind the real server on a real socket in a private folder, with its prompter
//! for the test to answer as the human, and the audit log beside it: what the hook tests run
//! real `gatehouse hook` processes against.

use std::path::PathBuf;

use gatehouse::core::audit::Audit;
use gatehouse::core::barrier::{Barrier, Settings};
use gatehouse::core::call::CallId;
use gatehouse::core::event::Event;
use gatehouse::core::prompter::Prompter;
use gatehouse::server::{self, Options};
use serde_json::Value;
use tempfile::TempDir;

pub struct Served {
    pub dir: TempDir,
    pub socket: PathBuf,
    pub prompter: Prompter,
}

impl Served {
    /// Serves a barrier with `settings` until the test's runtime ends.
    pub fn start(settings: Settings) -> Served {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("run/gatehouse.sock");
        let audit = Audit::open(&dir.path().join("audit.jsonl")).unwrap();
        let (barrier, prompter) = Barrier::new(settings, audit, None);
        let bound = server::bind(&socket).unwrap();
        tokio::spawn(async move {
            server::run_with(
                bound.listener,
                barrier,
                Options::default(),
                std::future::pending(),
            )
            .await;
            drop(bound.file);
        });
        Served {
            dir,
            socket,
            prompter,
        }
    }

    /// Waits for the next dialog to open and returns its id.
    pub async fn opened(&mut self) -> CallId {
        loop {
            if let Event::Opened(dialog) = self.prompter.next_event().await.unwrap() {
                return dialog.id;
            }
        }
    }

    pub fn audit(&self) -> Vec<Value> {
        super::audit_records(&self.dir.path().join("audit.jsonl"))
    }
}
