//! How the `gatehouse` process starts. The hook runs before every tool call of every agent, and
//! std's own start-up before `main` costs it about a tenth of its run: the stack-overflow guard
//! it sets up for the main thread reads `/proc/self/maps`. So the binary is `no_main` and this
//! does by hand the rest of what std would have done first: standard descriptors that are
//! open, `SIGPIPE` ignored, a panic turned into exit status 101, and output flushed at the end.
//! What is given up is std's "has overflowed its stack" message: an overflow is a plain
//! `SIGSEGV`.

use std::process::ExitCode;

/// The exit status of a run that panicked (std's own, after the panic message is printed).
const PANICKED: i32 = 101;

/// Runs `body` as the process and exits with its status; never returns.
pub fn process(body: fn() -> ExitCode) -> ! {
    open_standard_descriptors();
    // A closed pipe is an error on the write that meets it (the hook's answer, say), never a
    // signal that kills the process before it can fall back.
    // SAFETY: setting a signal's disposition to ignore touches no memory of ours.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    match std::panic::catch_unwind(body) {
        // `exit` runs std's exit path, which flushes standard output. gatehouse's statuses are
        // success and failure, the only two an `ExitCode` lets stable Rust tell apart.
        Ok(code) => std::process::exit(if code == ExitCode::SUCCESS { 0 } else { 1 }),
        Err(_) => std::process::exit(PANICKED),
    }
}

/// Opens `/dev/null` on any of descriptors 0, 1 and 2 that is closed, as std does, so that a
/// file or socket opened later never lands on one (and the hook's answer into a socket).
fn open_standard_descriptors() {
    let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    // SAFETY: `fds` is a live array of three pollfd for the duration of the call.
    let polled = unsafe { libc::poll(fds.as_mut_ptr(), 3, 0) };
    if polled < 0 {
        return;
    }
    for pollfd in fds.iter().filter(|p| p.revents & libc::POLLNVAL != 0) {
        // SAFETY: a constant NUL-terminated path; the result is checked.
        let opened = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) };
        if opened != pollfd.fd {
            // The lowest free descriptor is the closed one, so anything else means the
            // process cannot make its standard streams safe: stop, as std does.
            std::process::abort();
        }
    }
}
