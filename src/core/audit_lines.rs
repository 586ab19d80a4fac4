//! The audit's writer of whole lines: one `write` per record, and a fresh line after one that
//! was cut short, so no record is ever glued to a torn one.

use std::fmt;
use std::io::{self, Write};

use super::Sink;

/// Whole lines onto `out`, each in one `write`; after a write cut short, the next line starts
/// with a newline. Generic so that tests can make writes fail or fall short.
#[derive(Debug)]
pub struct Lines<W> {
    pub(super) out: W,
    /// The last write was cut short: the next one starts with a newline.
    pub(super) torn: bool,
}

impl<W: Write> Lines<W> {
    /// Lines onto `out`; `torn` when `out` already ends in the middle of a line.
    pub fn new(out: W, torn: bool) -> Lines<W> {
        Lines { out, torn }
    }

    /// Writes `line` (newline included) with one `write`. An error if not all of it went out.
    pub fn append(&mut self, line: &[u8]) -> io::Result<()> {
        let fresh;
        let data = if self.torn {
            fresh = [b"\n", line].concat();
            &fresh[..]
        } else {
            line
        };
        loop {
            match self.out.write(data) {
                Ok(n) if n == data.len() => {
                    self.torn = false;
                    return Ok(());
                }
                Ok(n) => {
                    self.torn = self.torn || n > 0;
                    return Err(io::Error::new(
                        io::ErrorKind::WriteZero,
                        format!(
                            "only {n} of {} bytes of the record were written",
                            data.len()
                        ),
                    ));
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }
}

impl<W: Write + Send + fmt::Debug> Sink for Lines<W> {
    fn append(&mut self, line: &[u8]) -> io::Result<()> {
        Lines::append(self, line)
    }
}
