//! The `gatehouse` command line: the clap definitions and the dispatch to each command's
//! module (`cli_*`, binary-only: they load config, build runtimes and print).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

mod cli_attach;
mod cli_eval;
mod cli_explain;
mod cli_hook;
mod cli_install;
mod cli_serve;

use cli_install::{AgentScope, EventArg, ScopeArg};
use cli_serve::OnAsk;
use gatehouse::agents::hook::Dialect;
use gatehouse::core::mode::Mode;

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
    /// Attach the running console (or `serve`) to an agent's server. OpenCode has no hook: the
    /// console answers its permission requests over its HTTP API.
    Attach {
        #[command(subcommand)]
        agent: AttachAgent,
    },
    /// Let the running console go of an agent's server; nothing it asked is answered.
    Detach {
        #[command(subcommand)]
        agent: DetachAgent,
    },
    /// The config file.
    Config {
        #[command(subcommand)]
        action: ConfigCommand,
    },
}

#[derive(Subcommand)]
enum AttachAgent {
    /// A running `opencode serve` (also attached at start from the config's [[opencode]]).
    Opencode {
        /// Its address, as `opencode serve` prints it: http://127.0.0.1:4096.
        url: String,
        /// Its user (default: $OPENCODE_SERVER_USERNAME, else opencode).
        #[arg(long)]
        username: Option<String>,
        /// The environment variable holding its password (default: OPENCODE_SERVER_PASSWORD).
        #[arg(long, value_name = "VAR")]
        password_env: Option<String>,
    },
}

#[derive(Subcommand)]
enum DetachAgent {
    /// An attached `opencode serve`: its open dialogs are withdrawn, its requests left pending.
    Opencode {
        /// Its address, as given to `gatehouse attach opencode`.
        url: String,
    },
}

#[derive(Subcommand)]
enum ConfigCommand {
    /// Print the documented example config: every key, with its default and what it does.
    Example,
}

#[derive(Subcommand)]
enum ClassifierCommand {
    /// Ask the configured model once about a shell line; print its raw answer, the verdict and
    /// the time taken.
    Test {
        /// The shell line to ask about.
        line: String,
    },
    /// Run a labelled file (`command<TAB>label`, the corpus format) through the configured
    /// classifiers exactly as auto mode would; print one summary line last.
    Eval {
        /// The labelled file; with --from-audit, the audit log to read (default: the config's).
        file: Option<PathBuf>,
        /// Print a labelled file made of your own past answers in the audit log instead.
        #[arg(long)]
        from_audit: bool,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(Command::Hook { agent }) = cli.command {
        let dialect = match agent {
            HookAgent::Claude => Dialect::Claude,
            HookAgent::Codex => Dialect::Codex,
            HookAgent::Gemini => Dialect::Gemini,
            HookAgent::Cursor => Dialect::Cursor,
        };
        cli_hook::run_hook(dialect, cli.config.as_deref(), cli.socket.as_deref());
        return ExitCode::SUCCESS;
    }
    // Under the console the screen is the TUI's: diagnostics go to the state folder's log.
    let _log = match cli.command {
        None | Some(Command::Demo) => gatehouse::logging::to_file(&gatehouse::paths::state_dir()),
        Some(_) => {
            gatehouse::logging::to_stderr();
            None
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // Not `eprintln!`: its terminal may be gone, and a failed write must not panic. An
            // error can carry text from outside (a model server's error body): escaped.
            use std::io::Write;
            let text = gatehouse::core::escape::visible_lines(&format!("{err:#}"));
            let _ = writeln!(std::io::stderr(), "gatehouse: {text}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    let config = cli.config.as_deref();
    let Some(command) = cli.command else {
        return cli_serve::console(config, cli.socket, cli.mode);
    };
    match command {
        Command::Explain { line, json, batch } => cli_explain::explain(config, line, json, batch),
        Command::Demo => cli_serve::demo(config),
        Command::Serve { mode, on_ask } => cli_serve::serve(config, cli.socket, mode, on_ask),
        Command::Hook { .. } => unreachable!("the hook runs before anything else"),
        Command::Install {
            agent:
                InstallAgent::Claude {
                    scope,
                    event,
                    dry_run,
                },
        } => cli_install::install_claude(config, cli.socket.as_deref(), scope, event, dry_run),
        Command::Install { agent } => {
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
            let socket = cli.socket.as_deref();
            cli_install::install_agent(agent, scope, config, socket, dry_run)
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
        } => cli_install::uninstall_claude(scope, dry_run),
        Command::Classifier {
            action: ClassifierCommand::Test { line },
        } => cli_explain::classifier_test(config, &line),
        Command::Classifier {
            action: ClassifierCommand::Eval { file, from_audit },
        } => cli_eval::eval(config, file.as_deref(), from_audit),
        Command::Attach {
            agent:
                AttachAgent::Opencode {
                    url,
                    username,
                    password_env,
                },
        } => cli_attach::attach(
            cli.socket.as_deref(),
            &url,
            username,
            password_env.as_deref(),
        ),
        Command::Detach {
            agent: DetachAgent::Opencode { url },
        } => cli_attach::detach(cli.socket.as_deref(), &url),
        Command::Config {
            action: ConfigCommand::Example,
        } => {
            print!("{}", gatehouse::config::EXAMPLE);
            Ok(())
        }
    }
}
