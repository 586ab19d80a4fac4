//! The user's latest message, read from the agent's transcript for `context = "user-message"`.
//!
//! Claude Code, Codex and Gemini CLI name their session transcript in every hook payload
//! (`transcript_path`, one JSON record a line). Only the file's tail is read
//! ([`TAIL_BYTES`]); the last record that is a message the user typed wins, and it is cut to
//! [`MAX_CONTEXT_BYTES`]. Records that only carry tool results, the agent's own
//! instructions or a compaction summary are never taken for the user's words.
//!
//! What comes back is untrusted: the prompt labels it so, and it can never make a call safe.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::Value;

/// The most of the message the model is shown, in bytes.
pub const MAX_CONTEXT_BYTES: usize = 2 * 1024;

/// How much of the transcript's end is read.
pub const TAIL_BYTES: u64 = 256 * 1024;

/// The latest message the user typed, from the transcript at `path`, cut to
/// [`MAX_CONTEXT_BYTES`]; `None` when there is none or the file cannot be read.
pub fn latest_user_message(path: &Path) -> Option<String> {
    let mut file = File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    let start = meta.len().saturating_sub(TAIL_BYTES);
    file.seek(SeekFrom::Start(start)).ok()?;
    let mut tail = Vec::new();
    file.take(TAIL_BYTES).read_to_end(&mut tail).ok()?;
    let text = String::from_utf8_lossy(&tail);
    // The first line of a tail that starts mid-file is cut; it does not parse and is skipped.
    text.lines()
        .rev()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find_map(|record| user_words(&record))
        .map(|words| bounded(words.trim()))
}

/// The user's words in one transcript record, in any of the three agents' shapes.
fn user_words(record: &Value) -> Option<String> {
    let kind = record.get("type").and_then(Value::as_str)?;
    match kind {
        // Claude Code: {"type":"user","message":{"role":"user","content":…}}, where tool results
        // also come as "user" records, and compaction summaries and meta records are marked.
        "user" if record.get("message").is_some() => {
            let marked = ["isCompactSummary", "isMeta", "isSidechain"]
                .iter()
                .any(|flag| record.get(flag).and_then(Value::as_bool) == Some(true));
            if marked {
                return None;
            }
            typed_text(record.get("message")?.get("content")?)
        }
        // Gemini CLI: {"type":"user","content":…}.
        "user" => typed_text(record.get("content")?),
        // Codex: {"type":"event_msg","payload":{"type":"user_message","message":"…"}}.
        "event_msg" => {
            let payload = record.get("payload")?;
            (payload.get("type")?.as_str()? == "user_message")
                .then(|| payload.get("message")?.as_str().map(str::to_string))?
        }
        _ => None,
    }
    .filter(|words| !words.trim().is_empty())
}

/// The text the user typed in a message's content: a string, or the text parts of a list
/// (tool results and images are not words the user typed).
fn typed_text(content: &Value) -> Option<String> {
    match content {
        Value::String(text) => Some(text.clone()),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter(|p| matches!(p.get("type").and_then(Value::as_str), Some("text") | None))
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect();
            (!texts.is_empty()).then(|| texts.join("\n"))
        }
        _ => None,
    }
}

/// `text` cut to at most [`MAX_CONTEXT_BYTES`] on a character boundary, marked when cut.
fn bounded(text: &str) -> String {
    if text.len() <= MAX_CONTEXT_BYTES {
        return text.to_string();
    }
    let mut cut = MAX_CONTEXT_BYTES - '…'.len_utf8();
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}…", &text[..cut])
}

#[cfg(test)]
#[path = "context_tests.rs"]
mod tests;
