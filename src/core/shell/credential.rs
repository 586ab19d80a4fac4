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

use super::{Command, Finding, Obstacle, Risk, Safety};

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

/// The built-in credential paths. A tail (no leading `/` or `~`) may end any path.
const BUILT_IN: &[(&str, &str)] = &[
    (".ssh/**", "SSH keys"),
    ("id_rsa", "an SSH private key"),
    ("id_dsa", "an SSH private key"),
    ("id_ecdsa", "an SSH private key"),
    ("id_ed25519", "an SSH private key"),
    ("/etc/ssh/ssh_host_*_key", "an SSH host key"),
    ("~/.aws/credentials", "AWS credentials"),
    ("~/.aws/sso/**", "AWS credentials"),
    ("~/.aws/cli/cache/**", "AWS credentials"),
    ("~/.config/gcloud/**", "gcloud credentials"),
    ("application_default_credentials.json", "gcloud credentials"),
    ("~/.azure/**", "Azure credentials"),
    ("~/.docker/config.json", "docker registry credentials"),
    (".kube/config", "Kubernetes credentials"),
    ("~/.kube/**", "Kubernetes credentials"),
    (".netrc", "login passwords (.netrc)"),
    ("_netrc", "login passwords (.netrc)"),
    (".pgpass", "PostgreSQL passwords"),
    (".my.cnf", "MySQL passwords"),
    (".npmrc", "an npm token"),
    (".pypirc", "a PyPI token"),
    (".cargo/credentials", "a crates.io token"),
    (".cargo/credentials.toml", "a crates.io token"),
    (".gem/credentials", "a RubyGems token"),
    ("~/.config/gh/hosts.yml", "a GitHub token"),
    ("~/.config/hub", "a GitHub token"),
    (".git-credentials", "git credentials"),
    ("~/.config/git/credentials", "git credentials"),
    (".vault-token", "a Vault token"),
    ("~/.terraform.d/credentials.tfrc.json", "a Terraform token"),
    ("~/.config/rclone/rclone.conf", "rclone credentials"),
    (".s3cfg", "S3 credentials"),
    (".boto", "cloud credentials"),
    (".env", "an environment file"),
    (".env.*", "an environment file"),
    (".envrc", "an environment file"),
    ("*.pem", "a key or certificate (.pem)"),
    ("*.key", "a private key (.key)"),
    ("*.p12", "a keystore"),
    ("*.pfx", "a keystore"),
    ("*.jks", "a keystore"),
    ("*.keystore", "a keystore"),
    ("/etc/shadow", "password hashes"),
    ("/etc/gshadow", "password hashes"),
    ("/etc/shadow-", "password hashes"),
    ("/proc/*/environ", "a process's environment"),
    (".bash_history", "shell history"),
    (".zsh_history", "shell history"),
    (".history", "shell history"),
    (".sh_history", "shell history"),
    ("~/.local/share/fish/fish_history", "shell history"),
    (".python_history", "REPL history"),
    (".psql_history", "database history"),
    (".mysql_history", "database history"),
    (".node_repl_history", "REPL history"),
    ("~/.mozilla/**", "a browser profile"),
    ("~/.config/google-chrome/**", "a browser profile"),
    ("~/.config/chromium/**", "a browser profile"),
    ("~/.config/BraveSoftware/**", "a browser profile"),
    (
        "~/Library/Application Support/Google/Chrome/**",
        "a browser profile",
    ),
    ("~/.gnupg/**", "GnuPG keys"),
    ("~/.password-store/**", "a password store"),
    ("~/.local/share/keyrings/**", "a keyring"),
    ("~/Library/Keychains/**", "a keychain"),
];

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

/// Programs that show names, sizes or checksums of files and never their content.
const NAMES_ONLY: &[&str] = &[
    "ls",
    "dir",
    "vdir",
    "tree",
    "find",
    "fd",
    "stat",
    "du",
    "df",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "test",
    "[",
    "echo",
    "printf",
    "file",
    "wc",
    "cd",
    "pushd",
    "pwd",
    "type",
    "which",
    "whereis",
    "command",
    "namei",
    "mountpoint",
    "lsattr",
    "getfacl",
    "exa",
    "eza",
    "md5sum",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "b2sum",
    "cksum",
    "sum",
];

/// Programs' own commands that print a secret: program, the first words after it (options
/// skipped), and what they print.
const TOKEN_COMMANDS: &[(&str, &[&str], &str)] = &[
    ("gh", &["auth", "token"], "a GitHub token"),
    (
        "aws",
        &["configure", "get"],
        "an AWS setting, secret keys included",
    ),
    (
        "aws",
        &["configure", "export-credentials"],
        "AWS credentials",
    ),
    ("aws", &["ecr", "get-login-password"], "a registry password"),
    ("aws", &["sts", "get-session-token"], "AWS credentials"),
    ("gcloud", &["auth", "print-access-token"], "a gcloud token"),
    (
        "gcloud",
        &["auth", "print-identity-token"],
        "a gcloud token",
    ),
    (
        "gcloud",
        &["auth", "application-default", "print-access-token"],
        "a gcloud token",
    ),
    ("gcloud", &["config", "config-helper"], "a gcloud token"),
    ("az", &["account", "get-access-token"], "an Azure token"),
    ("git", &["credential", "fill"], "git credentials"),
    ("git", &["credential-store", "get"], "git credentials"),
    ("git", &["credential-cache", "get"], "git credentials"),
    (
        "kubectl",
        &["config", "view", "--raw"],
        "Kubernetes credentials",
    ),
    ("op", &["read"], "a 1Password secret"),
    ("op", &["item", "get"], "a 1Password secret"),
    ("pass", &["show"], "a password"),
    ("bw", &["get"], "a Bitwarden secret"),
    (
        "security",
        &["find-generic-password"],
        "a keychain password",
    ),
    (
        "security",
        &["find-internet-password"],
        "a keychain password",
    ),
    ("secret-tool", &["lookup"], "a keyring secret"),
    ("vault", &["read"], "a Vault secret"),
    ("vault", &["kv", "get"], "a Vault secret"),
    ("heroku", &["auth:token"], "a Heroku token"),
    ("npm", &["token", "list"], "npm tokens"),
    ("gpg", &["--export-secret-keys"], "GnuPG secret keys"),
];

/// Marks every command and `<` redirection that may print a secret as unverified
/// (credential), with what it reads.
pub(super) fn mark(
    commands: &mut [Command],
    findings: &mut [Finding],
    secrets: &Secrets,
    place: Place,
) {
    for command in commands.iter_mut() {
        if command.safety > Safety::Unverified {
            continue;
        }
        if let Some(what) = command_secret(&command.words, secrets, place) {
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
fn command_secret(words: &[String], secrets: &Secrets, place: Place) -> Option<String> {
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
        let paths = operands(arg).chain(arg.split_once(':').map(|(_, v)| v));
        for path in paths.filter(|p| !p.is_empty() && !p.starts_with('-')) {
            if let Some(what) = secrets.named(path, place) {
                return Some(format!("{what} ({path})"));
            }
        }
    }
    None
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
