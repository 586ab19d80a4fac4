//! The one application of an Edit's `old_string` → `new_string` replacements to a file's
//! text. The static classifier runs it as a dry run (an edit whose text is not in the file
//! cannot succeed) and the console runs it to draw the diff, so both read the same fields the
//! same way.

use std::path::Path;

use serde_json::Value;

use super::call::Call;

/// One replacement, as Claude Code's Edit, MultiEdit and Gemini's `replace` write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edit<'a> {
    pub old: &'a str,
    pub new: &'a str,
    /// Every occurrence (`replace_all`), not only the first.
    pub all: bool,
}

/// Why an edit could not be applied, with its place in the list (from 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unapplied {
    /// Its `old_string` is empty: it names no text to replace.
    Empty { index: usize },
    /// Its `old_string` is not in the text as the earlier edits left it.
    Missing { index: usize },
}

/// The replacements of a tool input: its `edits` array when it has one, else the input itself.
pub fn edits_of(input: &Value) -> Vec<Edit<'_>> {
    match input.get("edits").and_then(Value::as_array) {
        Some(edits) => edits.iter().map(Edit::of).collect(),
        None => vec![Edit::of(input)],
    }
}

impl<'a> Edit<'a> {
    fn of(edit: &'a Value) -> Edit<'a> {
        let text = |key: &str| edit.get(key).and_then(Value::as_str).unwrap_or("");
        Edit {
            old: text("old_string"),
            new: text("new_string"),
            all: edit.get("replace_all").and_then(Value::as_bool) == Some(true),
        }
    }
}

/// `text` with every edit applied in order, or the first one that cannot apply.
pub fn apply(text: &str, edits: &[Edit<'_>]) -> Result<String, Unapplied> {
    let mut text = text.to_string();
    for (index, edit) in edits.iter().enumerate() {
        if edit.old.is_empty() {
            return Err(Unapplied::Empty { index });
        }
        if !text.contains(edit.old) {
            return Err(Unapplied::Missing { index });
        }
        text = if edit.all {
            text.replace(edit.old, edit.new)
        } else {
            text.replacen(edit.old, edit.new, 1)
        };
    }
    Ok(text)
}

/// An edit call with `old_string` replacements (one, or an `edits` list) whose text to replace
/// is not in the (readable) file cannot succeed; returns the guidance to send back instead of
/// asking anyone. An edit without replacements (a whole-file write, a patch) is never doomed.
pub fn doomed(call: &Call) -> Option<String> {
    let edits = edits_of(&call.input);
    let path = call.file_path()?;
    let text = std::fs::read_to_string(Path::new(&call.cwd).join(path)).ok()?;
    match apply(&text, &edits) {
        Err(Unapplied::Missing { index }) => {
            let which = if edits.len() > 1 {
                format!("edit {} of {}: ", index + 1, edits.len())
            } else {
                String::new()
            };
            Some(format!(
                "{which}old_string is not in {path}; read the file again and copy the exact text to replace"
            ))
        }
        Ok(_) | Err(Unapplied::Empty { .. }) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn edits_apply_in_order_and_replace_all_replaces_every_occurrence() {
        let input = json!({"edits": [
            {"old_string": "a", "new_string": "b", "replace_all": true},
            {"old_string": "b c", "new_string": "d"},
        ]});
        assert_eq!(apply("a c a", &edits_of(&input)), Ok("d b".into()));
    }

    #[test]
    fn an_edit_whose_text_the_earlier_edits_removed_does_not_apply() {
        let input = json!({"edits": [
            {"old_string": "x", "new_string": "y"},
            {"old_string": "x", "new_string": "z"},
        ]});
        assert_eq!(
            apply("x", &edits_of(&input)),
            Err(Unapplied::Missing { index: 1 })
        );
    }

    #[test]
    fn an_edit_with_no_old_text_names_nothing_to_replace() {
        let input = json!({"old_string": "", "new_string": "new"});
        assert_eq!(
            apply("old", &edits_of(&input)),
            Err(Unapplied::Empty { index: 0 })
        );
    }
}
