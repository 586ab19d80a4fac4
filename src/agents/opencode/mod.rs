//! OpenCode, which has no hook: the console attaches to a running `opencode serve` instead,
//! reads its event stream, turns each permission request into a call for the barrier, and
//! answers over OpenCode's HTTP API (verified against 1.18.33, `shared/realclients/README.md`).
//!
//! Servers speak one of two permission APIs: 1.x (`/permission`, `permission.asked`) or 2.x
//! (`/api/...`, `permission.v2.*`); `api` finds which at every connection and makes the 2.x
//! calls, and `v2` reads 2.x requests and events into the 1.x types, so both make one call.
//!
//! `event` reads the stream's events and the requests they carry, `sse` frames the stream,
//! `call` maps a request to a [`Call`](crate::core::call::Call) and an answer to a reply,
//! `client` makes the HTTP calls, `attach` is one server's link (subscribe, list, reconnect),
//! `requests` the questions a link has open (each asked once, then replied to), `attachments`
//! the console's set of links and the target of `gatehouse attach`, `service` the 2.x background
//! service's registration (`gatehouse attach opencode` with no URL), `settings` the config's
//! `[[opencode]]` tables, and `doctor` OpenCode's row in `gatehouse agents`.

pub mod api;
pub mod attach;
pub mod attachments;
pub mod call;
pub mod client;
pub mod doctor;
pub mod event;
mod requests;
pub mod service;
pub mod settings;
pub mod sse;
pub mod v2;

pub use attachments::Attachments;
