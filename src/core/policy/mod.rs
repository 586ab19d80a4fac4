//! Files of rules and how they combine. Each file is optional: the machine-wide floor, the
//! user's config (`[[rule]]` tables), the saved rules the console writes, and the project's
//! `.gatehouse.toml`. Within a file the first matching rule wins; across files the strictest
//! ruling of the matching rules wins (deny over ask over allow), so no file can loosen another.
//! The floor and an untrusted project file can only tighten: their allows are set aside when
//! they are loaded. Reading the files is [`load`] (bounded by [`read`]); which project files
//! govern a call is [`place`]; the trusted project files are [`trust`]; their syntax is
//! [`file`]; writing the user's own safely is [`write`].

pub mod file;
pub mod hits;
mod in_memory;
pub mod load;
pub mod place;
pub mod read;
pub mod trust;
mod unknown;
pub mod write;

use std::fmt;
use std::path::{Path, PathBuf};

use super::mode::Mode;
use super::rule::{Rule, Ruling, Subject};
use super::shell::Command;

/// Which kind of file a rule came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Layer {
    /// The machine-wide floor (`/etc/gatehouse/policy.toml`): only tightens, nobody lifts it.
    Floor,
    /// The user's config file.
    User,
    /// The saved rules the console and `gatehouse rules add` write.
    Saved,
    /// The repository's `.gatehouse.toml`: only tightens unless the user trusted it.
    Project,
    /// An "allow always" the human kept in the console's memory until it quits: judged as a
    /// saved rule is, never written anywhere, so only that console sees it.
    Memory,
}

impl Layer {
    pub fn name(self) -> &'static str {
        match self {
            Layer::Floor => "floor",
            Layer::User => "user",
            Layer::Saved => "saved",
            Layer::Project => "project",
            Layer::Memory => "in-memory",
        }
    }
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether a file's allow rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Trust {
    /// The user's own files: every rule applies.
    Own,
    /// A project file the user trusted by its hash: every rule applies.
    Trusted,
    /// A project file not trusted (or changed since): its allows are set aside.
    Untrusted,
    /// The floor: its allows are always set aside.
    FloorOnly,
}

impl Trust {
    /// True when the file's allow rules are set aside.
    pub fn tightens_only(self) -> bool {
        match self {
            Trust::Own | Trust::Trusted => false,
            Trust::Untrusted | Trust::FloorOnly => true,
        }
    }
}

/// One loaded file of rules.
#[derive(Debug, Clone)]
pub struct RuleFile {
    pub layer: Layer,
    /// `None` for rules given in memory (tests, `explain` without files).
    pub path: Option<PathBuf>,
    pub trust: Trust,
    /// The rules in force, in file order.
    pub rules: Vec<Rule>,
    /// Allow rules set aside because the file may only tighten.
    pub ignored: Vec<Rule>,
    /// The most open mode calls under this file may be routed in (project and floor only).
    pub ceiling: Option<Mode>,
    /// For a project file, the folder it governs (where relative globs start).
    pub root: Option<PathBuf>,
    /// Credential paths the file adds (`sensitive_paths`); none can be removed.
    pub sensitive: Vec<String>,
}

impl RuleFile {
    /// A file of `rules`, of which those the trust level sets aside are moved to `ignored`.
    pub fn new(layer: Layer, path: Option<PathBuf>, trust: Trust, rules: Vec<Rule>) -> RuleFile {
        let (ignored, rules) = rules
            .into_iter()
            .partition(|r| trust.tightens_only() && r.ruling == Ruling::Allow);
        RuleFile {
            layer,
            path,
            trust,
            rules,
            ignored,
            ceiling: None,
            root: None,
            sensitive: Vec::new(),
        }
    }

    /// Where the file is, for people: its path, or its layer when it has none.
    pub fn origin(&self) -> String {
        match &self.path {
            Some(path) => path.display().to_string(),
            None if self.layer == Layer::Memory => "the console's memory (until it quits)".into(),
            None => format!("{} rules", self.layer),
        }
    }

    fn first(
        &self,
        (root, host): (Option<&Path>, Option<&str>),
        covers: impl Fn(&Rule) -> bool,
    ) -> Option<&Rule> {
        self.rules
            .iter()
            .find(|r| r.applies_in(root, host) && covers(r))
    }
}

/// The rule that decided, and its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub layer: Layer,
    pub path: Option<PathBuf>,
    pub rule: Rule,
}

impl Hit {
    fn of(file: &RuleFile, rule: &Rule) -> Hit {
        Hit {
            layer: file.layer,
            path: file.path.clone(),
            rule: rule.clone(),
        }
    }

    /// `rule no-push (deny prefix "git push") in /repo/.gatehouse.toml`.
    pub fn describe(&self) -> String {
        let place = match &self.path {
            Some(path) => path.display().to_string(),
            None => format!("the {} rules", self.layer),
        };
        format!("rule {} ({}) in {place}", self.rule.id, self.rule.summary())
    }
}

/// What the files in force say about one call.
#[derive(Debug, Clone, Default)]
pub struct Judgement {
    /// The strictest rule matching the call as a whole (its tool, MCP tool or edited file).
    pub call: Option<Hit>,
    /// For a shell call, the strictest rule matching each command, in order.
    pub commands: Vec<Option<Hit>>,
    /// The mode ceilings in force, each with the file that set it: a call is routed no more
    /// openly than any of them would route it.
    pub ceilings: Vec<(Mode, PathBuf)>,
    /// Why the call could not be placed in a project (no usable cwd), for which it is asked.
    pub unplaced: Option<String>,
    /// The credential paths the files in force add (`sensitive_paths`).
    pub sensitive: Vec<String>,
    /// The call's project root (its `.gatehouse.toml`'s folder, else its git root), where a
    /// rule saved "for this project" from its dialog applies; `None`: it is in no project.
    pub root: Option<PathBuf>,
}

impl Judgement {
    /// The strictest hit of all, if any rule matched.
    pub fn strictest(&self) -> Option<&Hit> {
        self.commands
            .iter()
            .flatten()
            .chain(self.call.as_ref())
            .max_by_key(|h| h.rule.ruling)
    }
}

/// Of the files' first matches, the strictest; ties go to the earlier file.
fn strictest<'a>(
    files: &'a [&'a RuleFile],
    place: (Option<&Path>, Option<&str>),
    covers: impl Fn(&Rule, &RuleFile) -> bool,
) -> Option<(&'a RuleFile, &'a Rule)> {
    let mut best: Option<(&RuleFile, &Rule)> = None;
    // An expired rule no longer matches: the next one in its file may.
    let now = std::time::SystemTime::now();
    for file in files {
        if let Some(rule) = file.first(place, |r| r.live_at(now) && covers(r, file))
            && best.is_none_or(|(_, b)| rule.ruling > b.ruling)
        {
            best = Some((file, rule));
        }
    }
    best
}

/// Judges a call against `files`: `commands` are its shell commands (empty for other tools).
pub fn judge(files: &[&RuleFile], subject: &Subject<'_>, commands: &[Command]) -> Judgement {
    let place = (subject.root, subject.host);
    // A project file's relative globs start at its own folder, which for a project around a
    // nested repository is not the call's root.
    let covers_call = |r: &Rule, file: &RuleFile| {
        let subject = Subject {
            root: file.root.as_deref().or(subject.root),
            ..*subject
        };
        r.matcher.covers_call(&subject)
    };
    let call = strictest(files, place, covers_call).map(|(f, r)| Hit::of(f, r));
    let commands = commands
        .iter()
        .map(|c| strictest(files, place, |r, _| r.covers_command(c)).map(|(f, r)| Hit::of(f, r)))
        .collect();
    let ceilings = files
        .iter()
        .filter_map(|f| Some((f.ceiling?, f.path.clone().unwrap_or_default())))
        .collect();
    let sensitive = files.iter().flat_map(|f| f.sensitive.clone()).collect();
    Judgement {
        call,
        commands,
        ceilings,
        unplaced: None,
        sensitive,
        root: None,
    }
}

/// The project root a file at `path` governs: its folder.
pub fn root_of(path: &Path) -> Option<PathBuf> {
    path.parent().map(Path::to_path_buf)
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
