//! The web page's edit box asks here what the console makes of an edited shell line: its class,
//! why, and what sending it will do, as the console's own edit box shows it
//! ([`crate::core::barrier::EditJudged`]).

use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::Hub;
use super::http::{Peer, device, refusal};
use crate::core::barrier::EditEnd;
use crate::core::call::CallId;
use crate::core::escape::visible;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JudgeRequest {
    id: u64,
    text: String,
}

/// The class of an edited line and what approving it would do, as the console's edit box
/// shows it.
pub(super) async fn judge(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(Peer(from)): ConnectInfo<Peer>,
    headers: HeaderMap,
    Json(request): Json<JudgeRequest>,
) -> Response {
    if let Err(refused) = device(&hub, &headers, "/api/judge", from) {
        return refused.into_response();
    }
    let line = request.text.trim();
    match hub.responder.judge_edit(CallId(request.id), line) {
        Some(judged) => Json(json!({
            "class": judged.class.name(),
            "why": visible(&judged.explanation),
            "end": judged.end.words(),
            "refused": judged.end == EditEnd::Refused,
        }))
        .into_response(),
        None => refusal(
            StatusCode::CONFLICT,
            "already answered, or the call has no command to edit",
        ),
    }
}
