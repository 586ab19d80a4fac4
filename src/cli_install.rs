//! The binary's `install` and `uninstall` for Claude Code, Codex, Gemini CLI, Cursor, Qwen Code
//! and Copilot CLI:
//! where each agent's files are, and what to tell the user.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::ValueEnum;

use gatehouse::agents::claude::HookEvent;
use gatehouse::agents::claude_install::{self, HookSpec, Scope, hook_command};
use gatehouse::agents::install_file::Report;
use gatehouse::agents::{codex_install, copilot, cursor_install, gemini_install, qwen};
use gatehouse::config::Config;

/// Which of an agent's files: the user's, or the project's in the current folder.
#[derive(Clone, Copy, ValueEnum)]
pub enum AgentScope {
    User,
    Project,
}

/// The agents this module installs for.
#[derive(Clone, Copy)]
pub enum Agent {
    Codex,
    Gemini,
    Cursor,
    Qwen,
    Copilot,
}

/// Where the hook is installed, for the command line.
struct Where<'a> {
    exe: &'a Path,
    socket: Option<&'a Path>,
    config: Option<&'a Path>,
    timeout_secs: u64,
}

/// How much longer than the ask timeout Claude Code lets the hook run, so the console's own
/// timeout answer always arrives first (a hook that Claude Code kills fails open).
const HOOK_TIMEOUT_MARGIN_SECS: u64 = 60;

/// Claude Code's settings file: `~/.claude/settings.json`, `.claude/settings.json` or
/// `.claude/settings.local.json`.
#[derive(Clone, Copy, ValueEnum)]
pub enum ScopeArg {
    User,
    Project,
    Local,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum EventArg {
    /// Every tool call (recommended).
    PreToolUse,
    /// Only the calls Claude Code would prompt for.
    PermissionRequest,
}

/// `gatehouse install claude`: a hook for `event` in the settings file of `scope`.
pub fn install_claude(
    config: Option<&Path>,
    socket: Option<&Path>,
    scope: ScopeArg,
    event: EventArg,
    dry_run: bool,
) -> Result<()> {
    let settings = Config::load(config)?.settings;
    let exe = own_path()?;
    let event = match event {
        EventArg::PreToolUse => HookEvent::PreToolUse,
        EventArg::PermissionRequest => HookEvent::PermissionRequest,
    };
    let spec = HookSpec {
        event,
        command: HookSpec::command_for(&exe, socket, config),
        timeout_secs: settings.ask_timeout.as_secs() + HOOK_TIMEOUT_MARGIN_SECS,
    };
    let path = settings_path(scope)?;
    let report = claude_install::install(&path, &spec, dry_run)?;
    println!("gatehouse: {report}");
    if dry_run {
        print!("{}", report.text);
    }
    Ok(())
}

/// `gatehouse uninstall claude`: gatehouse's hooks out of the settings file of `scope`.
pub fn uninstall_claude(scope: ScopeArg, dry_run: bool) -> Result<()> {
    let path = settings_path(scope)?;
    let report = claude_install::uninstall(&path, dry_run)?;
    println!("gatehouse: {report}");
    if dry_run {
        print!("{}", report.text);
    }
    Ok(())
}

/// Claude Code's settings file for `scope`, for a project in the current folder.
fn settings_path(scope: ScopeArg) -> Result<PathBuf> {
    let project = std::env::current_dir().context("finding the current folder")?;
    let scope = match scope {
        ScopeArg::User => Scope::User,
        ScopeArg::Project => Scope::Project,
        ScopeArg::Local => Scope::Local,
    };
    let claude_dir = claude_install::user_claude_dir()
        .context("cannot find your home folder for ~/.claude; use --scope project or local")?;
    Ok(scope.settings_path(&claude_dir, &project))
}

fn project() -> Result<PathBuf> {
    std::env::current_dir().context("finding the current folder")
}

fn print(reports: &[Report], dry_run: bool) {
    for report in reports {
        println!("gatehouse: {report}");
        if dry_run && !report.text.is_empty() {
            println!("--- {} would read:", report.path.display());
            print!("{}", report.text);
        }
    }
}

/// gatehouse's own path, as the hook command names it.
fn own_path() -> Result<PathBuf> {
    let exe = std::env::current_exe().context("finding gatehouse's own path")?;
    Ok(exe.canonicalize().unwrap_or(exe))
}

/// `gatehouse install codex|gemini|cursor`: the hook command for this gatehouse, with its
/// socket and config, and a timeout past the config's ask timeout.
pub fn install_agent(
    agent: Agent,
    scope: AgentScope,
    config: Option<&Path>,
    socket: Option<&Path>,
    dry_run: bool,
) -> Result<()> {
    let settings = Config::load(config)?.settings;
    let exe = own_path()?;
    let at = Where {
        exe: &exe,
        socket,
        config,
        timeout_secs: settings.ask_timeout.as_secs() + HOOK_TIMEOUT_MARGIN_SECS,
    };
    install(agent, scope, &at, dry_run)
}

fn install(agent: Agent, scope: AgentScope, at: &Where, dry_run: bool) -> Result<()> {
    let name = match agent {
        Agent::Codex => "codex",
        Agent::Gemini => "gemini",
        Agent::Cursor => "cursor",
        Agent::Qwen => "qwen",
        Agent::Copilot => "copilot",
    };
    let command = hook_command(at.exe, name, at.socket, at.config);
    match agent {
        Agent::Codex => {
            let (hooks_path, config_path) = codex_paths(scope)?;
            let hook = codex_install::CodexHook {
                hooks_path,
                config_path,
                command,
                timeout_secs: at.timeout_secs,
            };
            print(&codex_install::install(&hook, dry_run)?, dry_run);
            println!(
                "gatehouse: Codex runs the hooks because config.toml now trusts them; editing \
                 the hook entries by hand makes Codex skip them until you run this again."
            );
            if let AgentScope::Project = scope {
                println!(
                    "gatehouse: Codex loads .codex/hooks.json only in a trusted project \
                     ([projects.\"<path>\"] trust_level = \"trusted\")."
                );
            }
        }
        Agent::Gemini => {
            let (settings_path, policy_path) = gemini_paths(scope)?;
            let hook = gemini_install::GeminiHook {
                settings_path,
                policy_path,
                command,
                timeout_ms: at.timeout_secs * 1000,
            };
            print(&gemini_install::install(&hook, dry_run)?, dry_run);
            println!("gatehouse: {}", gemini_install::STILL_REFUSED);
        }
        Agent::Cursor => {
            let path = cursor_path(scope)?;
            let report = cursor_install::install(&path, &command, at.timeout_secs, dry_run)?;
            print(&[report], dry_run);
            println!(
                "gatehouse: built from Cursor's documented hook format; not tested against a \
                 Cursor client."
            );
        }
        Agent::Qwen => {
            let hook = qwen::install::QwenHook {
                settings_path: qwen_path(scope)?,
                command,
                timeout_ms: at.timeout_secs * 1000,
            };
            print(&[qwen::install::install(&hook, dry_run)?], dry_run);
            println!(
                "gatehouse: Qwen Code runs PreToolUse only on calls it has already approved, so \
                 there gatehouse can refuse but not grant; PermissionRequest, where Qwen would \
                 ask, grants. A note reaches the model after the output, from PostToolUse."
            );
        }
        Agent::Copilot => {
            let path = copilot_path(scope)?;
            let report = copilot::install::install(&path, &command, at.timeout_secs, dry_run)?;
            print(&[report], dry_run);
            println!(
                "gatehouse: an allow from gatehouse grants the call in Copilot CLI, even one \
                 your --deny-tool rules refuse."
            );
            if let AgentScope::Project = scope {
                println!(
                    "gatehouse: `copilot -p` loads .github/hooks only with --trust-folder (or \
                     GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true); without it the calls run \
                     ungated."
                );
            }
        }
    }
    Ok(())
}

pub fn uninstall(agent: Agent, scope: AgentScope, dry_run: bool) -> Result<()> {
    match agent {
        Agent::Codex => {
            let (hooks_path, config_path) = codex_paths(scope)?;
            let reports = codex_install::uninstall(&hooks_path, &config_path, dry_run)?;
            print(&reports, dry_run);
        }
        Agent::Gemini => {
            let (settings_path, policy) = gemini_paths(scope)?;
            print(
                &gemini_install::uninstall(&settings_path, &policy, dry_run)?,
                dry_run,
            );
        }
        Agent::Cursor => {
            let path = cursor_path(scope)?;
            print(&[cursor_install::uninstall(&path, dry_run)?], dry_run);
        }
        Agent::Qwen => {
            let path = qwen_path(scope)?;
            print(&[qwen::install::uninstall(&path, dry_run)?], dry_run);
        }
        Agent::Copilot => {
            let path = copilot_path(scope)?;
            print(&[copilot::install::uninstall(&path, dry_run)?], dry_run);
        }
    }
    Ok(())
}

/// Codex's `hooks.json` for `scope` and the user's `config.toml` that trusts it.
fn codex_paths(scope: AgentScope) -> Result<(PathBuf, PathBuf)> {
    let home = codex_install::codex_home().context("cannot find your home folder")?;
    let hooks_path = match scope {
        AgentScope::User => home.join("hooks.json"),
        AgentScope::Project => project()?.join(".codex/hooks.json"),
    };
    Ok((hooks_path, home.join("config.toml")))
}

/// Gemini CLI's `settings.json` for `scope` and the user's policy file.
fn gemini_paths(scope: AgentScope) -> Result<(PathBuf, PathBuf)> {
    let dir = gemini_install::gemini_dir().context("cannot find your home folder")?;
    let settings_path = match scope {
        AgentScope::User => dir.join("settings.json"),
        AgentScope::Project => project()?.join(".gemini/settings.json"),
    };
    Ok((settings_path, dir.join("policies/gatehouse.toml")))
}

/// Cursor's `hooks.json` for `scope`.
fn cursor_path(scope: AgentScope) -> Result<PathBuf> {
    Ok(match scope {
        AgentScope::User => cursor_install::cursor_dir()
            .context("cannot find your home folder")?
            .join("hooks.json"),
        AgentScope::Project => project()?.join(".cursor/hooks.json"),
    })
}

/// Qwen Code's `settings.json` for `scope`.
fn qwen_path(scope: AgentScope) -> Result<PathBuf> {
    Ok(match scope {
        AgentScope::User => qwen::install::qwen_dir()
            .context("cannot find your home folder")?
            .join("settings.json"),
        AgentScope::Project => project()?.join(".qwen/settings.json"),
    })
}

/// gatehouse's Copilot CLI hooks file for `scope`.
fn copilot_path(scope: AgentScope) -> Result<PathBuf> {
    let folder = match scope {
        AgentScope::User => copilot::install::copilot_home()
            .context("cannot find your home folder")?
            .join("hooks"),
        AgentScope::Project => project()?.join(".github/hooks"),
    };
    Ok(folder.join(copilot::install::FILE_NAME))
}
