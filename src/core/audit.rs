//! The audit log: one JSON line per decision, appended before the answer is released.
//!
//! Its promises:
//! - it is opened without following a symbolic link (`O_NOFOLLOW`), and only if it is a
//!   regular file owned by this user, mode 0600 when created;
//! - a record is one `write(2)` of one whole line; after a write that was cut short, the next
//!   record starts on a fresh line (so at most the cut record is lost, never glued to another);
//! - a file deleted or replaced (rotated) under it is noticed before the next record (its
//!   device and inode are compared) and opened afresh;
//! - ids go on from the last record in the file, and each record names the run that wrote it,
//!   so (`run`, `id`) is unique across runs;
//! - no raw control, bidi or invisible character reaches the file ([`audit_text`]).
//!
//! A record that cannot be written is an error for the barrier to act on: it turns an allow
//! into a deny and tells the console ([`Event::Audit`](super::event::Event::Audit)).
//! [`Sink`] is the seam through which tests make writes fail.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::advice::Risk;
use super::audit_text;
use super::decision::{Decider, Decision, Verdict};
use super::mode::Mode;
use super::mode_scope::ModeOwner;
use super::route::{Class, Route};

/// One audit record, typed end to end: each field has one spelling, its type's own.
#[derive(Debug, Clone, Serialize)]
pub struct Record<'a> {
    pub time: String,
    pub id: u64,
    pub agent: String,
    /// The remote host the call came from (absent: this machine).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<&'a str>,
    pub session: &'a str,
    pub tool: &'a str,
    pub subject: String,
    pub mode: Mode,
    /// Whose mode that was, where it was not the global one: a session's or an agent's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode_of: Option<ModeOwner>,
    pub class: Judged,
    pub route: Route,
    pub decision: Ending,
    pub decider: Decider,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'a str>,
    /// The session rule an "allow always" made, or the rules that let a `session-allow`
    /// decision through (`#3 rm -rf build`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    pub latency_ms: f64,
    /// The classifier's verdict on the dialog when it was settled, if it advised one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advice: Option<Verdict>,
    /// The lowest confidence among the classifiers' readable answers on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    /// The highest risk among the classifiers' readable answers on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub risk: Option<Risk>,
    /// For a human's answer on a dialog the classifier advised `read-only` or `writes` on:
    /// whether the answer agreed (allow with read-only, deny with writes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agreed: Option<bool>,
    /// For a human's answer from a paired web device: the device's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device: Option<&'a str>,
    /// The shell line as the human edited it before answering (the subject is the original).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edited: Option<String>,
    /// For a human's answer, the normalised shape of the call that rules are learned from
    /// (`core::learn`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// What the tool does, as the call's dialect said (absent: it did not say).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<crate::core::call::ToolKind>,
    /// For a call answered with others in one batch: the batch's id and size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch: Option<crate::core::batch::Batch>,
    /// For a plan: its length and digest (the subject is its first line only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<audit_text::PlanMark>,
}

/// What a record says the call was: the analyser's class, or, for an after-tool report, which
/// is not judged (the tool already ran), its stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judged {
    Class(Class),
    AfterTool,
}

impl Serialize for Judged {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(match self {
            Judged::Class(class) => class.name(),
            Judged::AfterTool => "after-tool",
        })
    }
}

/// How a call ended: its decision, or withdrawn when the agent went away before anyone
/// answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    Allow,
    Deny,
    Defer,
    Withdrawn,
}

impl Ending {
    pub fn of(decision: &Decision) -> Ending {
        match decision {
            Decision::Allow { .. } => Ending::Allow,
            Decision::Deny { .. } => Ending::Deny,
            Decision::Defer { .. } => Ending::Defer,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Ending::Allow => "allow",
            Ending::Deny => "deny",
            Ending::Defer => "defer",
            Ending::Withdrawn => "withdrawn",
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// A record as written: the run that wrote it first.
#[derive(Serialize)]
struct Line<'a, R: Serialize> {
    run: &'a str,
    #[serde(flatten)]
    record: &'a R,
}

/// The subject as a record keeps it: whole up to 64 KiB, else cut and marked.
pub fn subject(text: &str) -> String {
    audit_text::subject(text)
}

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

/// Why the audit log cannot be opened, said so a person can fix it.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error(
        "the audit log {path} is a symbolic link; gatehouse does not follow one there. Remove \
         it, or set audit_log to a plain file"
    )]
    Symlink { path: PathBuf },
    #[error("the audit log {path} is {what}, not a regular file; set audit_log to a plain file")]
    NotAFile { path: PathBuf, what: &'static str },
    #[error(
        "the audit log {path} is owned by uid {owner}, not by you (uid {me}); remove it, or set \
         audit_log to a file of your own"
    )]
    NotYours { path: PathBuf, owner: u32, me: u32 },
    #[error("cannot open the audit log {path}: {source}")]
    Io { path: PathBuf, source: io::Error },
}

/// Where records go: one call, one whole line. A failed or short write is an error.
pub trait Sink: Send + fmt::Debug {
    fn append(&mut self, line: &[u8]) -> io::Result<()>;
}

/// Where records go. Writes are serialised.
#[derive(Debug)]
pub struct Audit {
    sink: Option<Mutex<Box<dyn Sink>>>,
    path: Option<PathBuf>,
    run: String,
    first_id: u64,
}

impl Audit {
    /// Opens (creating with mode 0600, and its folder) the log at `path` for appending,
    /// refusing a symbolic link and anything but a regular file of this user's.
    pub fn open(path: &Path) -> Result<Audit, AuditError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| AuditError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        }
        let (file, identity) = open_checked(path)?;
        let (last_id, ends_cut) = last_record(path);
        let sink = FileSink {
            path: path.to_path_buf(),
            lines: Lines::new(file, ends_cut),
            identity,
        };
        let mut audit = Audit::with_sink(Box::new(sink));
        audit.path = Some(path.to_path_buf());
        audit.first_id = last_id + 1;
        Ok(audit)
    }

    /// An audit that writes to `sink`, ids from 1: for tests that make writes fail.
    pub fn with_sink(sink: Box<dyn Sink>) -> Audit {
        Audit {
            sink: Some(Mutex::new(sink)),
            path: None,
            run: run_id(),
            first_id: 1,
        }
    }

    /// An audit that keeps nothing, for one-shot commands such as `explain`.
    pub fn disabled() -> Audit {
        Audit {
            sink: None,
            path: None,
            run: run_id(),
            first_id: 1,
        }
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The first id this run should give: one past the last id in the file.
    pub fn first_id(&self) -> u64 {
        self.first_id
    }

    /// This run's id, written in every record.
    pub fn run(&self) -> &str {
        &self.run
    }

    /// Appends one record. An error means the record is not (wholly) on disk.
    pub fn write(&self, record: &Record<'_>) -> io::Result<()> {
        self.append(record)
    }

    /// Appends one line that is not a decision (a request the web console refused). It must
    /// carry no `id`, so that the next run's numbering passes over it.
    pub fn write_other(&self, what: &impl Serialize) -> io::Result<()> {
        self.append(what)
    }

    fn append(&self, record: &impl Serialize) -> io::Result<()> {
        let Some(sink) = &self.sink else {
            return Ok(());
        };
        let json = serde_json::to_string(&Line {
            run: &self.run,
            record,
        })
        .map_err(io::Error::other)?;
        let mut line = audit_text::escape_invisible(&json).into_bytes();
        line.push(b'\n');
        let mut sink = sink.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        sink.append(&line)
    }
}

/// A run id: the start time in milliseconds, the process id, and a count of the audits this
/// process opened, in hex.
fn run_id() -> String {
    static OPENED: AtomicU64 = AtomicU64::new(0);
    let millis = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let nth = OPENED.fetch_add(1, Ordering::Relaxed);
    format!("{millis:x}-{:x}-{nth:x}", std::process::id())
}

/// What a file that is not regular is, in words.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = meta.file_type();
    if kind.is_dir() {
        "a folder"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_fifo() {
        "a pipe"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a device"
    }
}

/// Opens `path` for appending if it is (or can be created as) a regular file of this user's.
/// The look before opening gives the clearer error; the check of the opened file is the one
/// that holds, since the path may change in between.
fn open_checked(path: &Path) -> Result<(File, (u64, u64)), AuditError> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if meta.file_type().is_symlink() {
            return Err(AuditError::Symlink {
                path: path.to_path_buf(),
            });
        }
        if !meta.is_file() {
            return Err(AuditError::NotAFile {
                path: path.to_path_buf(),
                what: kind_of(&meta),
            });
        }
    }
    // Read as well, to see whether the file ends in a cut line before each record.
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .mode(0o600)
        // No following a link; and no blocking on a FIFO planted there before it is refused.
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|source| match source.raw_os_error() {
            Some(libc::ELOOP) => AuditError::Symlink {
                path: path.to_path_buf(),
            },
            _ => AuditError::Io {
                path: path.to_path_buf(),
                source,
            },
        })?;
    let meta = file.metadata().map_err(|source| AuditError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if !meta.is_file() {
        return Err(AuditError::NotAFile {
            path: path.to_path_buf(),
            what: kind_of(&meta),
        });
    }
    let me = crate::core::uid();
    if meta.uid() != me {
        return Err(AuditError::NotYours {
            path: path.to_path_buf(),
            owner: meta.uid(),
            me,
        });
    }
    Ok((file, (meta.dev(), meta.ino())))
}

/// The last id recorded in the file at `path` (0 if none), and whether the file ends in the
/// middle of a line. Reads at most its last MiB.
fn last_record(path: &Path) -> (u64, bool) {
    const TAIL: u64 = 1024 * 1024;
    let Ok(mut file) = File::open(path) else {
        return (0, false);
    };
    let len = file.metadata().map_or(0, |m| m.len());
    let mut tail = Vec::new();
    if file
        .seek(SeekFrom::Start(len.saturating_sub(TAIL)))
        .is_err()
        || file.read_to_end(&mut tail).is_err()
    {
        return (0, false);
    }
    let ends_cut = tail.last().is_some_and(|&b| b != b'\n');
    let last_id = tail
        .split(|&b| b == b'\n')
        .rev()
        .find_map(|line| {
            let value: serde_json::Value = serde_json::from_slice(line).ok()?;
            value.get("id")?.as_u64()
        })
        .unwrap_or(0);
    (last_id, ends_cut)
}

/// The audit file, reopened when it was deleted or replaced.
#[derive(Debug)]
struct FileSink {
    path: PathBuf,
    lines: Lines<File>,
    identity: (u64, u64),
}

impl FileSink {
    /// Opens the file afresh if the path no longer names the file this sink holds.
    fn follow_rotation(&mut self) -> io::Result<()> {
        let current = match std::fs::symlink_metadata(&self.path) {
            Ok(meta) => Some((meta.dev(), meta.ino())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        if current == Some(self.identity) {
            return Ok(());
        }
        let (file, identity) = open_checked(&self.path).map_err(io::Error::other)?;
        let (_, ends_cut) = last_record(&self.path);
        self.lines = Lines::new(file, ends_cut);
        self.identity = identity;
        Ok(())
    }
}

impl FileSink {
    /// Notes a file that ends in the middle of a line, whoever cut it: the web console's own
    /// writer of this file, another process, or this one. Then the next record starts with a
    /// newline instead of being glued to the cut one.
    fn notice_cut_end(&mut self) -> io::Result<()> {
        use std::os::unix::fs::FileExt;
        let file = &self.lines.out;
        let len = file.metadata()?.len();
        let mut last = [b'\n'];
        if len > 0 {
            file.read_exact_at(&mut last, len - 1)?;
        }
        self.lines.torn = self.lines.torn || last[0] != b'\n';
        Ok(())
    }
}

impl Sink for FileSink {
    fn append(&mut self, line: &[u8]) -> io::Result<()> {
        self.follow_rotation()?;
        self.notice_cut_end()?;
        self.lines.append(line)
    }
}

#[path = "audit_lines.rs"]
mod lines;
pub use lines::Lines;

#[cfg(test)]
#[path = "audit_tests.rs"]
mod tests;
