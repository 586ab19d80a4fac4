//! The config's `[[opencode]]` tables: the servers the console attaches to when it starts, and
//! how the user and password for each are found. A password never sits in the file: it is read
//! from the environment variable `password_env` names (by default `OPENCODE_SERVER_PASSWORD`,
//! the variable `opencode serve` itself reads), when the console attaches.

use serde::Deserialize;
use toml::Spanned;

use super::client::{Auth, Server};

/// The variable `opencode serve` reads its password from.
pub const PASSWORD_ENV: &str = "OPENCODE_SERVER_PASSWORD";
/// The variable `opencode serve` reads its user name from (default `opencode`).
pub const USERNAME_ENV: &str = "OPENCODE_SERVER_USERNAME";

/// One `[[opencode]]` table.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    /// `http://127.0.0.1:4096`.
    pub url: Spanned<String>,
    /// The user name; default `$OPENCODE_SERVER_USERNAME`, else `opencode`.
    #[serde(default)]
    pub username: Option<String>,
    /// The environment variable holding the password; default `OPENCODE_SERVER_PASSWORD`.
    #[serde(default)]
    pub password_env: Option<String>,
}

impl ServerConfig {
    /// Why the url cannot be used, if it cannot.
    pub fn check(&self) -> Result<(), String> {
        check_url(self.url.get_ref())
    }

    /// The server with its credentials looked up in `env` (the process environment in use).
    pub fn server(&self, env: impl Fn(&str) -> Option<String>) -> Server {
        server(
            self.url.get_ref(),
            self.username.clone(),
            self.password_env.as_deref(),
            env,
        )
    }
}

/// A server at `url`: the password from the variable `password_env` (else
/// `OPENCODE_SERVER_PASSWORD`), the user `username` (else `OPENCODE_SERVER_USERNAME`, else
/// `opencode`). No password found means no credentials are sent.
pub fn server(
    url: &str,
    username: Option<String>,
    password_env: Option<&str>,
    env: impl Fn(&str) -> Option<String>,
) -> Server {
    let password = env(password_env.unwrap_or(PASSWORD_ENV)).filter(|p| !p.is_empty());
    let auth = password.map(|password| Auth {
        username: username
            .or_else(|| env(USERNAME_ENV).filter(|u| !u.is_empty()))
            .unwrap_or_else(|| "opencode".into()),
        password,
    });
    Server {
        url: url.trim_end_matches('/').to_string(),
        auth,
    }
}

/// Checks that `url` is an `http://` or `https://` address with a host.
pub fn check_url(url: &str) -> Result<(), String> {
    match reqwest::Url::parse(url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") && parsed.has_host() => Ok(()),
        _ => Err(format!(
            "{url:?} is not the address of an OpenCode server; write it as `opencode serve` \
             prints it, e.g. \"http://127.0.0.1:4096\""
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |key| {
            pairs
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn the_password_comes_from_the_named_variable_and_the_user_defaults_to_opencode() {
        let server = server(
            "http://127.0.0.1:4096/",
            None,
            Some("MY_PW"),
            env(&[("MY_PW", "s3cret"), (PASSWORD_ENV, "other")]),
        );
        assert_eq!(server.url, "http://127.0.0.1:4096");
        let auth = server.auth.unwrap();
        assert_eq!(
            (auth.username.as_str(), auth.password.as_str()),
            ("opencode", "s3cret")
        );
    }

    #[test]
    fn without_a_password_no_credentials_are_sent() {
        let server = server("http://h:1", Some("alice".into()), None, env(&[]));
        assert_eq!(server.auth, None);
        let server = server_with_default_env();
        assert_eq!(server.auth.unwrap().username, "bob");
    }

    fn server_with_default_env() -> Server {
        server(
            "http://h:1",
            None,
            None,
            env(&[(PASSWORD_ENV, "pw"), (USERNAME_ENV, "bob")]),
        )
    }

    #[test]
    fn a_servers_password_is_never_printed() {
        let text = format!("{:?}", server_with_default_env());
        assert!(text.contains("bob") && !text.contains("pw\""), "{text}");
    }

    #[test]
    fn only_http_addresses_are_servers() {
        assert!(check_url("http://127.0.0.1:4096").is_ok());
        assert!(check_url("https://box.example").is_ok());
        for bad in ["127.0.0.1:4096", "ftp://x", "file:///tmp/x", ""] {
            assert!(check_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_table_with_a_password_in_it_is_refused() {
        let text = "url = \"http://h:1\"\npassword = \"s3cret\"\n";
        assert!(toml::from_str::<ServerConfig>(text).is_err());
    }
}
