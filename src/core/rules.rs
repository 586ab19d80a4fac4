//! Configured rules (safe and denied commands, read-only MCP tools) and the human's session
//! allows, and how each matches a call.

use std::collections::HashSet;
use std::sync::Arc;

use super::call::Agent;
use super::guard::Guards;
use super::policy::load::Policy;
use super::shell::Command;

/// A rule entry: an exact tool name, or a shell prefix matched at word boundaries.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pattern {
    text: String,
    words: Vec<String>,
}

impl Pattern {
    /// `git push` becomes the words `git`, `push`; surrounding space is ignored.
    pub fn new(text: &str) -> Pattern {
        let text = text.trim().to_string();
        let words = text.split_whitespace().map(str::to_string).collect();
        Pattern { text, words }
    }

    /// A pattern of exactly these words, written quoted where a word needs it (`'my dir'`).
    pub fn from_words(words: Vec<String>) -> Pattern {
        let text = words
            .iter()
            .map(|w| quote_word(w))
            .collect::<Vec<_>>()
            .join(" ");
        Pattern { text, words }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// True when `tool` is exactly this pattern.
    pub fn matches_tool(&self, tool: &str) -> bool {
        !self.text.is_empty() && self.text == tool
    }

    /// The pattern's words.
    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// True when the command is exactly the pattern's words, nothing more (the command word
    /// compared by its file name too).
    pub fn matches_exactly(&self, command: &Command) -> bool {
        command.words.len() == self.words.len() && self.matches_command(command)
    }

    /// True when the command starts with the pattern's words. The command word is compared by
    /// its file name too, so `git push` also covers `/usr/bin/git push`.
    pub fn matches_command(&self, command: &Command) -> bool {
        let Some((first, rest)) = self.words.split_first() else {
            return false;
        };
        let Some((word, args)) = command.words.split_first() else {
            return false;
        };
        let base = word.rsplit('/').next().unwrap_or(word);
        (word == first || base == first)
            && args.len() >= rest.len()
            && rest.iter().zip(args).all(|(p, a)| p == a)
    }
}

/// The rules from config that settle calls before any mode does.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    /// Allowed wherever read-only calls are (never write/edit tools; config refuses those).
    pub safe_commands: Vec<Pattern>,
    /// Refused in every mode, allow-all included.
    pub denied_commands: Vec<Pattern>,
    /// MCP tools known to be read-only.
    pub read_only_tools: HashSet<String>,
    /// The agents' own bookkeeping tools, read-only (the config's `internal_tools`, by default
    /// every dialect's list; none here).
    pub internal_tools: Vec<String>,
    /// The files of `[[rule]]`s in force: floor, user, saved, and each call's project.
    pub policy: Arc<Policy>,
    /// gatehouse's own files and the credentials, guarded whatever the rules say.
    pub guards: Arc<Guards>,
}

impl Rules {
    /// The denied pattern that the tool name or any shell command matches, if any.
    pub fn denied<'a>(&'a self, tool: &str, commands: &[Command]) -> Option<&'a Pattern> {
        self.denied_commands
            .iter()
            .find(|p| p.matches_tool(tool) || commands.iter().any(|c| p.matches_command(c)))
    }

    pub fn safe_command(&self, command: &Command) -> Option<&Pattern> {
        self.safe_commands
            .iter()
            .find(|p| p.matches_command(command))
    }

    pub fn safe_tool(&self, tool: &str) -> bool {
        self.safe_commands.iter().any(|p| p.matches_tool(tool))
    }
}

/// What an "allow always" remembers, for one agent session and the console's lifetime.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SessionAllow {
    /// Exactly this shell command: the same words, none added.
    ShellExact(Pattern),
    /// Shell commands starting with these words, whatever follows.
    ShellPrefix(Pattern),
    /// Every call of this tool.
    Tool(String),
    /// Edits of this one file.
    Path(String),
    /// Shell commands that only reach hosts this pattern names (`api.github.com`,
    /// `*.github.com`): see [`super::shell::reach`].
    Host(String),
}

impl SessionAllow {
    /// The allow a pattern typed in the console means: words ending in a lone `*` are a prefix
    /// (`git push *`), anything else is that exact command. `None` when no words are left.
    pub fn shell(text: &str) -> Option<SessionAllow> {
        let text = text.trim();
        let (words, prefix) = match text.strip_suffix('*') {
            Some(rest) if rest.is_empty() || rest.ends_with(char::is_whitespace) => (rest, true),
            _ => (text, false),
        };
        let words = split_words(words)?;
        if words.is_empty() {
            return None;
        }
        let pattern = Pattern::from_words(words);
        Some(match prefix {
            true => SessionAllow::ShellPrefix(pattern),
            false => SessionAllow::ShellExact(pattern),
        })
    }

    /// True when this allow covers the shell command.
    pub fn matches_command(&self, command: &Command) -> bool {
        match self {
            SessionAllow::ShellExact(p) => p.matches_exactly(command),
            SessionAllow::ShellPrefix(p) => p.matches_command(command),
            SessionAllow::Host(pattern) => super::shell::reach::names_every(pattern, command),
            _ => false,
        }
    }

    /// The allow as a person types it: `rm -rf build`, `git push *`, a tool, a path.
    pub fn text(&self) -> String {
        match self {
            SessionAllow::ShellExact(p) => p.as_str().to_string(),
            SessionAllow::ShellPrefix(p) => format!("{} *", p.as_str()),
            SessionAllow::Tool(tool) => tool.clone(),
            SessionAllow::Path(path) | SessionAllow::Host(path) => path.clone(),
        }
    }

    /// What the allow will let through, in words.
    pub fn describe(&self) -> String {
        match self {
            SessionAllow::ShellExact(p) => {
                format!("exactly the command `{}`, nothing added", p.as_str())
            }
            SessionAllow::ShellPrefix(p) => {
                format!("every command starting `{}`, whatever follows", p.as_str())
            }
            SessionAllow::Tool(tool) => format!("every {tool} call"),
            SessionAllow::Path(path) => format!("edits of {path}"),
            SessionAllow::Host(host) => {
                format!("shell commands that only fetch from {host} (no upload, no file written)")
            }
        }
    }

    /// True when the allow is broad enough to need a second confirmation: a bare program name,
    /// or a prefix that covers `writer` (a command that is not read-only) with other operands.
    pub fn is_broad(&self, writer: Option<&Command>) -> bool {
        match self {
            SessionAllow::ShellExact(p) => p.words.len() == 1,
            SessionAllow::ShellPrefix(p) => {
                p.words.len() == 1 || writer.is_some_and(|c| p.matches_command(c))
            }
            SessionAllow::Tool(_) | SessionAllow::Path(_) => false,
            // Every host under a domain reaches past the one the call named.
            SessionAllow::Host(pattern) => pattern.starts_with("*."),
        }
    }
}

/// Splits a typed pattern into words the way a shell quotes: `'…'` keeps everything, `"…"`
/// keeps everything but a backslash before `"` or `\\`, and a backslash outside quotes keeps
/// the next character. `None` for an unclosed quote. Nothing is expanded.
fn split_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => w.push(c),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\') => w.push(c),
                            c => {
                                w.push('\\');
                                w.push(c);
                            }
                        },
                        c => w.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).push(chars.next()?),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Some(words)
}

/// One word as it is typed back: bare when nothing in it is special, else in single quotes.
pub fn quote_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || "-_./:=@%+,*".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Which session rule, unique for the console's lifetime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RuleId(pub u64);

/// One remembered allow, with where it came from and how often it let a call through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRule {
    pub id: RuleId,
    pub agent: Agent,
    pub session: String,
    pub allow: SessionAllow,
    /// The call whose dialog the human answered with it, and when (seconds since the epoch).
    pub origin_call: u64,
    pub origin_at: std::time::SystemTime,
    /// Who made it.
    pub by: &'static str,
    pub hits: u64,
    /// When it stops matching, if it was made for a while (else while the console runs).
    pub expires: Option<std::time::SystemTime>,
}

impl SessionRule {
    /// Whether the rule still matches at `now`.
    pub fn live_at(&self, now: std::time::SystemTime) -> bool {
        self.expires.is_none_or(|until| until > now)
    }
}

/// The session allows of every agent session, kept in memory only.
#[derive(Debug, Default)]
pub struct SessionAllows {
    rules: Vec<SessionRule>,
    next: u64,
}

impl SessionAllows {
    /// Remembers `allow` for the agent session, made by the human answering call `origin`.
    /// An allow the session already has is not added twice.
    pub fn add(&mut self, agent: &Agent, session: &str, allow: SessionAllow, origin: u64) {
        self.add_until(agent, session, allow, origin, None);
    }

    /// As [`SessionAllows::add`], lasting until `expires` (`None`: while the console runs).
    /// Made again for a session that has it, it lasts as the newest answer says.
    pub fn add_until(
        &mut self,
        agent: &Agent,
        session: &str,
        allow: SessionAllow,
        origin: u64,
        expires: Option<std::time::SystemTime>,
    ) {
        let now = std::time::SystemTime::now();
        self.rules.retain(|r| r.live_at(now));
        if let Some(rule) = self
            .rules
            .iter_mut()
            .find(|r| &r.agent == agent && r.session == session && r.allow == allow)
        {
            rule.expires = expires;
            return;
        }
        self.next += 1;
        self.rules.push(SessionRule {
            id: RuleId(self.next),
            agent: agent.clone(),
            session: session.to_string(),
            allow,
            origin_call: origin,
            origin_at: std::time::SystemTime::now(),
            by: "human",
            hits: 0,
            expires,
        });
    }

    /// The allows of one agent session in force now.
    pub fn of(&self, agent: &Agent, session: &str) -> Vec<SessionAllow> {
        self.of_at(agent, session, std::time::SystemTime::now())
    }

    /// The allows of one agent session in force at `now`: those made for a while that is
    /// over match nothing.
    pub fn of_at(
        &self,
        agent: &Agent,
        session: &str,
        now: std::time::SystemTime,
    ) -> Vec<SessionAllow> {
        self.rules
            .iter()
            .filter(|r| &r.agent == agent && r.session == session && r.live_at(now))
            .map(|r| r.allow.clone())
            .collect()
    }

    /// Counts a call let through by the session's rules that cover `commands` (shell) or
    /// `tool` / `path`; returns the rules' texts, for the audit log.
    pub fn hit(
        &mut self,
        agent: &Agent,
        session: &str,
        commands: &[Command],
        tool: &str,
        path: Option<&str>,
    ) -> Vec<String> {
        let mut texts = Vec::new();
        let now = std::time::SystemTime::now();
        for rule in self
            .rules
            .iter_mut()
            .filter(|r| &r.agent == agent && r.session == session && r.live_at(now))
        {
            let covers = match &rule.allow {
                SessionAllow::Tool(t) => t == tool,
                SessionAllow::Path(p) => path == Some(p.as_str()),
                shell => commands.iter().any(|c| shell.matches_command(c)),
            };
            if covers {
                rule.hits += 1;
                texts.push(format!("#{} {}", rule.id.0, rule.allow.text()));
            }
        }
        texts
    }

    /// Every rule in force, oldest first.
    pub fn list(&self) -> Vec<SessionRule> {
        let now = std::time::SystemTime::now();
        self.rules
            .iter()
            .filter(|r| r.live_at(now))
            .cloned()
            .collect()
    }

    /// Forgets rule `id`; returns whether it was there.
    pub fn revoke(&mut self, id: RuleId) -> bool {
        let before = self.rules.len();
        self.rules.retain(|r| r.id != id);
        self.rules.len() != before
    }
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
