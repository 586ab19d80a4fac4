//! The files of rules in force, read from disk and kept fresh: the user's rules are read at
//! start; the machine-wide floor, the saved rules and each project's `.gatehouse.toml` are read
//! again whenever the file (or the trust list) changes on disk, so an edited floor,
//! `gatehouse rules add` and `gatehouse rules trust` reach a running console, and a floor that
//! turns unreadable refuses calls rather than dropping out. Also the trust list, and how often each
//! rule decided. Each change of a file on disk re-reads it under its lock (`policy::write`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use super::file::{PolicyError, parse_file, render};
pub use super::place::{PROJECT_FILE, find_project, git_root, project_and_root};
use super::place::{standing, unplaced};
use super::read::{Parsed, read_bounded};
use super::trust::trusted_digest;
pub use super::trust::{trust, trusted};
pub use super::write::write_atomic;
use super::write::{lock as lock_file, write_private};
use super::{Judgement, Layer, RuleFile, Trust, judge};
use crate::core::mode::Mode;
use crate::core::rule::{Rule, Subject};
use crate::core::shell::Command;

/// The machine-wide floor, unless `GATEHOUSE_POLICY` names another file.
pub const FLOOR_FILE: &str = "/etc/gatehouse/policy.toml";

/// Where the policy's files are.
#[derive(Debug, Clone, Default)]
pub struct PolicyPaths {
    pub floor: Option<PathBuf>,
    /// The floor was named (`GATEHOUSE_POLICY`) rather than looked for at its usual place:
    /// then a missing file is an error, not a machine without a floor.
    pub floor_required: bool,
    /// The saved rules (`$XDG_CONFIG_HOME/gatehouse/rules.toml`).
    pub saved: Option<PathBuf>,
    /// The trusted project files and their hashes (`…/gatehouse/trusted.toml`).
    pub trust: Option<PathBuf>,
    /// The search for a project file stops here as well as at a git root.
    pub home: Option<PathBuf>,
}

/// A file's inode, size and times, to notice when it changed (an atomic write is a new inode;
/// an edit in place changes the modification and status-change times).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp(Option<(SystemTime, (i64, i64), u64, u64)>);

impl Stamp {
    fn of(path: &Path) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        Stamp(std::fs::metadata(path).ok().map(|m| {
            let modified = m.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            (modified, (m.ctime(), m.ctime_nsec()), m.len(), m.ino())
        }))
    }
}

type Loaded = Result<Arc<RuleFile>, PolicyError>;

/// A project file as last read: its stamp and the trust list's, and what came of it.
type CachedProject = ((Stamp, Stamp), Loaded);

/// Every file of rules in force, shared by the barrier, the console and the command line.
#[derive(Debug, Default)]
pub struct Policy {
    paths: PolicyPaths,
    edit_tools: Vec<String>,
    /// The floor given in memory; a floor file is kept in `floor_file` instead.
    floor: Option<Arc<RuleFile>>,
    floor_file: Mutex<Option<(Stamp, Loaded)>>,
    user: Option<Arc<RuleFile>>,
    saved: Mutex<Option<(Stamp, Loaded)>>,
    projects: Mutex<HashMap<PathBuf, CachedProject>>,
    /// Rules kept only in memory until the console quits (`policy::in_memory`).
    pub(super) in_memory: Mutex<Option<Arc<RuleFile>>>,
    /// A lock per project file, held while it is read and parsed.
    reading: Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>,
    parsed: Parsed,
}

/// The files that apply to one call.
#[derive(Debug, Clone, Default)]
pub struct InForce {
    pub files: Vec<Arc<RuleFile>>,
    /// The call's project root: the folder of its `.gatehouse.toml`, else its git root.
    pub root: Option<PathBuf>,
    /// A project file or saved-rules file that cannot be read: the call is refused.
    pub broken: Option<PolicyError>,
    /// Why the call cannot be placed in a project (no usable cwd): it is asked in every mode.
    pub unplaced: Option<String>,
}

impl Policy {
    /// Reads the floor and the saved rules; `user` are the config's `[[rule]]` tables. A bad
    /// floor or saved-rules file is an error, never quietly skipped.
    pub fn load(
        paths: PolicyPaths,
        user: Vec<Rule>,
        user_path: Option<PathBuf>,
        edit_tools: Vec<String>,
    ) -> Result<Policy, PolicyError> {
        let user = (!user.is_empty())
            .then(|| Arc::new(RuleFile::new(Layer::User, user_path, Trust::Own, user)));
        let policy = Policy {
            paths,
            edit_tools,
            user,
            ..Policy::default()
        };
        if let Some(Err(err)) = policy.floor() {
            return Err(err);
        }
        if let Some(Err(err)) = policy.saved() {
            return Err(err);
        }
        Ok(policy)
    }

    /// Rules given in memory, for tests and tools that read no files.
    pub fn of_files(floor: Option<RuleFile>, user: Option<RuleFile>) -> Policy {
        Policy {
            floor: floor.map(Arc::new),
            user: user.map(Arc::new),
            ..Policy::default()
        }
    }

    pub fn paths(&self) -> &PolicyPaths {
        &self.paths
    }

    /// The floor, read again if its file changed: a floor edited while the console runs holds
    /// from the next call, and one that can no longer be read or parsed (or, when it was
    /// named, is gone) is the error that refuses every call, never a call judged without it.
    fn floor(&self) -> Option<Loaded> {
        let Some(path) = self.paths.floor.as_ref() else {
            return self.floor.clone().map(Ok);
        };
        let required = self.paths.floor_required;
        let missing = move |path: &Path| required.then(|| Err(missing_floor(path)));
        self.fresh(
            &self.floor_file,
            path,
            (Layer::Floor, Trust::FloorOnly),
            missing,
        )
    }

    /// The saved rules, read again if the file changed.
    fn saved(&self) -> Option<Loaded> {
        let path = self.paths.saved.as_ref()?;
        self.fresh(&self.saved, path, (Layer::Saved, Trust::Own), |_| None)
    }

    /// The file at `path` as `cache` keeps it, read and parsed again when its stamp changed;
    /// `missing` says what a file that is not there is.
    fn fresh(
        &self,
        cache: &Mutex<Option<(Stamp, Loaded)>>,
        path: &Path,
        how: (Layer, Trust),
        missing: impl Fn(&Path) -> Option<Loaded>,
    ) -> Option<Loaded> {
        let stamp = Stamp::of(path);
        {
            let mut kept = lock(cache);
            let gone = || {
                std::fs::metadata(path).is_err_and(|err| err.kind() == std::io::ErrorKind::NotFound)
            };
            if stamp.0.is_none() && gone() {
                *kept = None;
                return missing(path);
            }
            if let Some((old, loaded)) = kept.as_ref()
                && *old == stamp
            {
                return Some(loaded.clone());
            }
        }
        let loaded = read_bounded(path).and_then(|bytes| {
            let digest = hash(&bytes);
            self.parsed
                .parse(path, (&bytes, &digest), how, &self.edit_tools, |_| {})
        });
        *lock(cache) = Some((stamp, loaded.clone()));
        Some(loaded)
    }

    /// A project file, read again if it or the trust list changed (and parsed again only if
    /// its content or its trust did). No lock is held while it is read and parsed.
    fn project(&self, path: &Path) -> Loaded {
        let stamps = (
            Stamp::of(path),
            self.paths.trust.as_deref().map_or(Stamp(None), Stamp::of),
        );
        if let Some((old, loaded)) = lock(&self.projects).get(path)
            && *old == stamps
        {
            return loaded.clone();
        }
        // One read and parse of a file at a time: another call under the same project waits
        // for it and takes what it found, and calls under other projects do not wait at all.
        let reading = lock(&self.reading)
            .entry(path.to_path_buf())
            .or_default()
            .clone();
        let _reading = lock(&reading);
        if let Some((old, loaded)) = lock(&self.projects).get(path)
            && *old == stamps
        {
            return loaded.clone();
        }
        let loaded = read_bounded(path).and_then(|bytes| {
            let digest = hash(&bytes);
            let trust = match self.paths.trust.as_deref() {
                Some(list) if trusted_digest(list, path, &digest) => Trust::Trusted,
                _ => Trust::Untrusted,
            };
            let how = (Layer::Project, trust);
            self.parsed
                .parse(path, (&bytes, &digest), how, &self.edit_tools, |file| {
                    file.root = path.parent().map(Path::to_path_buf);
                })
        });
        lock(&self.projects).insert(path.to_path_buf(), (stamps, loaded.clone()));
        loaded
    }

    /// True when every file a call made in `cwd` is judged under is kept as it is on disk, so
    /// that judging it reads and parses nothing and may run where calls arrive; false when one
    /// must be read first, which a large file makes slow (up to a second or more).
    pub fn ready_for(&self, cwd: &str) -> bool {
        if !self.base_ready() {
            return false;
        }
        if unplaced(cwd).is_some() {
            return true;
        }
        let trust = self.paths.trust.as_deref().map_or(Stamp(None), Stamp::of);
        let files = standing(Path::new(cwd), self.paths.home.as_deref()).files;
        let stamps: Vec<(PathBuf, Stamp)> = files
            .into_iter()
            .map(|path| {
                let stamp = Stamp::of(&path);
                (path, stamp)
            })
            .collect();
        let projects = lock(&self.projects);
        stamps.iter().all(|(path, stamp)| {
            projects
                .get(path)
                .is_some_and(|(old, _)| *old == (*stamp, trust))
        })
    }

    /// True when the floor and the saved rules are kept as they are on disk.
    fn base_ready(&self) -> bool {
        let kept = |cache: &Mutex<Option<(Stamp, Loaded)>>, path: &Path| {
            let stamp = Stamp::of(path);
            stamp.0.is_none() || lock(cache).as_ref().is_some_and(|(old, _)| *old == stamp)
        };
        let floor = self.paths.floor.as_deref();
        let saved = self.paths.saved.as_deref();
        floor.is_none_or(|path| kept(&self.floor_file, path))
            && saved.is_none_or(|path| kept(&self.saved, path))
    }

    /// The files that apply to a call made in `cwd`: floor, user, saved, then the project's.
    pub fn in_force(&self, cwd: &str) -> InForce {
        let mut out = self.base();
        if let Some(why) = unplaced(cwd) {
            out.unplaced = Some(why);
            return out;
        }
        let standing = standing(Path::new(cwd), self.paths.home.as_deref());
        out.root = standing.root;
        for path in standing.files {
            match self.project(&path) {
                Ok(file) => out.files.push(file),
                Err(err) => out.broken = out.broken.or(Some(err)),
            }
        }
        out
    }

    /// The files that apply to every call, wherever it was made: floor, user, saved.
    fn base(&self) -> InForce {
        let mut out = InForce::default();
        match self.floor() {
            Some(Ok(file)) => out.files.push(file),
            Some(Err(err)) => out.broken = Some(err),
            None => {}
        }
        out.files.extend(self.user.clone());
        match self.saved() {
            Some(Ok(file)) => out.files.push(file),
            Some(Err(err)) => out.broken = out.broken.or(Some(err)),
            None => {}
        }
        out.files.extend(lock(&self.in_memory).clone());
        out
    }

    /// Judges a call made in `cwd`; an unreadable project or saved-rules file is the error.
    pub fn judge(
        &self,
        cwd: &str,
        subject: Subject<'_>,
        commands: &[Command],
    ) -> Result<Judgement, PolicyError> {
        Self::judge_in(self.in_force(cwd), subject, commands)
    }

    /// Judges a call under the files `in_force`; an unusable file among them is the error.
    fn judge_in(
        in_force: InForce,
        subject: Subject<'_>,
        commands: &[Command],
    ) -> Result<Judgement, PolicyError> {
        if let Some(err) = in_force.broken {
            return Err(err);
        }
        let files: Vec<&RuleFile> = in_force.files.iter().map(|f| f.as_ref()).collect();
        let subject = Subject {
            root: subject.root.or(in_force.root.as_deref()),
            ..subject
        };
        let mut judgement = judge(&files, &subject, commands);
        judgement.root = in_force.root.clone();
        if let Some(why) = in_force.unplaced {
            // Asked, never allowed: no project allow reaches it, and the denies of the project
            // it is really in are the human's to apply.
            judgement.ceilings.push((Mode::BlockAll, PathBuf::new()));
            judgement.unplaced = Some(why);
        }
        Ok(judgement)
    }

    /// Every file known now, for the console's list of policies in force: the floor, the
    /// user's, the saved rules, and every project file calls have been judged under so far
    /// (as last read); each that cannot be used is an error instead.
    pub fn known(&self) -> Vec<Loaded> {
        let mut out: Vec<Loaded> = Vec::new();
        out.extend(self.floor());
        out.extend(self.user.clone().map(Ok));
        out.extend(self.saved());
        out.extend(lock(&self.in_memory).clone().map(Ok));
        let mut projects: Vec<(PathBuf, Loaded)> = lock(&self.projects)
            .iter()
            .filter(|(path, _)| path.exists())
            .map(|(path, (_, l))| (path.clone(), l.clone()))
            .collect();
        projects.sort_by(|a, b| a.0.cmp(&b.0));
        out.extend(projects.into_iter().map(|(_, l)| l));
        out
    }

    /// The saved rules now on disk (none when there is no file).
    pub fn saved_rules(&self) -> Result<Vec<Rule>, PolicyError> {
        match self.saved() {
            Some(Ok(file)) => Ok(file.rules.clone()),
            Some(Err(err)) => Err(err),
            None => Ok(Vec::new()),
        }
    }

    /// Adds `rule` to the saved rules (its id made unique) and writes the file atomically,
    /// keeping the old one as `rules.toml.bak`. Returns the id it was saved under.
    pub fn save(&self, mut rule: Rule) -> Result<String, PolicyError> {
        let path = self.paths.saved.clone().ok_or_else(no_saved_file)?;
        let _locked = lock_file(&path).map_err(|err| unwritable(&path, err))?;
        let mut rules = self.saved_on_disk(&path)?;
        rule.id = unique_id(&rule.id, &rules);
        let id = rule.id.clone();
        rules.push(rule);
        write_private(&path, &render(&rules)).map_err(|err| unwritable(&path, err))?;
        Ok(id)
    }

    /// Removes saved rule `id`; returns whether it was there.
    pub fn unsave(&self, id: &str) -> Result<bool, PolicyError> {
        let path = self.paths.saved.clone().ok_or_else(no_saved_file)?;
        let _locked = lock_file(&path).map_err(|err| unwritable(&path, err))?;
        let mut rules = self.saved_on_disk(&path)?;
        let before = rules.len();
        rules.retain(|r| r.id != id);
        if rules.len() == before {
            return Ok(false);
        }
        write_private(&path, &render(&rules)).map_err(|err| unwritable(&path, err))?;
        Ok(true)
    }

    /// The saved rules as the file at `path` holds them now, read afresh (never the copy kept
    /// by its stamp, which another process's write a moment ago may not have changed): what a
    /// change made under the file's lock starts from.
    fn saved_on_disk(&self, path: &Path) -> Result<Vec<Rule>, PolicyError> {
        if !path.exists() {
            return Ok(Vec::new());
        }
        Ok(read(path, Layer::Saved, Trust::Own, &self.edit_tools)?.rules)
    }
}

pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `base`, or `base-2`, `base-3`, … whichever no rule has yet.
pub fn unique_id(base: &str, rules: &[Rule]) -> String {
    let taken = |id: &str| rules.iter().any(|r| r.id == id);
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|id| !taken(id))
        .unwrap_or_default()
}

fn read(
    path: &Path,
    layer: Layer,
    trust: Trust,
    internal: &[String],
) -> Result<RuleFile, PolicyError> {
    let bytes = read_bounded(path)?;
    parse_file(
        &String::from_utf8_lossy(&bytes),
        path,
        layer,
        trust,
        internal,
    )
}

fn missing_floor(path: &Path) -> PolicyError {
    PolicyError {
        path: path.to_path_buf(),
        line: None,
        message: "the machine-wide floor named by GATEHOUSE_POLICY does not exist, and \
                  gatehouse will not run without the floor it was told to keep"
            .into(),
        fix: "create the file (it may be empty), or unset GATEHOUSE_POLICY to use \
              /etc/gatehouse/policy.toml"
            .into(),
    }
}

fn unwritable(path: &Path, err: std::io::Error) -> PolicyError {
    PolicyError {
        path: path.to_path_buf(),
        line: None,
        message: format!("cannot write the rules file: {err}"),
        fix: "check that the folder exists and is writable".into(),
    }
}

fn no_saved_file() -> PolicyError {
    PolicyError {
        path: PathBuf::new(),
        line: None,
        message: "no folder for the saved rules is known (no home folder)".into(),
        fix: "set XDG_CONFIG_HOME or HOME".into(),
    }
}

/// The hex SHA-256 of a file's bytes: what trusting a project file records.
pub fn hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[path = "carried.rs"]
mod carried;

#[cfg(test)]
#[path = "load_tests.rs"]
mod tests;
