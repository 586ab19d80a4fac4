//! A console in the test process on a real socket: the real server and barrier, its human the
//! test itself through the `Prompter` the screen uses, and its audit log in a temporary folder.

use std::path::PathBuf;
use std::sync::Arc;

use gatehouse::core::audit::Audit;
use gatehouse::core::barrier::{Barrier, Settings};
use gatehouse::core::event::{Dialog, Event};
use gatehouse::core::prompter::Prompter;
use gatehouse::server::{self, Options};
use serde_json::Value;
use tempfile::TempDir;

pub struct SocketConsole {
    pub dir: TempDir,
    pub socket: PathBuf,
    pub prompter: Prompter,
}

impl SocketConsole {
    /// Starts it with `settings` on the current tokio runtime.
    pub fn start(settings: Settings) -> SocketConsole {
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
        SocketConsole {
            dir,
            socket,
            prompter,
        }
    }

    /// The next dialog; a call settled without one fails the test at once.
    pub async fn opened(&mut self) -> Arc<Dialog> {
        loop {
            match self.prompter.next_event().await.unwrap() {
                Event::Opened(dialog) => return dialog,
                Event::Passed(outcome) => panic!("settled without a dialog: {outcome:?}"),
                _ => {}
            }
        }
    }

    pub fn audit(&self) -> Vec<Value> {
        super::audit_records(&self.dir.path().join("audit.jsonl"))
    }
}
