//! `gatehouse remote add|list|rm|doctor`: agents on other machines answered by this console
//! over OpenSSH (`gatehouse::remote`). `add` puts gatehouse on the remote (this binary copied
//! over ssh unless one of the same version is there), makes the remote's private socket
//! folder, installs the hooks of the agents found there with that socket and the host label,
//! and records the remote; the console and `serve` keep its tunnel while they run.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Subcommand;

use gatehouse::config::Config;
use gatehouse::core::origin::Remote as Origin;
use gatehouse::remote::here::{self, AgentHere};
use gatehouse::remote::list::{RemoteHost, Remotes};
use gatehouse::remote::ssh::{Target, quote};
use gatehouse::remote::{REMOTE_SOCKET_DIR, state};

#[derive(Subcommand)]
pub enum RemoteCommand {
    /// Answer the agents on HOST from this console: put gatehouse there, install the hooks
    /// of the agents found there, and keep a tunnel while the console runs.
    Add {
        /// Where to ssh: [USER@]HOST, as `ssh` takes it (keys and known hosts are ssh's).
        destination: String,
        /// The label its calls carry and rules match (default: HOST).
        #[arg(long)]
        name: Option<String>,
        /// The remote user, when it is not this one's name (also USER@HOST).
        #[arg(long)]
        user: Option<String>,
        #[arg(long)]
        port: Option<u16>,
        /// An ssh config file to use instead of yours (`ssh -F`).
        #[arg(long, value_name = "FILE")]
        ssh_config: Option<PathBuf>,
    },
    /// The remotes, and the state of each one's tunnel under a running console.
    List,
    /// Remove the hooks `remote add` installed on NAME, and the remote from the list.
    Rm {
        name: String,
        /// Only forget it here (the remote cannot be reached): its hooks stay there.
        #[arg(long)]
        forget: bool,
    },
    /// Check each step of NAME (ssh, gatehouse there, socket folder, hooks, tunnel).
    Doctor { name: String },
    /// Run on the remote by `add` and `doctor`: its agents, found and hooked for --host.
    #[command(hide = true)]
    Here {
        #[arg(long)]
        host: Option<String>,
    },
}

/// `gatehouse remote …`.
pub fn run(config: Option<&Path>, command: RemoteCommand) -> Result<()> {
    let folder = folder_of(config)?;
    match command {
        RemoteCommand::Add {
            destination,
            name,
            user,
            port,
            ssh_config,
        } => {
            let mut target = Target::parse(&destination, user, port).map_err(anyhow::Error::msg)?;
            if let Some(file) = ssh_config {
                let file = std::path::absolute(&file).unwrap_or(file);
                if !file.is_file() {
                    bail!("--ssh-config {}: no such file", file.display());
                }
                target.ssh_config = Some(file);
            }
            let name = name.unwrap_or_else(|| target.host.clone());
            if !Origin::valid_label(&name) {
                bail!(
                    "{name:?} is not a usable remote name: give --name of letters, digits, \
                     `-`, `_`, `.` or `@`"
                );
            }
            let ask_timeout = Config::load(config)?.settings.ask_timeout.as_secs();
            add(&folder, name, target, ask_timeout)
        }
        RemoteCommand::List => list(&folder),
        RemoteCommand::Rm { name, forget } => rm(&folder, &name, forget),
        RemoteCommand::Doctor { name } => doctor(&folder, &name),
        RemoteCommand::Here { host } => {
            print!("{}", here::render(&here::survey(host.as_deref())));
            Ok(())
        }
    }
}

/// The folder of the config file in use, where the remotes file sits.
fn folder_of(config: Option<&Path>) -> Result<PathBuf> {
    match config {
        Some(path) => Ok(path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)),
        None => gatehouse::plumbing::paths::config_dir()
            .context("no config folder is known (no home): set XDG_CONFIG_HOME or --config"),
    }
}

fn step(name: &str, what: &str) {
    println!("gatehouse: remote {name}: {what}");
}

/// The remote's home and machine.
fn reach(target: &Target) -> Result<(String, String)> {
    let out = target
        .run("printf '%s\\n' \"$HOME\"; uname -m", None)
        .map_err(|why| anyhow::anyhow!("cannot reach {}: {why}", target.display()))
        .context("check that `ssh` to it works without a prompt (BatchMode)")?;
    let mut lines = out.lines();
    match (lines.next(), lines.next()) {
        (Some(home), Some(arch)) if home.starts_with('/') => {
            Ok((home.to_string(), arch.trim().to_string()))
        }
        _ => bail!(
            "{} did not say its home and machine: {out:?}",
            target.display()
        ),
    }
}

/// The gatehouse to use on the remote: one of this version there, else this one copied.
fn binary(target: &Target, home: &str) -> Result<String> {
    let wanted = format!("gatehouse {}", env!("CARGO_PKG_VERSION"));
    let placed = format!("{home}/.local/bin/gatehouse");
    let probe = format!(
        "for g in \"$(command -v gatehouse)\" {}; do [ -x \"$g\" ] && printf '%s\\t%s\\n' \
         \"$g\" \"$(\"$g\" --version 2>/dev/null)\"; done; true",
        quote(&placed)
    );
    let found = target.run(&probe, None).map_err(anyhow::Error::msg)?;
    if let Some((exe, _)) = found
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .find(|(_, v)| v.trim() == wanted)
    {
        return Ok(exe.to_string());
    }
    let own = std::env::current_exe().context("finding this gatehouse")?;
    let part = format!("{placed}.part");
    let upload = format!(
        "mkdir -p {dir} && cat > {part} && chmod 755 {part} && mv -f {part} {placed} && {placed} --version",
        dir = quote(&format!("{home}/.local/bin")),
        part = quote(&part),
        placed = quote(&placed)
    );
    let version = target
        .run(&upload, Some(&own))
        .map_err(|why| anyhow::anyhow!("copying gatehouse to {}: {why}", target.display()))?;
    if version.trim() != wanted {
        bail!(
            "the gatehouse copied to {} says {:?}, not {wanted:?}: its machine may not run this \
             build (same architecture and a static binary are needed)",
            target.display(),
            version.trim()
        );
    }
    Ok(placed)
}

fn add(folder: &Path, name: String, target: Target, ask_timeout: u64) -> Result<()> {
    let (home, arch) = reach(&target)?;
    step(
        &name,
        &format!("reached {} ({arch}, home {home})", target.display()),
    );
    if arch != std::env::consts::ARCH {
        bail!(
            "{} is {arch} and this gatehouse is built for {}: build gatehouse for {arch} and \
             put it on the remote's PATH, then add it again",
            target.display(),
            std::env::consts::ARCH
        );
    }
    let exe = binary(&target, &home)?;
    step(&name, &format!("gatehouse there: {exe}"));
    let dir = format!("{home}/{REMOTE_SOCKET_DIR}");
    let socket = format!("{dir}/gatehouse.sock");
    target
        .run(
            &format!("mkdir -p {d} && chmod 700 {d}", d = quote(&dir)),
            None,
        )
        .map_err(|why| anyhow::anyhow!("making the socket folder {dir}: {why}"))?;
    step(&name, &format!("socket folder {dir} (mode 700)"));
    let agents = survey(&target, &exe, &name)?;
    let found: Vec<&AgentHere> = agents.iter().filter(|a| a.found).collect();
    if found.is_empty() {
        step(
            &name,
            "no agent found there: add it again once one is installed",
        );
    }
    let mut installed = Vec::new();
    for agent in found {
        let install = format!(
            "{} install {} --socket {} --host {} --ask-timeout {ask_timeout}",
            quote(&exe),
            agent.cli,
            quote(&socket),
            quote(&name)
        );
        let out = target
            .run(&install, None)
            .map_err(|why| anyhow::anyhow!("installing the {} hook there: {why}", agent.cli))?;
        for line in out.lines() {
            step(&name, line.trim_start_matches("gatehouse: "));
        }
        installed.push(agent.cli.clone());
    }
    let mut remotes = Remotes::load(folder)?;
    remotes.put(RemoteHost {
        name: name.clone(),
        target,
        exe,
        socket,
        agents: installed,
    });
    remotes.save()?;
    step(
        &name,
        &format!(
            "saved in {}; a running console or `gatehouse serve` starts its tunnel within \
             two seconds, and keeps it while it runs",
            remotes.path.display()
        ),
    );
    Ok(())
}

/// The remote gatehouse's survey of its agents, hooked for `name`.
fn survey(target: &Target, exe: &str, name: &str) -> Result<Vec<AgentHere>> {
    let out = target
        .run(
            &format!("{} remote here --host {}", quote(exe), quote(name)),
            None,
        )
        .map_err(|why| anyhow::anyhow!("asking the remote gatehouse for its agents: {why}"))?;
    Ok(here::parse(&out))
}

fn list(folder: &Path) -> Result<()> {
    let remotes = Remotes::load(folder)?;
    if remotes.hosts.is_empty() {
        println!("no remotes; add one with `gatehouse remote add [USER@]HOST`");
        return Ok(());
    }
    let states = state::folder(&gatehouse::plumbing::paths::state_dir());
    for host in &remotes.hosts {
        let tunnel = match state::read(&states, &host.name) {
            Some(written) => format!(
                "tunnel {} (console pid {})",
                written.link.words(),
                written.console_pid
            ),
            None => "tunnel down: no console is running".to_string(),
        };
        let agents = match host.agents.is_empty() {
            true => "no hooks".to_string(),
            false => format!("hooks: {}", host.agents.join(", ")),
        };
        println!(
            "{}\t{}\t{agents}\t{tunnel}",
            host.name,
            host.target.display()
        );
    }
    Ok(())
}

fn rm(folder: &Path, name: &str, forget: bool) -> Result<()> {
    let mut remotes = Remotes::load(folder)?;
    let Some(host) = remotes.find(name).cloned() else {
        bail!("no remote named {name:?}; `gatehouse remote list` shows them");
    };
    if !forget {
        for agent in &host.agents {
            let out = host
                .target
                .run(&format!("{} uninstall {agent}", quote(&host.exe)), None)
                .map_err(|why| {
                    anyhow::anyhow!(
                        "removing the {agent} hook on {}: {why}; when it cannot be reached, \
                         `gatehouse remote rm {name} --forget` only forgets it here",
                        host.target.display()
                    )
                })?;
            for line in out.lines() {
                step(name, line.trim_start_matches("gatehouse: "));
            }
        }
    }
    remotes.remove(name);
    remotes.save()?;
    step(
        name,
        &format!(
            "removed from {}; a running console stops its tunnel within two seconds",
            remotes.path.display()
        ),
    );
    Ok(())
}

fn doctor(folder: &Path, name: &str) -> Result<()> {
    let remotes = Remotes::load(folder)?;
    let Some(host) = remotes.find(name).cloned() else {
        bail!("no remote named {name:?}; `gatehouse remote list` shows them");
    };
    let mut failed = 0;
    let mut report = |ok: bool, what: String| {
        println!("{} {what}", if ok { "ok  " } else { "FAIL" });
        failed += usize::from(!ok);
    };
    let reached = reach(&host.target);
    report(
        reached.is_ok(),
        match &reached {
            Ok((_, arch)) => format!("ssh {} ({arch})", host.target.display()),
            Err(err) => format!("ssh {}: {err:#}", host.target.display()),
        },
    );
    if reached.is_ok() {
        let version = host
            .target
            .run(&format!("{} --version", quote(&host.exe)), None);
        let wanted = format!("gatehouse {}", env!("CARGO_PKG_VERSION"));
        report(
            version.as_ref().is_ok_and(|v| v.trim() == wanted),
            format!(
                "gatehouse there ({}): {}",
                host.exe,
                match &version {
                    Ok(v) => v.trim().to_string(),
                    Err(why) => why.clone(),
                }
            ),
        );
        let dir = Path::new(&host.socket)
            .parent()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let mode = host
            .target
            .run(&format!("stat -c %a {}", quote(&dir)), None);
        report(
            mode.as_ref().is_ok_and(|m| m.trim() == "700"),
            format!(
                "socket folder {dir}: {}",
                match &mode {
                    Ok(m) => format!("mode {}", m.trim()),
                    Err(why) => why.clone(),
                }
            ),
        );
        match survey(&host.target, &host.exe, name) {
            Ok(agents) => {
                for cli in &host.agents {
                    let hooked = agents.iter().any(|a| &a.cli == cli && a.hooked);
                    report(hooked, format!("{cli} hook with --host {name}"));
                }
            }
            Err(err) => report(false, format!("the agents there: {err:#}")),
        }
    }
    let states = state::folder(&gatehouse::plumbing::paths::state_dir());
    match state::read(&states, name) {
        Some(written) => report(
            matches!(written.link, state::Link::Up { .. }),
            format!("tunnel {}", written.link.words()),
        ),
        None => report(
            false,
            "tunnel: no console is running (start `gatehouse` or `gatehouse serve`)".into(),
        ),
    }
    if failed > 0 {
        bail!("{failed} check(s) failed for {name}");
    }
    Ok(())
}
