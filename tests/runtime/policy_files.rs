//! A repository's policy file cannot stall the console: one over the size bound refuses the
//! calls made under it at once, naming the file and the bound, and a call elsewhere is judged
//! as ever. (A 1.3 MB file once took 96 s to parse, and every hook waiting on it deferred.)

use crate::common;

use common::fixture;
use common::place::Place;
use serde_json::{Value, json};

/// A Bash hook input for `line`, made in `cwd`.
fn bash_in(cwd: &std::path::Path, line: &str) -> Vec<u8> {
    let mut value: Value =
        serde_json::from_slice(&fixture("claude-code/pretooluse-bash.json")).unwrap();
    value["cwd"] = json!(cwd);
    value["tool_input"] = json!({ "command": line });
    serde_json::to_vec(&value).unwrap()
}

fn decision_of(out: &Value) -> (String, String) {
    let specific = &out["hookSpecificOutput"];
    let text = |key: &str| specific[key].as_str().unwrap_or("").to_string();
    (text("permissionDecision"), text("permissionDecisionReason"))
}

#[test]
fn a_policy_file_over_the_size_bound_is_refused_at_once_and_a_denied_command_elsewhere_stays_denied()
 {
    // A short ask timeout: a hook whose answer is late gives up after it (and 5 s more).
    let place = Place::new("ask_timeout_secs = 1\ndenied_commands = [\"git push\"]");
    let project = place.path().join("repo");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let mut text = String::from("denied_commands = [\n");
    let mut n = 0;
    while text.len() < 3 * 1024 * 1024 {
        text.push_str(&format!("  \"tool-{n} --flag\",\n"));
        n += 1;
    }
    text.push_str("]\n");
    std::fs::write(project.join(".gatehouse.toml"), text).unwrap();
    let elsewhere = place.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let _serve = place.serve(&[]);

    let (out, err) = place.hook(&bash_in(&project, "ls"));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "deny", "{out} {err}");
    assert!(reason.contains(".gatehouse.toml"), "{reason}");
    assert!(reason.contains("1 MiB"), "{reason}");

    let (out, err) = place.hook(&bash_in(&elsewhere, "git push origin main"));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "deny", "{out} {err}");
    assert!(reason.contains("denied command"), "{reason}");
}
