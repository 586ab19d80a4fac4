//! Why a part of a line is unverified, as data: missing knowledge, or a risk the analyser knows.
//!
//! An unverified part is either `Unknown` (a program the analyser does not know, or a subcommand
//! or option of a known one, all in words the line spells out) or a known risk: it reaches the
//! network, runs code, opens a pager, runs a path-qualified file, redirects git, can print a
//! secret, depends on words
//! only known when the line runs, does not parse as bash reads it, feeds a program text the
//! review is not shown, or carries words that vouch for the call. Only the first is a question
//! a classifier model can answer, since the model is shown every word that runs; the rest are
//! the human's to weigh.

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
    /// Depends on words only known when the line runs: a program named by a variable, a word
    /// that may expand to an option, a script or option held in a variable.
    Dynamic,
    /// Does not parse completely, or holds a part bash may read differently from the analyser:
    /// what runs cannot be shown.
    Unparsed,
    /// An unknown program fed a here-document or here-string: its input may be what it runs,
    /// and the review is shown only the program.
    Payload,
    /// Runs code: project scripts, builds, tests, interpreters given code.
    RunsCode,
    /// Reaches the network.
    Network,
    /// Can print a secret: a credential file or store, the environment, a variable named as
    /// a secret, a program's "print my token" command. Its content would go to the model.
    Credential,
    /// Words in the call claim it is safe, approved or read-only, or address its reviewer: a
    /// call cannot vouch for itself, so it is never put to the classifier.
    Vouching,
}

impl Risk {
    pub const ALL: [Risk; 10] = [
        Risk::Pager,
        Risk::PathQualified,
        Risk::GitElsewhere,
        Risk::Dynamic,
        Risk::Unparsed,
        Risk::Payload,
        Risk::RunsCode,
        Risk::Network,
        Risk::Credential,
        Risk::Vouching,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Risk::Pager => "pager",
            Risk::PathQualified => "path-qualified",
            Risk::GitElsewhere => "git-elsewhere",
            Risk::Dynamic => "dynamic",
            Risk::Unparsed => "unparsed",
            Risk::Payload => "payload",
            Risk::RunsCode => "runs-code",
            Risk::Network => "network",
            Risk::Credential => "credential",
            Risk::Vouching => "vouching",
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
