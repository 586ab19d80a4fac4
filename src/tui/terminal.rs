//! Owning the terminal: raw mode, the alternate screen and bracketed paste on the way in, and
//! a guard that puts everything back on the way out, on every path, panics included.

use std::io::{self, Stdout, Write};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableBracketedPaste, EnableBracketedPaste};
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute};

pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// Restores the terminal when dropped. Each step is tried even if an earlier one failed, and
/// nothing here panics.
pub struct TerminalGuard {
    pub terminal: Term,
}

impl TerminalGuard {
    pub fn enter() -> io::Result<TerminalGuard> {
        install_panic_hook();
        enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        let mut stdout = io::stdout();
        if let Err(err) = execute!(stdout, EnterAlternateScreen, EnableBracketedPaste) {
            restore();
            return Err(err);
        }
        match Terminal::new(CrosstermBackend::new(stdout)) {
            Ok(terminal) => Ok(TerminalGuard { terminal }),
            Err(err) => {
                restore();
                Err(err)
            }
        }
    }
}

impl TerminalGuard {
    /// Takes the terminal back after [`restore`] lent it to another program (a pager), and
    /// redraws everything on the next frame.
    pub fn resume(&mut self) -> io::Result<()> {
        enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        execute!(io::stdout(), EnterAlternateScreen, EnableBracketedPaste)?;
        self.terminal.clear()
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// True while gatehouse has the terminal in raw mode on the alternate screen.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Puts the terminal back as the shell expects it: cooked mode, main screen, cursor shown.
/// Only the first call after `enter` does anything: a panic restores in its hook and then the
/// guard's drop runs during unwinding, and leaving the alternate screen twice would move the
/// cursor back over the panic message.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = disable_raw_mode();
    let mut stdout = io::stdout();
    let _ = execute!(
        stdout,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = stdout.flush();
}

/// A panic restores the terminal first, then reports, so the message is readable.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}
