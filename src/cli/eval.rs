//! `gatehouse classifier eval FILE` and `gatehouse classifier eval --from-audit [AUDIT]`.
//!
//! Both write to stdout as they go; when stdout goes away (`| head`) they stop quietly.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::Path;

use anyhow::{Context, Result, bail};

use gatehouse::classifier::ClassifierSetup;
use gatehouse::classifier::eval::{self, Label, audit::Report};
use gatehouse::config::Config;
use gatehouse::core::escape::visible;

/// Runs the labelled `file` through the configured classifiers as auto mode would, one line
/// per raced command and the summary last; or, with `from_audit`, prints a labelled file made
/// from the audit log (`file`, or the config's).
pub fn eval(config: Option<&Path>, file: Option<&Path>, from_audit: bool) -> Result<()> {
    let config = Config::load(config)?;
    let mut out = Out::default();
    if from_audit {
        let path = file.unwrap_or(&config.audit_log);
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the audit log {}", path.display()))?;
        return out.print(&Report::of(&text).render());
    }
    let Some(file) = file else {
        bail!("name the labelled file to run (command<TAB>label per line)");
    };
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let parsed = eval::parse(&text);
    if parsed.skipped > 0 {
        out.print(&format!(
            "skipped {} lines that are not command<TAB>read_only|write\n",
            parsed.skipped
        ))?;
    }
    if parsed.unlabelled > 0 {
        out.print(&format!(
            "left out {} unlabelled lines: label each read_only or write to count it\n",
            parsed.unlabelled
        ))?;
    }
    let setup = ClassifierSetup::from_env(&config.classifier);
    out.print(&format!("{}\n", setup.describe()))?;
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
    let summary = runtime.block_on(eval::run(&panel, rules, &parsed.lines, |line, outcome| {
        let label = match line.label {
            Label::ReadOnly => "read_only",
            Label::Write => "write",
        };
        let what = match outcome {
            eval::Outcome::Allowed => "allowed",
            _ => "human",
        };
        let said = outcome.said();
        let row = format!(
            "{what}\t{label}\t{}\t{}\n",
            visible(&said),
            visible(&line.command)
        );
        match out.print(&row) {
            Ok(()) if !out.closed => ControlFlow::Continue(()),
            _ => ControlFlow::Break(()),
        }
    }));
    out.print(&format!("{}\n", summary.line()))
}

/// Stdout, which a reader may close: after that, nothing more is written and it is no error.
#[derive(Default)]
struct Out {
    closed: bool,
}

impl Out {
    fn print(&mut self, text: &str) -> Result<()> {
        if self.closed {
            return Ok(());
        }
        let mut stdout = io::stdout().lock();
        match stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush())
        {
            Ok(()) => Ok(()),
            Err(err) if err.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            Err(err) => Err(err).context("writing to stdout"),
        }
    }
}
