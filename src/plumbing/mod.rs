//! What every part stands on and none is about: where files live, diagnostics, the one HTTP
//! client builder, and signals and panics.

pub mod http;
pub mod logging;
pub mod paths;
pub mod stop;
