//! How many calls each lasting rule decided, counted from the audit log, so that `gatehouse
//! rules list` and the console's rules panel give the same figure, across runs: every record
//! whose `rule` names a lasting rule (`rule ID (…) in PLACE`, as [`Hit::describe`] writes it)
//! counts one call for that rule of that file.
//!
//! [`Hit::describe`]: super::Hit::describe

use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// The most of the log read, from its end: older calls are not counted.
const TAIL: u64 = 64 * 1024 * 1024;

/// Calls decided, by rule id and the place its file is (`RuleFile::origin`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hits(HashMap<(String, String), u64>);

impl Hits {
    /// The counts in the audit log's `text`.
    pub fn of(text: &str) -> Hits {
        let mut hits = Hits::default();
        for line in text.lines() {
            let Ok(record) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if let Some(key) = record.get("rule").and_then(|r| r.as_str()).and_then(named) {
                *hits.0.entry(key).or_default() += 1;
            }
        }
        hits
    }

    /// The counts in the audit log at `path` (its last 64 MiB); none when it cannot be read.
    pub fn read(path: &Path) -> Hits {
        let mut text = String::new();
        let read = std::fs::File::open(path).and_then(|mut file| {
            let len = file.metadata()?.len();
            file.seek(SeekFrom::Start(len.saturating_sub(TAIL)))?;
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes)?;
            text = String::from_utf8_lossy(&bytes).into_owned();
            Ok(())
        });
        match read {
            Ok(()) => Hits::of(&text),
            Err(_) => Hits::default(),
        }
    }

    /// How many calls rule `id` of the file at `origin` decided.
    pub fn get(&self, origin: &str, id: &str) -> u64 {
        let key = (id.to_string(), origin.to_string());
        self.0.get(&key).copied().unwrap_or(0)
    }
}

/// The rule id and file place a record's `rule` names, if it names a lasting rule.
fn named(rule: &str) -> Option<(String, String)> {
    let rest = rule.strip_prefix("rule ")?;
    let (id, _) = rest.split_once(" (")?;
    let (_, place) = rest.rsplit_once(") in ")?;
    let place = place.strip_prefix("the ").unwrap_or(place);
    Some((id.to_string(), place.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_naming_a_lasting_rule_count_for_that_rule_of_that_file() {
        let log = [
            r#"{"decider":"rule","rule":"rule no-push (deny prefix \"git push\" (use CI)) in /r/.gatehouse.toml"}"#,
            r#"{"decider":"rule","rule":"rule no-push (deny prefix \"git push\") in /r/.gatehouse.toml"}"#,
            r#"{"decider":"rule","rule":"rule no-push (deny prefix \"git push\") in /other/.gatehouse.toml"}"#,
            r#"{"decider":"rule","rule":"rule lint (allow command \"make lint\") in the user rules"}"#,
            r##"{"decider":"session-allow","rule":"#3 rm -rf build"}"##,
            "not a record",
        ]
        .join("\n");
        let hits = Hits::of(&log);
        assert_eq!(hits.get("/r/.gatehouse.toml", "no-push"), 2);
        assert_eq!(hits.get("/other/.gatehouse.toml", "no-push"), 1);
        assert_eq!(hits.get("user rules", "lint"), 1);
        assert_eq!(hits.get("/r/.gatehouse.toml", "other"), 0);
    }
}
