//! The hook's synchronous client: one call over the console's socket, with no async runtime so
//! that a hook process starts and finishes in a few milliseconds.
//!
//! It tells two failures apart, because they mean different things: a console that cannot be
//! reached (no socket, refused, no answer to connect in time) lets the hook decide statically; one that is not safe to trust (a folder open to
//! others, another user's socket) too, but the hook says so; a console that was reached but
//! went away before answering means the hook must defer.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use socket2::{Domain, SockAddr, Socket, Type};

use crate::core::call::Call;
use crate::wire::socket::{SocketError, check_folder, my_uid};
use crate::wire::{self as protocol, Answer};

/// How long the hook waits to connect, and then for the answer.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    pub connect: Duration,
    pub answer: Duration,
}

impl Timeouts {
    /// The default connect wait (~200 ms), and an answer wait of the console's ask timeout
    /// plus `margin`: the console always answers by its ask timeout.
    pub fn for_ask_timeout(ask_timeout: Duration, margin: Duration) -> Timeouts {
        Timeouts {
            connect: Duration::from_millis(200),
            answer: ask_timeout + margin,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AskError {
    /// No console answered the connection: decide statically.
    #[error("no gatehouse console at {path}: {why}")]
    Unreachable { path: PathBuf, why: String },
    /// Something claims to be the console but is not safe to trust (its folder is open to
    /// others or not ours, or another user serves it): decide statically, and say so.
    #[error("not asking the gatehouse console at {path}: {why}")]
    Untrusted { path: PathBuf, why: String },
    /// The console took the call and then failed to answer: defer.
    #[error("lost the gatehouse console at {path} while waiting: {why}")]
    Lost { path: PathBuf, why: String },
}

/// Asks the console at `socket` about `call` and returns its answer.
pub fn ask(socket: &Path, call: &Call, timeouts: Timeouts) -> Result<Answer, AskError> {
    ask_line(socket, &protocol::request_line(call), timeouts)
}

/// Sends one request line (newline included, as [`protocol::request_line`] makes it) to the
/// console at `socket` and returns its answer.
pub fn ask_line(socket: &Path, line: &[u8], timeouts: Timeouts) -> Result<Answer, AskError> {
    let unreachable = |why: String| AskError::Unreachable {
        path: socket.to_path_buf(),
        why,
    };
    let lost = |why: String| AskError::Lost {
        path: socket.to_path_buf(),
        why,
    };
    let untrusted = |why: String| AskError::Untrusted {
        path: socket.to_path_buf(),
        why,
    };
    if let Some(dir) = socket.parent().filter(|d| !d.as_os_str().is_empty()) {
        match check_folder(dir, my_uid()) {
            Ok(()) => {}
            // No folder at all is no console, not an attack.
            Err(SocketError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
                return Err(unreachable(source.to_string()));
            }
            Err(e) => return Err(untrusted(e.to_string())),
        }
    }
    let stream = connect(socket, timeouts.connect).map_err(|e| unreachable(e.to_string()))?;
    match peer_uid(&stream) {
        Ok(uid) if uid == my_uid() => {}
        Ok(uid) => return Err(untrusted(format!("the socket is served by uid {uid}"))),
        Err(err) => return Err(untrusted(format!("cannot tell who serves it: {err}"))),
    }

    let deadline = Instant::now() + timeouts.answer;
    let _ = stream.set_write_timeout(Some(timeouts.answer));
    // A failed write may still leave an answer to read (a busy console answers at once).
    let written = (&stream).write_all(line);
    let line = read_answer(&stream, deadline).map_err(|e| match written {
        Err(w) => lost(format!("sending the call failed ({w}); then {e}")),
        Ok(()) => lost(e.to_string()),
    })?;
    Answer::from_line(&line).map_err(|e| lost(format!("the answer is not protocol JSON: {e}")))
}

fn connect(path: &Path, timeout: Duration) -> io::Result<UnixStream> {
    let socket = Socket::new(Domain::UNIX, Type::STREAM, None)?;
    socket.connect_timeout(&SockAddr::unix(path)?, timeout)?;
    socket.set_nonblocking(false)?;
    Ok(socket.into())
}

/// Reads one response line before `deadline`.
fn read_answer(stream: &UnixStream, deadline: Instant) -> io::Result<Vec<u8>> {
    let mut reader = BufReader::new(stream).take(protocol::MAX_LINE as u64);
    let mut line = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "no answer before the ask timeout",
            ));
        }
        stream.set_read_timeout(Some(left))?;
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the console closed the connection without answering",
                ));
            }
            Ok(_) if line.last() == Some(&b'\n') => return Ok(line),
            Ok(_) => continue,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The uid of the process serving the other end of `stream` (SO_PEERCRED).
fn peer_uid(stream: &UnixStream) -> io::Result<u32> {
    let mut cred = libc::ucred {
        pid: 0,
        uid: 0,
        gid: 0,
    };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: the fd is a live socket owned by `stream`; `cred` and `len` are valid for writes
    // and `len` holds the size of `cred`.
    let rc = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        )
    };
    if rc == 0 {
        Ok(cred.uid)
    } else {
        Err(io::Error::last_os_error())
    }
}
