//! The one route table: what the live mode makes of each kind of call.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::mode::Mode;
use super::shell::Risk;

/// What static analysis says about a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// Verifiably changes nothing.
    ReadOnly,
    /// Not proven either way, for want of knowledge only: an unknown program, subcommand or
    /// option, a word known only at run time, an MCP tool nobody listed.
    Unverified,
    /// Not proven either way, and carrying a risk the analyser knows (it reaches the network,
    /// runs code, opens a pager, runs a path-qualified file, redirects git). The human's to
    /// weigh, never the classifier's.
    Risky(Risk),
    /// Known to change state.
    Writer,
    /// Matches a configured denied command: refused in every mode.
    Denied,
    /// Cannot succeed (an Edit whose text is not in the file): refused with guidance.
    Doomed,
    /// Changes what gatehouse itself allows (its rules, trust, hooks, devices or console):
    /// asked in every mode, never raced or listed.
    Tamper,
    /// A plan the agent presents for approval before it carries it out: changes nothing by
    /// itself, and is what the human should see before the agent goes on to write.
    Plan,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::ReadOnly => "read-only",
            Class::Unverified => "unverified",
            Class::Risky(risk) => match risk {
                Risk::Pager => "unverified (pager)",
                Risk::PathQualified => "unverified (path-qualified)",
                Risk::GitElsewhere => "unverified (git-elsewhere)",
                Risk::Dynamic => "unverified (dynamic)",
                Risk::Unparsed => "unverified (unparsed)",
                Risk::Payload => "unverified (payload)",
                Risk::RunsCode => "unverified (runs-code)",
                Risk::Network => "unverified (network)",
                Risk::Credential => "unverified (credential)",
                Risk::Vouching => "unverified (vouching)",
            },
            Class::Writer => "writer",
            Class::Denied => "denied",
            Class::Doomed => "doomed",
            Class::Tamper => "tamper",
            Class::Plan => "plan",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A row of the route table: the class, refined by what kind of call it is and by the rules
/// that already allow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Row {
    Denied,
    Doomed,
    ReadOnly,
    /// Allowed by a session allow or listed in `safe_commands`.
    Listed,
    /// Unverified shell lines whose only obstacle is missing knowledge.
    UnverifiedShell,
    /// Unverified shell lines with a known risk: one row per risk.
    Risky(Risk),
    UnverifiedMcp,
    /// Writers, and every other tool that is neither read-only nor a shell or MCP call.
    WriterOrOther,
    /// Calls that change what gatehouse itself allows.
    Tamper,
    /// A plan presented for approval.
    Plan,
}

impl Row {
    pub const ALL: [Row; 19] = [
        Row::Denied,
        Row::Doomed,
        Row::ReadOnly,
        Row::Listed,
        Row::UnverifiedShell,
        Row::Risky(Risk::Pager),
        Row::Risky(Risk::PathQualified),
        Row::Risky(Risk::GitElsewhere),
        Row::Risky(Risk::Dynamic),
        Row::Risky(Risk::Unparsed),
        Row::Risky(Risk::Payload),
        Row::Risky(Risk::RunsCode),
        Row::Risky(Risk::Network),
        Row::Risky(Risk::Credential),
        Row::Risky(Risk::Vouching),
        Row::UnverifiedMcp,
        Row::WriterOrOther,
        Row::Tamper,
        Row::Plan,
    ];

    /// The row's name in the route table.
    pub fn name(self) -> &'static str {
        match self {
            Row::Denied => "denied",
            Row::Doomed => "doomed",
            Row::ReadOnly => "read-only",
            Row::Listed => "listed",
            Row::UnverifiedShell => "unverified-shell",
            Row::Risky(risk) => match risk {
                Risk::Pager => "risky-pager",
                Risk::PathQualified => "risky-path-qualified",
                Risk::GitElsewhere => "risky-git-elsewhere",
                Risk::Dynamic => "risky-dynamic",
                Risk::Unparsed => "risky-unparsed",
                Risk::Payload => "risky-payload",
                Risk::RunsCode => "risky-runs-code",
                Risk::Network => "risky-network",
                Risk::Credential => "risky-credential",
                Risk::Vouching => "risky-vouching",
            },
            Row::UnverifiedMcp => "unverified-mcp",
            Row::WriterOrOther => "writer-or-other",
            Row::Tamper => "tamper",
            Row::Plan => "plan",
        }
    }
}

/// What happens to a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Route {
    /// Allowed at once, no dialog.
    Allow,
    /// Refused at once, no dialog.
    Reject,
    /// A dialog for the human.
    Ask,
    /// A dialog for the human, and the classifier races them.
    Race,
}

impl Route {
    pub fn name(self) -> &'static str {
        match self {
            Route::Allow => "allow",
            Route::Reject => "reject",
            Route::Ask => "ask",
            Route::Race => "race",
        }
    }

    /// True when the route opens a dialog.
    pub fn asks(self) -> bool {
        matches!(self, Route::Ask | Route::Race)
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The route table of DESIGN.md. Both matches are exhaustive on purpose: a new mode or row must
/// force a decision here.
pub fn route(mode: Mode, row: Row) -> Route {
    use Route::*;
    match row {
        Row::Denied | Row::Doomed => Reject,
        Row::ReadOnly => match mode {
            Mode::AllowAll | Mode::AllowRead | Mode::Auto | Mode::AutoMcp | Mode::Plan => Allow,
            Mode::BlockAll => Ask,
        },
        // Plan mode lets nothing run that is not a proven read, whoever listed it.
        Row::Listed => match mode {
            Mode::AllowAll | Mode::AllowRead | Mode::Auto | Mode::AutoMcp => Allow,
            Mode::BlockAll => Ask,
            Mode::Plan => Reject,
        },
        Row::UnverifiedShell => match mode {
            Mode::AllowAll => Allow,
            Mode::AllowRead | Mode::BlockAll => Ask,
            Mode::Auto | Mode::AutoMcp => Race,
            Mode::Plan => Reject,
        },
        // A known risk is asked of the human as in allow-read: the model is never asked to
        // weigh the network, code, pagers, foreign executables, git pointed elsewhere, words
        // it cannot see, a line it cannot be shown, a payload, a secret it would be shown (allow-all
        // lets it run: the user allowed everything) or words that vouch for the call.
        Row::Risky(
            Risk::Pager
            | Risk::PathQualified
            | Risk::GitElsewhere
            | Risk::Dynamic
            | Risk::Unparsed
            | Risk::Payload
            | Risk::RunsCode
            | Risk::Network
            | Risk::Credential
            | Risk::Vouching,
        ) => match mode {
            Mode::AllowAll => Allow,
            Mode::AllowRead | Mode::Auto | Mode::AutoMcp | Mode::BlockAll => Ask,
            Mode::Plan => Reject,
        },
        Row::UnverifiedMcp => match mode {
            Mode::AllowAll => Allow,
            Mode::AllowRead | Mode::Auto | Mode::BlockAll => Ask,
            Mode::AutoMcp => Race,
            Mode::Plan => Reject,
        },
        Row::WriterOrOther => match mode {
            Mode::AllowAll => Allow,
            Mode::AllowRead | Mode::Auto | Mode::AutoMcp | Mode::BlockAll => Ask,
            Mode::Plan => Reject,
        },
        // The gate's own policy is the human's to change, whatever the mode: allow-all lets
        // agents work unwatched, not rewrite what is watched.
        Row::Tamper => match mode {
            Mode::AllowAll | Mode::AllowRead | Mode::Auto | Mode::AutoMcp | Mode::BlockAll => Ask,
            Mode::Plan => Reject,
        },
        // A plan is shown to the human wherever writes are: in plan mode above all, since
        // approving it is how the human lets the agent leave planning (and may leave plan mode
        // with it). Allow-all lets it pass unseen, as it lets the writes that follow.
        Row::Plan => match mode {
            Mode::AllowAll => Allow,
            Mode::AllowRead | Mode::Auto | Mode::AutoMcp | Mode::BlockAll | Mode::Plan => Ask,
        },
    }
}

/// The route in `mode`, no more open than the route in any of the `ceilings` (a project's or
/// the floor's `mode_ceiling`): reject, then ask, then race, then allow, from closed to open.
pub fn capped(mode: Mode, ceilings: &[Mode], row: Row) -> Route {
    fn closedness(route: Route) -> u8 {
        match route {
            Route::Reject => 3,
            Route::Ask => 2,
            Route::Race => 1,
            Route::Allow => 0,
        }
    }
    ceilings
        .iter()
        .map(|&ceiling| route(ceiling, row))
        .fold(route(mode, row), |a, b| {
            match closedness(b) > closedness(a) {
                true => b,
                false => a,
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DESIGN.md's table, written out as text so that any change to `route` shows here.
    const TABLE: &str = "\
row                  allow-all allow-read auto   auto+mcp block-all plan
denied               reject    reject     reject reject   reject    reject
doomed               reject    reject     reject reject   reject    reject
read-only            allow     allow      allow  allow    ask       allow
listed               allow     allow      allow  allow    ask       reject
unverified-shell     allow     ask        race   race     ask       reject
risky-pager          allow     ask        ask    ask      ask       reject
risky-path-qualified allow     ask        ask    ask      ask       reject
risky-git-elsewhere  allow     ask        ask    ask      ask       reject
risky-dynamic        allow     ask        ask    ask      ask       reject
risky-unparsed       allow     ask        ask    ask      ask       reject
risky-payload        allow     ask        ask    ask      ask       reject
risky-runs-code      allow     ask        ask    ask      ask       reject
risky-network        allow     ask        ask    ask      ask       reject
risky-credential     allow     ask        ask    ask      ask       reject
risky-vouching       allow     ask        ask    ask      ask       reject
unverified-mcp       allow     ask        ask    race     ask       reject
writer-or-other      allow     ask        ask    ask      ask       reject
tamper               ask       ask        ask    ask      ask       reject
plan                 allow     ask        ask    ask      ask       ask";

    #[test]
    fn every_mode_and_row_routes_as_the_design_table_says() {
        let mut lines = TABLE.lines();
        let header: Vec<&str> = lines.next().unwrap().split_whitespace().skip(1).collect();
        let modes: Vec<Mode> = header.iter().map(|m| m.parse().unwrap()).collect();
        assert_eq!(modes, Mode::ALL);
        let mut rows_seen = 0;
        for (line, row) in lines.zip(Row::ALL) {
            rows_seen += 1;
            let mut cells = line.split_whitespace();
            assert_eq!(cells.next(), Some(row.name()), "row order");
            let expected: Vec<&str> = cells.collect();
            let actual: Vec<&str> = modes.iter().map(|&m| route(m, row).name()).collect();
            assert_eq!(actual, expected, "row {line:?}");
        }
        assert_eq!(rows_seen, Row::ALL.len());
    }

    #[test]
    fn a_known_risk_is_never_raced_in_any_mode() {
        for mode in Mode::ALL {
            for risk in Risk::ALL {
                assert_ne!(route(mode, Row::Risky(risk)), Route::Race, "{mode} {risk}");
            }
        }
    }

    fn closed_rank(route: Route) -> u8 {
        match route {
            Route::Allow => 0,
            Route::Race => 1,
            Route::Ask => 2,
            Route::Reject => 3,
        }
    }

    #[test]
    fn a_ceiling_closes_what_the_live_mode_would_open_and_never_opens_anything() {
        for mode in Mode::ALL {
            for ceiling in Mode::ALL {
                for row in Row::ALL {
                    let got = capped(mode, &[ceiling], row);
                    let (live, cap) = (route(mode, row), route(ceiling, row));
                    assert!(got == live || got == cap, "{mode} {ceiling} {row:?}");
                    assert!(
                        closed_rank(got) >= closed_rank(live).max(closed_rank(cap)),
                        "{mode} under {ceiling}: {row:?} opened to {got}"
                    );
                }
            }
        }
        assert_eq!(
            capped(Mode::AllowAll, &[Mode::AllowRead], Row::WriterOrOther),
            Route::Ask
        );
        assert_eq!(
            capped(Mode::Auto, &[Mode::AllowRead], Row::UnverifiedShell),
            Route::Ask
        );
        assert_eq!(
            capped(Mode::AllowRead, &[Mode::AllowAll], Row::WriterOrOther),
            Route::Ask
        );
        assert_eq!(
            capped(Mode::AllowAll, &[], Row::WriterOrOther),
            Route::Allow
        );
    }

    #[test]
    fn plan_mode_asks_only_the_plan_and_allows_only_proven_reads() {
        for row in Row::ALL {
            let got = route(Mode::Plan, row);
            assert_eq!(got.asks(), row == Row::Plan, "{row:?} in plan mode");
            assert_eq!(got == Route::Allow, row == Row::ReadOnly, "{row:?}");
        }
    }

    #[test]
    fn only_the_auto_modes_ever_race() {
        for mode in Mode::ALL {
            for row in Row::ALL {
                if route(mode, row) == Route::Race {
                    assert!(matches!(mode, Mode::Auto | Mode::AutoMcp), "{mode} {row:?}");
                }
            }
        }
    }
}
