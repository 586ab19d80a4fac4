//! What the dialects' tests share: their fixtures, the decisions every answer is checked
//! against, and a dialect's reading of a hook input as an event and a call.

use super::dialect::{Dialect, EventSpec, StdinError};
use crate::core::call::Call;
use crate::core::decision::Decision;

/// The bytes of `tests/fixtures/<folder>/<name>`.
macro_rules! fixture {
    ($folder:literal, $name:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/",
            $folder,
            "/",
            $name
        ))
    };
}

/// One of each decision: an allow, an allow with a note, a deny, a defer.
pub fn decisions() -> Vec<Decision> {
    vec![
        Decision::allow(),
        Decision::Allow {
            note: Some("run the tests after".into()),
            input: None,
        },
        Decision::deny("use make clean"),
        Decision::defer("no console"),
    ]
}

/// What `dialect` reads from `stdin`: the event that fired and the call.
pub fn parse(
    dialect: &dyn Dialect,
    stdin: &[u8],
) -> Result<(&'static EventSpec, Call), StdinError> {
    dialect
        .parse(stdin)
        .map(|parsed| (parsed.event, parsed.call))
}
