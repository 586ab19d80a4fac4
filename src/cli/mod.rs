//! The `gatehouse` command line: the clap definitions and the dispatch to each command's
//! module (binary-only: they load config, build runtimes and print). The process starts in
//! [`start`], not through std's `main` (see there why).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};

mod acp;
mod agent_arg;
mod agents;
mod attach;
mod eval;
mod explain;
mod hook;
mod install;
mod remote;
mod rules;
mod serve;
#[cfg(not(test))]
pub mod start;
mod web;

use agent_arg::{HookedAgent, agent_names};
use gatehouse::agents::registry;
use gatehouse::core::mode::Mode;
use install::{InstallArgs, ScopeArg};
use serve::OnAsk;

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
    /// Before a command, it stands for that command's own --socket; a command that uses no
    /// socket refuses it.
    #[arg(long, value_name = "PATH")]
    socket: Option<PathBuf>,

    /// The mode the console starts in (default: the config's `mode`, else allow-read).
    #[arg(long, value_name = "MODE")]
    mode: Option<Mode>,

    /// Serve the web console too, on ADDR (default: the config's [web] listen, else
    /// 127.0.0.1:7870). Pair a device with `gatehouse pair`.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "")]
    web: Option<String>,

    /// Without a command, gatehouse runs the console.
    #[command(subcommand)]
    command: Option<Command>,
}

/// `--socket`, for the commands that talk to the console's socket (`serve`, `hook`, `install`)
/// and only those, so no command offers an option it ignores.
#[derive(Args)]
struct SocketArg {
    /// The console's socket (default: $GATEHOUSE_SOCKET, else
    /// $XDG_RUNTIME_DIR/gatehouse/gatehouse.sock, else /tmp/gatehouse-$UID/gatehouse.sock).
    #[arg(long, global = true, value_name = "PATH")]
    socket: Option<PathBuf>,
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
        /// What calls that need a human get, since no one is watching (not with --web).
        #[arg(long, value_enum, default_value_t = OnAsk::Deny)]
        on_ask: OnAsk,
        #[command(flatten)]
        socket: SocketArg,
        /// Serve the web console on ADDR (default: the config's [web] listen, else
        /// 127.0.0.1:7870): calls that need a human then wait for an answer there, up to
        /// ask_timeout, instead of getting --on-ask.
        #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "")]
        web: Option<String>,
    },
    /// Make a one-time link (good for two minutes) that pairs a device with the running web
    /// console; printed as the last line, and drawn as a QR code on a terminal.
    Pair {
        #[command(flatten)]
        socket: SocketArg,
    },
    /// The devices paired with the web console; `revoke NAME` unpairs one.
    Devices {
        #[command(subcommand)]
        action: Option<DevicesCommand>,
    },
    /// What an agent runs before each tool call (reads the agent's hook JSON on stdin).
    /// Always exits 0.
    Hook {
        /// The agent whose hook dialect to speak.
        #[arg(value_parser = agent_names())]
        agent: String,
        #[command(flatten)]
        socket: SocketArg,
        /// The host label its calls carry to a console on another machine (default:
        /// $GATEHOUSE_HOST; `gatehouse remote add` installs hooks with it).
        #[arg(long, value_name = "NAME")]
        host: Option<String>,
        /// How long the agent waits for this hook before it kills it, in seconds (`gatehouse
        /// install` writes it): the console answers the hook's calls before then.
        #[arg(long, value_name = "SECS")]
        timeout: Option<u64>,
    },
    /// Run an ACP agent behind gatehouse: `gatehouse acp -- gemini --experimental-acp`. The
    /// editor talks to gatehouse as to the agent; the agent's permission requests go to the
    /// console, everything else passes unchanged.
    Acp {
        /// The agent's command and its arguments, after `--`.
        #[arg(
            required = true,
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "AGENT"
        )]
        command: Vec<String>,
        #[command(flatten)]
        socket: SocketArg,
    },
    /// Add gatehouse's hook to an agent's settings (backed up; installing twice changes
    /// nothing).
    Install {
        /// The agent (`gatehouse agents` lists them and what each can do).
        #[arg(value_parser = HookedAgent)]
        agent: String,
        /// Whose files: the user's, the project's in this folder, or (Claude Code) the
        /// project's for this checkout only.
        #[arg(long, value_enum, default_value_t = ScopeArg::User)]
        scope: ScopeArg,
        /// Claude Code only: `pre-tool-use` (every tool call, the default) or
        /// `permission-request` (only the calls it would prompt for).
        #[arg(long, value_name = "EVENT")]
        event: Option<String>,
        /// Codex only: leave PermissionRequest to Codex's automatic reviewer; hook PreToolUse.
        #[arg(long)]
        keep_reviewer: bool,
        /// Print what would change without writing.
        #[arg(long)]
        dry_run: bool,
        #[command(flatten)]
        socket: SocketArg,
        /// The host label the hook's calls carry to a console on another machine.
        #[arg(long, value_name = "NAME")]
        host: Option<String>,
        /// Install inside this running Docker or Podman container (whichever is on PATH),
        /// for a console on this machine: its socket folder must be mounted there (see
        /// docs/remote.md); the calls carry the container's name as their host.
        #[arg(long, value_name = "NAME", conflicts_with_all = ["dry_run", "scope"])]
        container: Option<String>,
        /// Where the console's socket is inside the container.
        #[arg(long, value_name = "PATH", requires = "container",
              default_value = gatehouse::remote::container::SOCKET_INSIDE)]
        container_socket: PathBuf,
        /// The console's ask timeout in seconds, when it is not this machine's config's (the
        /// hook timeout written is past it); `gatehouse remote add` passes its own.
        #[arg(long, value_name = "SECS", hide = true)]
        ask_timeout: Option<u64>,
    },
    /// Remove gatehouse's hook from an agent's settings, and nothing else.
    Uninstall {
        #[arg(value_parser = agent_names())]
        agent: String,
        #[arg(long, value_enum, default_value_t = ScopeArg::User)]
        scope: ScopeArg,
        /// Print what would change without writing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Every agent gatehouse can gate: installed or not, whether gatehouse's hook is in place
    /// and active, and what a decision can do on each of its events.
    Agents {
        /// Print only the capability table, as Markdown (the table in docs/agents.md).
        #[arg(long)]
        markdown: bool,
    },
    /// Try the classifier that races you in auto mode.
    Classifier {
        #[command(subcommand)]
        action: ClassifierCommand,
    },
    /// Lasting rules: list, add, rm, check, trust a project's policy, suggest from your answers.
    Rules {
        #[command(subcommand)]
        action: rules::RulesCommand,
    },
    /// Agents on other machines over OpenSSH: add, list, rm, doctor.
    Remote {
        #[command(subcommand)]
        action: remote::RemoteCommand,
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
enum DevicesCommand {
    /// Unpair the device named NAME: its next request is refused.
    Revoke { name: String },
}

#[derive(Subcommand)]
enum AttachAgent {
    /// A running `opencode serve` (also attached at start from the config's [[opencode]]).
    Opencode {
        /// Its address, as `opencode serve` prints it: http://127.0.0.1:4096. Without it, the
        /// OpenCode 2.x service registered in $XDG_STATE_HOME/opencode/service.json.
        url: Option<String>,
        /// Its user (default: $OPENCODE_SERVER_USERNAME, else opencode).
        #[arg(long)]
        username: Option<String>,
        /// The environment variable holding its password (default: OPENCODE_SERVER_PASSWORD).
        #[arg(long, value_name = "VAR")]
        password_env: Option<String>,
        #[command(flatten)]
        socket: SocketArg,
    },
}

#[derive(Subcommand)]
enum DetachAgent {
    /// An attached `opencode serve`: its open dialogs are withdrawn, its requests left pending.
    Opencode {
        /// Its address, as given to `gatehouse attach opencode`.
        url: String,
        #[command(flatten)]
        socket: SocketArg,
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

/// The program, once the process has started: the hook's fast path, else the parsed command.
// Under `cargo test` the harness's `main` runs instead, as it would of std's `main`.
#[cfg_attr(test, allow(dead_code))]
pub fn gatehouse_main() -> ExitCode {
    if let Some(hook) = hook::fast_args(std::env::args_os().skip(1)) {
        let (config, socket) = (hook.config.as_deref(), hook.socket.as_deref());
        hook::run_hook(hook.dialect, config, socket, (hook.host, hook.timeout));
        return ExitCode::SUCCESS;
    }
    let cli = Cli::parse();
    if let Some(Command::Hook {
        agent,
        socket,
        host,
        timeout,
    }) = &cli.command
        && let Some(dialect) = registry::find(agent)
    {
        let socket = socket.socket.clone().or(cli.socket.clone());
        hook::run_hook(
            dialect,
            cli.config.as_deref(),
            socket.as_deref(),
            (host.clone(), *timeout),
        );
        return ExitCode::SUCCESS;
    }
    // Under the console the screen is the TUI's: diagnostics go to the state folder's log.
    let _log = match cli.command {
        None | Some(Command::Demo) => {
            gatehouse::plumbing::logging::to_file(&gatehouse::plumbing::paths::state_dir())
        }
        Some(_) => {
            gatehouse::plumbing::logging::to_stderr();
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
        return serve::console(config, cli.socket, cli.mode, cli.web);
    };
    if let (Some(socket), Some(name)) = (&cli.socket, uses_no_socket(&command)) {
        anyhow::bail!(
            "--socket {} is the console's socket, and `gatehouse {name}` uses none: leave it out \
             (the console, serve, hook and install take it)",
            socket.display()
        );
    }
    // Before `serve` they stand for its own; before any other command they would do nothing.
    if !matches!(command, Command::Serve { .. }) {
        if let Some(web) = &cli.web {
            anyhow::bail!(
                "--web{} serves the web console beside the console or `serve`; this command \
                 runs neither: leave it out",
                if web.is_empty() {
                    String::new()
                } else {
                    format!("={web}")
                }
            );
        }
        if let Some(mode) = cli.mode {
            anyhow::bail!(
                "--mode {mode} sets the mode the console or `serve` starts in; this command \
                 runs neither: leave it out"
            );
        }
    }
    match command {
        Command::Explain { line, json, batch } => explain::explain(config, line, json, batch),
        Command::Demo => serve::demo(config),
        Command::Serve {
            mode,
            on_ask,
            socket,
            web,
        } => serve::serve(
            config,
            socket.socket.or(cli.socket),
            mode.or(cli.mode),
            on_ask,
            web.or(cli.web),
        ),
        Command::Pair { socket } => web::pair(socket.socket.or(cli.socket).as_deref()),
        Command::Devices { action } => web::devices(action.map(|a| match a {
            DevicesCommand::Revoke { name } => name,
        })),
        Command::Hook { agent, .. } => install::dialect(&agent).map(|_| ()),
        Command::Acp { command, socket } => {
            acp::acp(config, socket.socket.or(cli.socket), &command)
        }
        Command::Install {
            agent,
            scope,
            event,
            keep_reviewer,
            dry_run,
            socket,
            host,
            container,
            container_socket,
            ask_timeout,
        } => {
            let args = InstallArgs {
                scope,
                event,
                keep_reviewer,
                dry_run,
                host,
                ask_timeout,
            };
            let socket = socket.socket.or(cli.socket);
            match container {
                Some(name) => install::in_container(config, &agent, &name, &container_socket, args),
                None => install::install(config, socket.as_deref(), &agent, args),
            }
        }
        Command::Uninstall {
            agent,
            scope,
            dry_run,
        } => install::uninstall(&agent, scope, dry_run),
        Command::Agents { markdown } => agents::agents(markdown),
        Command::Classifier {
            action: ClassifierCommand::Test { line },
        } => explain::classifier_test(config, &line),
        Command::Classifier {
            action: ClassifierCommand::Eval { file, from_audit },
        } => eval::eval(config, file.as_deref(), from_audit),
        Command::Rules { action } => rules::run(config, action),
        Command::Remote { action } => remote::run(config, action),
        Command::Attach {
            agent:
                AttachAgent::Opencode {
                    url,
                    username,
                    password_env,
                    socket,
                },
        } => attach::attach(
            socket.socket.or(cli.socket).as_deref(),
            url.as_deref(),
            username,
            password_env.as_deref(),
        ),
        Command::Detach {
            agent: DetachAgent::Opencode { url, socket },
        } => attach::detach(socket.socket.or(cli.socket).as_deref(), &url),
        Command::Config {
            action: ConfigCommand::Example,
        } => {
            print!("{}", gatehouse::config::EXAMPLE);
            Ok(())
        }
    }
}

/// The name of `command` when it is one that uses no socket, for refusing a `--socket` given
/// before it. A command not named here takes the socket given before it.
fn uses_no_socket(command: &Command) -> Option<&'static str> {
    match command {
        Command::Explain { .. } => Some("explain"),
        Command::Demo => Some("demo"),
        Command::Uninstall { .. } => Some("uninstall"),
        Command::Classifier { .. } => Some("classifier"),
        Command::Config { .. } => Some("config"),
        Command::Agents { .. } => Some("agents"),
        Command::Rules { .. } => Some("rules"),
        Command::Remote { .. } => Some("remote"),
        Command::Devices { .. } => Some("devices"),
        _ => None,
    }
}
