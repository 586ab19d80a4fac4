//! Server-sent events framing: bytes in as they arrive, whole events' `data` out.
//!
//! An event is its `data:` lines joined by newlines, ended by a blank line; comments (`:`) and
//! other fields are skipped, and a `\r\n` ending counts as `\n`. One event may be no larger than
//! the bound given: a server that streams a line without end cannot make the console hold it.

/// The framer of one stream.
#[derive(Debug)]
pub struct Frames {
    line: Vec<u8>,
    data: String,
    max: usize,
}

/// The stream sent an event larger than the bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("an event on the stream is larger than {0} bytes")]
pub struct TooLong(pub usize);

impl Frames {
    /// A framer that refuses events over `max` bytes.
    pub fn new(max: usize) -> Frames {
        Frames {
            line: Vec::new(),
            data: String::new(),
            max,
        }
    }

    /// Takes the next bytes of the stream; returns the events they complete, in order.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<String>, TooLong> {
        let mut done = Vec::new();
        for &byte in bytes {
            if byte != b'\n' {
                if self.line.len() + self.data.len() >= self.max {
                    return Err(TooLong(self.max));
                }
                self.line.push(byte);
                continue;
            }
            let mut line = std::mem::take(&mut self.line);
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.is_empty() {
                if !self.data.is_empty() {
                    done.push(std::mem::take(&mut self.data));
                }
                continue;
            }
            let text = String::from_utf8_lossy(&line);
            let (field, value) = match text.split_once(':') {
                Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
                None => (text.as_ref(), ""),
            };
            if field == "data" {
                if !self.data.is_empty() {
                    self.data.push('\n');
                }
                self.data.push_str(value);
            }
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_arrive_whole_however_the_bytes_are_cut() {
        let stream = b"data: {\"a\":1}\n\n: comment\ndata: two\r\ndata: lines\r\n\r\n";
        for cut in 0..stream.len() {
            let mut frames = Frames::new(1024);
            let mut events = frames.push(&stream[..cut]).unwrap();
            events.extend(frames.push(&stream[cut..]).unwrap());
            assert_eq!(events, ["{\"a\":1}", "two\nlines"], "cut at {cut}");
        }
    }

    #[test]
    fn other_fields_and_empty_events_give_nothing() {
        let mut frames = Frames::new(1024);
        let events = frames.push(b"event: x\nid: 3\nretry: 10\n\n\n").unwrap();
        assert!(events.is_empty());
    }

    #[test]
    fn an_event_over_the_bound_is_refused() {
        let mut frames = Frames::new(16);
        assert_eq!(frames.push(b"data: 0123456789"), Ok(vec![]));
        assert_eq!(frames.push(b"0123456789\n"), Err(TooLong(16)));
    }
}
