//! What a decision can really do in the agent and hook event a call came from. The hook
//! dialect fills it in (`agents::capability`), it travels on the call, and the console reads it
//! to offer only the answers the agent can honour, labelled for what they will do there.
//!
//! On the wire it is the call's optional `caps` field; absent, it is Claude Code's
//! `PreToolUse`, where every answer works: grant, a note the model reads, a deny reason the
//! model reads.

use serde::{Deserialize, Serialize};

/// What an `allow` does in the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AllowEffect {
    /// The call runs, skipping the agent's own prompt.
    #[default]
    Grant,
    /// The hook only declines to block: the agent's own permission checks still apply.
    Pass,
}

/// Where the note of an "allow with note" ends up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoteEffect {
    /// The model reads it beside the tool's result.
    #[default]
    Model,
    /// The model reads it after the tool's output, delivered by a later hook call of the
    /// after-tool stage that asks the console for it.
    AfterTool,
    /// Only the user sees it; the model does not.
    User,
    /// Nothing can carry it: the console does not offer a note.
    None,
}

/// What the agent does with a changed input sent beside an `allow` (the human edited the
/// command before approving it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputEffect {
    /// The agent runs the input the answer carries instead of the one it asked about.
    Replaced,
    /// The agent can only run what it asked about: an edit reaches the model as a deny
    /// reason naming the edited command. The default where a hook does not say, since an
    /// agent that ignored a changed input would run the original.
    #[default]
    Fixed,
}

/// What the decisions on one call can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Caps {
    #[serde(default)]
    pub allow: AllowEffect,
    #[serde(default)]
    pub note: NoteEffect,
    /// Whether a deny's reason reaches the model (false: the model only learns it was blocked).
    #[serde(default = "yes")]
    pub reason: bool,
    /// Whether an allow can carry an edited input.
    #[serde(default)]
    pub input: InputEffect,
}

fn yes() -> bool {
    true
}

impl Caps {
    /// Claude Code's `PreToolUse`: every answer does what it says.
    pub const FULL: Caps = Caps {
        allow: AllowEffect::Grant,
        note: NoteEffect::Model,
        reason: true,
        input: InputEffect::Replaced,
    };

    /// The same, where the agent runs an allow's changed input.
    pub const fn taking_input(self) -> Caps {
        Caps {
            input: InputEffect::Replaced,
            ..self
        }
    }

    /// True for [`Caps::FULL`], which the wire leaves out.
    pub fn is_full(&self) -> bool {
        *self == Caps::FULL
    }
}

impl Default for Caps {
    fn default() -> Caps {
        Caps::FULL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_caps_mean_claude_codes_full_set() {
        assert_eq!(Caps::default(), Caps::FULL);
        // Caps sent without their fields: each of Claude Code's, but a changed input, which
        // only a hook that says so can carry.
        let caps: Caps = serde_json::from_str("{}").unwrap();
        assert_eq!(
            caps,
            Caps {
                input: InputEffect::Fixed,
                ..Caps::FULL
            }
        );
    }

    #[test]
    fn caps_travel_as_kebab_case_words() {
        let caps = Caps {
            allow: AllowEffect::Pass,
            note: NoteEffect::AfterTool,
            reason: true,
            input: InputEffect::Fixed,
        };
        let json = serde_json::to_value(caps).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"allow": "pass", "note": "after-tool", "reason": true,
                               "input": "fixed"})
        );
        assert_eq!(serde_json::from_value::<Caps>(json).unwrap(), caps);
    }

    #[test]
    fn caps_from_a_hook_that_does_not_say_take_no_changed_input() {
        let caps: Caps =
            serde_json::from_str(r#"{"allow":"grant","note":"model","reason":true}"#).unwrap();
        assert_eq!(caps.input, InputEffect::Fixed);
        assert_eq!(Caps::FULL.input, InputEffect::Replaced);
    }
}
