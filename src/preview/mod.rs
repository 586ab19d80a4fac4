//! What a dialog shows of its call, prepared once when the dialog opens, for both screens (the
//! TUI draws it, the web page gets it as JSON): the only place the console reads files (an
//! Edit's file, for its diff in context). Every string in a preview has already been made
//! visible-safe, so neither screen can forget to.

mod patch;
mod plan;

use std::path::Path;

use serde_json::Value;
use similar::{ChangeTag, TextDiff};

use crate::core::call::{Call, ToolKind};
use crate::core::classify::Assessment;
use crate::core::edit;
use crate::core::escape::{visible, visible_lines};
use patch::{patch_lines, shown};

/// A line of a diff, by what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffTag {
    /// Which file the lines below change, and how (a patch of several files has one each).
    File,
    Hunk,
    Context,
    Removed,
    Added,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Preview {
    /// A shell line and the analyser's reason it is not read-only.
    Shell { line: String, why: String },
    /// A new file written whole.
    Write { path: String, content: String },
    /// A file written whole over one that exists: the diff from its current content.
    Replace {
        path: String,
        lines: Vec<(DiffTag, String)>,
    },
    /// An edit as a unified diff, in the file's context where the file could be read (a
    /// patch carries its own context).
    Diff {
        path: String,
        lines: Vec<(DiffTag, String)>,
        in_context: bool,
    },
    /// An MCP tool call.
    Mcp {
        server: String,
        tool: String,
        arguments: String,
    },
    /// A plan presented for approval: its text, and the file it is kept in if the agent
    /// named one.
    Plan { text: String, file: Option<String> },
    /// Any other tool: its input as JSON.
    Other { input: String },
}

impl Preview {
    pub fn build(call: &Call, assessment: &Assessment) -> Preview {
        match &assessment.kind {
            ToolKind::Shell => Preview::Shell {
                line: visible_lines(call.shell_line().unwrap_or("")),
                why: visible(&assessment.explanation).into_owned(),
            },
            ToolKind::Edit => edit_preview(call),
            ToolKind::Mcp { server, tool } => Preview::Mcp {
                server: visible(server).into_owned(),
                tool: visible(tool).into_owned(),
                arguments: pretty(&call.input),
            },
            ToolKind::Plan => {
                let (text, file) = plan::plan_of(call);
                Preview::Plan { text, file }
            }
            _ => Preview::Other {
                input: pretty(&call.input),
            },
        }
    }

    /// A Write of `content` over a file whose text is `current`.
    /// The whole preview as plain text, for a pager: the line, the content, the diff with its
    /// `+`/`-` marks, the arguments. Already visible-safe, as every preview string is.
    pub fn text(&self) -> String {
        let diff = |path: &str, lines: &[(DiffTag, String)]| {
            let mut out = format!("{path}\n");
            for (tag, line) in lines {
                let mark = match tag {
                    DiffTag::Added => "+",
                    DiffTag::Removed => "-",
                    DiffTag::Context => " ",
                    DiffTag::File | DiffTag::Hunk => "",
                };
                out.push_str(&format!("{mark}{line}\n"));
            }
            out
        };
        match self {
            Preview::Shell { line, why } => format!("$ {line}\n\nwhy {why}\n"),
            Preview::Write { path, content } => format!("write {path}\n\n{content}\n"),
            Preview::Replace { path, lines } | Preview::Diff { path, lines, .. } => {
                diff(path, lines)
            }
            Preview::Mcp {
                server,
                tool,
                arguments,
            } => format!("MCP server {server}, tool {tool}\n\n{arguments}\n"),
            Preview::Plan { text, file } => match file {
                Some(file) => format!("plan ({file})\n\n{text}\n"),
                None => format!("plan\n\n{text}\n"),
            },
            Preview::Other { input } => format!("{input}\n"),
        }
    }

    pub fn replacing(path: &str, current: &str, content: &str) -> Preview {
        Preview::Replace {
            path: visible(path).into_owned(),
            lines: diff_lines(current, content),
        }
    }

    /// A one-line summary for the queue and the log.
    pub fn short(call: &Call) -> String {
        let subject = call.subject();
        let first = subject.lines().next().unwrap_or("");
        let mut short = visible(first).into_owned();
        if subject.lines().nth(1).is_some() {
            short.push_str(" …");
        }
        short
    }
}

fn pretty(value: &Value) -> String {
    visible_lines(&serde_json::to_string_pretty(value).unwrap_or_default())
}

fn str_of<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}

fn edit_preview(call: &Call) -> Preview {
    let path = call.file_path().unwrap_or("").to_string();
    let shown_path = visible(&path).into_owned();
    let file = if path.is_empty() {
        None
    } else {
        std::fs::read_to_string(Path::new(&call.cwd).join(&path)).ok()
    };
    if call.tool == "Write" || call.tool == "write_file" {
        let content = str_of(&call.input, "content");
        return match file {
            // Over a file that exists, a Write replaces it: shown as what changes.
            Some(current) => Preview::replacing(&path, &current, content),
            None => Preview::Write {
                path: shown_path,
                content: visible_lines(content),
            },
        };
    }
    if let Some(patch) = call.input.get("patch").and_then(Value::as_str) {
        return patch_preview(call, patch);
    }
    let edits = edit::edits_of(&call.input);
    let applied = file.and_then(|text| edit::apply(&text, &edits).ok().map(|after| (text, after)));
    let (before, after, in_context) = match applied {
        Some((before, after)) => (before, after, true),
        None => {
            let old: Vec<&str> = edits.iter().map(|e| e.old).collect();
            let new: Vec<&str> = edits.iter().map(|e| e.new).collect();
            (old.join("\n"), new.join("\n"), false)
        }
    };
    Preview::Diff {
        path: shown_path,
        lines: diff_lines(&before, &after),
        in_context,
    }
}

/// Codex's `apply_patch`: the patch's own lines, under the files it names.
fn patch_preview(call: &Call, patch: &str) -> Preview {
    let files: Vec<&str> = call
        .input
        .get("files")
        .and_then(Value::as_array)
        .map(|files| files.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    Preview::Diff {
        path: shown(&files.join(", ")),
        lines: patch_lines(patch),
        in_context: true,
    }
}

fn diff_lines(before: &str, after: &str) -> Vec<(DiffTag, String)> {
    let diff = TextDiff::from_lines(before, after);
    let mut lines = Vec::new();
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        lines.push((DiffTag::Hunk, hunk.header().to_string()));
        for change in hunk.iter_changes() {
            let tag = match change.tag() {
                ChangeTag::Equal => DiffTag::Context,
                ChangeTag::Delete => DiffTag::Removed,
                ChangeTag::Insert => DiffTag::Added,
            };
            let text = change.value().trim_end_matches(['\n', '\r']);
            lines.push((tag, shown(text)));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::call::test_call;
    use crate::core::classify::assess;
    use crate::core::rules::Rules;
    use serde_json::json;

    fn preview(tool: &str, cwd: &str, input: Value) -> Preview {
        let call = Call {
            cwd: cwd.into(),
            ..test_call(tool, input)
        };
        let assessment = assess(&call, &Rules::default(), &[]);
        Preview::build(&call, &assessment)
    }

    #[test]
    fn an_edit_is_shown_as_a_diff_in_the_files_context() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.rs"), "one\ntwo\nthree\nfour\n").unwrap();
        let p = preview(
            "Edit",
            &dir.path().display().to_string(),
            json!({"file_path": "a.rs", "old_string": "three", "new_string": "3"}),
        );
        let Preview::Diff {
            lines, in_context, ..
        } = p
        else {
            panic!("{p:?}")
        };
        assert!(in_context);
        assert!(lines.contains(&(DiffTag::Removed, "three".into())));
        assert!(lines.contains(&(DiffTag::Added, "3".into())));
        assert!(lines.contains(&(DiffTag::Context, "one".into())));
    }

    #[test]
    fn an_edit_of_an_unreadable_file_diffs_its_old_and_new_text() {
        let p = preview(
            "Edit",
            "/nonexistent",
            json!({"file_path": "x", "old_string": "a", "new_string": "b"}),
        );
        let Preview::Diff {
            lines, in_context, ..
        } = p
        else {
            panic!()
        };
        assert!(!in_context);
        assert_eq!(
            lines[1..],
            [(DiffTag::Removed, "a".into()), (DiffTag::Added, "b".into())]
        );
    }

    /// The preview of a real Codex hook input.
    fn codex_preview(stdin: &[u8]) -> Preview {
        let (_, call) = crate::agents::codex::parse(stdin).unwrap();
        Preview::build(&call, &assess(&call, &Rules::default(), &[]))
    }

    #[test]
    fn a_codex_patch_is_shown_as_its_diff() {
        let p = codex_preview(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/codex/pretooluse-apply_patch.json"
        )));
        assert_eq!(
            p,
            Preview::Diff {
                path: "notes.txt".into(),
                lines: vec![
                    (DiffTag::File, "update notes.txt".into()),
                    (DiffTag::Hunk, "@@".into()),
                    (DiffTag::Removed, "hello".into()),
                    (DiffTag::Added, "goodbye".into()),
                ],
                in_context: true,
            }
        );
    }

    #[test]
    fn a_codex_patch_that_adds_a_file_shows_its_lines_as_added() {
        let p = codex_preview(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/codex/permissionrequest-apply_patch.json"
        )));
        let Preview::Diff { path, lines, .. } = p else {
            panic!("{p:?}")
        };
        assert_eq!(path, "/home/dev/outside/p.txt");
        assert_eq!(
            lines,
            [
                (DiffTag::File, "add /home/dev/outside/p.txt".into()),
                (DiffTag::Added, "patched".into()),
            ]
        );
    }

    #[test]
    fn a_write_over_an_existing_file_is_shown_as_replacing_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "keep\nold\n").unwrap();
        let p = preview(
            "Write",
            &dir.path().display().to_string(),
            json!({"file_path": "a.txt", "content": "keep\nnew\n"}),
        );
        let Preview::Replace { path, lines } = p else {
            panic!("{p:?}")
        };
        assert_eq!(path, "a.txt");
        assert!(lines.contains(&(DiffTag::Removed, "old".into())));
        assert!(lines.contains(&(DiffTag::Added, "new".into())));
        assert!(lines.contains(&(DiffTag::Context, "keep".into())));
    }

    #[test]
    fn agent_text_is_made_visible_in_every_preview() {
        let p = preview(
            "Write",
            "/",
            json!({"file_path": "x\x1b[2J", "content": "\x1b]0;t\x07"}),
        );
        assert_eq!(
            p,
            Preview::Write {
                path: "x\\e[2J".into(),
                content: "\\e]0;t\\x07".into()
            }
        );
    }
}
