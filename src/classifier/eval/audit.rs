//! `classifier eval --from-audit`: a labelled file made from the audit log, to run again with
//! `classifier eval FILE`. A human's answer on a shell call labels it (allow `read_only`, deny
//! `write`); where the classifier had advised otherwise (the record's `agreed` is false) its
//! source says so, with the classifier's verdict, confidence and risk. Calls the classifier
//! allowed were seen by no one: they are listed `unlabelled`, with their confidence and risk,
//! for a person to label. Identical lines are written once.

use std::collections::HashSet;
use std::fmt::Write as _;

use serde_json::Value;

/// One line of the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub command: String,
    pub label: &'static str,
    pub source: String,
}

/// What the audit log gave.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    pub entries: Vec<Entry>,
    /// Shell calls a human answered.
    pub answered: usize,
    /// Of those, the ones where the classifier had advised otherwise.
    pub disagreed: usize,
    /// Shell calls the classifier allowed.
    pub by_classifier: usize,
    /// Lines of the log that are not records.
    pub unreadable: usize,
}

impl Report {
    /// The report of the audit log `text`.
    pub fn of(text: &str) -> Report {
        let mut report = Report::default();
        let mut seen = HashSet::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let record = match serde_json::from_str::<Value>(line) {
                Ok(record @ Value::Object(_)) => record,
                _ => {
                    report.unreadable += 1;
                    continue;
                }
            };
            let Some(entry) = report.entry(&record) else {
                continue;
            };
            if seen.insert((entry.command.clone(), entry.label)) {
                report.entries.push(entry);
            }
        }
        report
    }

    /// The entry of one record, counted, if it is a shell call a human answered or the
    /// classifier allowed.
    fn entry(&mut self, record: &Value) -> Option<Entry> {
        let field = |k: &str| record.get(k).and_then(Value::as_str);
        let shell = match field("kind") {
            Some(kind) => kind == "shell",
            None => field("tool") == Some("Bash"),
        };
        if !shell {
            return None;
        }
        let command = field("subject")?.to_string();
        let advice = Advised::of(record);
        match (field("decider")?, field("decision")?) {
            ("human", decision @ ("allow" | "deny")) => {
                self.answered += 1;
                let label = match decision {
                    "allow" => "read_only",
                    _ => "write",
                };
                let source = match (record.get("agreed").and_then(Value::as_bool), advice) {
                    (Some(false), Some(advice)) => {
                        self.disagreed += 1;
                        format!("audit disagreed: classifier {advice}")
                    }
                    _ => "audit".to_string(),
                };
                Some(Entry {
                    command,
                    label,
                    source,
                })
            }
            ("classifier", "allow") => {
                self.by_classifier += 1;
                let said = advice.map_or_else(|| "no advice recorded".into(), |a| a.to_string());
                Some(Entry {
                    command,
                    label: "unlabelled",
                    source: format!("audit classifier allowed: {said}"),
                })
            }
            _ => None,
        }
    }

    /// The file: a few `#` lines that say what it holds, the header, then one line per entry.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# from the audit log: {} shell calls a human answered, {} of them where the \
             classifier had advised otherwise (source `audit disagreed`)",
            self.answered, self.disagreed
        );
        let _ = writeln!(
            out,
            "# {} shell calls the classifier allowed that no human saw: change `unlabelled` to \
             `read_only` or `write` to count them",
            self.by_classifier
        );
        if self.unreadable > 0 {
            let _ = writeln!(
                out,
                "# {} lines of the log were not records",
                self.unreadable
            );
        }
        out.push_str("command\tlabel\tsource\n");
        for entry in &self.entries {
            let _ = writeln!(
                out,
                "{}\t{}\t{}",
                escaped(&entry.command),
                entry.label,
                escaped(&entry.source)
            );
        }
        out
    }
}

/// The classifier's advice as a record keeps it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Advised<'a> {
    verdict: &'a str,
    confidence: Option<f64>,
    risk: Option<&'a str>,
}

impl<'a> Advised<'a> {
    fn of(record: &'a Value) -> Option<Advised<'a>> {
        Some(Advised {
            verdict: record.get("advice")?.as_str()?,
            confidence: record.get("confidence").and_then(Value::as_f64),
            risk: record.get("risk").and_then(Value::as_str),
        })
    }
}

impl std::fmt::Display for Advised<'_> {
    /// `read-only, confidence 0.97, risk low` (a part the record lacks is left out).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.verdict)?;
        if let Some(confidence) = self.confidence {
            write!(f, ", confidence {confidence:.2}")?;
        }
        if let Some(risk) = self.risk {
            write!(f, ", risk {risk}")?;
        }
        Ok(())
    }
}

/// The corpus's escaped form: the inverse of `decode_escaped`.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}
