//! Writing the user's own rules files (the saved rules `rules.toml`, the trust list
//! `trusted.toml`) so that other processes lose nothing: an advisory lock held across each
//! read-modify-write, so that two `gatehouse rules add` at once both land, and an atomic
//! write, so that a reader sees the old file or the new, never half.

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// The exclusive lock on one rules file, held until dropped (closing the file releases it).
#[derive(Debug)]
pub struct Locked {
    _file: File,
}

/// Takes the exclusive lock for the file at `path`, waiting while another process holds it.
/// The lock is on `.<name>.lock` beside it, a file never replaced (the rules file itself is
/// renamed over by each write, so a lock on it would be on a file no longer there). Whoever
/// holds it must read the file again before changing it.
pub fn lock(path: &Path) -> io::Result<Locked> {
    let dir = folder_of(path);
    std::fs::create_dir_all(dir)?;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(dir.join(format!(".{}.lock", name_of(path))))?;
    loop {
        // SAFETY: flock on a descriptor this function owns and keeps open; no memory is shared.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
            return Ok(Locked { _file: file });
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Writes `text` to `path` so that a reader sees the old file or the new, never half: a
/// temporary file beside it, synced, then renamed over it. The old file is kept as
/// `<name>.bak`. The folder is made if missing; the file is private to its user.
pub fn write_atomic(path: &Path, text: &str) -> io::Result<()> {
    let dir = folder_of(path);
    std::fs::create_dir_all(dir)?;
    let name = name_of(path);
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&temp)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    drop(file);
    if path.exists() {
        std::fs::copy(path, dir.join(format!("{name}.bak")))?;
    }
    std::fs::rename(&temp, path)
}

fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
