//! `gatehouse explain`: what the core makes of a shell line, as text for people, as JSON, or one
//! line per input line for batch checks.

use std::io::{self, BufRead, Write};

use serde::Serialize;
use serde_json::json;

use crate::core::call::{Agent, Call};
use crate::core::classify::{Assessment, assess};
use crate::core::escape::visible;
use crate::core::mode::Mode;
use crate::core::rules::Rules;

/// What `explain` says about one line.
#[derive(Debug, Serialize)]
pub struct Explanation {
    pub command: String,
    pub class: &'static str,
    pub explanation: String,
    /// The route in each mode, in `Mode::ALL` order.
    pub routes: Vec<(Mode, &'static str)>,
    #[serde(skip)]
    pub assessment: Assessment,
}

/// Explains `line` as a `Bash` call under `rules`, made at the filesystem's root (so in no
/// project but one there): a line judged alone, not a call from an agent that named no folder,
/// which would be asked in every mode.
pub fn explain(line: &str, rules: &Rules) -> Explanation {
    explain_in(line, rules, "/")
}

/// Explains `line` as a `Bash` call made in `cwd`: the project policy found from there counts.
pub fn explain_in(line: &str, rules: &Rules, cwd: &str) -> Explanation {
    let call = Call {
        agent: Agent::new("explain"),
        session: String::new(),
        cwd: cwd.to_string(),
        tool: "Bash".into(),
        kind: Some(crate::agents::claude::kind_of("Bash")),
        subagent: None,
        input: json!({ "command": line }),
        tool_use_id: None,
        stage: Default::default(),
        caps: Default::default(),
        transcript_path: None,
        path_key: None,
        remote: None,
        hook_timeout_secs: None,
    };
    let assessment = assess(&call, rules, &[]);
    Explanation {
        command: line.to_string(),
        class: assessment.class.name(),
        explanation: visible(&assessment.explanation).into_owned(),
        routes: Mode::ALL
            .iter()
            .map(|&m| (m, assessment.route(m).name()))
            .collect(),
        assessment,
    }
}

impl Explanation {
    /// The human form: the line, its class and why, then the route in each mode.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{}\n  class  {}\n  why    {}\n  routes",
            visible(&self.command),
            self.class,
            self.explanation
        );
        if let Some(judged) = self.judged() {
            out = out.replace(
                "\n  routes",
                &format!("\n  judged {}\n  routes", visible(&judged)),
            );
        }
        if let Some(hit) = &self.assessment.rule {
            out = out.replace(
                "\n  routes",
                &format!("\n  rule   {}\n  routes", visible(&hit.describe())),
            );
        }
        for &mode in &self.assessment.ceilings {
            out = out.replace(
                "\n  routes",
                &format!("\n  cap    no more open than {mode} (mode_ceiling)\n  routes"),
            );
        }
        for (mode, route) in &self.routes {
            out.push_str(&format!("\n    {:<11} {route}", mode.name()));
        }
        out.push('\n');
        out
    }

    /// For a read-only line, what judged each command and why (`tput: prints terminal
    /// capabilities (table tput, tput(1), ncurses 6.4)`): the `why` line names only the
    /// programs, and a table's judgement names the table it came from. `None` otherwise, where
    /// the `why` line already gives each part's reason.
    fn judged(&self) -> Option<String> {
        let shell = self.assessment.shell.as_ref()?;
        if shell.safety != crate::core::shell::Safety::ReadOnly || shell.commands.is_empty() {
            return None;
        }
        let parts: Vec<String> = shell
            .commands
            .iter()
            .map(|c| {
                let word = c.words.first().map_or("", String::as_str);
                let name = word.rsplit('/').next().unwrap_or(word);
                // A program's own table names itself; the others are named here.
                match crate::core::shell::table_of(name) {
                    Some(table) if !c.why.contains("(table ") => {
                        format!("{name}: {} ({table})", c.why)
                    }
                    _ => format!("{name}: {}", c.why),
                }
            })
            .collect();
        Some(parts.join("; "))
    }

    pub fn to_json(&self) -> serde_json::Value {
        let routes: serde_json::Map<String, serde_json::Value> = self
            .routes
            .iter()
            .map(|(m, r)| (m.name().to_string(), json!(r)))
            .collect();
        let shell = self.assessment.shell.as_ref();
        let commands: Vec<_> = shell
            .map(|s| {
                s.commands
                    .iter()
                    .map(
                        |c| json!({"words": c.words, "safety": c.safety.to_string(), "obstacle": c.obstacle.to_string(), "why": c.why}),
                    )
                    .collect()
            })
            .unwrap_or_default();
        let findings: Vec<_> = shell
            .map(|s| {
                s.findings
                    .iter()
                    .map(|f| json!({"what": f.what, "safety": f.safety.to_string(), "obstacle": f.obstacle.to_string(), "why": f.why}))
                    .collect()
            })
            .unwrap_or_default();
        let rule = self.assessment.rule.as_ref().map(|hit| {
            json!({
                "id": hit.rule.id,
                "verdict": hit.rule.ruling.name(),
                "layer": hit.layer.name(),
                "file": hit.path.as_ref().map(|p| p.display().to_string()),
                "line": hit.rule.line,
            })
        });
        json!({
            "command": self.command,
            "class": self.class,
            "explanation": self.explanation,
            "rule": rule,
            "routes": routes,
            "commands": commands,
            "findings": findings,
        })
    }
}

/// Decodes the corpus's escaped form, left to right: `\n`, `\t`, `\r` and `\\`; any other
/// backslash is kept as it is.
pub fn decode_escaped(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Reads escaped lines from `input` and writes `class<TAB>explanation` for each, in order. A
/// line that is not UTF-8 is read lossily (and so never proven read-only by accident: the
/// replacement character is no shell syntax the analyser trusts). Never stops on a bad line.
pub fn batch(input: impl BufRead, mut output: impl Write, rules: &Rules) -> io::Result<usize> {
    let mut count = 0;
    for raw in input.split(b'\n') {
        let raw = raw?;
        let raw = raw.strip_suffix(b"\r").unwrap_or(&raw);
        let line = decode_escaped(&String::from_utf8_lossy(raw));
        let explained = std::panic::catch_unwind(|| explain(&line, rules));
        match explained {
            Ok(e) => writeln!(output, "{}\t{}", e.class, e.explanation)?,
            Err(_) => writeln!(output, "unverified\tgatehouse could not analyse this line")?,
        }
        count += 1;
    }
    output.flush()?;
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_decode_left_to_right() {
        assert_eq!(decode_escaped(r"a\nb\tc\\d"), "a\nb\tc\\d");
        assert_eq!(
            decode_escaped(r"find . -exec rm {} \\;"),
            r"find . -exec rm {} \;"
        );
        assert_eq!(decode_escaped(r"\\n"), r"\n");
        assert_eq!(decode_escaped("x\\"), "x\\");
    }
}
