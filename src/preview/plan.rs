//! The plan a plan call presents, as the dialog shows it: the text the agent sent inline
//! (Claude Code's and Qwen Code's `plan`), else the file it names (Gemini CLI's `plan_path`,
//! Claude Code's `planFilePath`), read once when the dialog opens and cut at [`MAX_PLAN`].

use std::path::Path;

use serde_json::Value;

use crate::core::call::Call;
use crate::core::escape::visible_lines;

/// The most of a plan file read for the dialog; the rest is said to be cut.
pub const MAX_PLAN: usize = 256 * 1024;

/// The input keys a plan's file is named under, by the agents that send one.
const PLAN_FILE_KEYS: [&str; 2] = ["plan_path", "planFilePath"];

/// The plan's text, visible-safe, and the file it came from or is kept in, if named.
pub fn plan_of(call: &Call) -> (String, Option<String>) {
    let file = PLAN_FILE_KEYS
        .iter()
        .find_map(|key| call.input.get(*key).and_then(Value::as_str))
        .filter(|path| !path.is_empty());
    let text = match (call.plan_text(), file) {
        (Some(text), _) => text.to_string(),
        (None, Some(path)) => read(&Path::new(&call.cwd).join(path)),
        (None, None) => "(the agent sent no plan text)".to_string(),
    };
    (visible_lines(&text), file.map(visible_lines))
}

/// The plan file's text, at most [`MAX_PLAN`] bytes of it, or why it could not be read.
fn read(path: &Path) -> String {
    use std::io::Read;
    let mut bytes = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|file| file.take(MAX_PLAN as u64 + 1).read_to_end(&mut bytes));
    match read {
        Err(err) => format!(
            "(the plan file {} could not be read: {err})",
            path.display()
        ),
        Ok(_) if bytes.len() > MAX_PLAN => {
            bytes.truncate(MAX_PLAN);
            let text = String::from_utf8_lossy(&bytes);
            format!("{text}\n(the plan file is cut here: it is longer than 256 KiB)")
        }
        Ok(_) => String::from_utf8_lossy(&bytes).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::call::test_call;
    use serde_json::json;

    #[test]
    fn an_inline_plan_is_shown_and_escapes_are_made_visible() {
        let call = test_call("ExitPlan", json!({"plan": "1. read\n2. \u{1b}[31mwrite"}));
        let (text, file) = plan_of(&call);
        assert!(text.starts_with("1. read\n2. "), "{text}");
        assert!(!text.contains('\u{1b}'), "{text}");
        assert_eq!(file, None);
    }

    #[test]
    fn a_plan_file_is_read_from_the_calls_folder_when_no_text_came() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("plan.md"), "# Plan\n- step").unwrap();
        let call = Call {
            cwd: dir.path().display().to_string(),
            ..test_call("exit", json!({"plan_path": "plan.md"}))
        };
        assert_eq!(
            plan_of(&call),
            ("# Plan\n- step".to_string(), Some("plan.md".to_string()))
        );
        let gone = test_call("exit", json!({"plan_path": "/nonexistent/plan.md"}));
        assert!(plan_of(&gone).0.contains("could not be read"));
    }
}
