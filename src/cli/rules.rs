//! `gatehouse rules`: list the rules in force for a folder, add and remove saved rules (or add
//! to the project's `.gatehouse.toml`), check which rule a command meets, trust a project's
//! policy by its hash, and print the rules the audit log's answers support.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Subcommand, ValueEnum};

use gatehouse::config::Config;
use gatehouse::core::policy::file::parse_file;
use gatehouse::core::policy::hits::Hits;
use gatehouse::core::policy::load::{PROJECT_FILE, find_project, git_root, trust, write_atomic};
use gatehouse::core::policy::{RuleFile, Trust};
use gatehouse::core::rule::{Learned, Match, Rule, Ruling};
use gatehouse::core::rules::Pattern;

#[derive(Subcommand)]
pub enum RulesCommand {
    /// List every rule in force for a folder: floor, user, saved, project, with each file.
    /// Not the rules a running console keeps in memory until it quits (its `s` panel lists them).
    List {
        /// The folder whose project policy counts (default: the current one).
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
    },
    /// Add a rule: to your saved rules (everyone) or to the project's .gatehouse.toml.
    Add {
        #[arg(value_enum)]
        verdict: VerdictArg,
        /// What it matches: shell words by default (`git push`), see --match.
        pattern: String,
        /// How PATTERN matches: a shell prefix, an exact command, a tool, an edit glob, an MCP tool.
        #[arg(long = "match", value_enum, default_value_t = MatchArg::Prefix)]
        matches: MatchArg,
        /// Sent to the model when the rule denies.
        #[arg(long)]
        reason: Option<String>,
        #[arg(long, value_enum, default_value_t = RuleScope::User)]
        scope: RuleScope,
        /// The rule's id (default: made from the pattern).
        #[arg(long)]
        id: Option<String>,
        /// The folder whose project gets a --scope project rule (default: the current one).
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
    },
    /// Remove a saved rule by its id.
    Rm { id: String },
    /// Which rule a shell line meets in a folder, and what each mode does with it.
    Check {
        line: String,
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
    },
    /// Trust the project policy of a folder as it is now: its allows count until it changes.
    Trust { dir: Option<PathBuf> },
    /// Print the rules your answers in the audit log support (see suggest_after).
    Suggest {
        /// The audit log to read (default: the config's).
        #[arg(long, value_name = "FILE")]
        audit: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum VerdictArg {
    Allow,
    Ask,
    Deny,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum MatchArg {
    Prefix,
    Command,
    Tool,
    Edit,
    Mcp,
    /// The read tools' reads of files matching a glob (`~/.aws/config`): the one allow that
    /// lets a read tool show a credential.
    Read,
    /// Shell commands that only reach a host (`api.github.com`, `*.github.com`).
    Network,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum RuleScope {
    /// Your saved rules, for every project.
    User,
    /// The .gatehouse.toml of the current project (its trust is asked again).
    Project,
}

pub fn run(config: Option<&Path>, command: RulesCommand) -> Result<()> {
    let config = Config::load(config)?;
    let mut out = std::io::stdout().lock();
    match command {
        RulesCommand::List { cwd } => list(&config, &folder(cwd)?, &mut out),
        RulesCommand::Add {
            verdict,
            pattern,
            matches,
            reason,
            scope,
            id,
            cwd,
        } => {
            let rule = new_rule(verdict, &pattern, matches, reason, id)?;
            match scope {
                RuleScope::User => {
                    let id = config.settings.rules.policy.save(rule)?;
                    let path = config.settings.rules.policy.paths().saved.clone();
                    writeln!(out, "saved rule {id} in {}", shown(path.as_deref()))?;
                }
                RuleScope::Project => add_to_project(&folder(cwd)?, rule, &mut out)?,
            }
            Ok(())
        }
        RulesCommand::Rm { id } => {
            if !config.settings.rules.policy.unsave(&id)? {
                bail!("no saved rule has the id {id:?}; `gatehouse rules list` shows the ids");
            }
            writeln!(out, "removed saved rule {id}")?;
            Ok(())
        }
        RulesCommand::Check { line, cwd } => {
            let cwd = folder(cwd)?;
            let rules = &config.settings.rules;
            let explained =
                gatehouse::explain::explain_in(&line, rules, &cwd.display().to_string());
            if explained.assessment.rule.is_none() {
                writeln!(
                    out,
                    "no [[rule]] matches; static analysis and the mode decide"
                )?;
            }
            write!(out, "{}", explained.to_text())?;
            Ok(())
        }
        RulesCommand::Trust { dir } => {
            let dir = folder(dir)?;
            let Some(file) = find_project(&dir, gatehouse::plumbing::paths::home().as_deref())
            else {
                bail!(
                    "no {PROJECT_FILE} from {} up to its git root",
                    dir.display()
                );
            };
            let list = config.settings.rules.policy.paths().trust.clone();
            let list = list.context("no config folder is known to keep the trust list in")?;
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            parse_file(
                &text,
                &file,
                gatehouse::core::policy::Layer::Project,
                Trust::Trusted,
                &gatehouse::agents::registry::edit_tools(),
            )?;
            let digest =
                trust(&list, &file).with_context(|| format!("writing {}", list.display()))?;
            writeln!(
                out,
                "trusted {} (sha256 {}); its allows count until the file changes",
                file.display(),
                &digest[..16]
            )?;
            Ok(())
        }
        RulesCommand::Suggest { audit } => {
            let path = audit.unwrap_or(config.audit_log.clone());
            let n = config.suggest_after.max(1);
            let suggestions = gatehouse::core::learn::from_audit_file(&path, n as usize)
                .with_context(|| format!("reading the audit log {}", path.display()))?;
            if suggestions.is_empty() {
                writeln!(out, "no shape was answered the same way {n} times yet")?;
            }
            for s in suggestions {
                writeln!(out, "{}", s.describe())?;
            }
            Ok(())
        }
    }
}

fn folder(dir: Option<PathBuf>) -> Result<PathBuf> {
    let dir = match dir {
        Some(dir) => dir,
        None => std::env::current_dir().context("finding the current folder")?,
    };
    std::fs::canonicalize(&dir).with_context(|| format!("no folder {}", dir.display()))
}

fn shown(path: Option<&Path>) -> String {
    path.map(|p| p.display().to_string()).unwrap_or_default()
}

fn new_rule(
    verdict: VerdictArg,
    pattern: &str,
    matches: MatchArg,
    reason: Option<String>,
    id: Option<String>,
) -> Result<Rule> {
    let pattern = pattern.trim();
    if pattern.is_empty() {
        bail!("the pattern is empty; give the words, tool or glob the rule matches");
    }
    let ruling = match verdict {
        VerdictArg::Allow => Ruling::Allow,
        VerdictArg::Ask => Ruling::Ask,
        VerdictArg::Deny => Ruling::Deny,
    };
    let matcher = match matches {
        MatchArg::Prefix => Match::Prefix(Pattern::new(pattern)),
        MatchArg::Command => Match::Command(Pattern::new(pattern)),
        MatchArg::Tool => Match::Tool(pattern.into()),
        MatchArg::Edit => Match::Edit(pattern.into()),
        MatchArg::Mcp => Match::Mcp(pattern.into()),
        MatchArg::Read => Match::Read(pattern.into()),
        MatchArg::Network => match gatehouse::core::shell::reach::host_pattern_error(pattern) {
            Some(why) => anyhow::bail!("{why}"),
            None => Match::Network(pattern.into()),
        },
    };
    let id = id.unwrap_or_else(|| slug(ruling, pattern));
    let rule = Rule {
        id,
        matcher,
        ruling,
        reason,
        learned: Learned::default(),
        line: None,
        project: None,
        host: None,
        expires: None,
    };
    // The file's own checks (no allow for a writer, a sane id) say what is wrong, with a fix.
    let text = gatehouse::core::policy::file::render(std::slice::from_ref(&rule));
    parse_file(
        &text,
        Path::new("the new rule"),
        gatehouse::core::policy::Layer::Saved,
        Trust::Own,
        &gatehouse::agents::registry::edit_tools(),
    )?;
    Ok(rule)
}

/// `deny-git-push` from `deny` and `git push`.
fn slug(ruling: Ruling, pattern: &str) -> String {
    let words: String = pattern
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let words: Vec<&str> = words.split('-').filter(|w| !w.is_empty()).take(4).collect();
    format!("{}-{}", ruling.name(), words.join("-"))
}

/// Appends `rule` to the project's policy file (made at the git root if there is none).
fn add_to_project(dir: &Path, rule: Rule, out: &mut impl Write) -> Result<()> {
    let home = gatehouse::plumbing::paths::home();
    let file = match find_project(dir, home.as_deref()) {
        Some(file) => file,
        None => git_root(dir, home.as_deref())
            .context("not in a git repository: a project rule needs one (or use --scope user)")?
            .join(PROJECT_FILE),
    };
    let old = std::fs::read_to_string(&file).unwrap_or_default();
    let existing = parse_file(
        &old,
        &file,
        gatehouse::core::policy::Layer::Project,
        Trust::Trusted,
        &gatehouse::agents::registry::edit_tools(),
    )?;
    let mut rule = rule;
    rule.id = gatehouse::core::policy::load::unique_id(&rule.id, &existing.rules);
    let table = gatehouse::core::policy::file::render(std::slice::from_ref(&rule));
    let table = table
        .split_once("[[rule]]")
        .map(|(_, t)| t)
        .unwrap_or_default();
    let text = format!("{}\n[[rule]]{table}", old.trim_end());
    parse_file(
        &text,
        &file,
        gatehouse::core::policy::Layer::Project,
        Trust::Trusted,
        &gatehouse::agents::registry::edit_tools(),
    )?;
    write_atomic(&file, text.trim_start())
        .with_context(|| format!("writing {}", file.display()))?;
    writeln!(out, "added rule {} to {}", rule.id, file.display())?;
    if rule.ruling == Ruling::Allow {
        writeln!(
            out,
            "an allow in a project counts only once trusted: `gatehouse rules trust`"
        )?;
    }
    Ok(())
}

fn list(config: &Config, dir: &Path, out: &mut impl Write) -> Result<()> {
    let rules = &config.settings.rules;
    let in_force = rules.policy.in_force(&dir.display().to_string());
    if let Some(err) = &in_force.broken {
        writeln!(out, "BROKEN (every call under it is refused): {err}")?;
    }
    if !rules.denied_commands.is_empty() || !rules.safe_commands.is_empty() {
        writeln!(out, "user config {}", shown(config.source.as_deref()))?;
        for p in &rules.denied_commands {
            writeln!(out, "  denied_commands  deny prefix {:?}", p.as_str())?;
        }
        for p in &rules.safe_commands {
            writeln!(out, "  safe_commands    allow prefix {:?}", p.as_str())?;
        }
    }
    // Hits come from the audit log, as in the console's panel: across runs, the same figure.
    let hits = Hits::read(&config.audit_log);
    for file in &in_force.files {
        write_file(file, &hits, out)?;
    }
    if in_force.files.is_empty()
        && rules.denied_commands.is_empty()
        && rules.safe_commands.is_empty()
    {
        writeln!(out, "no rules in force for {}", dir.display())?;
    }
    // Another process's memory is not readable from here: say so rather than seem complete.
    writeln!(
        out,
        "(an allow kept \"until gatehouse quits\" lives only in that console's memory: its rules panel, s, lists it)"
    )?;
    Ok(())
}

fn write_file(file: &RuleFile, hits: &Hits, out: &mut impl Write) -> Result<()> {
    let trust = match file.trust {
        Trust::Own => "",
        Trust::Trusted => " (trusted)",
        Trust::Untrusted => " (not trusted: only tightens; `gatehouse rules trust`)",
        Trust::FloorOnly => " (machine floor: only tightens)",
    };
    writeln!(out, "{} {}{trust}", file.layer, file.origin())?;
    if let Some(ceiling) = file.ceiling {
        writeln!(out, "  mode_ceiling     {ceiling}")?;
    }
    let now = std::time::SystemTime::now();
    for rule in &file.rules {
        let hits = hits.get(&file.origin(), &rule.id);
        let line = rule.line.map(|l| format!("  line {l}")).unwrap_or_default();
        writeln!(
            out,
            "  {:<16} {}{}{line}  hits {hits}",
            rule.id,
            rule.summary(),
            rule.expiry_words(now)
        )?;
    }
    for rule in &file.ignored {
        writeln!(
            out,
            "  {:<16} {}  (ignored: allows here need trust)",
            rule.id,
            rule.summary()
        )?;
    }
    Ok(())
}
