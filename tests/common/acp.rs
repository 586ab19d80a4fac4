//! A scripted ACP editor, built on the client side of the same `agent-client-protocol` crate
//! the proxy uses: it runs a command (`gatehouse acp -- AGENT...`) as its agent, initializes,
//! opens one session and sends prompts, answering any permission request it is asked itself
//! with a fixed option, and records what it saw.

use std::path::Path;
use std::sync::{Arc, Mutex};

use agent_client_protocol::schema::ProtocolVersion;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    CancelNotification, ContentBlock, InitializeRequest, NewSessionRequest, PromptRequest,
    RequestPermissionOutcome, RequestPermissionRequest, RequestPermissionResponse,
    SelectedPermissionOutcome, SessionNotification, TextContent,
};
use agent_client_protocol::{AcpAgent, AcpAgentConfig, Agent, Client};
use serde_json::Value;

/// What the editor does with a permission request that reaches it.
#[derive(Clone)]
pub enum EditorAnswer {
    /// Chooses the option with this id.
    Choose(String),
    /// Answers `cancelled`.
    Cancel,
}

/// What one prompt turn showed the editor.
#[derive(Debug, Default, Clone)]
pub struct Turn {
    /// The agent's message text of the turn.
    pub text: String,
    /// The tool calls of the permission requests that reached the editor.
    pub asked: Vec<Value>,
    /// Every session update of the turn, as JSON (tool calls and their updates included).
    pub updates: Vec<Value>,
    /// The turn's stop reason, or the error it ended with.
    pub end: String,
}

impl Turn {
    /// Whether a tool call of the turn was reported completed.
    pub fn completed_a_tool(&self) -> bool {
        self.updates.iter().any(|u| u["status"] == "completed")
    }
}

#[derive(Default)]
struct Seen {
    text: String,
    asked: Vec<Value>,
    updates: Vec<Value>,
}

/// Runs `program args` with `envs` as the editor's agent in `cwd` and sends each prompt in
/// one session, sending `session/cancel` for it when `cancel` fires; returns a turn per prompt.
pub fn run(
    program: &str,
    args: &[String],
    envs: &[(String, String)],
    cwd: &Path,
    prompts: &[String],
    answer: EditorAnswer,
    cancel: Option<tokio::sync::oneshot::Receiver<()>>,
) -> Vec<Turn> {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let mut config = AcpAgentConfig::new(program).args(args);
    for (key, value) in envs {
        config = config.env(key, value);
    }
    let agent = AcpAgent::new(config);
    let cwd = cwd.to_path_buf();
    let prompts = prompts.to_vec();
    let (on_text, on_ask) = (seen.clone(), seen.clone());
    runtime
        .block_on(
            Client
                .v1()
                .on_receive_notification(
                    async move |note: SessionNotification, _cx| {
                        let update = serde_json::to_value(&note.update).unwrap();
                        let mut seen = on_text.lock().unwrap();
                        if update["sessionUpdate"] == "agent_message_chunk"
                            && let Some(text) = update["content"]["text"].as_str()
                        {
                            seen.text.push_str(text);
                        }
                        seen.updates.push(update);
                        Ok(())
                    },
                    agent_client_protocol::on_receive_notification!(),
                )
                .on_receive_request(
                    async move |request: RequestPermissionRequest, responder, _cx| {
                        let call = serde_json::to_value(&request.tool_call).unwrap();
                        on_ask.lock().unwrap().asked.push(call);
                        let outcome = match &answer {
                            EditorAnswer::Choose(id) => RequestPermissionOutcome::Selected(
                                SelectedPermissionOutcome::new(id.clone()),
                            ),
                            EditorAnswer::Cancel => RequestPermissionOutcome::Cancelled,
                        };
                        responder.respond(RequestPermissionResponse::new(outcome))
                    },
                    agent_client_protocol::on_receive_request!(),
                )
                .connect_with(agent, async move |cx: ConnectionTo<Agent>| {
                    cx.send_request(InitializeRequest::new(ProtocolVersion::V1))
                        .block_task()
                        .await?;
                    let session = cx
                        .send_request(NewSessionRequest::new(cwd))
                        .block_task()
                        .await?
                        .session_id;
                    if let Some(cancel) = cancel {
                        let (cx, session) = (cx.clone(), session.clone());
                        cx.clone().spawn(async move {
                            if cancel.await.is_ok() {
                                cx.send_notification(CancelNotification::new(session))?;
                            }
                            Ok(())
                        })?;
                    }
                    let mut turns = Vec::new();
                    for prompt in prompts {
                        let text = ContentBlock::Text(TextContent::new(prompt));
                        let end = cx
                            .send_request(PromptRequest::new(session.clone(), vec![text]))
                            .block_task()
                            .await
                            .map_or_else(
                                |e| format!("error: {e}"),
                                |r| format!("{:?}", r.stop_reason),
                            );
                        let seen = std::mem::take(&mut *seen.lock().unwrap());
                        turns.push(Turn {
                            text: seen.text,
                            asked: seen.asked,
                            updates: seen.updates,
                            end,
                        });
                    }
                    Ok(turns)
                }),
        )
        .unwrap()
}
