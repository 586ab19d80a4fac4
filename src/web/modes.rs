//! Modes beside the global one, on the web page: a session's or an agent's own mode, set from
//! a call's dialog (`/api/scope-mode`), and the global mode for a while (`/api/mode-while`);
//! the page's state says which open calls meet a mode not the global one and what is left of
//! the while. Each change is audited with the device that made it, as `/api/mode` is; a change
//! to allow-all asks to be confirmed, as there.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::Hub;
use super::http::{Peer, device, refusal};
use crate::core::call::CallId;
use crate::core::mode::Mode;
use crate::core::mode_scope::{ModeOwner, ModeScope};
use crate::core::prompter::Responder;

/// The page's script for these controls (`assets/web/modes.js`), loaded after `app.js`.
pub(super) async fn script() -> Response {
    super::http::asset("text/javascript; charset=utf-8", SCRIPT)
}

const SCRIPT: &str = include_str!("../../assets/web/modes.js");

/// The whiles the page offers, in seconds: for an "always" and for a mode.
pub const WHILE_SECS: [u64; 4] = [15 * 60, 30 * 60, 60 * 60, 2 * 60 * 60];

/// How long an "always" lasts, from the page's seconds: absent is while the console runs,
/// and only the whiles the page offers are taken.
pub fn lasts_of(secs: Option<u64>) -> Result<Option<Duration>, String> {
    match secs {
        None => Ok(None),
        Some(secs) if WHILE_SECS.contains(&secs) => Ok(Some(Duration::from_secs(secs))),
        Some(secs) => Err(format!(
            "lasts_secs {secs} is not offered: send one of {WHILE_SECS:?}, or none for as long \
             as the console runs"
        )),
    }
}

/// What the page shows beside the global mode: the timer, and each open call meeting its
/// session's or agent's own mode.
pub fn beside(responder: &Responder) -> Value {
    let given = responder.scope_modes();
    let global = responder.mode();
    let own: serde_json::Map<String, Value> = responder
        .open_dialogs()
        .iter()
        .filter_map(|d| {
            let applied = given.applied(global, &d.call.agent, &d.call.session);
            (applied.owner != ModeOwner::Global).then(|| {
                let mode = json!({"mode": applied.mode.name(), "of": applied.owner.name()});
                (d.id.0.to_string(), mode)
            })
        })
        .collect();
    let timer = responder.mode_timer().map(|t| {
        let left = t.until.saturating_duration_since(Instant::now()).as_secs();
        json!({"mode": t.mode.name(), "back_to": t.back_to.name(), "secs_left": left})
    });
    json!({ "own": own, "timer": timer, "whiles": WHILE_SECS })
}

/// Who a `/api/scope-mode` request gives a mode to.
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum Whom {
    Session,
    Agent,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ScopeModeRequest {
    /// The open call whose session or agent it is.
    id: u64,
    whom: Whom,
    /// `null`: back to the global mode.
    mode: Option<Mode>,
    #[serde(default)]
    confirm: bool,
}

/// Gives the session (or agent) of open call `id` its own mode, or sends it back to the global
/// one.
pub(super) async fn scope_mode(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(Peer(from)): ConnectInfo<Peer>,
    headers: HeaderMap,
    Json(request): Json<ScopeModeRequest>,
) -> Response {
    let name = match device(&hub, &headers, "/api/scope-mode", from) {
        Ok(name) => name,
        Err(refused) => return refused.into_response(),
    };
    if let Some(refused) = unconfirmed(request.mode, request.confirm) {
        return refused;
    }
    let open = hub.responder.open_dialogs();
    let Some(dialog) = open.iter().find(|d| d.id == CallId(request.id)) else {
        return refusal(
            StatusCode::CONFLICT,
            "that call is no longer open: give the mode from a call that is",
        );
    };
    let scope = match request.whom {
        Whom::Session => ModeScope::Session {
            agent: dialog.call.agent.clone(),
            session: dialog.call.session.clone(),
        },
        Whom::Agent => ModeScope::Agent(dialog.call.agent.clone()),
    };
    let settled = hub.responder.set_scope_mode(scope.clone(), request.mode);
    hub.note(&json!({
        "time": crate::core::audit::now_rfc3339(),
        "web": "scope-mode",
        "device": name,
        "from": from.to_string(),
        "scope": scope.to_string(),
        "mode": request.mode.map_or("global", Mode::name),
        "settled": settled,
    }));
    hub.bump();
    Json(json!({ "settled": settled })).into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct WhileRequest {
    mode: Mode,
    secs: u64,
    #[serde(default)]
    confirm: bool,
}

/// Sets the global mode for a while, then back to the mode before.
pub(super) async fn mode_while(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(Peer(from)): ConnectInfo<Peer>,
    headers: HeaderMap,
    Json(request): Json<WhileRequest>,
) -> Response {
    let name = match device(&hub, &headers, "/api/mode-while", from) {
        Ok(name) => name,
        Err(refused) => return refused.into_response(),
    };
    if let Some(refused) = unconfirmed(Some(request.mode), request.confirm) {
        return refused;
    }
    let lasts = match lasts_of(Some(request.secs)) {
        Ok(Some(lasts)) => lasts,
        Ok(None) | Err(_) => {
            let why = format!("secs must be one of {WHILE_SECS:?}");
            return refusal(StatusCode::BAD_REQUEST, &why);
        }
    };
    let settled = hub.responder.set_mode_for(request.mode, lasts);
    hub.note(&json!({
        "time": crate::core::audit::now_rfc3339(),
        "web": "mode-while",
        "device": name,
        "from": from.to_string(),
        "mode": request.mode.name(),
        "for_secs": request.secs,
        "settled": settled,
    }));
    hub.bump();
    Json(json!({ "mode": request.mode.name(), "settled": settled })).into_response()
}

/// allow-all is entered only once confirmed, as on `/api/mode`.
fn unconfirmed(mode: Option<Mode>, confirm: bool) -> Option<Response> {
    (mode == Some(Mode::AllowAll) && !confirm).then(|| {
        let why = "allow-all lets every call through but denied ones: confirm to switch";
        (
            StatusCode::CONFLICT,
            Json(json!({ "error": why, "confirm": why })),
        )
            .into_response()
    })
}
