//! The proxy itself: two ACP connections, one to the editor over gatehouse's own stdin and
//! stdout (gatehouse is its agent) and one to the agent it runs as a child (gatehouse is its
//! client). Every message is forwarded to the other side as it came, through the crate's own
//! forwarding (its method, params and ids kept; responses routed back to the asker), except a
//! permission request from the agent, which [`Gate`] answers or hands to the editor.
//!
//! Either side closing ends both: the editor closing its end stops the agent (its stdin is
//! closed, then it is stopped), and the agent exiting ends the proxy.

use std::io::Write;

use agent_client_protocol::{
    AcpAgent, AcpAgentConfig, Agent, Builder, Client, ConnectionTo, Dispatch, Error, LineDirection,
    Stdio, UntypedMessage,
};
use serde_json::Value;
use tokio::sync::watch;

use super::gate::Gate;
use super::permission;
use super::sessions::Sessions;

/// The editor's notification that cancels a session's turn.
const CANCEL: &str = "session/cancel";

/// Runs `command` as the agent and serves the editor on stdin and stdout until either ends.
pub async fn run(command: &[String], gate: Gate) -> Result<(), Error> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| Error::invalid_params().data("no agent command to run"))?;
    // The agent's stderr is the editor's log of it: passed on as it comes.
    let agent = AcpAgent::new(AcpAgentConfig::new(program).args(args)).with_debug(
        |line: &str, direction: LineDirection| {
            if direction == LineDirection::Stderr {
                let _ = writeln!(std::io::stderr().lock(), "{line}");
            }
        },
    );
    let (child_tx, child_rx) = watch::channel::<Option<ConnectionTo<Agent>>>(None);
    let sessions = gate.sessions.clone();
    Builder::new(Agent)
        .on_receive_dispatch(
            async move |message: Dispatch, _editor: ConnectionTo<Client>| {
                let child = connected(&child_rx).await?;
                to_agent(&child, message, &sessions)
            },
            agent_client_protocol::on_receive_dispatch!(),
        )
        .connect_with(Stdio::new(), async move |editor: ConnectionTo<Client>| {
            let to_editor = editor.clone();
            Builder::new(Client)
                .on_receive_dispatch(
                    async move |message: Dispatch, child: ConnectionTo<Agent>| {
                        from_agent(&to_editor, &child, message, &gate)
                    },
                    agent_client_protocol::on_receive_dispatch!(),
                )
                .connect_with(agent, async move |child: ConnectionTo<Agent>| {
                    let _ = child_tx.send(Some(child.clone()));
                    // Whichever side closes first ends the proxy; dropping the other wait
                    // cancels nothing but the wait.
                    tokio::select! {
                        _ = editor.incoming_closed() => {}
                        _ = child.incoming_closed() => {}
                    }
                    Ok(())
                })
                .await
        })
        .await
}

/// The connection to the agent, once it is up. Messages from the editor wait for it (only
/// those that arrive while the agent starts).
async fn connected(
    child: &watch::Receiver<Option<ConnectionTo<Agent>>>,
) -> Result<ConnectionTo<Agent>, Error> {
    let mut child = child.clone();
    let up = child
        .wait_for(Option::is_some)
        .await
        .map_err(|_| Error::internal_error().data("the agent's connection never came up"))?;
    Ok(up.clone().expect("waited for it"))
}

/// A message from the editor, on to the agent. A session's folder is remembered on the way
/// (from `session/new`'s answer, or a request that names both a session and a folder), and a
/// `session/cancel` first answers the session's questions still open at the console.
fn to_agent(
    child: &ConnectionTo<Agent>,
    message: Dispatch,
    sessions: &Sessions,
) -> Result<(), Error> {
    let (request, responder) = match message {
        Dispatch::Request(request, responder) => (request, responder),
        Dispatch::Notification(note) if note.method() == CANCEL => {
            if let Some(session) = note.params().get("sessionId").and_then(Value::as_str) {
                sessions.cancel(session);
            }
            return child.send_proxied_message(Dispatch::<UntypedMessage, _>::Notification(note));
        }
        other => return child.send_proxied_message(other),
    };
    let cwd = request
        .params()
        .get("cwd")
        .and_then(Value::as_str)
        .map(str::to_string);
    let session = request.params().get("sessionId").and_then(Value::as_str);
    if let (Some(cwd), Some(session)) = (&cwd, session) {
        sessions.remember(session, cwd);
    }
    match cwd {
        Some(cwd) if request.method() == "session/new" => {
            let sessions = sessions.clone();
            child.send_request(request).on_receiving_result(
                async move |result: Result<Value, Error>| {
                    if let Ok(answer) = &result
                        && let Some(session) = answer.get("sessionId").and_then(Value::as_str)
                    {
                        sessions.remember(session, &cwd);
                    }
                    responder.respond_with_result(result)
                },
            )
        }
        _ => child.send_proxied_message(Dispatch::<_, UntypedMessage>::Request(request, responder)),
    }
}

/// A message from the agent, on to the editor; a permission request is answered here (off
/// the dispatch loop, since the console may ask a human) or handed on.
fn from_agent(
    editor: &ConnectionTo<Client>,
    child: &ConnectionTo<Agent>,
    message: Dispatch,
    gate: &Gate,
) -> Result<(), Error> {
    match message {
        Dispatch::Request(request, responder) if request.method() == permission::METHOD => {
            let (editor, gate) = (editor.clone(), gate.clone());
            child.spawn(async move {
                let answered = gate.answer(request.params()).await;
                let mut err = std::io::stderr().lock();
                for note in &answered.notes {
                    let _ = writeln!(err, "{note}");
                }
                drop(err);
                match answered.reply.response() {
                    Some(response) => responder.respond_with_result(
                        serde_json::to_value(response).map_err(Error::into_internal_error),
                    ),
                    None => editor.send_proxied_message(Dispatch::<_, UntypedMessage>::Request(
                        request, responder,
                    )),
                }
            })
        }
        other => editor.send_proxied_message(other),
    }
}
