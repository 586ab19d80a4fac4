//! The barrier core: the policy, the pending table and the race. No terminal, socket or HTTP.

pub mod shell;
