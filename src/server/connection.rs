//! One connection: check the peer, read one request line, submit the call, write the answer.
//!
//! A short line naming `attach` or `detach` is a control request ([`control`]), answered by
//! the console's [`Control`] if it has one. A bad line (too long, not UTF-8, not JSON, unknown version) gets `{"v":1,"error":…}` and the
//! connection is closed. A peer that goes away while its call waits drops the submit future,
//! which withdraws the dialog.

use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader};

use super::budget::Charge;
use tokio::net::UnixStream;

use super::control::{self, Control};
use super::grants::{self, Grants};
use super::notes::Notes;
use super::socket::my_uid;
use crate::core::barrier::Barrier;
use crate::core::caps::{AFTER_TOOL, NoteEffect};
use crate::core::decision::Decision;
use crate::wire::{self as protocol, Answer, MAX_LINE, ProtocolError};

/// Serves one call on `stream`, charging its request line to `charge` as it arrives. The
/// request line must be whole within `request_timeout` of accept, or the peer is told so and
/// dropped: an idle or trickling peer holds its place for no longer than that.
pub async fn serve(
    stream: UnixStream,
    barrier: Barrier,
    notes: &Notes,
    grants: &Grants,
    control: Option<&dyn Control>,
    request_timeout: Duration,
    mut charge: Charge,
) {
    let peer = stream.peer_cred().map(|cred| cred.uid());
    let (read, mut write) = stream.into_split();
    if peer.as_ref().ok() != Some(&my_uid()) {
        let message = match peer {
            Ok(uid) => format!(
                "uid {uid} may not use this console; it serves uid {}",
                my_uid()
            ),
            Err(err) => format!("cannot tell who is connecting: {err}"),
        };
        let _ = write.write_all(&Answer::Refused(message).to_line()).await;
        return;
    }
    let mut reader = BufReader::with_capacity(READ_BUFFER, read);
    let reading = read_line(&mut reader, MAX_LINE, Some(&mut charge));
    let line = match tokio::time::timeout(request_timeout, reading).await {
        Ok(line) => line,
        Err(_) => Err(ProtocolError::Slow(request_timeout)),
    };
    let line = match line {
        Ok(line) => line,
        Err(ProtocolError::Empty) => return,
        Err(err) => {
            let _ = write
                .write_all(&Answer::Refused(err.to_string()).to_line())
                .await;
            return;
        }
    };
    if let Some(request) = control::parse(&line) {
        let answer = control::answer(control, request);
        let _ = write.write_all(&answer.to_line()).await;
        return;
    }
    let call = match protocol::parse_request(&line) {
        Ok(call) => call,
        Err(ProtocolError::Empty) => return,
        Err(err) => {
            let _ = write
                .write_all(&Answer::Refused(err.to_string()).to_line())
                .await;
            return;
        }
    };
    if call.event.as_deref() == Some(AFTER_TOOL) {
        // Not a question: the note kept for the call this one follows, or a plain allow.
        let note = notes.take(&call, Instant::now());
        barrier.record_after_tool(&call, note.as_deref());
        let response = Answer::Decided {
            decision: Decision::Allow { note },
            decider: None,
        };
        let _ = write.write_all(&response.to_line()).await;
        return;
    }
    if grants::may_take_a_grant(&call) && grants.take(&call, Instant::now()) {
        // Asked a moment ago, as it is, on the permission request before it, and allowed.
        // Audited before it is answered: an allow with no record is a deny.
        let decision = barrier.record_granted(&call);
        let response = Answer::Decided {
            decision,
            decider: None,
        };
        let _ = write.write_all(&response.to_line()).await;
        return;
    }
    let keeps_note = call.caps.note == NoteEffect::AfterTool;
    let kept_for = keeps_note.then(|| call.clone());
    let granted_for = grants::leaves_a_grant(&call).then(|| call.clone());
    // Cancellation: when the peer goes away first, the submit future is dropped here, which
    // withdraws its dialog (audited as `withdrawn`). When the answer comes first, the wait on
    // the peer is dropped, which loses nothing.
    let answer = tokio::select! {
        answer = barrier.submit(call) => answer,
        () = peer_gone(&mut reader) => return,
    };
    if let (Some(call), Decision::Allow { note: Some(note) }) = (&kept_for, &answer.decision) {
        notes.keep(call, note, Instant::now());
    }
    if let (Some(call), Decision::Allow { .. }) = (&granted_for, &answer.decision) {
        grants.keep(call, Instant::now());
    }
    let response = Answer::Decided {
        decision: answer.decision,
        decider: Some(answer.decider),
    };
    let _ = write.write_all(&response.to_line()).await;
}

/// The longest request a busy console reads: enough for every ordinary call, small enough that
/// connections past the bound cost little.
pub const BUSY_LINE: usize = 16 * 1024;

/// The read buffer of one connection (part of [`CONNECTION_BYTES`]).
const READ_BUFFER: usize = 2 * 1024;

/// Answers a connection past the bound at once: reads its request briefly and settles it
/// without a dialog ([`Barrier::refuse_busy`]: the static class decides what it can, a call
/// that needs a human is deferred), audited like any other decision. A request it cannot read
/// in time or in [`BUSY_LINE`] bytes gets an error, on which the hook decides statically.
pub async fn busy(stream: UnixStream, barrier: Barrier, bound: usize) {
    let reason = busy_reason(bound);
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::with_capacity(READ_BUFFER, read);
    let reading = read_line(&mut reader, BUSY_LINE, None);
    let line = tokio::time::timeout(Duration::from_secs(1), reading).await;
    let call = match line {
        Ok(Ok(line)) => protocol::parse_request(&line),
        Ok(Err(err)) => Err(err),
        Err(_) => Err(ProtocolError::Slow(Duration::from_secs(1))),
    };
    let response = match call {
        Ok(call) => {
            let answer = barrier.refuse_busy(call, reason);
            Answer::Decided {
                decision: answer.decision,
                decider: Some(answer.decider),
            }
        }
        Err(ProtocolError::Empty) => return,
        Err(err) => Answer::Refused(format!("{reason}; and the request: {err}")),
    };
    let _ = write.write_all(&response.to_line()).await;
}

/// Answers a connection past every bound without reading it or spawning anything: one error
/// line if the socket takes it at once, then the connection is closed. The hook decides
/// statically on an error.
pub fn refuse_at_once(stream: &UnixStream, bound: usize) {
    let line = Answer::Refused(busy_reason(bound)).to_line();
    let _ = stream.try_write(&line);
}

fn busy_reason(bound: usize) -> String {
    format!(
        "gatehouse console is busy (its open calls hold the {} MiB of max_pending_mib), so the \
         agent's own permission flow decides",
        bound / (1024 * 1024)
    )
}

/// Reads one line of at most `max` bytes, newline removed. A last line without its newline
/// counts; nothing at all is [`ProtocolError::Empty`]. The room the line takes is charged to
/// `charge` before it is taken; when the bound refuses it, the line is refused as
/// [`ProtocolError::OverBudget`].
async fn read_line<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
    max: usize,
    mut charge: Option<&mut Charge>,
) -> Result<Vec<u8>, ProtocolError> {
    let mut line: Vec<u8> = Vec::new();
    loop {
        let buf = match reader.fill_buf().await {
            Ok(buf) => buf,
            Err(_) => return Err(ProtocolError::Empty),
        };
        if buf.is_empty() {
            return if line.is_empty() {
                Err(ProtocolError::Empty)
            } else {
                Ok(line)
            };
        }
        let newline = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..newline.unwrap_or(buf.len())];
        let needed = line.len() + chunk.len();
        if needed > max {
            return Err(ProtocolError::TooLong(max));
        }
        if needed > line.capacity() {
            let room = needed.max(line.capacity() * 2).min(max);
            if let Some(charge) = charge.as_deref_mut()
                && !charge.grow(room - line.capacity())
            {
                return Err(ProtocolError::OverBudget);
            }
            line.reserve_exact(room - line.len());
        }
        line.extend_from_slice(chunk);
        let used = chunk.len() + usize::from(newline.is_some());
        reader.consume(used);
        if newline.is_some() {
            return Ok(line);
        }
    }
}

/// Completes when the peer closes its end (or the connection fails). Bytes sent after the
/// request are read and ignored.
async fn peer_gone<R: AsyncRead + Unpin>(reader: &mut BufReader<R>) {
    let mut scrap = [0u8; 512];
    loop {
        match reader.read(&mut scrap).await {
            Ok(0) | Err(_) => return,
            Ok(_) => continue,
        }
    }
}
