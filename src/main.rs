//! The `gatehouse` command line: parses arguments, loads config, and wires the library's parts.

use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};

mod cli_install;

use cli_install::AgentScope;
use gatehouse::agents::claude::HookEvent;
use gatehouse::agents::claude_install::{self, HookSpec, Scope};
use gatehouse::agents::client::Timeouts;
use gatehouse::agents::hook::{self, Dialect, HookSetup};
use gatehouse::classifier::{ClassifierSetup, ModelClassifier};
use gatehouse::config::Config;
use gatehouse::core::audit::Audit;
use gatehouse::core::barrier::{Barrier, Fallback};
use gatehouse::core::classifier::Classifier;
use gatehouse::core::mode::Mode;
use gatehouse::explain;
use gatehouse::headless;
use gatehouse::server::{self, socket::socket_path};

#[derive(Parser)]
#[command(
    name = "gatehouse",
    version,
    about = "One approval console for AI coding agents"
)]
struct Cli {
    /// The config file (default: $XDG_CONFIG_HOME/gatehouse/config.toml, if present).
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,

    /// The console's socket (default: $GATEHOUSE_SOCKET, else
    /// $XDG_RUNTIME_DIR/gatehouse/gatehouse.sock, else /tmp/gatehouse-$UID/gatehouse.sock).
    #[arg(long, global = true, value_name = "PATH")]
    socket: Option<PathBuf>,

    /// The mode the console starts in (default: the config's `mode`, else allow-read).
    #[arg(long, value_name = "MODE")]
    mode: Option<Mode>,

    /// Without a command, gatehouse runs the console.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Show what gatehouse makes of a shell line: its class, its route in each mode, and why.
    Explain {
        /// The shell line to explain.
        #[arg(required_unless_present = "batch", conflicts_with = "batch")]
        line: Option<String>,
        /// Print JSON instead of text.
        #[arg(long, conflicts_with = "batch")]
        json: bool,
        /// Read escaped lines (`\n`, `\t`, `\r`, `\\`) from stdin; print `class<TAB>why` for each.
        #[arg(long)]
        batch: bool,
    },
    /// A guided tour: the console with a scripted agent sending realistic calls through the
    /// real hook, on a private socket. Quit with q.
    Demo,
    /// Run the console without a screen: rules and the mode decide, and calls that need a
    /// human get --on-ask. Logs one line per decision to stderr; Ctrl+C stops it.
    Serve {
        /// The starting mode (default: the config's).
        #[arg(long)]
        mode: Option<Mode>,
        /// What calls that need a human get, since no one is watching.
        #[arg(long, value_enum, default_value_t = OnAsk::Deny)]
        on_ask: OnAsk,
    },
    /// What an agent runs before each tool call (reads the agent's hook JSON on stdin).
    Hook {
        #[command(subcommand)]
        agent: HookAgent,
    },
    /// Add gatehouse's hook to an agent's settings.
    Install {
        #[command(subcommand)]
        agent: InstallAgent,
    },
    /// Remove gatehouse's hook from an agent's settings, and nothing else.
    Uninstall {
        #[command(subcommand)]
        agent: UninstallAgent,
    },
    /// Try the classifier that races you in auto mode.
    Classifier {
        #[command(subcommand)]
        action: ClassifierCommand,
    },
}

#[derive(Subcommand)]
enum ClassifierCommand {
    /// Ask the configured model once about a shell line; print its raw answer, the verdict and
    /// the time taken.
    Test {
        /// The shell line to ask about.
        line: String,
    },
}

#[derive(Subcommand, Clone, Copy)]
enum HookAgent {
    /// Claude Code's PreToolUse or PermissionRequest hook. Always exits 0.
    Claude,
    /// Codex's PreToolUse or PermissionRequest hook. Always exits 0.
    Codex,
    /// Gemini CLI's BeforeTool or AfterTool hook. Always exits 0.
    Gemini,
    /// Cursor's beforeShellExecution, beforeMCPExecution, beforeReadFile or preToolUse hook.
    Cursor,
}

#[derive(Subcommand)]
enum InstallAgent {
    /// Claude Code: adds a hook with matcher `*` to its settings.json.
    Claude {
        #[arg(long, value_enum, default_value_t = ScopeArg::User)]
        scope: ScopeArg,
        #[arg(long, value_enum, default_value_t = EventArg::PreToolUse)]
        event: EventArg,
        /// Print what would change without writing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Codex: PreToolUse and PermissionRequest hooks in hooks.json, trusted in config.toml.
    Codex {
        #[arg(long, value_enum, default_value_t = AgentScope::User)]
        scope: AgentScope,
        #[arg(long)]
        dry_run: bool,
    },
    /// Gemini CLI: BeforeTool and AfterTool hooks in settings.json, and the policy file that
    /// leaves the hook as the only gate.
    Gemini {
        #[arg(long, value_enum, default_value_t = AgentScope::User)]
        scope: AgentScope,
        #[arg(long)]
        dry_run: bool,
    },
    /// Cursor: hooks in hooks.json with failClosed (from Cursor's documentation; untested).
    Cursor {
        #[arg(long, value_enum, default_value_t = AgentScope::User)]
        scope: AgentScope,
        #[arg(long)]
        dry_run: bool,
    },
}

#[derive(Subcommand)]
enum UninstallAgent {
    /// Claude Code: removes gatehouse's hooks from its settings.json.
    Claude {
        #[arg(long, value_enum, default_value_t = ScopeArg::User)]
        scope: ScopeArg,
        /// Print what would change without writing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Codex: removes gatehouse's hooks and their trust entries.
    Codex {
        #[arg(long, value_enum, default_value_t = AgentScope::User)]
        scope: AgentScope,
        #[arg(long)]
        dry_run: bool,
    },
    /// Gemini CLI: removes gatehouse's hooks and policy file.
    Gemini {
        #[arg(long, value_enum, default_value_t = AgentScope::User)]
        scope: AgentScope,
        #[arg(long)]
        dry_run: bool,
    },
    /// Cursor: removes gatehouse's hooks.
    Cursor {
        #[arg(long, value_enum, default_value_t = AgentScope::User)]
        scope: AgentScope,
        #[arg(long)]
        dry_run: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum OnAsk {
    Deny,
    Defer,
}

/// Claude Code's settings file: `~/.claude/settings.json`, `.claude/settings.json` or
/// `.claude/settings.local.json`.
#[derive(Clone, Copy, ValueEnum)]
enum ScopeArg {
    User,
    Project,
    Local,
}

#[derive(Clone, Copy, ValueEnum)]
enum EventArg {
    /// Every tool call (recommended).
    PreToolUse,
    /// Only the calls Claude Code would prompt for.
    PermissionRequest,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(Command::Hook { agent }) = cli.command {
        let dialect = match agent {
            HookAgent::Claude => Dialect::Claude,
            HookAgent::Codex => Dialect::Codex,
            HookAgent::Gemini => Dialect::Gemini,
            HookAgent::Cursor => Dialect::Cursor,
        };
        run_hook(dialect, cli.config.as_deref(), cli.socket.as_deref());
        return ExitCode::SUCCESS;
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("gatehouse: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    let Some(command) = cli.command else {
        return console(cli.config.as_deref(), cli.socket, cli.mode);
    };
    match command {
        Command::Explain { line, json, batch } => {
            let config = Config::load(cli.config.as_deref())?;
            let rules = &config.settings.rules;
            if batch {
                let stdin = io::stdin().lock();
                let stdout = BufWriter::new(io::stdout().lock());
                explain::batch(stdin, stdout, rules).context("reading lines from stdin")?;
                return Ok(());
            }
            let Some(line) = line else {
                bail!("give a shell line to explain, or --batch to read lines from stdin");
            };
            let explained = explain::explain(&line, rules);
            let mut out = io::stdout().lock();
            if json {
                writeln!(
                    out,
                    "{}",
                    serde_json::to_string_pretty(&explained.to_json())?
                )?;
            } else {
                write!(out, "{}", explained.to_text())?;
            }
            Ok(())
        }
        Command::Demo => {
            let config = Config::load(cli.config.as_deref())?;
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .context("starting the async runtime")?;
            runtime.block_on(gatehouse::demo::run(config))
        }
        Command::Serve { mode, on_ask } => serve(cli.config.as_deref(), cli.socket, mode, on_ask),
        Command::Hook { .. } => unreachable!("the hook runs before anything else"),
        Command::Install {
            agent:
                InstallAgent::Claude {
                    scope,
                    event,
                    dry_run,
                },
        } => {
            let config = Config::load(cli.config.as_deref())?;
            let exe = std::env::current_exe().context("finding gatehouse's own path")?;
            let exe = exe.canonicalize().unwrap_or(exe);
            let event = match event {
                EventArg::PreToolUse => HookEvent::PreToolUse,
                EventArg::PermissionRequest => HookEvent::PermissionRequest,
            };
            let spec = HookSpec {
                event,
                command: HookSpec::command_for(&exe, cli.socket.as_deref(), cli.config.as_deref()),
                timeout_secs: config.settings.ask_timeout.as_secs() + HOOK_TIMEOUT_MARGIN_SECS,
            };
            let path = settings_path(scope)?;
            let report = claude_install::install(&path, &spec, dry_run)?;
            println!("gatehouse: {report}");
            if dry_run {
                print!("{}", report.text);
            }
            Ok(())
        }
        Command::Install { agent } => {
            let config = Config::load(cli.config.as_deref())?;
            let exe = std::env::current_exe().context("finding gatehouse's own path")?;
            let exe = exe.canonicalize().unwrap_or(exe);
            let at = cli_install::Where {
                exe: &exe,
                socket: cli.socket.as_deref(),
                config: cli.config.as_deref(),
                timeout_secs: config.settings.ask_timeout.as_secs() + HOOK_TIMEOUT_MARGIN_SECS,
            };
            let (agent, scope, dry_run) = match agent {
                InstallAgent::Codex { scope, dry_run } => {
                    (cli_install::Agent::Codex, scope, dry_run)
                }
                InstallAgent::Gemini { scope, dry_run } => {
                    (cli_install::Agent::Gemini, scope, dry_run)
                }
                InstallAgent::Cursor { scope, dry_run } => {
                    (cli_install::Agent::Cursor, scope, dry_run)
                }
                InstallAgent::Claude { .. } => unreachable!("matched above"),
            };
            cli_install::install(agent, scope, &at, dry_run)
        }
        Command::Uninstall {
            agent: UninstallAgent::Codex { scope, dry_run },
        } => cli_install::uninstall(cli_install::Agent::Codex, scope, dry_run),
        Command::Uninstall {
            agent: UninstallAgent::Gemini { scope, dry_run },
        } => cli_install::uninstall(cli_install::Agent::Gemini, scope, dry_run),
        Command::Uninstall {
            agent: UninstallAgent::Cursor { scope, dry_run },
        } => cli_install::uninstall(cli_install::Agent::Cursor, scope, dry_run),
        Command::Uninstall {
            agent: UninstallAgent::Claude { scope, dry_run },
        } => {
            let path = settings_path(scope)?;
            let report = claude_install::uninstall(&path, dry_run)?;
            println!("gatehouse: {report}");
            if dry_run {
                print!("{}", report.text);
            }
            Ok(())
        }
        Command::Classifier {
            action: ClassifierCommand::Test { line },
        } => classifier_test(cli.config.as_deref(), &line),
    }
}

/// `gatehouse classifier test LINE`: one question to the model, past the cache and breaker.
fn classifier_test(config: Option<&std::path::Path>, line: &str) -> Result<()> {
    use gatehouse::core::escape::visible;

    let config = Config::load(config)?;
    let setup = ClassifierSetup::from_env(&config.classifier);
    let ClassifierSetup::Ready(ready) = setup.clone() else {
        bail!("{}", setup.describe());
    };
    let model = ModelClassifier::new(ready).map_err(|e| anyhow::anyhow!(e))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    println!("{}", setup.describe());
    let probe = runtime
        .block_on(model.probe(line))
        .context("asking the model")?;
    println!("answer:  \"{}\"", visible(&probe.raw));
    println!("verdict: {}", probe.verdict.name());
    println!("took:    {} ms", probe.took.as_millis());
    Ok(())
}

/// How much longer than the ask timeout Claude Code lets the hook run, so the console's own
/// timeout answer always arrives first (a hook that Claude Code kills fails open).
const HOOK_TIMEOUT_MARGIN_SECS: u64 = 60;

/// How much longer than the ask timeout the hook waits for the console's answer.
const HOOK_WAIT_MARGIN: Duration = Duration::from_secs(5);

/// `gatehouse hook <agent>`: never fails, never exits non-zero; whatever goes wrong is the
/// dialect's defer (which blocks where nothing else would).
fn run_hook(dialect: Dialect, config: Option<&Path>, socket: Option<&Path>) {
    // A panic anywhere becomes a defer with one line on stderr, not a backtrace.
    std::panic::set_hook(Box::new(|_| {}));
    let mut stdin = Vec::new();
    let read = io::stdin().lock().read_to_end(&mut stdin);
    let output = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if let Err(err) = read {
            return dialect.broken(&format!("cannot read stdin ({err})"));
        }
        let (ask_timeout, rules) = match Config::load(config) {
            Ok(config) => (config.settings.ask_timeout, Ok(config.settings.rules)),
            Err(err) => (
                gatehouse::core::barrier::Settings::default().ask_timeout,
                Err(err.to_string()),
            ),
        };
        let setup = HookSetup {
            socket: socket_path(socket),
            timeouts: Timeouts::for_ask_timeout(ask_timeout, HOOK_WAIT_MARGIN),
            rules,
        };
        hook::run(dialect, &stdin, &setup)
    }))
    .unwrap_or_else(|_| dialect.broken("internal error"));
    if let Some(stdout) = output.stdout {
        let mut out = io::stdout().lock();
        let _ = writeln!(out, "{stdout}");
        let _ = out.flush();
    }
    for line in output.stderr {
        eprintln!("{line}");
    }
}

fn serve(
    config: Option<&Path>,
    socket: Option<PathBuf>,
    mode: Option<Mode>,
    on_ask: OnAsk,
) -> Result<()> {
    let config = Config::load(config)?;
    let mut settings = config.settings;
    if let Some(mode) = mode {
        settings.mode = mode;
    }
    let mode = settings.mode;
    let (on_ask, on_ask_name) = match on_ask {
        OnAsk::Deny => (Fallback::Deny, "deny"),
        OnAsk::Defer => (Fallback::Defer, "defer"),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let setup = ClassifierSetup::from_env(&config.classifier);
    let classifier: Option<Arc<dyn Classifier>> = setup
        .start()
        .map_err(|e| anyhow::anyhow!(e))?
        .map(|model| Arc::new(model) as Arc<dyn Classifier>);
    let policy = headless::Unattended {
        on_ask,
        classifier: classifier.is_some(),
    };
    runtime.block_on(async {
        let audit = Audit::open(&config.audit_log)
            .with_context(|| format!("opening the audit log {}", config.audit_log.display()))?;
        let (barrier, prompter) = Barrier::new(settings, audit, classifier);
        let socket = socket_path(socket.as_deref());
        let bound = server::bind(&socket)?;
        eprintln!(
            "gatehouse serve: listening on {}, mode {mode}; calls that need a human get {on_ask_name}; audit log {}",
            socket.display(),
            config.audit_log.display()
        );
        eprintln!("gatehouse serve: {}", setup.describe());
        headless::serve(bound, barrier, prompter, policy, server::Options::default(), stop_signal())
            .await;
        eprintln!("gatehouse serve: stopped");
        Ok(())
    })
}

/// The console: the TUI with the server inside it.
fn console(config: Option<&Path>, socket: Option<PathBuf>, mode: Option<Mode>) -> Result<()> {
    let config = Config::load(config)?;
    let socket = socket_path(socket.as_deref());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(gatehouse::console::run(
        config,
        socket,
        mode,
        terminate_signal(),
    ))
}

/// Completes on SIGTERM or SIGHUP (in the console, Ctrl+C is a key).
async fn terminate_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut hup)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::hangup()),
    ) else {
        return std::future::pending().await;
    };
    // Cancellation: whichever signal comes first ends the wait; the other is simply dropped.
    tokio::select! {
        _ = term.recv() => {}
        _ = hup.recv() => {}
    }
}

/// Completes on Ctrl+C or SIGTERM.
async fn stop_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let Ok(mut term) = signal(SignalKind::terminate()) else {
        let _ = tokio::signal::ctrl_c().await;
        return;
    };
    // Cancellation: whichever signal comes first ends the wait; the other is simply dropped.
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
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
