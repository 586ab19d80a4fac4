//! The audit log: one JSON line per decision, appended before the answer is released.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use serde::Serialize;

/// One audit record. `decision` is `allow`, `deny`, `defer`, or `withdrawn` when the agent went
/// away before anyone answered.
#[derive(Debug, Clone, Serialize)]
pub struct Record<'a> {
    pub time: String,
    pub id: u64,
    pub agent: String,
    pub session: &'a str,
    pub tool: &'a str,
    pub subject: String,
    pub mode: &'a str,
    pub class: &'a str,
    pub route: &'a str,
    pub decision: &'a str,
    pub decider: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'a str>,
    /// The session rule an "allow always" made, or the rules that let a `session-allow`
    /// decision through (`#3 rm -rf build`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    pub latency_ms: f64,
}

/// The longest subject kept in a record, in characters.
pub const SUBJECT_CHARS: usize = 300;

/// Cuts `text` to at most `max` characters, marking the cut with `…`.
pub fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// Now, as an RFC 3339 UTC time with milliseconds.
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

/// Where records go. Writes are serialised; each record is one `write` of one whole line.
#[derive(Debug)]
pub struct Audit {
    sink: Option<Mutex<File>>,
    path: Option<PathBuf>,
}

impl Audit {
    /// Opens (creating with mode 0600, and its folder) the log at `path` for appending.
    pub fn open(path: &Path) -> io::Result<Audit> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)?;
        Ok(Audit {
            sink: Some(Mutex::new(file)),
            path: Some(path.to_path_buf()),
        })
    }

    /// An audit that keeps nothing, for one-shot commands such as `explain`.
    pub fn disabled() -> Audit {
        Audit {
            sink: None,
            path: None,
        }
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Appends one record. An error means the record is not on disk.
    pub fn write(&self, record: &Record<'_>) -> io::Result<()> {
        let Some(sink) = &self.sink else {
            return Ok(());
        };
        let mut line = serde_json::to_vec(record).map_err(io::Error::other)?;
        line.push(b'\n');
        let mut file = sink.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        file.write_all(&line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn record<'a>(id: u64) -> Record<'a> {
        Record {
            time: now_rfc3339(),
            id,
            agent: "claude-code".into(),
            session: "s",
            tool: "Bash",
            subject: "ls".into(),
            mode: "allow-read",
            class: "read-only",
            route: "allow",
            decision: "allow",
            decider: "rule",
            reason: None,
            rule: None,
            latency_ms: 0.01,
        }
    }

    #[test]
    fn records_are_appended_one_json_line_each_to_a_private_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/audit.jsonl");
        let audit = Audit::open(&path).unwrap();
        audit.write(&record(1)).unwrap();
        audit.write(&record(2)).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let ids: Vec<u64> = text
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert_eq!(ids, [1, 2]);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn shorten_cuts_on_characters_and_marks_the_cut() {
        assert_eq!(shorten("héllo", 3), "hél…");
        assert_eq!(shorten("hi", 3), "hi");
    }
}
