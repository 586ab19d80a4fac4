//! The web page's answer to one call: `POST /api/answer` with the call's id, the answer
//! (`allow`, `note`, `always`, `deny`, `edit`, `plan`) and its text (for `always` also where
//! and how long it lasts, [`super::always`]), taken only from a paired
//! device, for a call still open and shown long enough to have been read; each refusal is
//! audited like every other refused request.

use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::Hub;
use super::always::Refusal;
use super::http::{Peer, device, refusal};
use crate::core::call::CallId;
use crate::core::mode::Mode;
use crate::core::prompter::HumanAnswer;

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub(super) enum AnswerKind {
    Allow,
    Note,
    Always,
    Deny,
    /// Allow the shell line as edited in `text`, once.
    Edit,
    /// Approve a plan, with `text` as a note, then move to `mode` if it names one.
    Plan,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AnswerRequest {
    id: u64,
    answer: AnswerKind,
    #[serde(default)]
    text: String,
    /// For a broad "always" pattern: the human saw the warning and still wants it.
    #[serde(default)]
    confirm: bool,
    /// For a plan: the mode the console moves to once it is approved.
    #[serde(default)]
    mode: Option<Mode>,
    /// For "always": where it lasts (absent: this session).
    #[serde(default)]
    scope: Option<super::always::Scope>,
    /// For "always": how long it lasts, in seconds, one of the whiles offered (absent: always;
    /// for a session, while the console runs).
    #[serde(default)]
    lasts_secs: Option<u64>,
    /// For "always" saved for a project or everyone: kept in the console's memory until it
    /// quits, never written.
    #[serde(default)]
    until_quit: bool,
}

pub(super) async fn answer(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(Peer(from)): ConnectInfo<Peer>,
    headers: HeaderMap,
    Json(request): Json<AnswerRequest>,
) -> Response {
    let name = match device(&hub, &headers, "/api/answer", from) {
        Ok(name) => name,
        Err(refused) => return refused.into_response(),
    };
    // An answer that cannot be taken is audited like every other refused request.
    let refuse = |status: StatusCode, why: &str| {
        hub.refused(status.as_u16(), why, "/api/answer", from);
        refusal(status, why)
    };
    let id = CallId(request.id);
    let Some(dialog) = hub
        .responder
        .open_dialogs()
        .into_iter()
        .find(|d| d.id == id)
    else {
        return refuse(StatusCode::CONFLICT, "already answered");
    };
    if dialog.opened.elapsed() < dialog.offer.arming {
        return refusal(
            StatusCode::CONFLICT,
            "this call has only just opened: look, then answer",
        );
    }
    let text = request.text.trim().to_string();
    let answer = match request.answer {
        AnswerKind::Allow => HumanAnswer::Allow { note: None },
        AnswerKind::Note => {
            if !dialog.offer.takes_a_note() {
                return refuse(StatusCode::BAD_REQUEST, "this agent cannot carry a note");
            }
            HumanAnswer::Allow {
                note: (!text.is_empty()).then_some(text),
            }
        }
        AnswerKind::Deny => HumanAnswer::Deny { reason: text },
        AnswerKind::Edit if dialog.offer.edit.is_none() => {
            return refuse(StatusCode::BAD_REQUEST, "this call has no command to edit");
        }
        AnswerKind::Edit if text.is_empty() => {
            return refuse(
                StatusCode::BAD_REQUEST,
                "the edited command is empty: type the command to run instead",
            );
        }
        AnswerKind::Edit => HumanAnswer::AllowEdited { line: text },
        AnswerKind::Plan => {
            match super::plan::approve(&dialog, request.mode, text, request.confirm) {
                Ok(answer) => answer,
                Err(why @ super::plan::PlanRefusal::Confirm(_)) => {
                    let why = why.words();
                    let body = Json(json!({ "error": why, "confirm": why }));
                    return (StatusCode::CONFLICT, body).into_response();
                }
                Err(why) => return refuse(StatusCode::BAD_REQUEST, why.words()),
            }
        }
        AnswerKind::Always => {
            let chosen =
                super::always::lasts_of(request.lasts_secs, request.until_quit).and_then(|lasts| {
                    let asked = (request.scope.unwrap_or_default(), lasts);
                    super::always::answer(&dialog, &text, asked, request.confirm)
                });
            match chosen {
                Ok(answer) => answer,
                Err(Refusal::Confirm(why)) => {
                    let body = Json(json!({ "error": why, "confirm": why }));
                    return (StatusCode::CONFLICT, body).into_response();
                }
                Err(Refusal::Bad(why)) => return refuse(StatusCode::BAD_REQUEST, &why),
            }
        }
    };
    if hub.responder.answer_from(id, answer, &name) {
        Json(json!({ "won": true })).into_response()
    } else {
        refuse(StatusCode::CONFLICT, "already answered")
    }
}
