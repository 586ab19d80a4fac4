//! The web console's commands: `--web [ADDR]` over the config's `[web]`, `gatehouse pair`
//! (a one-time link from the running console, printed last) and `gatehouse devices` (the
//! paired devices, listed and revoked in the state folder, console running or not).

use std::io::IsTerminal;
use std::path::Path;

use anyhow::{Context, Result};

use gatehouse::web::{self, Settings};
use gatehouse::wire::Request;
use gatehouse::wire::control;
use gatehouse::wire::socket::socket_path;

/// The web console's settings: the config's `[web]`, with `--web`'s address over its `listen`.
/// `flag` is `None` without `--web`, `Some("")` for a bare `--web`.
pub fn settings(config: Option<Settings>, flag: Option<String>) -> Result<Option<Settings>> {
    let Some(flag) = flag else {
        return Ok(config);
    };
    let mut settings = config.unwrap_or_default();
    if !flag.is_empty() {
        settings.listen = flag.parse().with_context(|| {
            format!("--web {flag:?} is not an address and port; write one such as 127.0.0.1:7870")
        })?;
    }
    Ok(Some(settings))
}

/// `gatehouse pair`: asks the running console for a pairing link; draws it as a QR code on a
/// terminal, and prints the link as the last line.
pub fn pair(socket: Option<&Path>) -> Result<()> {
    let socket = socket_path(socket);
    let (_, link) = control::send(&socket, &Request::Pair).map_err(anyhow::Error::msg)?;
    let link = link.context("the console answered a pair request without a link")?;
    if std::io::stdout().is_terminal()
        && let Some(lines) = web::qr::lines(&link.link)
    {
        for line in lines {
            println!("{line}");
        }
    }
    println!(
        "Open this link on the device to pair it (once, within {} s):",
        link.expires_secs
    );
    if let Some(fingerprint) = &link.fingerprint {
        println!("The page's certificate is self-signed; its SHA-256 fingerprint is {fingerprint}");
    }
    println!("{}", link.link);
    Ok(())
}

/// `gatehouse devices [revoke NAME]`.
pub fn devices(revoke: Option<String>) -> Result<()> {
    let devices = web::devices_in(&gatehouse::plumbing::paths::state_dir());
    if let Some(name) = revoke {
        if devices.revoke(&name)? {
            println!("{name} is unpaired: its next request is refused");
            return Ok(());
        }
        anyhow::bail!("no paired device is named {name:?}; `gatehouse devices` lists them");
    }
    let list = devices.list()?;
    if list.is_empty() {
        println!("no paired devices (pair one with `gatehouse pair`)");
    }
    for device in list {
        println!("{}\tpaired {}", device.name, device.paired);
    }
    Ok(())
}
