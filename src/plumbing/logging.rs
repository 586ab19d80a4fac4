//! Where gatehouse's own diagnostics go. Under the console the screen belongs to the TUI, so
//! they go to a file in the state folder, rotated daily and kept a week
//! (`$XDG_STATE_HOME/gatehouse/gatehouse.YYYY-MM-DD.log`); commands with no screen (`serve`,
//! `explain`, `install`, ...) keep stderr. `GATEHOUSE_LOG` sets the level (`error`, `warn`,
//! `info`, `debug`, `trace`; `info` when unset or unknown).

use std::path::{Path, PathBuf};

use tracing_appender::non_blocking::WorkerGuard;
use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::filter::LevelFilter;

/// How many daily files are kept.
const KEEP_DAYS: usize = 7;

/// The level `GATEHOUSE_LOG` asks for.
fn level() -> LevelFilter {
    std::env::var("GATEHOUSE_LOG")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(LevelFilter::INFO)
}

/// Where today's log file is, for the docs and messages: `dir/gatehouse.<date>.log`.
pub fn log_pattern(dir: &Path) -> PathBuf {
    dir.join("gatehouse.YYYY-MM-DD.log")
}

/// A subscriber writing to the rotated file in `dir`, and the guard that flushes it when
/// dropped (keep it alive as long as the program runs).
pub fn file_subscriber(
    dir: &Path,
) -> Result<(impl tracing::Subscriber + Send + Sync, WorkerGuard), std::io::Error> {
    std::fs::create_dir_all(dir)?;
    let appender = RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix("gatehouse")
        .filename_suffix("log")
        .max_log_files(KEEP_DAYS)
        .build(dir)
        .map_err(std::io::Error::other)?;
    let (writer, guard) = tracing_appender::non_blocking(appender);
    let subscriber = tracing_subscriber::fmt()
        .with_writer(writer)
        .with_ansi(false)
        .with_max_level(level())
        .finish();
    Ok((subscriber, guard))
}

/// Logs to the rotated file in `dir` for the rest of the program. If the file cannot be made,
/// nothing is logged: never to the screen the console draws on.
pub fn to_file(dir: &Path) -> Option<WorkerGuard> {
    let (subscriber, guard) = file_subscriber(dir).ok()?;
    tracing::subscriber::set_global_default(subscriber).ok()?;
    Some(guard)
}

/// Logs to stderr, for the commands that have no screen.
pub fn to_stderr() {
    let subscriber = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .without_time()
        .with_target(false)
        .with_max_level(level())
        .finish();
    let _ = tracing::subscriber::set_global_default(subscriber);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_lands_in_the_dated_file_in_the_state_folder() {
        let dir = tempfile::tempdir().unwrap();
        let (subscriber, guard) = file_subscriber(dir.path()).unwrap();
        tracing::subscriber::with_default(subscriber, || {
            tracing::warn!("accepting a connection failed: test");
        });
        drop(guard);
        let files: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        assert!(
            files[0].starts_with("gatehouse.") && files[0].ends_with(".log"),
            "{files:?}"
        );
        let text = std::fs::read_to_string(dir.path().join(&files[0])).unwrap();
        assert!(text.contains("WARN") && text.contains("accepting a connection failed: test"));
    }
}
