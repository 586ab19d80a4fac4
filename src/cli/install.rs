//! The binary's `install` and `uninstall`, for any agent in the registry: the request the
//! agent's dialect needs (this gatehouse's path, the socket and config chosen, a hook timeout
//! past the ask timeout, the current folder for a project scope), and what to tell the user.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::ValueEnum;

use gatehouse::agents::dialect::{
    Dialect, HookCommand, InstallRequest, Installed, Scope, UninstallRequest,
};
use gatehouse::agents::registry;
use gatehouse::config::Config;
use gatehouse::core::origin::Remote;

/// Which of an agent's files: the user's, the project's in the current folder, or (Claude
/// Code) the project's for this checkout only.
#[derive(Clone, Copy, ValueEnum)]
pub enum ScopeArg {
    User,
    Project,
    Local,
}

impl ScopeArg {
    fn scope(self) -> Scope {
        match self {
            ScopeArg::User => Scope::User,
            ScopeArg::Project => Scope::Project,
            ScopeArg::Local => Scope::Local,
        }
    }
}

/// How much longer than the ask timeout an agent lets the hook run, so the console's own
/// timeout answer always arrives first (a hook that an agent kills fails open).
const HOOK_TIMEOUT_MARGIN_SECS: u64 = 60;

/// What `install` was asked, besides the agent.
pub struct InstallArgs {
    pub scope: ScopeArg,
    pub event: Option<String>,
    pub keep_reviewer: bool,
    pub dry_run: bool,
    /// The host label the hook's calls carry (`--host`).
    pub host: Option<String>,
    /// The console's ask timeout in seconds, where it is not this config's.
    pub ask_timeout: Option<u64>,
}

/// The dialect named `word`, which clap has already checked against the registry.
pub fn dialect(word: &str) -> Result<&'static dyn Dialect> {
    match registry::find(word) {
        Some(dialect) => Ok(dialect),
        None => bail!(
            "no agent named {word:?}; gatehouse knows {}",
            registry::cli_names().join(", ")
        ),
    }
}

/// The scope, if `dialect` has it.
fn scope_for(dialect: &dyn Dialect, scope: ScopeArg) -> Result<Scope> {
    let scope = scope.scope();
    if !dialect.scopes().contains(&scope) {
        let names: Vec<&str> = dialect.scopes().iter().map(|s| s.name()).collect();
        bail!(
            "{} has no {} scope; use --scope {}",
            dialect.names().display,
            scope.name(),
            names.join(" or ")
        );
    }
    Ok(scope)
}

/// `gatehouse install <agent>`.
pub fn install(
    config: Option<&Path>,
    socket: Option<&Path>,
    agent: &str,
    args: InstallArgs,
) -> Result<()> {
    let dialect = dialect(agent)?;
    let settings = Config::load(config)?.settings;
    if let Some(host) = &args.host
        && !Remote::valid_label(host)
    {
        bail!(
            "--host {host:?} is not a usable host label: use up to 64 letters, digits, `-`, \
             `_`, `.` or `@`, with no spaces"
        );
    }
    let ask_timeout = args.ask_timeout.unwrap_or(settings.ask_timeout.as_secs());
    let request = InstallRequest {
        scope: scope_for(dialect, args.scope)?,
        project: project()?,
        command: HookCommand {
            exe: own_path()?,
            socket: socket.map(Path::to_path_buf),
            config: config.map(Path::to_path_buf),
            host: args.host,
            timeout_secs: Some(ask_timeout + HOOK_TIMEOUT_MARGIN_SECS),
        },
        timeout_secs: ask_timeout + HOOK_TIMEOUT_MARGIN_SECS,
        dry_run: args.dry_run,
        event: args.event,
        keep_reviewer: args.keep_reviewer,
    };
    print(&dialect.install(&request)?, args.dry_run);
    Ok(())
}

/// `gatehouse install <agent> --container NAME`: this gatehouse put in the container if it has
/// no matching one, then the hook installed there by it, with the socket inside and the
/// container's name (or `--host`) as the host label.
pub fn in_container(
    config: Option<&Path>,
    agent: &str,
    name: &str,
    socket_inside: &Path,
    args: InstallArgs,
) -> Result<()> {
    use gatehouse::remote::container::{Container, Runtime};
    let dialect = dialect(agent)?;
    let settings = Config::load(config)?.settings;
    let runtime = Runtime::on_path()?;
    let container = Container::new(runtime, name)?;
    let ask_timeout = args.ask_timeout.unwrap_or(settings.ask_timeout.as_secs());
    let host = args.host.unwrap_or_else(|| name.to_string());
    let exe = container.ensure_binary(&own_path()?, env!("CARGO_PKG_VERSION"))?;
    let mut install = vec![
        exe,
        "install".to_string(),
        dialect.names().cli.to_string(),
        "--socket".to_string(),
        socket_inside.display().to_string(),
        "--host".to_string(),
        host,
        "--ask-timeout".to_string(),
        ask_timeout.to_string(),
    ];
    if let Some(event) = args.event {
        install.extend(["--event".to_string(), event]);
    }
    if args.keep_reviewer {
        install.push("--keep-reviewer".to_string());
    }
    print!("{}", container.run(&install)?);
    Ok(())
}

/// `gatehouse uninstall <agent>`.
pub fn uninstall(agent: &str, scope: ScopeArg, dry_run: bool) -> Result<()> {
    let dialect = dialect(agent)?;
    let request = UninstallRequest {
        scope: scope_for(dialect, scope)?,
        project: project()?,
        dry_run,
    };
    print(&dialect.uninstall(&request)?, dry_run);
    Ok(())
}

fn project() -> Result<PathBuf> {
    std::env::current_dir().context("finding the current folder")
}

fn print(installed: &Installed, dry_run: bool) {
    for report in &installed.reports {
        println!("gatehouse: {report}");
        if dry_run && !report.text.is_empty() {
            println!("--- {} would read:", report.path.display());
            print!("{}", report.text);
        }
    }
    for note in &installed.notes {
        println!("gatehouse: {note}");
    }
}

/// gatehouse's own path, as the hook command names it.
fn own_path() -> Result<PathBuf> {
    let exe = std::env::current_exe().context("finding gatehouse's own path")?;
    Ok(exe.canonicalize().unwrap_or(exe))
}
