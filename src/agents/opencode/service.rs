//! Finding OpenCode 2.x's background service: it runs one per user and writes where it listens
//! and its password to `$XDG_STATE_HOME/opencode/service.json` (else
//! `~/.local/state/opencode/service.json`) as `{"id","version","url","pid","password"}`,
//! signing in as `opencode` with HTTP Basic auth. That shape is from other projects' published
//! clients of 2.0.x; no 2.x could be run here (the cached client is 1.18.33, which writes no
//! such file).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::client::{Auth, Server};
use super::settings::check_url;

/// What `service.json` says; other fields are ignored.
#[derive(Deserialize)]
struct Registration {
    url: String,
    #[serde(default)]
    password: Option<String>,
}

/// Why no service could be found, said so a person can act on it.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("no XDG_STATE_HOME or HOME to find OpenCode's service.json under; give the URL")]
    NoHome,
    #[error(
        "no OpenCode 2.x service is registered ({0}: {1}); start OpenCode, or give the URL \
         `opencode serve` prints"
    )]
    Unreadable(PathBuf, std::io::Error),
    #[error("{0} is not OpenCode's service registration ({1}); give the URL instead")]
    Malformed(PathBuf, String),
}

/// Where the service registers itself, from the environment `env` gives.
pub fn registration_path(env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let state = env("XDG_STATE_HOME")
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            env("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| Path::new(&h).join(".local/state"))
        })?;
    Some(state.join("opencode/service.json"))
}

/// The registered service, with its password as Basic auth for `opencode`.
pub fn discover(env: impl Fn(&str) -> Option<String>) -> Result<Server, ServiceError> {
    let path = registration_path(env).ok_or(ServiceError::NoHome)?;
    read(&path)
}

/// The service `path` registers.
pub fn read(path: &Path) -> Result<Server, ServiceError> {
    let text = std::fs::read(path).map_err(|e| ServiceError::Unreadable(path.into(), e))?;
    let malformed = |why: String| ServiceError::Malformed(path.into(), why);
    let registration: Registration =
        serde_json::from_slice(&text).map_err(|e| malformed(e.to_string()))?;
    check_url(&registration.url).map_err(malformed)?;
    let auth = registration
        .password
        .filter(|p| !p.is_empty())
        .map(|password| Auth {
            username: "opencode".into(),
            password,
        });
    Ok(Server {
        url: registration.url.trim_end_matches('/').to_string(),
        auth,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("opencode/service.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn the_registration_gives_the_url_and_the_password_as_basic_auth() {
        let (dir, _) = write(
            r#"{"id":"svc_1","version":"2.0.12","url":"http://127.0.0.1:49374/","pid":4242,
                "password":"hunter2"}"#,
        );
        let state = dir.path().to_string_lossy().to_string();
        let server = discover(|key| (key == "XDG_STATE_HOME").then(|| state.clone())).unwrap();
        assert_eq!(server.url, "http://127.0.0.1:49374");
        let auth = server.auth.unwrap();
        assert_eq!(
            (auth.username.as_str(), auth.password.as_str()),
            ("opencode", "hunter2")
        );
    }

    #[test]
    fn the_path_falls_back_to_home_and_a_missing_file_says_what_to_do() {
        let path = registration_path(|key| (key == "HOME").then(|| "/home/dev".into()));
        assert_eq!(
            path.unwrap(),
            Path::new("/home/dev/.local/state/opencode/service.json")
        );
        assert!(matches!(discover(|_| None), Err(ServiceError::NoHome)));
        let err = discover(|key| (key == "XDG_STATE_HOME").then(|| "/nonexistent-gh".into()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("give the URL"), "{err}");
    }

    #[test]
    fn a_file_that_is_not_a_registration_is_refused_not_guessed() {
        for text in ["{}", "not json", r#"{"url":"file:///etc/passwd"}"#] {
            let (_dir, path) = write(text);
            assert!(
                matches!(read(&path), Err(ServiceError::Malformed(..))),
                "{text}"
            );
        }
    }
}
