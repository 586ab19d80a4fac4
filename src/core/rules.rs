//! Configured rules (safe and denied commands, read-only MCP tools) and the human's session
//! allows, and how each matches a call.

use std::collections::{HashMap, HashSet};

use super::call::{Agent, DEFAULT_INTERNAL_TOOLS};
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

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// True when `tool` is exactly this pattern.
    pub fn matches_tool(&self, tool: &str) -> bool {
        !self.text.is_empty() && self.text == tool
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
#[derive(Debug, Clone)]
pub struct Rules {
    /// Allowed wherever read-only calls are (never write/edit tools; config refuses those).
    pub safe_commands: Vec<Pattern>,
    /// Refused in every mode, allow-all included.
    pub denied_commands: Vec<Pattern>,
    /// MCP tools known to be read-only.
    pub read_only_tools: HashSet<String>,
    /// The agents' own bookkeeping tools, read-only by default.
    pub internal_tools: Vec<String>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            safe_commands: Vec::new(),
            denied_commands: Vec::new(),
            read_only_tools: HashSet::new(),
            internal_tools: DEFAULT_INTERNAL_TOOLS
                .iter()
                .map(|s| s.to_string())
                .collect(),
        }
    }
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
    /// Shell commands starting with these words.
    ShellPrefix(Pattern),
    /// Every call of this tool.
    Tool(String),
    /// Edits of this one file.
    Path(String),
}

impl SessionAllow {
    /// How the allow reads in the console and the audit log.
    pub fn describe(&self) -> String {
        match self {
            SessionAllow::ShellPrefix(p) => format!("shell commands starting `{}`", p.as_str()),
            SessionAllow::Tool(tool) => format!("every {tool} call"),
            SessionAllow::Path(path) => format!("edits of {path}"),
        }
    }
}

/// The session allows of every agent session, kept in memory only.
#[derive(Debug, Default)]
pub struct SessionAllows {
    by_session: HashMap<(Agent, String), Vec<SessionAllow>>,
}

impl SessionAllows {
    pub fn add(&mut self, agent: &Agent, session: &str, allow: SessionAllow) {
        let list = self
            .by_session
            .entry((agent.clone(), session.to_string()))
            .or_default();
        if !list.contains(&allow) {
            list.push(allow);
        }
    }

    pub fn of(&self, agent: &Agent, session: &str) -> &[SessionAllow] {
        self.by_session
            .get(&(agent.clone(), session.to_string()))
            .map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::shell::Safety;

    fn command(words: &[&str]) -> Command {
        Command {
            words: words.iter().map(|w| w.to_string()).collect(),
            is_static: true,
            safety: Safety::Writer,
            why: String::new(),
        }
    }

    #[test]
    fn a_prefix_matches_at_word_boundaries_only() {
        let push = Pattern::new("git push");
        assert!(push.matches_command(&command(&["git", "push"])));
        assert!(push.matches_command(&command(&["git", "push", "-f"])));
        assert!(push.matches_command(&command(&["/usr/bin/git", "push"])));
        assert!(!push.matches_command(&command(&["git", "pushx"])));
        assert!(!push.matches_command(&command(&["git"])));
        assert!(!push.matches_command(&command(&["gitx", "push"])));
        assert!(!Pattern::new("  ").matches_command(&command(&["git"])));
    }

    #[test]
    fn a_denied_rule_is_caught_in_any_command_of_the_line() {
        let rules = Rules {
            denied_commands: vec![Pattern::new("git push"), Pattern::new("WebFetch")],
            ..Rules::default()
        };
        let line = [command(&["cd", "x"]), command(&["git", "push", "origin"])];
        assert_eq!(rules.denied("Bash", &line).unwrap().as_str(), "git push");
        assert!(rules.denied("Bash", &line[..1]).is_none());
        assert_eq!(rules.denied("WebFetch", &[]).unwrap().as_str(), "WebFetch");
    }

    #[test]
    fn session_allows_belong_to_one_agent_session() {
        let mut allows = SessionAllows::default();
        allows.add(
            &Agent::ClaudeCode,
            "s1",
            SessionAllow::Tool("WebFetch".into()),
        );
        allows.add(
            &Agent::ClaudeCode,
            "s1",
            SessionAllow::Tool("WebFetch".into()),
        );
        assert_eq!(allows.of(&Agent::ClaudeCode, "s1").len(), 1);
        assert!(allows.of(&Agent::ClaudeCode, "s2").is_empty());
        assert!(allows.of(&Agent::Codex, "s1").is_empty());
    }
}
