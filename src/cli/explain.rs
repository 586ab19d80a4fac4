//! The one-shot questions: `gatehouse explain` (what gatehouse makes of a shell line) and
//! `gatehouse classifier test` (one question to the configured model).

use std::io::{self, BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};

use gatehouse::classifier::{ClassifierSetup, ModelClassifier};
use gatehouse::config::Config;
use gatehouse::explain;

/// `gatehouse explain [LINE] [--json] [--batch]`.
pub fn explain(config: Option<&Path>, line: Option<String>, json: bool, batch: bool) -> Result<()> {
    let config = Config::load(config)?;
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
    let cwd = std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    let explained = explain::explain_in(&line, rules, &cwd);
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

/// `gatehouse classifier test LINE`: one question to the model, past the cache and breaker.
pub fn classifier_test(config: Option<&Path>, line: &str) -> Result<()> {
    use gatehouse::core::escape::visible;

    let config = Config::load(config)?;
    let setup = ClassifierSetup::from_env(&config.classifier);
    let models = setup.models();
    if models.is_empty() {
        bail!("{}", setup.describe());
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    println!("{}", setup.describe());
    for ready in models {
        let model = ModelClassifier::new(ready).map_err(|e| anyhow::anyhow!(e))?;
        if setup.models().len() > 1 {
            println!("{}:", model.name());
        }
        let probe = runtime
            .block_on(model.probe(line))
            // The error can carry the model server's body: shown as escapes, on one line.
            .map_err(|e| anyhow::anyhow!("asking the model: {}", visible(&format!("{e:#}"))))?;
        println!("answer:  \"{}\"", visible(&probe.raw));
        match &probe.assessment {
            Ok(assessment) => println!("assessment: {}", visible(&assessment.to_string())),
            Err(why) => println!("assessment: unsure ({why})"),
        }
        println!("took:    {} ms", probe.took.as_millis());
    }
    Ok(())
}
