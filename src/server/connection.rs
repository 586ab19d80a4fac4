//! One connection: check the peer, read one request line, parse it once into a
//! [`Request`](crate::wire::Request), and carry it: a hook's call to the barrier, the console's
//! own requests to its [`Control`]. A bad line (too long, not UTF-8, not JSON, unknown version)
//! gets `{"v":1,"error":…}` and the connection is closed. A peer that goes away while its call
//! waits drops the submit future, which withdraws the dialog.

use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;

use super::Support;
use super::budget::Charge;
use super::slots::{Evicted, Slot};
use crate::core::barrier::Barrier;
use crate::wire::control;
use crate::wire::socket::my_uid;
use crate::wire::{self, Answer, MAX_LINE, ProtocolError, Request};

/// What an accepted connection holds while it is served: its memory charge and its place
/// among the open connections, which a newer one takes if `evicted` fires before the request
/// line arrives.
pub struct Held {
    pub charge: Charge,
    pub slot: Slot,
    pub evicted: Evicted,
}

/// The refusal for a peer that is not the console's own user, or `None` for one that is.
/// Checked as the connection is accepted, so that another uid's connection holds nothing.
pub fn stranger(stream: &UnixStream) -> Option<Vec<u8>> {
    let peer = stream.peer_cred().map(|cred| cred.uid());
    if peer.as_ref().ok() == Some(&my_uid()) {
        return None;
    }
    let message = match peer {
        Ok(uid) => format!(
            "uid {uid} may not use this console; it serves uid {}",
            my_uid()
        ),
        Err(err) => format!("cannot tell who is connecting: {err}"),
    };
    Some(Answer::Refused(message).to_line())
}

/// Serves one request on `stream`, charging its line to the held charge as it arrives. The
/// request line must be whole within `request_timeout` of accept, or the peer is told so and
/// dropped: an idle or trickling peer holds its place for no longer than that, and gives it up
/// sooner to a newer connection when the server is at its count.
pub async fn serve(
    stream: UnixStream,
    barrier: Barrier,
    support: &Support,
    request_timeout: Duration,
    held: Held,
) {
    let Held {
        mut charge,
        slot,
        evicted,
    } = held;
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::with_capacity(READ_BUFFER, read);
    let reading = read_line(&mut reader, MAX_LINE, Some(&mut charge));
    // Cancellation: an evicted or late request is dropped half read, which loses nothing the
    // peer is not told about.
    let request = tokio::select! {
        read = tokio::time::timeout(request_timeout, reading) => match read {
            Ok(Ok(line)) => wire::parse_request(&line),
            Ok(Err(err)) => Err(err),
            Err(_) => Err(ProtocolError::Slow(request_timeout)),
        },
        Ok(()) = evicted => Err(ProtocolError::Evicted),
    };
    slot.heard();
    let line = match request {
        Ok(Request::Call(call)) => {
            let call = support.complete(call);
            // Cancellation: when the peer goes away first, the submit future is dropped here,
            // which withdraws its dialog (audited as `withdrawn`). When the answer comes first,
            // the wait on the peer is dropped, which loses nothing.
            let answer = tokio::select! {
                answer = barrier.submit(call) => answer,
                () = peer_gone(&mut reader) => return,
            };
            Answer::Decided {
                decision: answer.decision,
                decider: Some(answer.decider),
            }
            .to_line()
        }
        Ok(request) => control::carry_out(support.control.as_ref(), request).to_line(),
        Err(ProtocolError::Empty) => return,
        Err(err) => Answer::Refused(err.to_string()).to_line(),
    };
    // A peer that does not read its answer cannot hold the connection either.
    let _ = tokio::time::timeout(request_timeout, write.write_all(&line)).await;
    drop(slot);
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
pub async fn busy(stream: UnixStream, barrier: Barrier, support: &Support, bound: usize) {
    let reason = busy_reason(bound);
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::with_capacity(READ_BUFFER, read);
    let reading = read_line(&mut reader, BUSY_LINE, None);
    let line = tokio::time::timeout(Duration::from_secs(1), reading).await;
    let request = match line {
        Ok(Ok(line)) => wire::parse_request(&line),
        Ok(Err(err)) => Err(err),
        Err(_) => Err(ProtocolError::Slow(Duration::from_secs(1))),
    };
    let response = match request {
        Ok(Request::Call(call)) => {
            let call = support.complete(call);
            let answer = barrier.refuse_busy(call, reason);
            Answer::Decided {
                decision: answer.decision,
                decider: Some(answer.decider),
            }
        }
        Ok(_) => Answer::Refused(reason),
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
        "gatehouse console is busy (its open calls hold the {} MiB of max_pending_mib, or every \
         connection its descriptors allow), so the agent's own permission flow decides",
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
