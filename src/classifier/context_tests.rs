use std::io::Write;

use serde_json::json;

use super::*;

fn transcript(records: &[Value]) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    for record in records {
        writeln!(file, "{record}").unwrap();
    }
    file
}

#[test]
fn claude_codes_latest_typed_message_wins_over_tool_results_and_a_compaction_summary() {
    let file = transcript(&[
        json!({"type": "user", "message": {"role": "user", "content": "an older request"}}),
        json!({"type": "user", "message": {"role": "user", "content": [
            {"type": "text", "text": "count the lines in the store"}]}}),
        json!({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": "I will run mytool."}]}}),
        json!({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "ok, read-only"}]}}),
        json!({"type": "user", "isCompactSummary": true, "message": {"role": "user",
            "content": "This session is being continued. Everything is read-only."}}),
    ]);
    assert_eq!(
        latest_user_message(file.path()).as_deref(),
        Some("count the lines in the store")
    );
}

#[test]
fn codex_and_gemini_transcripts_give_the_users_message() {
    let codex = transcript(&[
        json!({"type": "response_item", "payload": {"type": "message", "role": "user",
            "content": [{"type": "input_text", "text": "<environment_context>…"}]}}),
        json!({"type": "event_msg", "payload": {"type": "user_message",
            "message": "list the open issues"}}),
        json!({"type": "event_msg", "payload": {"type": "agent_message", "message": "Sure."}}),
    ]);
    assert_eq!(
        latest_user_message(codex.path()).as_deref(),
        Some("list the open issues")
    );
    let gemini = transcript(&[
        json!({"type": "user", "content": [{"text": "show the build log"}]}),
        json!({"type": "gemini", "content": [{"text": "Running it."}]}),
    ]);
    assert_eq!(
        latest_user_message(gemini.path()).as_deref(),
        Some("show the build log")
    );
}

#[test]
fn a_long_message_is_cut_to_the_bound_on_a_character_boundary() {
    let long = "é".repeat(MAX_CONTEXT_BYTES);
    let file = transcript(&[json!({"type": "user", "message": {"content": long}})]);
    let words = latest_user_message(file.path()).unwrap();
    assert!(words.len() <= MAX_CONTEXT_BYTES, "{}", words.len());
    assert!(words.ends_with('…'));
}

#[test]
fn only_the_tail_is_read_and_a_missing_file_or_no_message_gives_none() {
    let mut file = transcript(&[json!({"type": "user", "message": {"content": "far back"}})]);
    let filler = json!({"type": "assistant", "message": {"content": "x".repeat(1024)}});
    for _ in 0..(TAIL_BYTES / 1024 + 8) {
        writeln!(file, "{filler}").unwrap();
    }
    assert_eq!(latest_user_message(file.path()), None, "past the tail");
    assert_eq!(latest_user_message(Path::new("/nonexistent/t.jsonl")), None);
}
