//! The shell analyser against labelled lines and arbitrary input, and `explain` as the real
//! binary prints it. One test binary, so the suite links once for all of them.

mod adversarial;
mod corpus;
mod credential;
mod explain_escapes;
mod heldout;
#[path = "../oracle/lines.rs"]
mod lines;
mod own_commands;
mod props;
mod sed_oracle;
