//! Credential reads, a known risk (issue 22, section 2): a part of a line that is otherwise
//! read-only, or unverified, but can print a secret is `unverified (credential)`, so it is asked
//! of the human in every mode that asks and never put to a classifier.
//!
//! A command can reach a secret four ways, each checked after the walk on the commands it found:
//! - a path operand (or a `<` redirection) that can name a credential file or store, or a
//!   folder above one (`grep -r x ~`), read as [`crate::core::pathword`] reads words;
//! - printing the whole environment (`env`, `printenv` or `export` alone, `set` with no
//!   arguments, `declare -p`/`-x`, awk's `ENVIRON`, `ps e`, a process's `environ`);
//! - expanding a variable whose name marks a secret (`$GITHUB_TOKEN`, `${DB_PASSWORD}`,
//!   `$AWS_SECRET_ACCESS_KEY`) in a command whose output it can reach;
//! - a program's own "print my token" command (`gh auth token`, `git credential fill`).
//!
//! An agent's socket (`$SSH_AUTH_SOCK`) is a secret variable; its path is not a file to read,
//! and is left out of the paths, so that a folder such as `/tmp` is not taken to hold a secret.
//!
//! Listing names is not reading a secret: `ls ~/.ssh`, `find ~ -name id_rsa`, `stat`, `wc`
//! or a checksum show no content, so the programs in [`NAMES_ONLY`] are not checked for paths
//! (they still are for secret variables). Public halves (`*.pub`, `known_hosts`,
//! `authorized_keys`) are not secrets. A relative folder (`grep -r x .`) is not taken to reach
//! a credential: the call's own folder is the agent's work, and only `.env`-like files named
//! there are.

use crate::core::guard::operands;
use crate::core::pathword::{PathPattern, Place, Reach, TailHint, candidates};

use super::bound::Bound;
use super::{Command, Finding, Obstacle, Risk, Safety};

#[path = "credential_lists.rs"]
mod lists;
use lists::{BUILT_IN, NAMES_ONLY, TOKEN_COMMANDS};

/// Credential paths, each with what it holds: the analyser's built-in list and the config's
/// `sensitive_paths`.
#[derive(Debug, Clone)]
pub struct Secrets {
    patterns: Vec<(PathPattern, String)>,
    hint: TailHint,
}

impl Default for Secrets {
    fn default() -> Self {
        let patterns: Vec<(PathPattern, String)> = BUILT_IN
            .iter()
            .map(|(p, what)| (PathPattern::new(p), what.to_string()))
            .collect();
        let hint = TailHint::of(patterns.iter().map(|(p, _)| p));
        Secrets { patterns, hint }
    }
}

impl Secrets {
    /// Adds a pattern from `sensitive_paths` (absolute, `~/…`, or a tail any path may end with;
    /// `*`, `?`, `**`).
    pub fn add(&mut self, pattern: &str) {
        let what = format!("a sensitive path ({pattern})");
        self.patterns.push((PathPattern::new(pattern), what));
        self.hint = TailHint::of(self.patterns.iter().map(|(p, _)| p));
    }

    /// What secret the path `word` may name, or hold below it.
    pub fn named(&self, word: &str, place: Place) -> Option<&str> {
        // Most words are plain relative paths read with no folder known: only a tail can end
        // one, and the hint says at once that none does.
        let plain = !word.starts_with('/')
            && !word.contains(['~', '$', '`', '{', '*', '?', '[', '"', '\'', '\\']);
        if plain && place.cwd.is_none() && !self.hint.may_meet(word.split('/')) {
            return None;
        }
        let cands = candidates(word, place);
        let cands: Vec<(&Vec<String>, bool)> = cands
            .iter()
            .filter(|c| !public_half(c))
            .map(|c| (c, self.hint.may_meet(c.iter().map(String::as_str))))
            .collect();
        let rooted = |c: &[String]| c.first().is_some_and(|s| s == "/" || s == "~");
        self.patterns.iter().find_map(|(pattern, what)| {
            cands
                .iter()
                .filter(|(c, tails)| match pattern.is_tail() {
                    true => *tails,
                    false => rooted(c),
                })
                .any(|(c, _)| pattern.reached_by(c, Reach::Under))
                .then_some(what.as_str())
        })
    }
}

/// Public halves named like their secrets, and the examples `.env` files are made from.
fn public_half(candidate: &[String]) -> bool {
    candidate.last().is_some_and(|name| {
        name.ends_with(".pub")
            || matches!(name.as_str(), "known_hosts" | "authorized_keys")
            || name.starts_with(".env.")
                && [".example", ".sample", ".template", ".dist"]
                    .iter()
                    .any(|end| name.ends_with(end))
    })
}

/// Marks every command and `<` redirection that may print a secret as unverified
/// (credential), with what it reads.
pub(super) fn mark(
    commands: &mut [Command],
    findings: &mut [Finding],
    bound: &Bound,
    secrets: &Secrets,
    place: Place,
) {
    for at in 0..commands.len() {
        let command = &commands[at];
        if command.safety > Safety::Unverified {
            continue;
        }
        let secret = command_secret(&command.words, bound, secrets, place)
            .or_else(|| names_from_input(&commands[..at], &command.words, secrets, place));
        let command = &mut commands[at];
        if let Some(what) = secret {
            command.safety = Safety::Unverified;
            command.obstacle = command.obstacle.max(Obstacle::Known(Risk::Credential));
            command.why = format!("reads {what}");
        }
    }
    for finding in findings.iter_mut() {
        if finding.safety > Safety::Unverified {
            continue;
        }
        let Some(target) = finding.what.strip_prefix('<') else {
            continue;
        };
        if target.starts_with(['<', '(', '&', '>']) {
            continue;
        }
        let target = target.trim();
        if let Some(what) = secrets.named(target, place) {
            finding.safety = Safety::Unverified;
            finding.obstacle = finding.obstacle.max(Obstacle::Known(Risk::Credential));
            finding.why = format!("reads {what}");
        }
    }
}

/// What secret a command's words may print, if any.
fn command_secret(
    words: &[String],
    bound: &Bound,
    secrets: &Secrets,
    place: Place,
) -> Option<String> {
    let (first, args) = words.split_first()?;
    let name = first.rsplit('/').next().unwrap_or(first);
    if let Some(what) = environment_dump(name, args) {
        return Some(what.to_string());
    }
    if let Some(what) = token_command(name, args) {
        return Some(what.to_string());
    }
    if !matches!(name, "test" | "[" | "true" | ":")
        && let Some(var) = args.iter().find_map(|w| secret_variable(w))
    {
        return Some(format!("the secret variable {var}"));
    }
    if matches!(name, "printenv" | "declare" | "typeset")
        && let Some(var) = args.iter().find(|a| secret_name(a))
    {
        return Some(format!("the secret variable {var}"));
    }
    if NAMES_ONLY.contains(&name) && !runs_on_names(name, args) {
        return None;
    }
    for arg in args {
        if arg.starts_with('-') && !arg.contains('=') {
            continue;
        }
        let readings = bound.readings(arg);
        for reading in std::iter::once(arg.as_str()).chain(readings.iter().map(String::as_str)) {
            let paths = operands(reading)
                .chain(reading.split_once(':').map(|(_, v)| v))
                .chain(substituted_words(reading));
            for path in paths.filter(|p| !p.is_empty() && !p.starts_with('-')) {
                if let Some(what) = secrets.named(path, place) {
                    return Some(format!("{what} ({path})"));
                }
            }
        }
    }
    None
}

/// The words inside a word's command substitutions (`cat $(find ~/.aws -type f)`): the names
/// such a substitution prints are whatever its command is pointed at, so a credential folder
/// named there is read by the command the names are handed to.
fn substituted_words(word: &str) -> impl Iterator<Item = &str> {
    let inside = word.contains("$(") || word.contains('`') || word.contains("<(");
    inside
        .then(|| {
            word.split(|c: char| c.is_whitespace() || "()`;|&\"'<>".contains(c))
                .filter(|w| !w.is_empty() && *w != "$" && !w.starts_with('-'))
        })
        .into_iter()
        .flatten()
}

/// What secret `xargs` may hand a reader (`ls ~/.ssh | xargs cat`): the files the command
/// before it names, when they can reach a credential. The command xargs runs was judged, and
/// pushed, just before it (its words are the tail of xargs's own); the one before that feeds it.
fn names_from_input(
    before: &[Command],
    words: &[String],
    secrets: &Secrets,
    place: Place,
) -> Option<String> {
    let (first, _) = words.split_first()?;
    if first.rsplit('/').next() != Some("xargs") {
        return None;
    }
    let reader = before
        .last()
        .and_then(|inner| inner.words.first())
        .filter(|program| words[1..].contains(program));
    if reader.is_none_or(|r| NAMES_ONLY.contains(&r.rsplit('/').next().unwrap_or(r))) {
        return None;
    }
    let producer = &before[..before.len() - 1];
    let (_, operands) = producer.last()?.words.split_first()?;
    operands
        .iter()
        .filter(|w| !w.starts_with('-'))
        .find_map(|path| {
            let what = secrets.named(path, place)?;
            Some(format!("{what} ({path}), through the names xargs is given"))
        })
}

/// Whether a names-only program hands the files it finds to a command (`find -exec`, `fd -x`),
/// which may print their content: its folders then count as read.
fn runs_on_names(name: &str, args: &[String]) -> bool {
    let exec: &[&str] = match name {
        "find" => &["-exec", "-execdir", "-ok", "-okdir"],
        "fd" => &["-x", "-X", "--exec", "--exec-batch"],
        _ => return false,
    };
    args.iter().any(|a| exec.contains(&a.as_str()))
}

/// Whether the command prints the whole environment, of the shell or of a process.
fn environment_dump(name: &str, args: &[String]) -> Option<&'static str> {
    let options_only = |args: &[String]| args.iter().all(|a| a.starts_with('-'));
    let dumps = match name {
        "env" => env_prints(args),
        "printenv" | "export" => options_only(args),
        "set" => args.is_empty(),
        "declare" | "typeset" => {
            options_only(args) && (args.is_empty() || args.iter().any(|a| a.contains(['p', 'x'])))
        }
        "awk" | "gawk" | "mawk" | "nawk" | "busybox" => args.iter().any(|a| a.contains("ENVIRON")),
        // BSD-style `ps e` (and `ps auxe`, `ps eww`) adds every process's environment.
        "ps" => args.iter().any(|a| !a.starts_with('-') && a.contains('e')),
        _ => false,
    };
    dumps.then_some("the environment, secrets included")
}

/// `env` prints the environment when no command follows its options and assignments.
fn env_prints(args: &[String]) -> bool {
    let mut rest = args.iter();
    while let Some(word) = rest.next() {
        match word.as_str() {
            "-u" | "--unset" | "-C" | "--chdir" => {
                rest.next();
            }
            // A split string holds the command to run.
            w if w.starts_with("-S") || w.starts_with("--split-string") => return false,
            "--" => {}
            w if w.starts_with('-') || w.contains('=') => {}
            _ => return false,
        }
    }
    true
}

fn token_command(name: &str, args: &[String]) -> Option<&'static str> {
    if name.starts_with("docker-credential-") && args.first().is_some_and(|a| a == "get") {
        return Some("docker registry credentials");
    }
    if name == "gh"
        && args.starts_with(&["auth".to_string(), "status".to_string()])
        && args.iter().any(|a| a == "-t" || a == "--show-token")
    {
        return Some("a GitHub token");
    }
    if !TOKEN_COMMANDS
        .iter()
        .any(|(program, _, _)| *program == name)
    {
        return None;
    }
    let plain: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-') || a.starts_with("--export-secret") || *a == "--raw")
        .collect();
    TOKEN_COMMANDS
        .iter()
        .find(|(program, words, _)| *program == name && plain.starts_with(words))
        .map(|(_, _, what)| *what)
}

/// The first variable a word expands whose name marks a secret (`$GITHUB_TOKEN`,
/// `${DB_PASSWORD:-x}`); not its length (`${#TOKEN}`).
fn secret_variable(word: &str) -> Option<&str> {
    for (at, _) in word.match_indices('$') {
        let after = &word[at + 1..];
        let (braced, body) = match after.strip_prefix('{') {
            Some(body) => (true, body),
            None => (false, after),
        };
        if braced && body.starts_with('#') {
            continue;
        }
        let end = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(body.len());
        if secret_name(&body[..end]) {
            return Some(&body[..end]);
        }
    }
    None
}

/// An upper-case name that marks a secret: `*TOKEN*`, `*SECRET*`, `*PASSWORD*`, `*PASSWD*`,
/// `*_KEY`, `*APIKEY*`, `*CREDENTIAL*`, or the SSH agent's socket.
pub(crate) fn secret_name(name: &str) -> bool {
    if name.is_empty()
        || name != name.to_ascii_uppercase()
        || name.starts_with(|c: char| c.is_ascii_digit())
    {
        return false;
    }
    [
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "APIKEY",
        "CREDENTIAL",
    ]
    .iter()
    .any(|mark| name.contains(mark))
        || name.ends_with("_KEY")
        || name == "SSH_AUTH_SOCK"
}

#[cfg(test)]
#[path = "credential_tests.rs"]
mod tests;
