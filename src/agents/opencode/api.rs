//! Which of OpenCode's two permission APIs a server speaks, found anew on every connection,
//! and the HTTP calls of the V2 one.
//!
//! A 1.x server answers `GET /permission` with a JSON list; 2.x servers answer it with their
//! web app's HTML (measured on 2.1.2 and 2.1.3 by others) and serve `/api/...` instead, which
//! `GET /api/health` (`{"healthy":true}`) shows. 1.18.33 serves both, but its sessions still ask
//! through the 1.x routes, so the 1.x list is tried first and wins wherever it answers. A
//! server that serves neither is an error that names both routes, never a guess.
//!
//! V2: the events come from `GET /api/event`, the pending requests from
//! `GET /api/permission/request` (the server's own location), and a reply goes to
//! `POST /api/session/<session>/permission/<request>/reply` (`204`; `404` once the request is
//! gone). Both ids of that address are checked before any request is made.

use std::fmt;

use serde_json::Value;

use super::call::Reply;
use super::client::{
    Client, ClientError, REQUEST_TIMEOUT, Sent, check, is_permission_id, json_body, unreachable,
};
use super::event::Permission;
use super::v2::Listing;

/// The permission API a server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// `opencode serve` 1.x: `/global/event`, `GET /permission`, `POST /permission/<id>/reply`.
    V1,
    /// OpenCode 2.x: `/api/event`, `GET /api/permission/request`,
    /// `POST /api/session/<session>/permission/<id>/reply`.
    V2,
}

impl fmt::Display for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Api::V1 => "1.x API",
            Api::V2 => "2.x API (/api)",
        })
    }
}

impl Client {
    /// Finds which API the server speaks: 1.x if `GET /permission` answers a JSON list, else
    /// 2.x if `GET /api/health` says it is healthy. A refused password is said as such.
    pub async fn detect(&self) -> Result<Api, ClientError> {
        let v1 = match self.pending(None).await {
            Ok(_) => return Ok(Api::V1),
            Err(ClientError::Unauthorized) => return Err(ClientError::Unauthorized),
            Err(err @ ClientError::Unreachable(_)) => return Err(err),
            Err(err) => err,
        };
        let request = self
            .get(self.url("/api/health", None))
            .timeout(REQUEST_TIMEOUT);
        let v2 = match request.send().await {
            Ok(response) => match check("GET /api/health", response).await {
                Ok(response) => json_body::<Value>("GET /api/health", response)
                    .await
                    .and_then(|health| match health.get("healthy") {
                        Some(Value::Bool(true)) => Ok(()),
                        _ => Err(ClientError::BadBody {
                            what: "GET /api/health",
                            why: format!("it does not say healthy: {health}"),
                        }),
                    }),
                Err(err) => Err(err),
            },
            Err(err) => Err(unreachable(err)),
        };
        match v2 {
            Ok(()) => Ok(Api::V2),
            Err(ClientError::Unauthorized) => Err(ClientError::Unauthorized),
            Err(v2) => Err(ClientError::BadBody {
                what: "the server",
                why: format!(
                    "it speaks neither OpenCode API: GET /permission (1.x): {v1}; \
                     GET /api/health (2.x): {v2}; check that the address is an `opencode serve`"
                ),
            }),
        }
    }

    /// Opens `/api/event`: the V2 events of every location.
    pub async fn subscribe_v2(&self) -> Result<reqwest::Response, ClientError> {
        let request = self
            .get(self.url("/api/event", None))
            .header("accept", "text/event-stream");
        let response = request.send().await.map_err(unreachable)?;
        check("the event stream (/api/event)", response).await
    }

    /// The requests pending in the server's own location, and that location's folder.
    pub async fn pending_v2(&self) -> Result<(String, Vec<Permission>), ClientError> {
        let what = "GET /api/permission/request";
        let request = self
            .get(self.url("/api/permission/request", None))
            .timeout(REQUEST_TIMEOUT);
        let response = request.send().await.map_err(unreachable)?;
        let listing: Listing = json_body(what, check(what, response).await?).await?;
        let pending = listing.data.into_iter().map(Permission::from).collect();
        Ok((listing.location.directory, pending))
    }

    /// Sends `reply` to request `id` of session `session`.
    pub async fn reply_v2(
        &self,
        session: &str,
        id: &str,
        reply: &Reply,
    ) -> Result<Sent, ClientError> {
        for (what, value) in [("session", session), ("permission request", id)] {
            if !is_permission_id(value) {
                return Err(ClientError::BadBody {
                    what: "a permission request",
                    why: format!("{value:?} is not a {what} id OpenCode makes"),
                });
            }
        }
        let path = format!("/api/session/{session}/permission/{id}/reply");
        self.post_reply(self.url(&path, None), reply).await
    }
}

#[cfg(test)]
#[path = "api_tests.rs"]
mod tests;
