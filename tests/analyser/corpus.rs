//! The labelled corpus: no `write` line may be read-only, and at least 97% of the
//! `read_only` lines must be recognised.

use gatehouse::core::shell::{Safety, analyse};
use gatehouse::explain::decode_escaped;

/// `(command, label)` for every corpus line.
pub fn corpus() -> Vec<(String, String)> {
    let text = include_str!("../data/commands.tsv");
    text.lines()
        .skip(1)
        .filter(|line| !line.is_empty())
        .map(|line| {
            let mut fields = line.split('\t');
            let command = decode_escaped(fields.next().unwrap_or(""));
            let label = fields.next().unwrap_or("").to_string();
            (command, label)
        })
        .collect()
}

#[test]
fn no_write_line_is_read_only_and_most_read_only_lines_are_recognised() {
    let mut allowed_writes = Vec::new();
    let mut missed = Vec::new();
    let mut read_only_total = 0;
    for (command, label) in corpus() {
        let analysis = analyse(&command);
        match label.as_str() {
            "write" if analysis.safety == Safety::ReadOnly => {
                allowed_writes.push(format!("{command:?}: {}", analysis.explanation()));
            }
            "read_only" => {
                read_only_total += 1;
                if analysis.safety != Safety::ReadOnly {
                    missed.push(format!("{command:?}: {}", analysis.explanation()));
                }
            }
            _ => {}
        }
    }
    let recognised = read_only_total - missed.len();
    let rate = recognised as f64 / read_only_total as f64 * 100.0;
    println!("read_only recognised: {recognised}/{read_only_total} ({rate:.1}%)");
    println!("write lines allowed: {}", allowed_writes.len());
    for line in &missed {
        println!("missed read_only: {line}");
    }
    for line in &allowed_writes {
        println!("WRITE ALLOWED: {line}");
    }
    assert!(
        allowed_writes.is_empty(),
        "write lines classed read-only:\n{}",
        allowed_writes.join("\n")
    );
    assert!(
        rate >= 97.0,
        "only {rate:.1}% of read_only lines recognised"
    );
}

#[test]
#[ignore = "prints every corpus line with its explanation, for review"]
fn print_every_explanation() {
    for (command, label) in corpus() {
        let analysis = analyse(&command);
        println!(
            "{label}\t{}\t{command:?}\t{}",
            analysis.safety,
            analysis.explanation()
        );
    }
}

/// Before the split every unverified shell line was raced in auto; now only those whose sole
/// obstacle is missing knowledge are. Among the `write` lines, the raced ones must be at most a
/// fifth of the unverified ones.
#[test]
fn auto_races_at_most_a_fifth_of_the_unverified_write_lines() {
    use gatehouse::core::call::{Agent, Call};
    use gatehouse::core::classify::assess;
    use gatehouse::core::mode::Mode;
    use gatehouse::core::route::{Class, Route, route};
    use gatehouse::core::rules::Rules;

    let rules = Rules::default();
    let mut unverified = 0usize;
    let mut raced = Vec::new();
    for (command, label) in corpus() {
        if label != "write" {
            continue;
        }
        let call = Call {
            agent: Agent::new("corpus"),
            session: String::new(),
            cwd: String::new(),
            tool: "Bash".into(),
            kind: Some(gatehouse::agents::claude::kind_of("Bash")),
            subagent: None,
            input: serde_json::json!({ "command": command }),
            tool_use_id: None,
            stage: Default::default(),
            caps: Default::default(),
            transcript_path: None,
            path_key: None,
            remote: None,
            hook_timeout_secs: None,
        };
        let a = assess(&call, &rules, &[]);
        if matches!(a.class, Class::Unverified | Class::Risky(_)) {
            unverified += 1;
        }
        if route(Mode::Auto, a.row) == Route::Race {
            assert_eq!(
                a.class,
                Class::Unverified,
                "{command:?}: only unknowns race"
            );
            raced.push(format!("{command:?}: {}", a.explanation));
        }
    }
    println!("write lines unverified (all raced before the split): {unverified}");
    println!(
        "write lines raced in auto now (unknown only): {}",
        raced.len()
    );
    for line in &raced {
        println!("raced: {line}");
    }
    assert!(unverified > 0, "the corpus has unverified write lines");
    assert!(
        raced.len() * 5 <= unverified,
        "{} of {unverified} unverified write lines still race",
        raced.len()
    );
}
