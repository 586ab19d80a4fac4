//! Which `Host` headers the web console answers to: an IP address or a name it knows
//! (`localhost`, the machine's name, the configured url's host), with its own port. A page
//! loaded from a name an attacker's DNS points here (DNS rebinding) names that name, and is
//! refused.

use std::net::{IpAddr, SocketAddr};

/// The `Host` headers this console answers to.
#[derive(Debug, Clone)]
pub struct Hosts {
    port: u16,
    names: Vec<String>,
}

impl Hosts {
    pub fn new(addr: SocketAddr, url: Option<&str>) -> Hosts {
        let mut names = vec!["localhost".to_string()];
        if let Some(name) = machine_name() {
            names.push(name.to_lowercase());
        }
        if let Some(url) = url
            && let Some(host) = url_host(url)
        {
            names.push(host);
        }
        Hosts {
            port: addr.port(),
            names,
        }
    }

    /// Whether a request with this `Host` header is meant for this console: an IP address or
    /// a known name, with this console's port. A name an attacker's DNS points here is not.
    pub fn allows(&self, host: &str) -> bool {
        let host = host.to_lowercase();
        let (name, port) = if let Some(rest) = host.strip_prefix('[') {
            let Some((inside, after)) = rest.split_once(']') else {
                return false;
            };
            match after {
                "" => (inside, None),
                _ => match after.strip_prefix(':') {
                    Some(port) => (inside, Some(port)),
                    None => return false,
                },
            }
        } else {
            match host.split(':').collect::<Vec<_>>()[..] {
                [name] => (name, None),
                [name, port] => (name, Some(port)),
                _ => return false,
            }
        };
        if port.is_some_and(|p| p.parse() != Ok(self.port)) {
            return false;
        }
        !name.is_empty() && (name.parse::<IpAddr>().is_ok() || self.names.iter().any(|n| n == name))
    }
}

/// The host of `url` (`https://box.example:7870/x` gives `box.example`), lowercased.
fn url_host(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split('/').next()?;
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host,
        _ => authority,
    };
    (!host.is_empty()).then(|| host.to_lowercase())
}

fn machine_name() -> Option<String> {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at most that much.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return None;
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    let name = String::from_utf8_lossy(&buf[..end]).into_owned();
    (!name.is_empty()).then_some(name)
}

/// The host part of a link to `addr`: the machine's name for an unspecified address (0.0.0.0,
/// ::), the address itself otherwise.
pub fn link_host(addr: SocketAddr) -> String {
    if addr.ip().is_unspecified() {
        let name = machine_name().unwrap_or_else(|| "localhost".into());
        return format!("{name}:{}", addr.port());
    }
    addr.to_string()
}

#[cfg(test)]
#[path = "hosts_tests.rs"]
mod tests;
