//! The hosts a network command only reaches: a command the analyser holds for reaching the
//! network whose every word is known before the line runs, that sends nothing of the machine's
//! (no data, form, upload or file read into the request), writes nothing (no output file,
//! cookie jar or header dump), runs nothing, and goes to no host but those its URLs name (no
//! redirect following, proxy, resolve override or URL glob). Rules can allow or deny such a
//! command by host (`network = "api.github.com"`); anything else about the network stays asked.
//!
//! Known: `curl` (from its manual: options take their value as the next word or, short ones,
//! the rest of the cluster; `--name=value` is not curl's syntax and is refused). The user's own
//! `~/.curlrc` is trusted as the rest of their setup is.

use super::{Command, Obstacle, Risk};

/// The hosts `command` only reaches, lower-cased, in order; `None` when it may reach others,
/// send or write something, or is not a network command the analyser knows this well.
pub fn hosts(command: &Command) -> Option<Vec<String>> {
    if command.obstacle != Obstacle::Known(Risk::Network) || !command.is_static {
        return None;
    }
    let (program, args) = command.words.split_first()?;
    match program.rsplit('/').next()? {
        "curl" if is_program_path(program) => curl(args),
        _ => None,
    }
}

fn is_program_path(word: &str) -> bool {
    !word.contains('/') || word.starts_with("/usr/bin/") || word.starts_with("/bin/")
}

/// curl's options that take no value and change neither where it goes nor what it sends or
/// writes.
#[rustfmt::skip]
const CURL_FLAGS: &[&str] = &[
    "--silent", "--show-error", "--fail", "--fail-with-body", "--include", "--head",
    "--verbose", "--insecure", "--compressed", "--globoff", "--no-buffer", "--ipv4", "--ipv6",
    "--http1.0", "--http1.1", "--http2", "--http2-prior-knowledge", "--http3", "--progress-bar",
    "--no-progress-meter", "--disable", "--raw", "--tr-encoding", "--no-keepalive",
    "--no-sessionid", "--tcp-nodelay", "--tlsv1.2", "--tlsv1.3",
    "--ssl-reqd", "--fail-early", "--styled-output", "--no-styled-output", "--trace-time",
    "--path-as-is", "--digest", "--basic", "--anyauth", "--ntlm", "--negotiate",
];
const CURL_SHORT_FLAGS: &str = "sSfiIvkgN46#q";

/// Its options that take a value that changes neither where it goes nor what it sends of the
/// machine's (a header, a time limit, a range, the user's name and password as typed).
#[rustfmt::skip]
const CURL_VALUED: &[&str] = &[
    "--header", "--user-agent", "--referer", "--max-time", "--connect-timeout", "--retry",
    "--retry-delay", "--retry-max-time", "--range", "--user", "--max-filesize",
    "--limit-rate", "--speed-limit", "--speed-time", "--request", "--url", "--oauth2-bearer",
    "--expect100-timeout", "--keepalive-time", "--tls-max", "--ciphers",
];
const CURL_SHORT_VALUED: &str = "HAemrXuYy";

fn curl(args: &[String]) -> Option<Vec<String>> {
    let mut hosts = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let (name, value) = if let Some(long) = word.strip_prefix("--") {
            if long.is_empty() || long.contains('=') {
                return None;
            }
            if CURL_FLAGS.contains(&word.as_str()) {
                continue;
            }
            if !CURL_VALUED.contains(&word.as_str()) {
                return None;
            }
            (word.as_str(), words.next()?.as_str())
        } else if let Some(cluster) = word.strip_prefix('-').filter(|c| !c.is_empty()) {
            match short_cluster(cluster, &mut words)? {
                Some((letter, value)) => (letter, value),
                None => continue,
            }
        } else {
            hosts.push(url_host(word)?);
            continue;
        };
        match name {
            "--request" | "-X" if !matches!(value, "GET" | "HEAD") => return None,
            // `@FILE` sends the file's lines as headers: something of the machine's.
            "--header" | "-H" if value.starts_with('@') => return None,
            "--url" => hosts.push(url_host(value)?),
            _ => {}
        }
    }
    (!hosts.is_empty()).then_some(hosts)
}

/// One cluster of short options (`sSf`, `XGET`, `H`): `Some(None)` when it is all flags,
/// `Some(Some((option, value)))` for a valued option ending it (its value the rest of the
/// cluster or the next word), `None` for a letter that is neither.
fn short_cluster<'a>(
    cluster: &'a str,
    words: &mut std::slice::Iter<'a, String>,
) -> Option<Option<(&'static str, &'a str)>> {
    for (at, letter) in cluster.char_indices() {
        if CURL_SHORT_FLAGS.contains(letter) {
            continue;
        }
        if !CURL_SHORT_VALUED.contains(letter) {
            return None;
        }
        let rest = &cluster[at + letter.len_utf8()..];
        let value = match rest.is_empty() {
            true => words.next()?.as_str(),
            false => rest,
        };
        let option = match letter {
            'X' => "-X",
            'H' => "-H",
            _ => "-",
        };
        return Some(Some((option, value)));
    }
    Some(None)
}

/// The host of a URL operand written plainly: `http` or `https` (or no scheme, as curl
/// guesses), a host name or IPv4 address, an optional port, then a path. Anything that may be
/// read otherwise by curl than by this reading (user info, brackets, braces, backslashes,
/// spaces, other schemes) is refused.
fn url_host(url: &str) -> Option<String> {
    let rest = match url.split_once("://") {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("http") => rest,
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("https") => rest,
        Some(_) => return None,
        None => url,
    };
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => host,
        Some(_) => return None,
        None => authority,
    };
    let plain = |b: u8| b.is_ascii_alphanumeric() || b == b'.' || b == b'-';
    let path_ok = rest
        .bytes()
        .all(|b| b.is_ascii_graphic() && !b"\\{}[]@\"'`<>^|".contains(&b));
    let host_ok = !host.is_empty()
        && host.bytes().all(plain)
        && !host.starts_with(['.', '-'])
        && !host.contains("..");
    (host_ok && path_ok).then(|| host.trim_end_matches('.').to_ascii_lowercase())
}

/// Whether `pattern` names every host `command` only reaches (what an allow needs); `false`
/// for a command with no known hosts.
pub fn names_every(pattern: &str, command: &Command) -> bool {
    hosts(command).is_some_and(|hosts| hosts.iter().all(|h| host_covers(pattern, h)))
}

/// Whether `pattern` names any host `command` only reaches (what a deny or ask needs).
pub fn names_any(pattern: &str, command: &Command) -> bool {
    hosts(command).is_some_and(|hosts| hosts.iter().any(|h| host_covers(pattern, h)))
}

/// Whether a rule's host pattern names `host`: the host itself, or with a leading `*.` any
/// host under that domain (not the domain itself).
pub fn host_covers(pattern: &str, host: &str) -> bool {
    match pattern.strip_prefix("*.") {
        Some(domain) => host
            .strip_suffix(domain)
            .is_some_and(|head| head.len() > 1 && head.ends_with('.')),
        None => pattern == host,
    }
}

/// Why a rule's host pattern is not one: `None` for a host name (`api.github.com`) or a domain
/// under a leading `*.` (`*.github.com`).
pub fn host_pattern_error(pattern: &str) -> Option<String> {
    let name = pattern.strip_prefix("*.").unwrap_or(pattern);
    let plain = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-';
    let ok = !name.is_empty()
        && name.bytes().all(plain)
        && !name.starts_with(['.', '-'])
        && !name.ends_with('.')
        && !name.contains("..");
    (!ok).then(|| {
        format!(
            "{pattern:?} is not a host: write a host in lower case (api.github.com), or `*.` and \
             a domain for every host under it (*.github.com); a glob goes only on the left"
        )
    })
}

#[cfg(test)]
#[path = "reach_tests.rs"]
mod tests;
