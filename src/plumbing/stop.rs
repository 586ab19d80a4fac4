//! Every way a running console or `gatehouse serve` is told to stop: SIGHUP (the terminal went
//! away), SIGTERM, SIGINT, and a panic in any task. Each ends in the same orderly shutdown
//! (open dialogs answered with the shutdown fallback and audited, the socket removed, the
//! terminal restored); the caller runs it once [`Signals::stopped`] completes.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use tokio::signal::unix::{Signal, SignalKind, signal};
use tokio::sync::Notify;

/// Why a run stopped without being asked to from inside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Hangup,
    Terminate,
    Interrupt,
    /// Some task panicked: the run must end, and end with a failure.
    Panic,
}

static PANICKED: AtomicBool = AtomicBool::new(false);
static PANIC: Notify = Notify::const_new();

/// Makes a panic in any thread or task stop the run: after the hook already in place (which
/// restores the terminal and reports), it marks the process as failed and wakes
/// [`Signals::stopped`].
pub fn latch_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            PANICKED.store(true, Ordering::SeqCst);
            PANIC.notify_one();
        }));
    });
}

/// True once any thread of this process has panicked.
pub fn panicked() -> bool {
    PANICKED.load(Ordering::SeqCst)
}

/// The stop signals, taken over from their default actions as soon as this is made, so none
/// of them can end the process before the orderly shutdown has run.
pub struct Signals {
    hangup: Signal,
    terminate: Signal,
    interrupt: Signal,
}

impl Signals {
    /// Installs the handlers; must be called inside a tokio runtime.
    pub fn install() -> std::io::Result<Signals> {
        latch_panics();
        Ok(Signals {
            hangup: signal(SignalKind::hangup())?,
            terminate: signal(SignalKind::terminate())?,
            interrupt: signal(SignalKind::interrupt())?,
        })
    }

    /// Completes on the first stop signal or panic, saying which.
    pub async fn stopped(mut self) -> Stop {
        if panicked() {
            return Stop::Panic;
        }
        // Cancellation: whichever comes first ends the wait; the others are simply dropped.
        tokio::select! {
            _ = self.hangup.recv() => Stop::Hangup,
            _ = self.terminate.recv() => Stop::Terminate,
            _ = self.interrupt.recv() => Stop::Interrupt,
            _ = PANIC.notified() => Stop::Panic,
        }
    }
}

/// A panic caught while a future ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a task panicked")]
pub struct Panicked;

/// Runs `future` to its end, turning a panic inside it into [`Panicked`] so that the caller
/// can still shut down in order.
pub async fn catching<F: Future>(future: F) -> Result<F::Output, Panicked> {
    CatchUnwind {
        future: Box::pin(future),
    }
    .await
}

struct CatchUnwind<F> {
    future: Pin<Box<F>>,
}

impl<F: Future> Future for CatchUnwind<F> {
    type Output = Result<F::Output, Panicked>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let future = self.future.as_mut();
        match std::panic::catch_unwind(AssertUnwindSafe(|| future.poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Err(_) => Poll::Ready(Err(Panicked)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panic_inside_a_caught_future_is_returned_not_raised() {
        let caught = catching(async {
            tokio::task::yield_now().await;
            panic!("deliberate");
        })
        .await;
        assert_eq!(caught, Err(Panicked));
        assert_eq!(catching(async { 7 }).await, Ok(7));
    }

    #[tokio::test]
    async fn a_panic_in_any_task_stops_the_run_and_marks_it_failed() {
        let signals = Signals::install().unwrap();
        let task = tokio::spawn(async { panic!("a deliberate panic in a task") });
        assert!(task.await.is_err());
        let stop = tokio::time::timeout(std::time::Duration::from_secs(5), signals.stopped());
        assert_eq!(stop.await, Ok(Stop::Panic));
        assert!(panicked());
    }
}
