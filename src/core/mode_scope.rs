//! Modes given to one agent session, or to every session of one agent, beside the global mode.
//!
//! The global mode stays the console's policy; the human can give a session (an agent under
//! review: block-all) or an agent (one running in a sandbox: allow-all) a mode of its own. A
//! call is routed in the mode that applies to it, the session's before the agent's before the
//! global one, and that route is still capped by the call's `mode_ceiling`s exactly as the
//! global mode's is (`Assessment::route`), so no mode given here gets past a project's ceiling
//! or the floor. The audit names whose mode applied ([`ModeOwner`]).

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::call::Agent;
use super::mode::Mode;

/// Who a mode is given to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ModeScope {
    /// One agent session.
    Session { agent: Agent, session: String },
    /// Every session of one agent, those to come included.
    Agent(Agent),
}

impl ModeScope {
    /// True for a call of `agent`'s `session` that this scope holds.
    pub fn covers(&self, agent: &Agent, session: &str) -> bool {
        match self {
            ModeScope::Session {
                agent: ours,
                session: theirs,
            } => ours == agent && theirs == session,
            ModeScope::Agent(ours) => ours == agent,
        }
    }
}

impl fmt::Display for ModeScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModeScope::Session { agent, session } => write!(f, "session {session} of {agent}"),
            ModeScope::Agent(agent) => write!(f, "every session of {agent}"),
        }
    }
}

/// Whose mode applied to a call: the audit's `mode_of`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModeOwner {
    /// The console's global mode.
    #[default]
    Global,
    /// A mode given to the call's session.
    Session,
    /// A mode given to every session of the call's agent.
    Agent,
}

impl ModeOwner {
    pub fn name(self) -> &'static str {
        match self {
            ModeOwner::Global => "global",
            ModeOwner::Session => "session",
            ModeOwner::Agent => "agent",
        }
    }
}

/// The mode that applies to one call, and whose it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Applied {
    pub mode: Mode,
    pub owner: ModeOwner,
}

/// The modes given to sessions and agents. Empty by default: every call meets the global mode.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModeOverrides {
    sessions: BTreeMap<(Agent, String), Mode>,
    agents: BTreeMap<Agent, Mode>,
}

impl ModeOverrides {
    /// Gives `scope` its own `mode`, or (`None`) sends it back to the mode above it. Returns
    /// whether anything changed.
    pub fn set(&mut self, scope: &ModeScope, mode: Option<Mode>) -> bool {
        let before = self.get(scope);
        match (scope, mode) {
            (ModeScope::Session { agent, session }, Some(mode)) => {
                self.sessions.insert((agent.clone(), session.clone()), mode);
            }
            (ModeScope::Session { agent, session }, None) => {
                self.sessions.remove(&(agent.clone(), session.clone()));
            }
            (ModeScope::Agent(agent), Some(mode)) => {
                self.agents.insert(agent.clone(), mode);
            }
            (ModeScope::Agent(agent), None) => {
                self.agents.remove(agent);
            }
        }
        before != mode
    }

    /// The mode given to exactly `scope`, if any.
    pub fn get(&self, scope: &ModeScope) -> Option<Mode> {
        match scope {
            ModeScope::Session { agent, session } => self
                .sessions
                .get(&(agent.clone(), session.clone()))
                .copied(),
            ModeScope::Agent(agent) => self.agents.get(agent).copied(),
        }
    }

    /// The mode that applies to a call of `agent`'s `session` when the global mode is
    /// `global`: the session's, else the agent's, else the global one.
    pub fn applied(&self, global: Mode, agent: &Agent, session: &str) -> Applied {
        if let Some(&mode) = self.sessions.get(&(agent.clone(), session.to_string())) {
            return Applied {
                mode,
                owner: ModeOwner::Session,
            };
        }
        if let Some(&mode) = self.agents.get(agent) {
            return Applied {
                mode,
                owner: ModeOwner::Agent,
            };
        }
        Applied {
            mode: global,
            owner: ModeOwner::Global,
        }
    }

    /// Every mode given, agents first, then sessions.
    pub fn list(&self) -> Vec<(ModeScope, Mode)> {
        let agents = self
            .agents
            .iter()
            .map(|(agent, &mode)| (ModeScope::Agent(agent.clone()), mode));
        let sessions = self.sessions.iter().map(|((agent, session), &mode)| {
            let scope = ModeScope::Session {
                agent: agent.clone(),
                session: session.clone(),
            };
            (scope, mode)
        });
        agents.chain(sessions).collect()
    }

    /// Whether no session or agent has a mode of its own.
    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty() && self.agents.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(agent: &str, session: &str) -> ModeScope {
        ModeScope::Session {
            agent: agent.into(),
            session: session.to_string(),
        }
    }

    #[test]
    fn a_session_mode_comes_before_its_agents_which_comes_before_the_global_one() {
        let mut modes = ModeOverrides::default();
        let agent = Agent::from("a");
        let global = |m: &ModeOverrides, s: &str| m.applied(Mode::AllowRead, &agent, s);
        assert_eq!(global(&modes, "s1").owner, ModeOwner::Global);
        assert!(modes.set(&ModeScope::Agent(agent.clone()), Some(Mode::BlockAll)));
        assert!(modes.set(&session("a", "s1"), Some(Mode::AllowAll)));
        assert_eq!(
            global(&modes, "s1"),
            Applied {
                mode: Mode::AllowAll,
                owner: ModeOwner::Session
            }
        );
        assert_eq!(
            global(&modes, "s2"),
            Applied {
                mode: Mode::BlockAll,
                owner: ModeOwner::Agent
            }
        );
        let other = modes.applied(Mode::Auto, &Agent::from("b"), "s1");
        assert_eq!((other.mode, other.owner), (Mode::Auto, ModeOwner::Global));
        assert!(modes.set(&session("a", "s1"), None));
        assert!(!modes.set(&session("a", "s1"), None), "nothing to remove");
        assert_eq!(global(&modes, "s1").mode, Mode::BlockAll);
        assert_eq!(modes.list().len(), 1);
    }
}
