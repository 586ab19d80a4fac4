//! Reads the lasting rules and the policy files in force for the rules panel: the runner's
//! side of `Effect::ListRules`, so the model's `update` never touches a file.

use crate::core::policy::hits::Hits;
use crate::core::policy::load::Policy;
use crate::core::policy::{RuleFile, Trust};

use super::app::{Lasting, LastingRule};

/// Every known file's rules, with their hit counts from `hits`, and a line per file saying how
/// it counts.
pub fn read(policy: &Policy, hits: &Hits) -> Lasting {
    let mut out = Lasting::default();
    for loaded in policy.known() {
        match loaded {
            Ok(file) => {
                out.files.push(file_line(&file));
                push_rules(&mut out.rules, &file, hits);
            }
            Err(err) => out
                .files
                .push(format!("BROKEN (calls under it are refused): {err}")),
        }
    }
    out
}

fn file_line(file: &RuleFile) -> String {
    let how = match file.trust {
        Trust::Own => "",
        Trust::Trusted => " (trusted)",
        Trust::Untrusted => " (not trusted: only tightens)",
        Trust::FloorOnly => " (machine floor: only tightens)",
    };
    let ceiling = file
        .ceiling
        .map(|m| format!(", mode ceiling {m}"))
        .unwrap_or_default();
    format!("{} {}{how}{ceiling}", file.layer, file.origin())
}

fn push_rules(out: &mut Vec<LastingRule>, file: &RuleFile, hits: &Hits) {
    // Read when the panel asks (the runner, on opening it and each tick while it is open).
    let now = std::time::SystemTime::now();
    let row = |rule: &crate::core::rule::Rule, ignored: bool| LastingRule {
        layer: file.layer,
        file: file.origin(),
        id: rule.id.clone(),
        summary: format!("{}{}", rule.summary(), rule.expiry_words(now)),
        hits: hits.get(&file.origin(), &rule.id),
        ignored,
    };
    out.extend(file.rules.iter().map(|r| row(r, false)));
    out.extend(file.ignored.iter().map(|r| row(r, true)));
}
