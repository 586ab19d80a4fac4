//! The config file: `$XDG_CONFIG_HOME/gatehouse/config.toml` or `--config`. A raw serde struct
//! that refuses unknown keys, validated into a [`Config`]. A bad file fails loudly with its
//! path, line and a fix; no file at all means the defaults.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use crate::agents::opencode::settings::ServerConfig;
use crate::classifier::settings::{ClassifierConfig, RawClassifiers};
use crate::core::barrier::{Fallback, Settings};
use crate::core::mode::{Mode, ModeCycle};
use crate::core::policy::file::{PolicyError, RawRule, rules_of};
use crate::core::policy::load::{FLOOR_FILE, Policy, PolicyPaths};
use crate::core::policy::read::read_bounded;
use crate::core::rules::{Pattern, Rules};
use crate::plumbing::paths;
use crate::server;

/// How a new dialog gets the human's attention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Notify {
    /// The terminal bell.
    #[default]
    Bell,
    /// A desktop notification by OSC 9 (iTerm2, WezTerm, kitty, Windows Terminal).
    Osc9,
    /// A desktop notification by OSC 777 (rxvt, foot, some VTE terminals).
    Osc777,
    Off,
}

/// The config as written in the file. Every key is documented in `config.example.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    mode: Option<Mode>,
    mode_cycle: Option<Spanned<Vec<Mode>>>,
    ask_timeout_secs: Option<Spanned<u64>>,
    on_timeout: Option<Fallback>,
    on_shutdown: Option<Fallback>,
    safe_commands: Option<Vec<Spanned<String>>>,
    denied_commands: Option<Vec<Spanned<String>>>,
    read_only_tools: Option<Vec<String>>,
    internal_tools: Option<Vec<String>>,
    sensitive_paths: Option<Vec<Spanned<String>>>,
    audit_log: Option<PathBuf>,
    max_pending_mib: Option<Spanned<u64>>,
    notify: Option<Notify>,
    notify_command: Option<Spanned<String>>,
    classifier: Option<RawClassifiers>,
    rule: Option<Vec<Spanned<RawRule>>>,
    suggest_after: Option<Spanned<u32>>,
    web: Option<RawWeb>,
    opencode: Option<Vec<ServerConfig>>,
}

/// The `[web]` table as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWeb {
    listen: Option<Spanned<String>>,
    url: Option<String>,
    allow_plain_http: Option<bool>,
}

/// The validated config.
#[derive(Debug, Clone)]
pub struct Config {
    pub settings: Settings,
    pub cycle: ModeCycle,
    pub audit_log: PathBuf,
    /// The socket server's limits; `max_pending_mib` sets its memory bound.
    pub server: server::Options,
    /// How a new dialog gets the human's attention in the console.
    pub notify: Notify,
    /// A command run (by `sh -c`) whenever a dialog opens, with the call in its environment.
    pub notify_command: Option<String>,
    /// The `[web]` table: the web console's settings, and that it runs (also without `--web`).
    pub web: Option<crate::web::Settings>,
    /// The `[classifier]` table or `[[classifier]]` tables; resolve with `ClassifierSetup::from_env`.
    pub classifier: ClassifierConfig,
    /// The `[[opencode]]` servers the console attaches to when it starts.
    pub opencode: Vec<ServerConfig>,
    /// The file it came from; `None` when no file exists and the defaults serve.
    pub source: Option<PathBuf>,
    /// After this many identical answers the console offers a rule (0: never).
    pub suggest_after: u32,
}

/// A config file that cannot be used, said so that a person can fix it.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {message}\n  fix: {fix}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct ConfigError {
    pub path: PathBuf,
    pub line: Option<usize>,
    pub message: String,
    pub fix: String,
}

/// The documented example config, every key with its default (`gatehouse config example`).
pub const EXAMPLE: &str = include_str!("../config.example.toml");

/// Where a person who installed only the binary finds every key.
const EXAMPLE_FIX: &str = "every key and its allowed values are documented in the example: \
    `gatehouse config example` prints it (config.example.toml in the source)";

/// The environment variable that names another machine-wide floor (for tests and for
/// machines that keep it elsewhere).
pub const FLOOR_ENV: &str = "GATEHOUSE_POLICY";

impl From<PolicyError> for ConfigError {
    fn from(err: PolicyError) -> ConfigError {
        ConfigError {
            path: err.path,
            line: err.line,
            message: err.message,
            fix: err.fix,
        }
    }
}

/// Where the policy's files are for a config file at `source` (the saved rules and the trust
/// list sit beside it), the floor at `$GATEHOUSE_POLICY` or `/etc/gatehouse/policy.toml`.
pub fn policy_paths(source: Option<&Path>) -> PolicyPaths {
    let folder = source
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .or_else(paths::config_dir);
    let named = std::env::var_os(FLOOR_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    PolicyPaths {
        floor_required: named.is_some(),
        floor: Some(named.unwrap_or_else(|| PathBuf::from(FLOOR_FILE))),
        saved: folder.as_ref().map(|f| f.join("rules.toml")),
        trust: folder.as_ref().map(|f| f.join("trusted.toml")),
        home: paths::home(),
    }
}

/// The largest memory bound accepted for open connections, in MiB (just under 4 GiB).
const MAX_PENDING_MIB: u64 = 4095;

/// The longest ask timeout accepted: a day.
const MAX_ASK_TIMEOUT_SECS: u64 = 86_400;

impl Config {
    /// Loads `explicit` (which must exist), or else the default path if a file is there, or
    /// else the defaults.
    pub fn load(explicit: Option<&Path>) -> Result<Config, ConfigError> {
        let path = match explicit {
            Some(path) => path.to_path_buf(),
            None => match paths::config_file() {
                Some(path) if path.exists() => path,
                _ => return Config::from_raw(RawConfig::default(), None, ""),
            },
        };
        let bytes = read_bounded(&path).map_err(|err| ConfigError {
            path: path.clone(),
            line: None,
            message: err.message.replace("the rules file", "the config file"),
            fix: match path.exists() {
                true => err.fix,
                false => "check the path given to --config, or create the file from \
                          `gatehouse config example` (the documented example)"
                    .into(),
            },
        })?;
        let text = String::from_utf8(bytes).map_err(|_| ConfigError {
            path: path.clone(),
            line: None,
            message: "the config file is not UTF-8 text".into(),
            fix: "save it as UTF-8".into(),
        })?;
        Config::parse(&text, &path)
    }

    /// Parses config text; `path` is only used in error messages.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|err| {
            let line = err.span().map(|span| line_of(text, span.start));
            let line_text = line.and_then(|n| text.lines().nth(n - 1)).unwrap_or("");
            ConfigError {
                path: path.to_path_buf(),
                line,
                message: crate::config_words::reword(err.message().trim(), line_text),
                fix: EXAMPLE_FIX.into(),
            }
        })?;
        Config::from_raw(raw, Some(path), text)
    }

    fn from_raw(raw: RawConfig, path: Option<&Path>, text: &str) -> Result<Config, ConfigError> {
        let error = |span: std::ops::Range<usize>, message: String, fix: &str| ConfigError {
            path: path.map(Path::to_path_buf).unwrap_or_default(),
            line: Some(line_of(text, span.start)),
            message,
            fix: fix.to_string(),
        };
        let cycle = match raw.mode_cycle {
            None => ModeCycle::default(),
            Some(spanned) => {
                let span = spanned.span();
                ModeCycle::new(spanned.into_inner()).ok_or_else(|| {
                    error(
                        span,
                        "mode_cycle is empty".into(),
                        "list at least one mode, or remove the key for the default cycle",
                    )
                })?
            }
        };
        let default_timeout = Settings::default().ask_timeout;
        let ask_timeout = match raw.ask_timeout_secs {
            None => default_timeout,
            Some(secs) if (1..=MAX_ASK_TIMEOUT_SECS).contains(secs.get_ref()) => {
                Duration::from_secs(*secs.get_ref())
            }
            Some(secs) => {
                return Err(error(
                    secs.span(),
                    format!("ask_timeout_secs = {} is out of range", secs.get_ref()),
                    &format!(
                        "use a number of seconds from 1 to {MAX_ASK_TIMEOUT_SECS} (the default is {})",
                        default_timeout.as_secs()
                    ),
                ));
            }
        };
        let max_pending_mib = match raw.max_pending_mib {
            None => server::DEFAULT_PENDING_MIB as u64,
            Some(mib) if (1..=MAX_PENDING_MIB).contains(mib.get_ref()) => *mib.get_ref(),
            Some(mib) => {
                return Err(error(
                    mib.span(),
                    format!("max_pending_mib = {} is out of range", mib.get_ref()),
                    "use a number of MiB from 1 to 4095 (the default is 256)",
                ));
            }
        };
        let server = server::Options {
            max_pending_bytes: max_pending_mib as usize * 1024 * 1024,
            ..server::Options::default()
        };
        let internal_tools = raw
            .internal_tools
            .unwrap_or_else(crate::agents::registry::internal_tools);
        let mut safe_commands = Vec::new();
        for entry in raw.safe_commands.unwrap_or_default() {
            let pattern = pattern_of(&entry, "safe_commands", &error)?;
            if crate::agents::registry::edits_files(pattern.as_str()) {
                return Err(error(
                    entry.span(),
                    format!(
                        "{:?} writes files and can never be listed safe",
                        entry.get_ref()
                    ),
                    "remove it from safe_commands; use \"allow always\" in the console for one session instead",
                ));
            }
            safe_commands.push(pattern);
        }
        let mut denied_commands = Vec::new();
        for entry in raw.denied_commands.unwrap_or_default() {
            denied_commands.push(pattern_of(&entry, "denied_commands", &error)?);
        }
        let mut sensitive_paths = Vec::new();
        for entry in raw.sensitive_paths.unwrap_or_default() {
            let text = entry.get_ref().trim();
            if text.is_empty() || text.contains('\0') {
                return Err(error(
                    entry.span(),
                    format!(
                        "sensitive_paths holds {:?}, which names no path",
                        entry.get_ref()
                    ),
                    "write a path pattern such as \"~/.config/myapp/token\", \"/srv/secrets/**\" or \"*.secret\"",
                ));
            }
            sensitive_paths.push(text.to_string());
        }
        let audit_log = raw
            .audit_log
            .map(|p| paths::expand_home(&p))
            .unwrap_or_else(paths::audit_log);
        let user_rules = match (raw.rule, path) {
            (Some(raw_rules), Some(path)) => rules_of(
                raw_rules,
                path,
                text,
                &crate::agents::registry::edit_tools(),
            )?,
            _ => Vec::new(),
        };
        let policy = Policy::load(
            policy_paths(path),
            user_rules,
            path.map(Path::to_path_buf),
            crate::agents::registry::edit_tools(),
        )?;
        let suggest_after = match raw.suggest_after {
            None => 3,
            Some(n) if *n.get_ref() <= 100 => *n.get_ref(),
            Some(n) => {
                return Err(error(
                    n.span(),
                    format!("suggest_after = {} is out of range", n.get_ref()),
                    "use a number of answers from 1 to 100, or 0 to never suggest a rule",
                ));
            }
        };
        let rules = Rules {
            policy: std::sync::Arc::new(policy),
            safe_commands,
            denied_commands,
            read_only_tools: raw
                .read_only_tools
                .unwrap_or_default()
                .into_iter()
                .collect(),
            internal_tools,
            guards: std::sync::Arc::new(crate::guards::of(path, &audit_log, &sensitive_paths)),
        };
        let web = match raw.web {
            None => None,
            Some(table) => {
                let mut web = crate::web::Settings {
                    url: table.url,
                    allow_plain_http: table.allow_plain_http.unwrap_or(false),
                    ..crate::web::Settings::default()
                };
                if let Some(listen) = table.listen {
                    web.listen = listen.get_ref().parse().map_err(|_| {
                        error(
                            listen.span(),
                            format!("[web] listen = {:?} is not an address and port", listen.get_ref()),
                            "write an IP address and a port, such as \"127.0.0.1:7870\" (loopback, the default) or \"0.0.0.0:7870\" (every interface, over TLS)",
                        )
                    })?;
                }
                Some(web)
            }
        };
        let notify_command = match raw.notify_command {
            Some(command) if command.get_ref().trim().is_empty() => {
                return Err(error(
                    command.span(),
                    "notify_command is empty".into(),
                    "give a shell command, or remove the key",
                ));
            }
            command => command.map(Spanned::into_inner),
        };
        let classifier = RawClassifiers::validate(raw.classifier)
            .map_err(|bad| error(bad.span, bad.message, &bad.fix))?;
        let opencode = raw.opencode.unwrap_or_default();
        for server in &opencode {
            server.check().map_err(|message| {
                error(
                    server.url.span(),
                    message,
                    "give each [[opencode]] table the url `opencode serve` printed",
                )
            })?;
        }
        let settings = Settings {
            mode: raw.mode.unwrap_or_default(),
            rules,
            ask_timeout,
            on_timeout: raw.on_timeout.unwrap_or(Fallback::Deny),
            on_shutdown: raw.on_shutdown.unwrap_or(Fallback::Defer),
        };
        Ok(Config {
            settings,
            cycle,
            classifier,
            audit_log,
            server,
            notify: raw.notify.unwrap_or_default(),
            notify_command,
            web,
            opencode,
            source: path.map(Path::to_path_buf),
            suggest_after,
        })
    }
}

fn pattern_of(
    entry: &Spanned<String>,
    key: &str,
    error: &impl Fn(std::ops::Range<usize>, String, &str) -> ConfigError,
) -> Result<Pattern, ConfigError> {
    let pattern = Pattern::new(entry.get_ref());
    if pattern.as_str().is_empty() {
        return Err(error(
            entry.span(),
            format!("{key} has an empty entry"),
            "remove the empty string from the list",
        ));
    }
    Ok(pattern)
}

/// The 1-based line of byte offset `at` in `text`.
fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
