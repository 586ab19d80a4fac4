//! Why a part of a line is unverified, as data: missing knowledge, or a risk the analyser knows.
//!
//! An unverified part is either `Unknown` (an unknown program, an unknown subcommand or option
//! of a known program, a word only known when the line runs) or a known risk (it reaches the
//! network, runs code, opens a pager, runs a path-qualified file, redirects git). Only the
//! first is a question a classifier model can answer; a known risk is the human's to weigh.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A risk the analyser knows a part carries. Ordered from least to most risky, so the risk of a
/// line is the maximum of its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Risk {
    /// Opens a pager, an editor or another interactive program.
    Pager,
    /// Runs a path-qualified executable (`./run.sh`, `bin/tool`) gatehouse cannot vouch for.
    PathQualified,
    /// Points git at another repository, configuration or helper (`git -C`, `-c`, `--git-dir`).
    GitElsewhere,
    /// Runs code: project scripts, builds, tests, interpreters given code.
    RunsCode,
    /// Reaches the network.
    Network,
}

impl Risk {
    pub const ALL: [Risk; 5] = [
        Risk::Pager,
        Risk::PathQualified,
        Risk::GitElsewhere,
        Risk::RunsCode,
        Risk::Network,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Risk::Pager => "pager",
            Risk::PathQualified => "path-qualified",
            Risk::GitElsewhere => "git-elsewhere",
            Risk::RunsCode => "runs-code",
            Risk::Network => "network",
        }
    }
}

impl fmt::Display for Risk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What keeps an unverified part from being proven read-only. `Unknown` sorts below every known
/// risk, so any known risk in a line beats missing knowledge.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Obstacle {
    /// Only missing knowledge: nothing known to be risky.
    #[default]
    Unknown,
    /// A risk the analyser knows.
    Known(Risk),
}

impl fmt::Display for Obstacle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Obstacle::Unknown => f.write_str("unknown"),
            Obstacle::Known(risk) => risk.fmt(f),
        }
    }
}

#[cfg(test)]
#[path = "obstacle_tests.rs"]
mod tests;
