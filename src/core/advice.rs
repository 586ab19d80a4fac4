//! What a classifier says about a call: a structured [`Assessment`] per classifier, gathered
//! into [`Advice`]. Advice is never binding by itself; the barrier allows a raced call only when
//! [`Advice::allows`] holds, that is when every classifier asked cleared it.

use std::fmt;

use serde::Serialize;

use super::decision::Verdict;

/// How much harm the call could do if the verdict were wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Risk {
    Low,
    Medium,
    High,
    Critical,
}

impl Risk {
    pub const ALL: [Risk; 4] = [Risk::Low, Risk::Medium, Risk::High, Risk::Critical];

    pub fn name(self) -> &'static str {
        match self {
            Risk::Low => "low",
            Risk::Medium => "medium",
            Risk::High => "high",
            Risk::Critical => "critical",
        }
    }
}

/// The closed list of concerns a model may name. Any other word makes the answer invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// Sends local data somewhere else.
    DataExfiltration,
    /// Reads or uses keys, tokens, passwords.
    CredentialAccess,
    /// Deletes or overwrites local files or state.
    DestructiveLocal,
    /// Changes something on another machine or service.
    RemoteEffects,
    /// Runs code whose effects cannot be seen from the call.
    CodeExecution,
    /// Survives the session: services, cron, shell profiles, hooks.
    Persistence,
    /// sudo, setuid, capabilities, other users.
    PrivilegeEscalation,
    /// Fills disks, forks, spins.
    ResourceExhaustion,
    /// No concern.
    None,
}

impl Category {
    pub const ALL: [Category; 9] = [
        Category::DataExfiltration,
        Category::CredentialAccess,
        Category::DestructiveLocal,
        Category::RemoteEffects,
        Category::CodeExecution,
        Category::Persistence,
        Category::PrivilegeEscalation,
        Category::ResourceExhaustion,
        Category::None,
    ];

    /// The word the model writes, as listed in the system prompt.
    pub fn name(self) -> &'static str {
        match self {
            Category::DataExfiltration => "data-exfiltration",
            Category::CredentialAccess => "credential-access",
            Category::DestructiveLocal => "destructive-local",
            Category::RemoteEffects => "remote-effects",
            Category::CodeExecution => "code-execution",
            Category::Persistence => "persistence",
            Category::PrivilegeEscalation => "privilege-escalation",
            Category::ResourceExhaustion => "resource-exhaustion",
            Category::None => "none",
        }
    }
}

/// One classifier's structured answer about one call.
#[derive(Debug, Clone, PartialEq)]
pub struct Assessment {
    pub verdict: Verdict,
    pub risk: Risk,
    pub categories: Vec<Category>,
    /// One sentence from the model: untrusted text, escaped wherever it is shown.
    pub rationale: String,
    /// From 0.0 to 1.0.
    pub confidence: f64,
}

impl Assessment {
    /// The assessment an invalid or missing answer stands for: unsure, high risk, no confidence.
    pub fn unsure(why: impl Into<String>) -> Assessment {
        Assessment {
            verdict: Verdict::Unsure,
            risk: Risk::High,
            categories: Vec::new(),
            rationale: why.into(),
            confidence: 0.0,
        }
    }

    /// Whether this stands in for an answer that was not one ([`Assessment::unsure`]): a real
    /// answer always names at least one category.
    pub fn is_stand_in(&self) -> bool {
        self.categories.is_empty()
    }

    /// Whether this assessment may allow a raced call: `read-only`, risk `low`, no category of
    /// harm (only `none`), and confidence at or above `threshold`. Everything else only
    /// annotates the dialog.
    pub fn clears(&self, threshold: f64) -> bool {
        self.verdict == Verdict::ReadOnly
            && self.risk == Risk::Low
            && !self.categories.is_empty()
            && self.categories.iter().all(|c| *c == Category::None)
            && self.confidence.is_finite()
            && self.confidence >= threshold
    }
}

impl Assessment {
    /// Whether it found a high or critical risk with confidence at or over `threshold`. A
    /// stand-in for an unreadable answer never alarms: only the model's own answer can.
    pub fn alarms(&self, threshold: f64) -> bool {
        self.risk >= Risk::High
            && !self.is_stand_in()
            && self.confidence.is_finite()
            && self.confidence >= threshold
    }
}

impl fmt::Display for Assessment {
    /// `read-only, risk low, 0.93 [none]: Lists files.` (the rationale is not escaped here).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let categories: Vec<&str> = self.categories.iter().map(|c| c.name()).collect();
        write!(
            f,
            "{}, risk {}, {:.2} [{}]: {}",
            self.verdict.name(),
            self.risk.name(),
            self.confidence,
            categories.join(", "),
            self.rationale
        )
    }
}

/// One classifier's part in the advice: its assessment or why it gave none, and whether it
/// cleared the call over its own threshold.
#[derive(Debug, Clone, PartialEq)]
pub struct Opinion {
    /// The classifier's name, for the dialog and the status bar (`anthropic claude-haiku-4-5`).
    pub name: String,
    pub outcome: Result<Assessment, String>,
    pub clears: bool,
    /// It found a high or critical risk with confidence over its own threshold: in allow-all
    /// under `review_allow_all`, this turns the allow into a dialog.
    pub alarms: bool,
}

impl Opinion {
    /// An opinion from `assessment`, judged against `threshold`.
    pub fn judged(name: impl Into<String>, assessment: Assessment, threshold: f64) -> Opinion {
        Opinion {
            name: name.into(),
            clears: assessment.clears(threshold),
            alarms: assessment.alarms(threshold),
            outcome: Ok(assessment),
        }
    }

    /// A classifier that gave no assessment: it never clears.
    pub fn failed(name: impl Into<String>, why: impl Into<String>) -> Opinion {
        Opinion {
            name: name.into(),
            outcome: Err(why.into()),
            clears: false,
            alarms: false,
        }
    }
}

/// Every classifier's opinion on one call, in config order.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    pub opinions: Vec<Opinion>,
}

impl Advice {
    /// Whether any classifier found a confident high or critical risk: one is enough to ask
    /// the human, since this can only tighten.
    pub fn alarms(&self) -> bool {
        self.opinions.iter().any(|o| o.alarms)
    }

    /// True only when there is at least one opinion and every one clears: any failure,
    /// timeout, low confidence, non-low risk or dissent leaves the call with the human.
    pub fn allows(&self) -> bool {
        !self.opinions.is_empty() && self.opinions.iter().all(|o| o.clears)
    }

    /// The most cautious verdict among the opinions (a failure counts as unsure).
    pub fn verdict(&self) -> Verdict {
        let verdicts = self.opinions.iter().map(|o| match &o.outcome {
            Ok(a) => a.verdict,
            Err(_) => Verdict::Unsure,
        });
        let mut worst = Verdict::ReadOnly;
        for verdict in verdicts {
            worst = match (worst, verdict) {
                (Verdict::Writes, _) | (_, Verdict::Writes) => Verdict::Writes,
                (Verdict::Unsure, _) | (_, Verdict::Unsure) => Verdict::Unsure,
                _ => Verdict::ReadOnly,
            };
        }
        if self.opinions.is_empty() {
            Verdict::Unsure
        } else {
            worst
        }
    }

    /// What the audit keeps of this advice.
    pub fn gist(&self) -> Gist {
        let answers = self.opinions.iter().filter_map(|o| match &o.outcome {
            Ok(a) if !a.is_stand_in() => Some(a),
            _ => None,
        });
        let mut gist = Gist {
            verdict: self.verdict(),
            risk: None,
            confidence: None,
        };
        for answer in answers {
            gist.risk = gist.risk.max(Some(answer.risk));
            gist.confidence = Some(match gist.confidence {
                Some(least) => answer.confidence.min(least),
                None => answer.confidence,
            });
        }
        gist
    }
}

/// What the audit keeps of advice: the most cautious verdict, and over the classifiers that
/// gave a readable answer the highest risk and the lowest confidence (none when no classifier
/// answered readably), so that `classifier eval --from-audit` can show them beside the human's
/// answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gist {
    pub verdict: Verdict,
    pub risk: Option<Risk>,
    pub confidence: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_only(confidence: f64, risk: Risk) -> Assessment {
        Assessment {
            verdict: Verdict::ReadOnly,
            risk,
            categories: vec![Category::None],
            rationale: "Lists files.".into(),
            confidence,
        }
    }

    #[test]
    fn only_read_only_at_low_risk_over_the_threshold_clears() {
        assert!(read_only(0.8, Risk::Low).clears(0.8));
        assert!(!read_only(0.79, Risk::Low).clears(0.8));
        assert!(!read_only(0.99, Risk::Medium).clears(0.8));
        assert!(!read_only(f64::NAN, Risk::Low).clears(0.0));
        let mut writes = read_only(1.0, Risk::Low);
        writes.verdict = Verdict::Writes;
        assert!(!writes.clears(0.0));
        assert!(!Assessment::unsure("x").clears(0.0));
    }

    #[test]
    fn advice_allows_only_when_every_opinion_clears() {
        let yes = Opinion::judged("a", read_only(0.9, Risk::Low), 0.8);
        let shy = Opinion::judged("b", read_only(0.9, Risk::Low), 0.95);
        let down = Opinion::failed("c", "timeout");
        assert!(
            Advice {
                opinions: vec![yes.clone()]
            }
            .allows()
        );
        assert!(
            !Advice {
                opinions: vec![yes.clone(), shy]
            }
            .allows()
        );
        assert!(
            !Advice {
                opinions: vec![yes.clone(), down]
            }
            .allows()
        );
        assert!(!Advice { opinions: vec![] }.allows());
        assert_eq!(
            Advice {
                opinions: vec![yes]
            }
            .verdict(),
            Verdict::ReadOnly
        );
    }
}
