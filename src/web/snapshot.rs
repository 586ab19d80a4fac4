//! What the page is sent: the mode and the open dialogs, each with its subject drawn for its
//! kind (the console's own [`Preview`]: a shell line with the analyser's reason, a file's
//! content, an edit as a diff, an MCP call's arguments), the classifier's assessment, what the
//! agent's capabilities let an answer do, and the pattern an "always" would remember. Every
//! string from an agent has been made visible-safe by the preview; the page still only ever
//! sets it as text.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value, json};

use crate::agents::registry;
use crate::core::call::CallId;
use crate::core::caps::{AllowEffect, NoteEffect};
use crate::core::escape::visible;
use crate::core::event::{ClassifierState, Dialog};
use crate::core::mode::Mode;
use crate::preview::{DiffTag, Preview};

/// The page's whole state, as JSON.
#[derive(Debug, Serialize)]
pub struct Snapshot {
    pub mode: &'static str,
    pub modes: Vec<&'static str>,
    /// The device this snapshot is for.
    pub device: String,
    pub dialogs: Vec<Value>,
    /// The modes beside the global one (`web::modes::beside`), where the page's state has them.
    #[serde(skip_serializing_if = "Value::is_null")]
    pub beside: Value,
}

/// The previews of open dialogs, built once each (an edit's preview reads its file).
#[derive(Debug, Default)]
pub struct Previews {
    built: HashMap<CallId, Arc<Preview>>,
}

impl Previews {
    /// The preview of `dialog`, built on first use.
    pub fn of(&mut self, dialog: &Dialog) -> Arc<Preview> {
        self.built
            .entry(dialog.id)
            .or_insert_with(|| Arc::new(Preview::build(&dialog.call, &dialog.assessment)))
            .clone()
    }

    /// Forgets the previews of dialogs no longer open.
    pub fn keep_only(&mut self, open: &[Arc<Dialog>]) {
        self.built.retain(|id, _| open.iter().any(|d| d.id == *id));
    }
}

/// When a snapshot is taken, and how long a dialog waits before it times out.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    pub now: Instant,
    pub ask_timeout: Duration,
}

/// The snapshot for `device` of `dialogs` in `mode`, as of `clock`.
pub fn snapshot(
    mode: Mode,
    device: &str,
    dialogs: &[Arc<Dialog>],
    previews: &mut Previews,
    classifier: &HashMap<CallId, ClassifierState>,
    clock: Clock,
) -> Snapshot {
    Snapshot {
        mode: mode.name(),
        modes: Mode::ALL.iter().map(|m| m.name()).collect(),
        device: device.to_string(),
        dialogs: dialogs
            .iter()
            .map(|d| dialog(d, &previews.of(d), classifier.get(&d.id), clock))
            .collect(),
        beside: Value::Null,
    }
}

pub(super) fn text(s: &str) -> String {
    visible(s).into_owned()
}

fn dialog(
    dialog: &Dialog,
    preview: &Preview,
    classifier: Option<&ClassifierState>,
    clock: Clock,
) -> Value {
    let call = &dialog.call;
    let always = &dialog.offer.always;
    let caps = dialog.offer.caps;
    let age = clock.now.saturating_duration_since(dialog.opened);
    let description = call.input.get("description").and_then(Value::as_str);
    // What the proposed pattern matches, in the console's words.
    let matches = always.allow(&always.pattern).map(|a| text(&a.describe()));
    json!({
        "id": dialog.id.0,
        "agent": text(&registry::caller(call)),
        "host": call.remote.as_ref().map(|r| text(&r.host)),
        "session": text(&call.session),
        "cwd": text(&call.cwd),
        "tool": text(&call.tool),
        "description": description.map(text),
        "age_ms": age.as_millis() as u64,
        "left_ms": call.time_limit(clock.ask_timeout).saturating_sub(age).as_millis() as u64,
        "class": dialog.assessment.class.name(),
        "route": dialog.route.name(),
        "why": text(&dialog.assessment.explanation),
        "preview": preview_json(preview),
        "classifier": classifier.map(classifier_text),
        "caps": {
            "grant": caps.allow == AllowEffect::Grant,
            "note": match caps.note {
                NoteEffect::Model => "model",
                NoteEffect::AfterTool => "after-tool",
                NoteEffect::User => "user",
                NoteEffect::None => "none",
            },
            "reason": caps.reason,
        },
        // The shell line an edit starts from; absent: the call offers no edit.
        "edit": dialog.offer.edit.as_deref().map(text),
        "always": {
            "kind": always.kind.name(),
            "pattern": text(&always.pattern),
            "matches": matches,
            "caveat": always.caveat,
            "choices": super::always::choices(dialog),
        },
    })
}

fn tag(tag: DiffTag) -> &'static str {
    match tag {
        DiffTag::File => "file",
        DiffTag::Hunk => "hunk",
        DiffTag::Context => "context",
        DiffTag::Removed => "removed",
        DiffTag::Added => "added",
    }
}

fn lines(lines: &[(DiffTag, String)]) -> Value {
    lines
        .iter()
        .map(|(t, line)| json!([tag(*t), line]))
        .collect()
}

/// The preview as JSON; its strings are already visible-safe.
fn preview_json(preview: &Preview) -> Value {
    match preview {
        Preview::Shell { line, why } => json!({"kind": "shell", "line": line, "why": why}),
        Preview::Write { path, content } => {
            json!({"kind": "write", "path": path, "content": content})
        }
        Preview::Replace { path, lines: l } => {
            json!({"kind": "diff", "path": path, "lines": lines(l), "in_context": true})
        }
        Preview::Diff {
            path,
            lines: l,
            in_context,
        } => json!({"kind": "diff", "path": path, "lines": lines(l), "in_context": in_context}),
        Preview::Mcp {
            server,
            tool,
            arguments,
        } => json!({"kind": "mcp", "server": server, "tool": tool, "arguments": arguments}),
        Preview::Plan { text, file } => json!({"kind": "plan", "text": text, "file": file}),
        Preview::Other { input } => json!({"kind": "other", "input": input}),
    }
}

/// The classifier's state in words: asking, its assessment(s), or why it failed.
fn classifier_text(state: &ClassifierState) -> String {
    match state {
        ClassifierState::Asking => "asking the classifier…".into(),
        ClassifierState::Failed(why) => text(&format!("the classifier failed: {why}")),
        ClassifierState::Advised(advice) => {
            let parts: Vec<String> = advice
                .opinions
                .iter()
                .map(|o| match &o.outcome {
                    Ok(assessment) => format!("{}: {assessment}", o.name),
                    Err(why) => format!("{}: no answer ({why})", o.name),
                })
                .collect();
            text(&parts.join("; "))
        }
    }
}

#[cfg(test)]
#[path = "snapshot_tests.rs"]
mod tests;
