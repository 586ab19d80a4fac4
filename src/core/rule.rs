//! One lasting rule: what it matches (a tool, a shell prefix, an exact command, an edit path
//! glob, an MCP tool), what it rules (`allow`, `ask`, `deny`), the reason sent to the model on a
//! deny, and where it came from. Files of rules and how they combine live in `policy`.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::call::ToolKind;
use super::rules::Pattern;
use super::shell::{Command, reach};

/// What a rule says about the calls it matches, from the most open to the strictest: the
/// derived order is strictness, so `max` picks the strictest of several.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Ruling {
    Allow,
    #[default]
    Ask,
    Deny,
}

impl Ruling {
    pub fn name(self) -> &'static str {
        match self {
            Ruling::Allow => "allow",
            Ruling::Ask => "ask",
            Ruling::Deny => "deny",
        }
    }
}

impl fmt::Display for Ruling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Ruling {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "allow" => Ok(Ruling::Allow),
            "ask" => Ok(Ruling::Ask),
            "deny" => Ok(Ruling::Deny),
            _ => Err(format!("unknown ruling {s:?}; use allow, ask or deny")),
        }
    }
}

/// What a rule matches.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Match {
    /// Every call of this exact tool name.
    Tool(String),
    /// Shell commands starting with these words, in any component of a line (`git push` covers
    /// `cd x && git push -f`); a one-word prefix also matches a tool of that exact name, as
    /// `denied_commands` always has.
    Prefix(Pattern),
    /// Exactly this shell command: the same words, none added.
    Command(Pattern),
    /// Write and edit tools whose file matches the glob (`*` within a folder name, `**` across
    /// folders, `?` one character). A relative glob is taken from the call's project root.
    Edit(String),
    /// This MCP tool (its full name, `mcp__server__tool`).
    Mcp(String),
    /// Shell commands that only reach hosts the pattern names (`api.github.com`, or
    /// `*.github.com` for every host under a domain): see [`crate::core::shell::reach`]. A deny
    /// or ask covers a command that reaches any such host; an allow lists one only when it
    /// names every host the command reaches.
    Network(String),
    /// Read tools whose one file matches the glob (as for [`Match::Edit`], and `~/` for the
    /// home folder): the only allow that lets a read tool show a credential.
    Read(String),
}

impl Match {
    /// The key the rule is written with in a file, and its value.
    pub fn key_and_value(&self) -> (&'static str, String) {
        match self {
            Match::Tool(t) => ("tool", t.clone()),
            Match::Prefix(p) => ("prefix", p.as_str().to_string()),
            Match::Command(p) => ("command", p.as_str().to_string()),
            Match::Edit(g) => ("edit", g.clone()),
            Match::Mcp(t) => ("mcp", t.clone()),
            Match::Read(g) => ("read", g.clone()),
            Match::Network(h) => ("network", h.clone()),
        }
    }

    /// What the match covers, in words.
    pub fn describe(&self) -> String {
        match self {
            Match::Tool(t) => format!("every {t} call"),
            Match::Prefix(p) => format!(
                "every shell command starting `{}`, whatever follows",
                p.as_str()
            ),
            Match::Command(p) => format!("exactly the command `{}`, nothing added", p.as_str()),
            Match::Edit(g) => format!("writes and edits of files matching `{g}`"),
            Match::Mcp(t) => format!("every call of the MCP tool {t}"),
            Match::Read(g) => format!("the read tools' reads of files matching `{g}`"),
            Match::Network(h) => format!("shell commands that only reach {h}"),
        }
    }

    /// True when the match is about one shell command (checked per component of a line).
    pub fn is_shell(&self) -> bool {
        matches!(
            self,
            Match::Prefix(_) | Match::Command(_) | Match::Network(_)
        )
    }

    /// True when it covers `command`, one component of a shell line.
    pub fn covers_command(&self, command: &Command) -> bool {
        match self {
            Match::Prefix(p) => p.matches_command(command),
            Match::Command(p) => p.matches_exactly(command),
            Match::Network(pattern) => reach::names_any(pattern, command),
            Match::Tool(_) | Match::Edit(_) | Match::Mcp(_) | Match::Read(_) => false,
        }
    }

    /// True when it covers the call as a whole: its tool, or the file an edit writes (`path`
    /// absolute, `root` the call's project root).
    pub fn covers_call(&self, subject: &Subject<'_>) -> bool {
        match self {
            Match::Tool(t) => t == subject.tool,
            Match::Prefix(p) => p.words().len() == 1 && p.matches_tool(subject.tool),
            Match::Command(_) | Match::Network(_) => false,
            Match::Edit(glob) => {
                *subject.kind == ToolKind::Edit
                    && subject
                        .path
                        .is_some_and(|path| glob_covers(glob, path, subject.root))
            }
            Match::Mcp(t) => matches!(subject.kind, ToolKind::Mcp { .. }) && t == subject.tool,
            Match::Read(glob) => {
                *subject.kind == ToolKind::Read
                    && subject
                        .path
                        .is_some_and(|path| read_covers(glob, path, subject))
            }
        }
    }
}

/// Whether a read of `path` is one the glob names: `~/` is the home folder, and a path that
/// may stand for others (a glob of its own, a `..`) is never covered.
fn read_covers(glob: &str, path: &Path, subject: &Subject<'_>) -> bool {
    let literal = path.components().all(|c| match c {
        std::path::Component::ParentDir => false,
        other => !other
            .as_os_str()
            .to_string_lossy()
            .contains(['*', '?', '[', '{']),
    });
    let glob = match glob.strip_prefix("~/") {
        Some(rest) => match subject.home {
            Some(home) => format!("{}/{rest}", home.display()),
            None => return false,
        },
        None => glob.to_string(),
    };
    literal && glob_covers(&glob, path, subject.root)
}

/// The parts of a call that rules look at.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    pub tool: &'a str,
    pub kind: &'a ToolKind,
    /// The file a write or edit tool changes, made absolute against the call's cwd.
    pub path: Option<&'a Path>,
    /// The call's project root (its git root), where relative globs start.
    pub root: Option<&'a Path>,
    /// The user's home folder, for `~/` in a read glob.
    pub home: Option<&'a Path>,
    /// The host a remote call came from; `None` for this machine.
    pub host: Option<&'a str>,
}

/// Where a rule came from, beyond its file.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Learned {
    /// The call whose answer made it (its audit id), who answered, and when (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// One rule as it stands in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// Unique within its file; `gatehouse rules rm` and the console name it by this.
    pub id: String,
    pub matcher: Match,
    pub ruling: Ruling,
    /// Sent to the model when the rule denies.
    pub reason: Option<String>,
    pub learned: Learned,
    /// The line of the file it starts on, where known.
    pub line: Option<usize>,
    /// Only for calls whose project root is this folder ("allow always" for this project).
    pub project: Option<std::path::PathBuf>,
    /// Only for calls from this remote host (`host = "build-box"`); never a local call.
    pub host: Option<String>,
    /// When it stops matching (`expires` in the file, RFC 3339); `None`: never.
    pub expires: Option<std::time::SystemTime>,
}

impl Rule {
    /// The rule as one line: `deny prefix "git push" (no force pushes)`.
    pub fn summary(&self) -> String {
        let (key, value) = self.matcher.key_and_value();
        let mut out = format!("{} {key} {value:?}", self.ruling);
        if let Some(reason) = &self.reason {
            out.push_str(&format!(" ({reason})"));
        }
        if let Some(project) = &self.project {
            out.push_str(&format!(" in project {}", project.display()));
        }
        if let Some(host) = &self.host {
            out.push_str(&format!(" on host {host}"));
        }
        out
    }

    /// True when the rule covers `command`, one component of a shell line. A host rule that
    /// allows covers a command only when it names every host the command reaches; one that
    /// denies or asks, when it names any.
    pub fn covers_command(&self, command: &Command) -> bool {
        match (&self.matcher, self.ruling) {
            (Match::Network(pattern), Ruling::Allow) => reach::names_every(pattern, command),
            (matcher, _) => matcher.covers_command(command),
        }
    }

    /// True while the rule still matches at `now`: it has no expiry, or it is not yet due.
    pub fn live_at(&self, now: std::time::SystemTime) -> bool {
        self.expires.is_none_or(|at| now < at)
    }

    /// How long the rule has left at `now`, for those that expire: `Some(ZERO)` once expired.
    pub fn left_at(&self, now: std::time::SystemTime) -> Option<std::time::Duration> {
        self.expires
            .map(|at| at.duration_since(now).unwrap_or_default())
    }

    /// How long it lasts at `now`, in words (`, expires in 14m 5s`, `, expired`); empty for a
    /// rule that never expires.
    pub fn expiry_words(&self, now: std::time::SystemTime) -> String {
        match self.left_at(now) {
            None => String::new(),
            Some(left) if left.is_zero() => ", expired".into(),
            Some(left) => {
                let secs = std::time::Duration::from_secs(left.as_secs().max(1));
                format!(", expires in {}", humantime::format_duration(secs))
            }
        }
    }

    /// True when the rule applies under the project root `root` to a call from `host`
    /// (`None`: this machine). A rule naming a host never applies to a local call.
    pub fn applies_in(&self, root: Option<&Path>, host: Option<&str>) -> bool {
        self.project.as_deref().is_none_or(|p| Some(p) == root)
            && self.host.as_deref().is_none_or(|h| Some(h) == host)
    }

    /// The saved rule an "allow always" for a project or for everyone makes of `allow`; `None`
    /// for edits of a file (an allow never covers write and edit tools beyond one session).
    pub fn of_allow(
        allow: &super::rules::SessionAllow,
        tool_kind: &ToolKind,
        project: Option<std::path::PathBuf>,
        host: Option<String>,
    ) -> Option<Rule> {
        use super::rules::SessionAllow;
        let matcher = match allow {
            SessionAllow::ShellExact(p) => Match::Command(p.clone()),
            SessionAllow::ShellPrefix(p) => Match::Prefix(p.clone()),
            SessionAllow::Tool(t) if matches!(tool_kind, ToolKind::Mcp { .. }) => {
                Match::Mcp(t.clone())
            }
            SessionAllow::Tool(t) => Match::Tool(t.clone()),
            SessionAllow::Path(_) => return None,
            SessionAllow::Host(h) => Match::Network(h.clone()),
        };
        Some(Rule {
            id: "allow-always".into(),
            matcher,
            ruling: Ruling::Allow,
            reason: None,
            learned: Learned {
                call: None,
                by: Some("human".into()),
                at: Some(super::audit::now_rfc3339()),
            },
            line: None,
            project,
            host,
            expires: None,
        })
    }
}

/// True when `path` matches `glob`: an absolute glob (or one starting `~/`, already expanded by
/// the loader) against the whole path, a relative one against the path below `root`.
pub fn glob_covers(glob: &str, path: &Path, root: Option<&Path>) -> bool {
    let target = if glob.starts_with('/') {
        path.to_string_lossy().into_owned()
    } else {
        match root.and_then(|r| path.strip_prefix(r).ok()) {
            Some(rel) => rel.to_string_lossy().into_owned(),
            None => return false,
        }
    };
    let glob: Vec<&str> = glob.trim_start_matches('/').split('/').collect();
    let target: Vec<&str> = target.trim_start_matches('/').split('/').collect();
    segments_match(&glob, &target)
}

fn segments_match(glob: &[&str], path: &[&str]) -> bool {
    match glob.split_first() {
        None => path.is_empty(),
        Some((&"**", rest)) => (0..=path.len()).any(|skip| segments_match(rest, &path[skip..])),
        Some((first, rest)) => match path.split_first() {
            Some((name, tail)) => name_matches(first, name) && segments_match(rest, tail),
            None => false,
        },
    }
}

/// One folder or file name against one glob segment: `*` any run, `?` one character.
fn name_matches(glob: &str, name: &str) -> bool {
    let glob: Vec<char> = glob.chars().collect();
    let name: Vec<char> = name.chars().collect();
    let (mut g, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        if g < glob.len() && (glob[g] == '?' || glob[g] == name[n]) {
            g += 1;
            n += 1;
        } else if g < glob.len() && glob[g] == '*' {
            star = Some((g, n));
            g += 1;
        } else if let Some((sg, sn)) = star {
            g = sg + 1;
            n = sn + 1;
            star = Some((sg, sn + 1));
        } else {
            return false;
        }
    }
    glob[g..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_that_expires_matches_until_it_is_due_and_says_what_it_has_left() {
        use std::time::{Duration, SystemTime};
        let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let mut rule = Rule::of_allow(
            &crate::core::rules::SessionAllow::shell("make lint").unwrap(),
            &ToolKind::Shell,
            None,
            None,
        )
        .unwrap();
        assert!(rule.live_at(at) && rule.expiry_words(at).is_empty());
        rule.expires = Some(at);
        let before = at - Duration::from_secs(15 * 60);
        assert!(rule.live_at(before));
        assert_eq!(rule.expiry_words(before), ", expires in 15m");
        assert!(!rule.live_at(at));
        assert_eq!(rule.expiry_words(at + Duration::from_secs(5)), ", expired");
        // Saved and read back, the expiry is kept to the second.
        let raw = super::super::policy::file::raw_of(&rule);
        assert_eq!(raw.expires.as_deref(), Some("1970-01-12T13:46:40Z"));
    }

    #[test]
    fn the_strictest_ruling_is_the_greatest() {
        assert_eq!(Ruling::Allow.max(Ruling::Deny), Ruling::Deny);
        assert_eq!(Ruling::Ask.max(Ruling::Allow), Ruling::Ask);
        assert_eq!(
            [Ruling::Ask, Ruling::Deny, Ruling::Allow].iter().max(),
            Some(&Ruling::Deny)
        );
    }

    #[test]
    fn a_relative_glob_matches_below_the_project_root_only() {
        let root = Path::new("/repo");
        assert!(glob_covers(
            "src/**/*.rs",
            Path::new("/repo/src/a/b.rs"),
            Some(root)
        ));
        assert!(glob_covers(
            "src/**/*.rs",
            Path::new("/repo/src/b.rs"),
            Some(root)
        ));
        assert!(!glob_covers(
            "src/**/*.rs",
            Path::new("/repo/src/b.txt"),
            Some(root)
        ));
        assert!(!glob_covers(
            "src/*.rs",
            Path::new("/repo/src/a/b.rs"),
            Some(root)
        ));
        assert!(!glob_covers(
            "src/*.rs",
            Path::new("/other/src/b.rs"),
            Some(root)
        ));
        assert!(!glob_covers("*.rs", Path::new("/repo/b.rs"), None));
        assert!(glob_covers("/etc/*", Path::new("/etc/passwd"), None));
        assert!(glob_covers(".env?", Path::new("/repo/.env1"), Some(root)));
        assert!(!glob_covers(".env?", Path::new("/repo/.env"), Some(root)));
    }
}
