//! A reader of GNU sed 4.9 scripts that finds what sed would do: write files, run commands, or
//! only edit the stream.
//!
//! It reads a script as GNU sed's own compiler does, command by command, with the lexical rules
//! found by experiment with the real binary (`sed --debug` prints sed's reading): labels end at
//! a blank, `;`, `}` or `#`; a bracket expression `[...]` hides the delimiter of a regular
//! expression and a backslash inside it is literal; `a`, `i` and `c` text runs to an
//! unescaped newline and swallows `;`, `}` and command letters; `r`, `w` and the `w` flag take
//! the rest of the line as a file name. Each `-e` is read on its own (sed reports an
//! unterminated command at its end), except that `a`/`i`/`c` text ending in a backslash goes on
//! into the next one, and a block may span several.
//!
//! Anything the reader is not certain sed reads the same way is [`Reading::Unverified`], never
//! read-only: a script sed rejects may still have created the files of the `w` commands before
//! the error, and a script we cannot read may hold an `e`. Only an error sed certainly raises
//! where the reader stops (an unknown command, extra characters after a command), after a part
//! read with certainty and holding no `w` or `e`, is [`Reading::Rejected`]: sed compiles the
//! whole script before running any of it and gives up at its first error.

/// What running a script can do, as far as the reader can tell.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Reading {
    ReadOnly,
    /// `w`, `W` or the `w` flag of `s`.
    Writes,
    /// `e`, or the `e` flag of `s`.
    Runs,
    /// GNU sed certainly stops at an error before running anything, and nothing it read
    /// before the error opens a file or runs a command (the reason says which error).
    Rejected(&'static str),
    /// The reader is not certain how GNU sed reads the script; the reason says why.
    Unverified(&'static str),
}

/// The characters GNU sed 4.9 answers "unknown command" for, where a command is expected: every
/// printable ASCII character but the commands, address starts, `;`, `!` and `#`.
fn unknown_command(c: u8) -> bool {
    c.is_ascii_graphic() && !b"!#$+/0123456789:;=DFGHLNPQRTW\\abcdeghilnpqrstvwxyz{}~".contains(&c)
}

/// Reads the `-e` scripts of one sed invocation (or its one script operand), in order.
pub(super) fn read(scripts: &[&str]) -> Reading {
    let mut state = State::default();
    for script in scripts {
        if !script.is_ascii() {
            return Reading::Unverified("non-ASCII sed script: its reading depends on the locale");
        }
        let mut parser = Parser {
            s: script.as_bytes(),
            i: 0,
        };
        if let Err(stop) = parser.script(&mut state) {
            return stop;
        }
    }
    if state.depth > 0 {
        return Reading::Unverified("sed script with an unmatched `{`");
    }
    Reading::ReadOnly
}

/// What one `-e` leaves for the next.
#[derive(Default)]
struct State {
    /// Blocks opened and not yet closed.
    depth: usize,
    /// The last `-e` ended inside `a`/`i`/`c` text with a backslash: the text goes on.
    text_continues: bool,
}

/// Why reading stopped early: any answer other than read-only.
type Step<T = ()> = Result<T, Reading>;

fn unverified<T>(why: &'static str) -> Step<T> {
    Err(Reading::Unverified(why))
}

/// Where an `a`/`i`/`c` text ended.
enum TextEnd {
    /// At a newline or at the end of the `-e`.
    Closed,
    /// At the end of the `-e`, after a backslash.
    Continues,
}

struct Parser<'s> {
    s: &'s [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    fn skip_digits(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
    }

    fn script(&mut self, state: &mut State) -> Step {
        if state.text_continues {
            state.text_continues = matches!(self.text_body(), TextEnd::Continues);
        }
        loop {
            while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b';')) {
                self.i += 1;
            }
            if self.peek().is_none() {
                return Ok(());
            }
            let addressed = self.addresses()?;
            self.skip_blanks();
            if self.peek() == Some(b'!') {
                self.i += 1;
                self.skip_blanks();
            }
            let Some(command) = self.bump() else {
                return unverified("sed address without a command");
            };
            if addressed && matches!(command, b'}' | b'#' | b':') {
                return unverified("sed command that takes no address has one");
            }
            match command {
                b'{' => state.depth += 1,
                b'}' => {
                    if state.depth == 0 {
                        return unverified("sed script with an unexpected `}`");
                    }
                    state.depth -= 1;
                    self.end_of_command()?;
                }
                b'#' => self.skip_line(),
                b':' => {
                    if self.label()? == 0 {
                        return unverified("sed `:` without a label");
                    }
                }
                b'b' | b't' | b'T' => {
                    self.label()?;
                }
                b'v' => self.version()?,
                b'=' | b'd' | b'D' | b'g' | b'G' | b'h' | b'H' | b'n' | b'N' | b'p' | b'P'
                | b'x' | b'z' | b'F' => self.end_of_command()?,
                b'l' | b'q' | b'Q' => {
                    self.skip_blanks();
                    self.skip_digits();
                    self.end_of_command()?;
                }
                b'a' | b'i' | b'c' => {
                    state.text_continues = matches!(self.text()?, TextEnd::Continues);
                }
                b'r' | b'R' => {
                    self.file_name()?;
                }
                b'w' | b'W' => self.write_to_file()?,
                b'e' => return Err(Reading::Runs),
                b's' => self.substitute()?,
                b'y' => self.transliterate()?,
                c if unknown_command(c) => return Err(Reading::Rejected("unknown command")),
                _ => return unverified("sed command the reader does not know"),
            }
        }
    }

    /// After a command: blanks, then `;`, a newline, the end, or a `}` or `#` read next.
    fn end_of_command(&mut self) -> Step {
        self.skip_blanks();
        match self.peek() {
            None | Some(b'}' | b'#') => Ok(()),
            Some(b';' | b'\n') => {
                self.i += 1;
                Ok(())
            }
            Some(_) => Err(Reading::Rejected("extra characters after a command")),
        }
    }

    fn skip_line(&mut self) {
        while self.bump().is_some_and(|c| c != b'\n') {}
    }

    /// A label of `:`, `b`, `t` or `T`, after blanks: it ends at a blank, `;`, `}`, `#`, a
    /// newline or the end, and what follows is the next command. Returns its length.
    fn label(&mut self) -> Step<usize> {
        self.skip_blanks();
        let start = self.i;
        while let Some(c) = self.peek() {
            match c {
                b';' => {
                    let length = self.i - start;
                    self.i += 1;
                    return Ok(length);
                }
                b' ' | b'\t' | b'\n' | b'}' | b'#' => break,
                c if c.is_ascii_graphic() => self.i += 1,
                _ => return unverified("sed label with characters the reader does not know"),
            }
        }
        Ok(self.i - start)
    }

    /// `v` and an optional version, read like a label (`v 4.2 w f` writes). A version the
    /// reader does not know is unverified, not an error.
    fn version(&mut self) -> Step {
        self.skip_blanks();
        let start = self.i;
        let length = self.label()?;
        if !self.s[start..start + length]
            .iter()
            .all(|c| c.is_ascii_digit() || *c == b'.')
        {
            return unverified("sed `v` with a version the reader does not know");
        }
        Ok(())
    }

    /// The text of `a`, `i` or `c`: `a text`, `a\text` or `a\` and the text on the next line.
    fn text(&mut self) -> Step<TextEnd> {
        self.skip_blanks();
        match self.peek() {
            None | Some(b'\n') => return unverified("sed `a`, `i` or `c` without text"),
            Some(b'\\') => {
                self.i += 1;
                match self.peek() {
                    None => return Ok(TextEnd::Continues),
                    Some(b'\n') => self.i += 1,
                    Some(_) => {}
                }
            }
            Some(_) => {}
        }
        Ok(self.text_body())
    }

    /// Text up to an unescaped newline; a backslash escapes any character.
    fn text_body(&mut self) -> TextEnd {
        loop {
            match self.bump() {
                None => return TextEnd::Closed,
                Some(b'\n') => return TextEnd::Closed,
                Some(b'\\') => {
                    if self.bump().is_none() {
                        return TextEnd::Continues;
                    }
                }
                Some(_) => {}
            }
        }
    }

    /// The file name of `r`, `R`, `w`, `W` or the `w` flag: after blanks, the rest of the line.
    fn file_name(&mut self) -> Step {
        self.skip_blanks();
        let start = self.i;
        while self.peek().is_some_and(|c| c != b'\n') {
            self.i += 1;
        }
        if self.i == start {
            return unverified("sed `r`, `w` or `s///w` without a file name");
        }
        Ok(())
    }

    /// `w`, `W` and the `w` flag. `/dev/stdout` and `/dev/stderr` are no exception: GNU sed
    /// writes them to its own streams, but under `--posix` or `POSIXLY_CORRECT` it opens them
    /// with `O_TRUNC`, which truncates a file its output was sent to.
    fn write_to_file(&mut self) -> Step {
        self.file_name()?;
        Err(Reading::Writes)
    }

    fn delimiter(&mut self) -> Step<u8> {
        match self.bump() {
            None | Some(b'\n' | b'\\') => unverified("sed command without a usable delimiter"),
            Some(c) => Ok(c),
        }
    }

    /// `s`, its regular expression, replacement and flags.
    fn substitute(&mut self) -> Step {
        let delimiter = self.delimiter()?;
        self.regex(delimiter)?;
        self.plain_part(delimiter)?;
        loop {
            match self.peek() {
                None | Some(b'}' | b'#') => return Ok(()),
                Some(b'\n' | b';') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(b' ' | b'\t' | b'g' | b'p' | b'i' | b'I' | b'm' | b'M' | b'0'..=b'9') => {
                    self.i += 1
                }
                Some(b'e') => return Err(Reading::Runs),
                Some(b'w') => {
                    self.i += 1;
                    return self.write_to_file();
                }
                Some(_) => return unverified("sed `s` flag the reader does not know"),
            }
        }
    }

    /// `y/source/target/`.
    fn transliterate(&mut self) -> Step {
        let delimiter = self.delimiter()?;
        self.plain_part(delimiter)?;
        self.plain_part(delimiter)?;
        self.end_of_command()
    }

    /// A replacement or a `y` string: a backslash escapes any character, newline included.
    fn plain_part(&mut self, delimiter: u8) -> Step {
        loop {
            match self.bump() {
                None | Some(b'\n') => return unverified("unterminated sed `s` or `y`"),
                Some(b'\\') => {
                    if self.bump().is_none() {
                        return unverified("unterminated sed `s` or `y`");
                    }
                }
                Some(c) if c == delimiter => return Ok(()),
                Some(_) => {}
            }
        }
    }

    /// A regular expression up to `delimiter`: a backslash escapes any character, and a
    /// bracket expression hides the delimiter.
    fn regex(&mut self, delimiter: u8) -> Step {
        loop {
            match self.bump() {
                None | Some(b'\n') => return unverified("unterminated sed regular expression"),
                Some(b'\\') => {
                    if self.bump().is_none() {
                        return unverified("unterminated sed regular expression");
                    }
                }
                Some(c) if c == delimiter => return Ok(()),
                Some(b'[') => self.bracket()?,
                Some(_) => {}
            }
        }
    }

    /// After `[`: an optional `^`, a leading `]` taken literally, then anything (a backslash
    /// and the delimiter too) up to `]`, with `[:class:]`, `[.x.]` and `[=x=]` inside.
    fn bracket(&mut self) -> Step {
        if self.peek() == Some(b'^') {
            self.i += 1;
        }
        if self.peek() == Some(b']') {
            self.i += 1;
        }
        loop {
            match self.bump() {
                None | Some(b'\n') => return unverified("unterminated sed bracket expression"),
                Some(b']') => return Ok(()),
                Some(b'[') if matches!(self.peek(), Some(b':' | b'.' | b'=')) => {
                    let kind = self.bump().unwrap_or_default();
                    while self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
                        self.i += 1;
                    }
                    if self.bump() != Some(kind) || self.bump() != Some(b']') {
                        return unverified("sed bracket class the reader does not know");
                    }
                }
                Some(_) => {}
            }
        }
    }

    /// Up to two addresses; whether there was one.
    fn addresses(&mut self) -> Step<bool> {
        if !self.address()? {
            return Ok(false);
        }
        self.skip_blanks();
        if self.peek() == Some(b',') {
            self.i += 1;
            self.skip_blanks();
            if matches!(self.peek(), Some(b'+' | b'~')) {
                self.i += 1;
                self.skip_digits();
            } else if !self.address()? {
                return unverified("sed address range without an end");
            }
        }
        Ok(true)
    }

    /// A line number, `first~step`, `$`, `/re/` or `\cREc` (with `I` and `M` flags).
    fn address(&mut self) -> Step<bool> {
        match self.peek() {
            Some(b'0'..=b'9') => {
                self.skip_digits();
                if self.peek() == Some(b'~') {
                    self.i += 1;
                    self.skip_digits();
                }
            }
            Some(b'$') => self.i += 1,
            Some(b'/') => {
                self.i += 1;
                self.regex(b'/')?;
                self.regex_flags();
            }
            Some(b'\\') => {
                self.i += 1;
                let delimiter = self.delimiter()?;
                self.regex(delimiter)?;
                self.regex_flags();
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn regex_flags(&mut self) {
        loop {
            self.skip_blanks();
            if !matches!(self.peek(), Some(b'I' | b'M')) {
                return;
            }
            self.i += 1;
        }
    }
}

#[cfg(test)]
#[path = "sed_script_tests.rs"]
mod tests;
