//! `gatehouse attach opencode [URL]` and `gatehouse detach opencode URL`: ask the running console
//! (or `serve`) over its socket to attach to an OpenCode server, or to let go of it. The
//! password is read here, from the environment, and travels only over the console's private
//! socket.

use std::path::Path;

use anyhow::Result;

use gatehouse::agents::opencode::attachments::AGENT;
use gatehouse::agents::opencode::{service, settings};
use gatehouse::wire::Request;
use gatehouse::wire::control::{self, Target};
use gatehouse::wire::socket::socket_path;

/// Asks the console on `socket` to attach to the OpenCode server at `url`, or without one to
/// the OpenCode 2.x service its `service.json` registers (with that file's password).
pub fn attach(
    socket: Option<&Path>,
    url: Option<&str>,
    username: Option<String>,
    password_env: Option<&str>,
) -> Result<()> {
    let env = |key: &str| std::env::var(key).ok();
    let server = match url {
        Some(url) => {
            settings::check_url(url).map_err(anyhow::Error::msg)?;
            settings::server(url, username, password_env, env)
        }
        None => service::discover(env)?,
    };
    let (username, password) = match server.auth {
        Some(auth) => (Some(auth.username), Some(auth.password)),
        None => (None, None),
    };
    let target = Target {
        agent: AGENT.into(),
        url: server.url,
        username,
        password,
    };
    say(socket, &Request::Attach(target))
}

/// Asks the console on `socket` to let go of the OpenCode server at `url`.
pub fn detach(socket: Option<&Path>, url: &str) -> Result<()> {
    let target = Target {
        agent: AGENT.into(),
        url: url.trim_end_matches('/').to_string(),
        username: None,
        password: None,
    };
    say(socket, &Request::Detach(target))
}

fn say(socket: Option<&Path>, request: &Request) -> Result<()> {
    let socket = socket_path(socket);
    let (text, _) = control::send(&socket, request).map_err(anyhow::Error::msg)?;
    println!("{}", gatehouse::core::escape::visible(&text));
    Ok(())
}
