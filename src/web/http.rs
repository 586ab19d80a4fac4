//! The web console's HTTP side: the page shell, pairing, the state, the live updates and the
//! answers. Only `/`, its assets and `POST /api/pair` answer without a device token; the
//! rest need `Authorization: Bearer <token>`. Every request's `Host` must name this console
//! (an IP address, `localhost`, the machine's name or the configured url), which defeats DNS
//! rebinding. No response carries CORS headers, and the page's content security policy lets
//! it load nothing from elsewhere.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::Router;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::json;

use super::Hub;
pub use super::hosts::{Hosts, link_host};
use super::pairing::Redeemed;
use super::snapshot::{Clock, Snapshot, snapshot};
use crate::core::call::CallId;
use crate::core::mode::Mode;

const PAGE: &str = include_str!("../../assets/web/index.html");
const SCRIPT: &str = include_str!("../../assets/web/app.js");
const BATCH_SCRIPT: &str = include_str!("../../assets/web/batch.js");
const STYLE: &str = include_str!("../../assets/web/app.css");

/// Nothing from elsewhere, nothing inline, no framing.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
    connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; \
    frame-ancestors 'none'";

/// Where a request came from, for the audit of refused ones.
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub SocketAddr);

/// The page and its API; each request's body and answer within `request` (a live update
/// stream once answered excepted).
pub fn router(hub: Arc<Hub>, request: Duration) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/app.css", get(style))
        .route("/modes.js", get(super::modes::script))
        .route("/api/pair", post(pair))
        .route("/api/state", get(state))
        .route("/api/events", get(events))
        .route("/api/answer", post(super::answer::answer))
        .route("/api/claim", post(claim))
        .route("/api/judge", post(super::judge::judge))
        .route("/api/batch", post(super::batch::batch))
        .route("/batch.js", get(batch_script))
        .route("/api/mode", post(mode))
        .route("/api/scope-mode", post(super::modes::scope_mode))
        .route("/api/mode-while", post(super::modes::mode_while))
        .layer(middleware::from_fn_with_state(
            (hub.clone(), request),
            guard,
        ))
        .with_state(hub)
}

/// Every request: the `Host` check first, then the request within its time, then the
/// security headers on every response.
async fn guard(
    State((hub, within)): State<(Arc<Hub>, Duration)>,
    ConnectInfo(Peer(from)): ConnectInfo<Peer>,
    request: Request,
    next: Next,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let path = request.uri().path().to_string();
    let mut response = if hub.hosts.allows(host) {
        // Cancellation: a request past its time is dropped, its body unread or its handler
        // stopped at an await; nothing it did is half-applied (answers settle atomically).
        match tokio::time::timeout(within, next.run(request)).await {
            Ok(response) => response,
            Err(_) => {
                hub.refused(408, "the request took too long", &path, from);
                refusal(StatusCode::REQUEST_TIMEOUT, "the request took too long")
            }
        }
    } else {
        hub.refused(421, "the Host header names another site", &path, from);
        refusal(
            StatusCode::MISDIRECTED_REQUEST,
            "this is not the host you asked for",
        )
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(POLICY),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

pub(super) fn refusal(status: StatusCode, why: &str) -> Response {
    (status, Json(json!({ "error": why }))).into_response()
}

pub(super) fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

async fn page() -> Response {
    asset("text/html; charset=utf-8", PAGE)
}

async fn script() -> Response {
    asset("text/javascript; charset=utf-8", SCRIPT)
}

async fn batch_script() -> Response {
    asset("text/javascript; charset=utf-8", BATCH_SCRIPT)
}

async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE)
}

/// The device a request's bearer token belongs to, or the refusal (audited) to send back.
pub(super) fn device(
    hub: &Hub,
    headers: &HeaderMap,
    path: &str,
    from: SocketAddr,
) -> Result<String, Unpaired> {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .map(str::trim);
    let why = match token {
        None => "no device token",
        Some(token) => match hub.devices.check(token) {
            Some(name) => return Ok(name),
            None => "an unknown or revoked device token",
        },
    };
    hub.refused(401, why, path, from);
    Err(Unpaired)
}

/// The answer to a request without a valid device token (already audited).
pub(super) struct Unpaired;

impl IntoResponse for Unpaired {
    fn into_response(self) -> Response {
        refusal(
            StatusCode::UNAUTHORIZED,
            "this device is not paired: open a new link from `gatehouse pair`",
        )
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PairRequest {
    code: String,
    #[serde(default)]
    name: String,
}

async fn pair(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(Peer(from)): ConnectInfo<Peer>,
    Json(request): Json<PairRequest>,
) -> Response {
    match hub
        .codes
        .redeem(request.code.trim(), from.ip(), Instant::now())
    {
        Redeemed::Paired => {}
        Redeemed::Refused => {
            hub.refused(
                403,
                "a pairing code that is wrong, spent or expired",
                "/api/pair",
                from,
            );
            return refusal(
                StatusCode::FORBIDDEN,
                "this pairing link was already used or has expired: make a new one with `gatehouse pair`",
            );
        }
        Redeemed::Limited => {
            hub.refused(429, "too many pairing attempts", "/api/pair", from);
            return refusal(
                StatusCode::TOO_MANY_REQUESTS,
                "too many wrong pairing codes from here: wait a minute, or use a new link",
            );
        }
    }
    let wanted = if request.name.trim().is_empty() {
        "phone"
    } else {
        request.name.as_str()
    };
    match hub.devices.add(wanted) {
        Ok((name, token)) => {
            hub.note(&json!({
                "time": crate::core::audit::now_rfc3339(),
                "web": "paired",
                "device": name,
                "from": from.to_string(),
            }));
            hub.bump();
            Json(json!({ "token": token, "device": name })).into_response()
        }
        Err(err) => refusal(StatusCode::INTERNAL_SERVER_ERROR, &err.to_string()),
    }
}

fn snapshot_for(hub: &Hub, device: &str) -> Snapshot {
    let dialogs = hub.responder.open_dialogs();
    let mut live = hub.live.lock().unwrap_or_else(|p| p.into_inner());
    let live = &mut *live;
    live.previews.keep_only(&dialogs);
    let beside = super::modes::beside(&hub.responder);
    let mut state = snapshot(
        hub.responder.mode(),
        device,
        &dialogs,
        &mut live.previews,
        &live.classifier,
        Clock {
            now: Instant::now(),
            ask_timeout: hub.responder.ask_timeout(),
        },
    );
    state.beside = beside;
    state
}

async fn state(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(Peer(from)): ConnectInfo<Peer>,
    headers: HeaderMap,
) -> Response {
    match device(&hub, &headers, "/api/state", from) {
        Ok(name) => Json(snapshot_for(&hub, &name)).into_response(),
        Err(refused) => refused.into_response(),
    }
}

/// Server-sent events: the whole state at once and again whenever it changes. The stream
/// ends when the device is revoked or the console stops.
async fn events(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(Peer(from)): ConnectInfo<Peer>,
    headers: HeaderMap,
) -> Response {
    let name = match device(&hub, &headers, "/api/events", from) {
        Ok(name) => name,
        Err(refused) => return refused.into_response(),
    };
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .unwrap_or("")
        .trim()
        .to_string();
    let Some(open) = hub.open_stream(&name) else {
        let why = "too many live update streams for this device";
        hub.refused(429, why, "/api/events", from);
        return refusal(StatusCode::TOO_MANY_REQUESTS, why);
    };
    let changed = hub.changed.subscribe();
    let stopping = hub.stopping.subscribe();
    let state = (hub, changed, stopping, true);
    let stream =
        futures_util::stream::unfold(state, move |(hub, mut changed, mut stopping, first)| {
            let name = name.clone();
            let token = token.clone();
            // The count is the stream's: it closes when the stream is dropped.
            let _open = &open;
            async move {
                if *stopping.borrow() {
                    return None;
                }
                if !first {
                    // Cancellation: both are watch receivers; dropping either loses nothing.
                    tokio::select! {
                        changed = changed.changed() => changed.ok()?,
                        _ = stopping.wait_for(|s| *s) => return None,
                    }
                }
                hub.devices.check(&token)?;
                let data = serde_json::to_string(&snapshot_for(&hub, &name)).ok()?;
                let event = SseEvent::default().event("state").data(data);
                let next = (hub, changed, stopping, false);
                Some((Ok::<_, std::convert::Infallible>(event), next))
            }
        });
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimRequest {
    id: u64,
}

/// The human started writing an answer: the classifier's late verdict is dropped.
async fn claim(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(Peer(from)): ConnectInfo<Peer>,
    headers: HeaderMap,
    Json(request): Json<ClaimRequest>,
) -> Response {
    if let Err(refused) = device(&hub, &headers, "/api/claim", from) {
        return refused.into_response();
    }
    Json(json!({ "claimed": hub.responder.claim(CallId(request.id)) })).into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModeRequest {
    mode: Mode,
    /// allow-all asks once: the human confirmed.
    #[serde(default)]
    confirm: bool,
}

async fn mode(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(Peer(from)): ConnectInfo<Peer>,
    headers: HeaderMap,
    Json(request): Json<ModeRequest>,
) -> Response {
    let name = match device(&hub, &headers, "/api/mode", from) {
        Ok(name) => name,
        Err(refused) => return refused.into_response(),
    };
    if request.mode == Mode::AllowAll && !request.confirm {
        let why = "allow-all lets every call through but denied ones: confirm to switch";
        return (
            StatusCode::CONFLICT,
            Json(json!({ "error": why, "confirm": why })),
        )
            .into_response();
    }
    let before = hub.responder.mode();
    let settled = hub.responder.set_mode(request.mode);
    // Who changed what every later call is routed by, as for the decisions themselves.
    hub.note(&json!({
        "time": crate::core::audit::now_rfc3339(),
        "web": "mode",
        "device": name,
        "from": from.to_string(),
        "mode": request.mode.name(),
        "was": before.name(),
        "settled": settled,
    }));
    Json(json!({ "mode": request.mode.name(), "settled": settled })).into_response()
}
