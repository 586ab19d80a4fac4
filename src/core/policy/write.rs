//! Writing the user's own rules files (the saved rules `rules.toml`, the trust list
//! `trusted.toml`) so that other processes lose nothing: an advisory lock held across each
//! read-modify-write, so that two `gatehouse rules add` at once both land, and an atomic
//! write, so that a reader sees the old file or the new, never half. Nothing here is opened
//! through a link planted at its name, and the user's files are written only in a folder no
//! one else can write.

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

/// Takes the exclusive lock for one of the user's own files at `path`, waiting while another
/// process holds it; refused, like [`write_private`], in a folder others can write.
/// The lock is on `.<name>.lock` beside it, a file never replaced (the rules file itself is
/// renamed over by each write, so a lock on it would be on a file no longer there). Whoever
/// holds it must read the file again before changing it.
pub fn lock(path: &Path) -> io::Result<Locked> {
    let dir = folder_of(path);
    std::fs::create_dir_all(dir)?;
    only_mine(dir)?;
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

/// Writes one of the user's own rules files: [`write_atomic`], in a folder that only the user
/// can write. A folder that is not the user's, or that others can write, is refused with a
/// fix: whoever can write there could swap the file or plant links beside it.
pub fn write_private(path: &Path, text: &str) -> io::Result<()> {
    let dir = folder_of(path);
    std::fs::create_dir_all(dir)?;
    only_mine(dir)?;
    write_atomic(path, text)
}

/// Writes `text` to `path` so that a reader sees the old file or the new, never half: a
/// temporary file beside it, synced, then renamed over it. The old file is kept as
/// `<name>.bak`. Both are created new, never opened through a link planted at their names
/// (a planted backup is removed first, since removing a link touches only the link; a planted
/// temporary name is passed over for another). The folder is made if missing; the file is
/// private to its user.
pub fn write_atomic(path: &Path, text: &str) -> io::Result<()> {
    let dir = folder_of(path);
    std::fs::create_dir_all(dir)?;
    let name = name_of(path);
    let (temp, mut file) = temporary(dir, &name)?;
    let written = file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_all());
    drop(file);
    let done = written
        .and_then(|()| backup(path, &dir.join(format!("{name}.bak"))))
        .and_then(|()| std::fs::rename(&temp, path));
    if done.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    done
}

/// A new file, created exclusively and not through a link: an error if anything (a planted
/// link included) is already at `path`.
fn create_new(path: &Path) -> io::Result<File> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
}

/// The temporary file for a write of `name` in `dir`, and its path; a name already taken
/// (by a planted link, or a write that died) is passed over for the next.
fn temporary(dir: &Path, name: &str) -> io::Result<(std::path::PathBuf, File)> {
    let pid = std::process::id();
    let mut last = None;
    for n in 0..16 {
        let temp = match n {
            0 => dir.join(format!(".{name}.{pid}.tmp")),
            n => dir.join(format!(".{name}.{pid}.{n}.tmp")),
        };
        match create_new(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => last = Some(err),
            Err(err) => return Err(err),
        }
    }
    let err = last.unwrap_or_else(|| io::Error::other("no temporary name was free"));
    Err(io::Error::new(
        err.kind(),
        format!(
            "cannot make a temporary file beside {name} in {}: every name tried is taken \
             ({err}); remove the .{name}.*.tmp files there",
            dir.display()
        ),
    ))
}

/// Copies the file at `path`, if there is one, to a new file at `bak`, removing whatever was
/// at `bak` first (a link is removed, never followed).
fn backup(path: &Path, bak: &Path) -> io::Result<()> {
    let old = match std::fs::read(path) {
        Ok(old) => old,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(err),
    };
    match std::fs::remove_file(bak) {
        Ok(()) => {}
        Err(err) if err.kind() == io::ErrorKind::NotFound => {}
        Err(err) => return Err(err),
    }
    let mut file = create_new(bak).map_err(|err| {
        io::Error::new(
            err.kind(),
            format!(
                "cannot make the backup {} ({err}): something, perhaps a link, was put there \
                 while gatehouse wrote; remove it and try again",
                bak.display()
            ),
        )
    })?;
    file.write_all(&old)?;
    file.sync_all()
}

/// An error unless `dir` is owned by this user and no one else can write it.
fn only_mine(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(dir)?;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "the folder {} is owned by uid {}, not by you (uid {me}); gatehouse keeps its \
                 rules only in a folder of your own: point XDG_CONFIG_HOME (or --config) at one",
                dir.display(),
                meta.uid()
            ),
        ));
    }
    let mode = meta.mode() & 0o7777;
    if mode & 0o022 != 0 {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "the folder {} can be written by other users (mode {mode:04o}); gatehouse keeps \
                 its rules only in a folder only you can write: run `chmod go-w {}`",
                dir.display(),
                dir.display()
            ),
        ));
    }
    Ok(())
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
