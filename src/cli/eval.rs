//! `gatehouse classifier eval FILE` and `gatehouse classifier eval --from-audit [AUDIT]`.

use std::path::Path;

use anyhow::{Context, Result, bail};

use gatehouse::classifier::ClassifierSetup;
use gatehouse::classifier::eval::{self, Label};
use gatehouse::config::Config;
use gatehouse::core::escape::visible;

/// Runs the labelled `file` through the configured classifiers as auto mode would, one line
/// per raced command and the summary last; or, with `from_audit`, prints a labelled file made
/// from the audit log (`file`, or the config's).
pub fn eval(config: Option<&Path>, file: Option<&Path>, from_audit: bool) -> Result<()> {
    let config = Config::load(config)?;
    if from_audit {
        let path = file.unwrap_or(&config.audit_log);
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the audit log {}", path.display()))?;
        print!("{}", eval::from_audit(&text));
        return Ok(());
    }
    let Some(file) = file else {
        bail!("name the labelled file to run (command<TAB>label per line)");
    };
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let (lines, skipped) = eval::parse(&text);
    if skipped > 0 {
        println!("skipped {skipped} lines that are not command<TAB>read_only|write");
    }
    let setup = ClassifierSetup::from_env(&config.classifier);
    println!("{}", setup.describe());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let Some(panel) = runtime
        .block_on(async { setup.start() })
        .map_err(|e| anyhow::anyhow!(e))?
    else {
        bail!("{}", setup.describe());
    };
    let rules = &config.settings.rules;
    let summary = runtime.block_on(eval::run(&panel, rules, &lines, |line, allowed, said| {
        let label = match line.label {
            Label::ReadOnly => "read_only",
            Label::Write => "write",
        };
        let outcome = if allowed { "allowed" } else { "human" };
        println!(
            "{outcome}\t{label}\t{}\t{}",
            visible(said),
            visible(&line.command)
        );
    }));
    println!("{}", summary.line());
    Ok(())
}
