//! `gatehouse acp -- AGENT ARGS...`: approve any agent an editor runs over the Agent Client
//! Protocol (Zed, JetBrains, Neovim, Emacs with Gemini CLI, Qwen Code, Copilot CLI, OpenCode,
//! Goose...). gatehouse runs the agent as its child and stands between it and the editor,
//! forwarding all traffic both ways as it came ([`proxy`]), except the agent's
//! `session/request_permission`, which it answers as the console would ([`gate`]):
//!
//! - proven read-only, or allowed by the console → the agent's allow-once option;
//! - a rule, a denied command or the human denies → its reject-once option (`cancelled` when
//!   it offers none: a deny never becomes the editor's question);
//! - a human is needed → a dialog in the console or on the web page, then as they answer;
//! - defer, or no console → the request goes to the editor unchanged, its own prompt;
//!   without a console static analysis still allows what it proves read-only and rejects
//!   what it denies, as the hook does.
//!
//! An option the agent did not offer is never chosen: an allow with no allow-once option goes
//! to the editor. ACP carries no deny reason and no note to the model ([`permission::CAPS`]),
//! so the console offers no note and says a reason is for the log only. The console exiting or
//! crashing mid-request is the hook's lost console: a deny where static analysis denies, else
//! the editor's prompt, never an allow.
//!
//! The ACP side is the official `agent-client-protocol` crate (protocol v1 types, its
//! JSON-RPC connections and process transport); [`permission`] maps one request to a
//! gatehouse call and a decision back to the reply, [`agent`] names the agent from its command.

pub mod agent;
pub mod gate;
pub mod permission;
pub mod proxy;
pub mod sessions;

use std::sync::Arc;

use crate::agents::hook::HookSetup;
use gate::Gate;
use sessions::Sessions;

/// Why the proxy stopped other than by either side closing.
#[derive(Debug, thiserror::Error)]
pub enum AcpError {
    #[error(
        "no agent command: run `gatehouse acp -- AGENT ARGS...`, e.g. `gatehouse acp -- gemini --experimental-acp`"
    )]
    NoCommand,
    #[error(
        "cannot run the agent `{program}`: {why}; give its command after `--` as you would run \
         it, e.g. `gatehouse acp -- gemini --experimental-acp`"
    )]
    NoProgram { program: String, why: String },
    #[error("the ACP connection to `{program}` failed: {why}")]
    Connection { program: String, why: String },
}

/// Runs `command` as an ACP agent behind gatehouse, serving the editor on stdin and stdout,
/// and asking the console at `setup.socket`. Returns when the editor or the agent closes.
pub async fn run(command: &[String], setup: HookSetup) -> Result<(), AcpError> {
    let program = command.first().ok_or(AcpError::NoCommand)?.clone();
    runnable(&program).map_err(|why| AcpError::NoProgram {
        program: program.clone(),
        why,
    })?;
    let gate = Gate {
        agent: agent::agent_of(command),
        setup: Arc::new(setup),
        sessions: Sessions::default(),
        cwd: std::env::current_dir()
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or_else(|_| "/".into()),
    };
    proxy::run(command, gate)
        .await
        .map_err(|e| AcpError::Connection {
            program,
            why: e.to_string(),
        })
}

/// Whether `program` names a file that can be run: a path as it is, a bare name on `PATH`.
/// Checked before the editor is served, so a wrong command is said plainly.
fn runnable(program: &str) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |path: &std::path::Path| {
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        return match std::path::Path::new(program).metadata() {
            Err(e) => Err(e.to_string()),
            Ok(_) if executable(std::path::Path::new(program)) => Ok(()),
            Ok(_) => Err("it is not an executable file".into()),
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    if std::env::split_paths(&path).any(|dir| executable(&dir.join(program))) {
        Ok(())
    } else {
        Err("no such program on PATH".into())
    }
}
