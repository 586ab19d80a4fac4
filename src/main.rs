//! The `gatehouse` command line: parses arguments, loads config, and wires the library's parts.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};

use gatehouse::config::Config;
use gatehouse::explain;

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

    #[command(subcommand)]
    command: Command,
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

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("gatehouse: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
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
        Command::Classifier {
            action: ClassifierCommand::Test { line },
        } => classifier_test(cli.config.as_deref(), &line),
    }
}

/// `gatehouse classifier test LINE`: one question to the model, past the cache and breaker.
fn classifier_test(config: Option<&std::path::Path>, line: &str) -> Result<()> {
    use gatehouse::classifier::{ClassifierSetup, ModelClassifier};
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
