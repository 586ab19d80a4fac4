//! The barrier core: the policy, the pending table and the race. It imports nothing of
//! terminals, sockets or HTTP, so it can be read and tested alone.

pub mod advice;
pub mod audit;
pub mod audit_text;
pub mod barrier;
pub mod batch;
pub mod call;
pub mod caps;
pub mod classifier;
pub mod classify;
pub mod decision;
pub mod edit;
pub mod escape;
pub mod event;
pub mod guard;
pub mod learn;
pub mod mode;
pub mod mode_scope;
mod named_paths;
pub mod offer;
pub mod origin;
pub mod pathword;
pub mod policy;
pub mod route;
pub mod rule;
pub mod rules;
pub mod shell;
pub mod vouch;

/// The effective user id of this process: the owner of the files and sockets it makes, and
/// the uid the kernel reports for it to a socket peer, so the one every check compares with.
pub fn uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// The answering handle lives in the barrier; this path is kept for its users.
pub use barrier::prompter;
