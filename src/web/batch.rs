//! The web page's batch answer: `POST /api/batch` with the marked calls' ids, one answer
//! (`allow`, `note`, `always`, `deny`) and its text. With `preview` it only says which calls
//! would get the answer and which would be left out and why, for the page to list before the
//! human sends; without, it answers them as one batch ([`crate::core::batch`]), each call
//! audited with the device's name and the batch.

use std::sync::Arc;
use std::time::Instant;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::Hub;
use super::http::{Peer, device, refusal};
use crate::core::batch::{BatchAnswer, LeftOut, Plan};
use crate::core::call::CallId;

/// At most this many calls in one batch request: a bound on the work one request asks for.
const MOST: usize = 1000;

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum Kind {
    Allow,
    Note,
    Always,
    Deny,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BatchRequest {
    ids: Vec<u64>,
    answer: Kind,
    #[serde(default)]
    text: String,
    #[serde(default)]
    preview: bool,
}

fn left_of(left: &[(CallId, LeftOut)]) -> Value {
    left.iter()
        .map(|(id, why)| json!({ "id": id.0, "why": why.why() }))
        .collect()
}

/// Answers (or, with `preview`, plans) one batch from a paired device.
pub(super) async fn batch(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(Peer(from)): ConnectInfo<Peer>,
    headers: HeaderMap,
    Json(request): Json<BatchRequest>,
) -> Response {
    let name = match device(&hub, &headers, "/api/batch", from) {
        Ok(name) => name,
        Err(refused) => return refused.into_response(),
    };
    if request.ids.is_empty() || request.ids.len() > MOST {
        let why = format!("a batch names 1 to {MOST} calls: mark some, then answer");
        hub.refused(400, &why, "/api/batch", from);
        return refusal(StatusCode::BAD_REQUEST, &why);
    }
    let text = request.text.trim().to_string();
    let answer = match request.answer {
        Kind::Allow => BatchAnswer::Allow { note: None },
        Kind::Note => BatchAnswer::Allow {
            note: (!text.is_empty()).then_some(text),
        },
        Kind::Always => BatchAnswer::AllowAlways,
        Kind::Deny => BatchAnswer::Deny { reason: text },
    };
    let ids: Vec<CallId> = request.ids.iter().copied().map(CallId).collect();
    if request.preview {
        let open = hub.responder.open_dialogs();
        let marked = ids
            .iter()
            .filter_map(|id| open.iter().find(|d| d.id == *id));
        let plan = Plan::of(answer, marked.map(|d| d.as_ref()));
        let included: Vec<u64> = plan.included.iter().map(|(id, _)| id.0).collect();
        return Json(json!({
            "answer": plan.answer.name(),
            "included": included,
            "left": left_of(&plan.left),
        }))
        .into_response();
    }
    let done = hub
        .responder
        .answer_batch_from(&ids, answer, &name, Instant::now());
    Json(json!({
        "batch": done.batch,
        "answered": done.answered.iter().map(|id| id.0).collect::<Vec<_>>(),
        "left": left_of(&done.left),
        "gone": done.gone.iter().map(|id| id.0).collect::<Vec<_>>(),
        "said": done.said(),
    }))
    .into_response()
}
