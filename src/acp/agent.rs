//! Which agent a `gatehouse acp -- COMMAND...` runs, named the way its calls are audited and
//! shown: from the command's words (the program, or a script a runtime runs, such as
//! `node .../gemini.js`), matched against the agents gatehouse knows, else a generic name.

use std::path::Path;

use crate::agents::opencode::call::AGENT as OPENCODE;
use crate::agents::registry;
use crate::core::call::Agent;

/// The agent name of a command gatehouse knows no agent in.
pub const GENERIC: &str = "acp-agent";

/// The agent `command` runs: the first word whose file name (without a script's extension)
/// is a known agent's command, name or alias; else [`GENERIC`].
pub fn agent_of(command: &[String]) -> Agent {
    let known = command.iter().find_map(|word| {
        let name = Path::new(word).file_name()?.to_str()?;
        let stem = [".js", ".mjs", ".cjs", ".exe"]
            .iter()
            .find_map(|ext| name.strip_suffix(ext))
            .unwrap_or(name);
        if stem == OPENCODE {
            return Some(OPENCODE.to_string());
        }
        let dialect = registry::find(stem).or_else(|| {
            registry::all()
                .iter()
                .copied()
                .find(|d| d.names().program == stem)
        })?;
        Some(dialect.names().agent.to_string())
    });
    Agent::new(known.unwrap_or_else(|| GENERIC.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(words: &[&str]) -> String {
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        agent_of(&words).as_str().to_string()
    }

    #[test]
    fn the_agent_is_named_from_its_program_or_the_script_a_runtime_runs() {
        assert_eq!(named(&["gemini", "--experimental-acp"]), "gemini-cli");
        assert_eq!(
            named(&["node", "/opt/x/bundle/gemini.js", "--experimental-acp"]),
            "gemini-cli"
        );
        assert_eq!(named(&["/usr/bin/qwen", "--acp"]), "qwen-code");
        assert_eq!(named(&["npx", "@github/copilot", "--acp"]), "copilot-cli");
        assert_eq!(named(&["opencode", "acp"]), "opencode");
        assert_eq!(named(&["goose", "acp"]), GENERIC);
        assert_eq!(named(&[]), GENERIC);
    }
}
