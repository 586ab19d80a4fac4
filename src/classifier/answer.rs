//! Reads the model's answer strictly. The answer must be exactly one JSON object (whitespace
//! around it aside) with exactly the keys `verdict`, `risk`, `categories`, `rationale` and
//! `confidence`, each of the type and from the set the system prompt gives. Anything else (a
//! code fence, a word before it, a missing or extra key, an unknown category, a confidence
//! outside 0 to 1, a rationale on several lines) is not an answer to trust: the caller reads it
//! as `unsure`, and the breaker counts it as an invalid answer.

use serde_json::{Map, Value};

use crate::core::advice::{Assessment, Category, Risk};
use crate::core::decision::Verdict;

/// The longest rationale taken, in characters: one sentence.
pub const MAX_RATIONALE: usize = 400;
const KEYS: [&str; 5] = ["verdict", "risk", "categories", "rationale", "confidence"];

/// Why an answer was not taken, in a few words for the dialog.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the model's answer is not the JSON object asked for: {0}")]
pub struct Invalid(pub String);

/// The assessment in `answer`, or why it is not one.
pub fn assessment_of(answer: &str) -> Result<Assessment, Invalid> {
    let bad = |why: &str| Err(Invalid(why.to_string()));
    let text = answer.trim();
    if !text.starts_with('{') || !text.ends_with('}') {
        return bad("it is not one JSON object alone");
    }
    let Ok(Value::Object(map)) = serde_json::from_str::<Value>(text) else {
        return bad("it does not parse as a JSON object");
    };
    if map.len() != KEYS.len() || !KEYS.iter().all(|k| map.contains_key(*k)) {
        return bad("it does not have exactly the five keys asked for");
    }
    if duplicate_keys(text) {
        return bad("a key appears twice");
    }
    let verdict = match word(&map, "verdict") {
        Some("read-only") => Verdict::ReadOnly,
        Some("writes") => Verdict::Writes,
        Some("unsure") => Verdict::Unsure,
        _ => return bad("verdict is not read-only, writes or unsure"),
    };
    let Some(risk) = word(&map, "risk").and_then(|w| Risk::ALL.into_iter().find(|r| r.name() == w))
    else {
        return bad("risk is not low, medium, high or critical");
    };
    let Some(Value::Array(items)) = map.get("categories") else {
        return bad("categories is not a list");
    };
    let mut categories = Vec::new();
    for item in items {
        let Some(category) = item
            .as_str()
            .and_then(|w| Category::ALL.into_iter().find(|c| c.name() == w))
        else {
            return bad("a category is not one of the listed words");
        };
        if categories.contains(&category) {
            return bad("a category is listed twice");
        }
        categories.push(category);
    }
    if categories.is_empty() {
        return bad("categories is empty (use [\"none\"])");
    }
    if categories.len() > 1 && categories.contains(&Category::None) {
        return bad("categories names none beside a harm");
    }
    let Some(rationale) = word(&map, "rationale") else {
        return bad("rationale is not a string");
    };
    if rationale.trim().is_empty()
        || rationale.chars().count() > MAX_RATIONALE
        || rationale.chars().any(char::is_control)
    {
        return bad("rationale is not one short line");
    }
    let Some(confidence) = map.get("confidence").and_then(Value::as_f64) else {
        return bad("confidence is not a number");
    };
    if !(0.0..=1.0).contains(&confidence) {
        return bad("confidence is not between 0 and 1");
    }
    Ok(Assessment {
        verdict,
        risk,
        categories,
        rationale: rationale.trim().to_string(),
        confidence,
    })
}

/// The assessments in a batch's `answer`, one per question of `n`: the answer must be one JSON
/// array of exactly `n` items, each read as strictly as [`assessment_of`] reads one answer. A
/// bad item fails alone; an answer that is not such an array, or that writes a key more often
/// than its items could, fails every question, since its items cannot be matched to them.
pub fn assessments_of(answer: &str, n: usize) -> Vec<Result<Assessment, Invalid>> {
    let all = |why: &str| vec![Err(Invalid(why.to_string())); n];
    let text = answer.trim();
    if !text.starts_with('[') || !text.ends_with(']') {
        return all("it is not one JSON array alone");
    }
    let Ok(items) = serde_json::from_str::<Vec<Value>>(text) else {
        return all("it does not parse as a JSON array");
    };
    if items.len() != n {
        return all("it does not hold one answer per question");
    }
    if KEYS
        .iter()
        .any(|k| text.matches(&format!("\"{k}\"")).count() > n)
    {
        return all("a key appears twice in an answer");
    }
    items
        .iter()
        .map(|item| assessment_of(&item.to_string()))
        .collect()
}

fn word<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    map.get(key).and_then(Value::as_str)
}

/// Whether any of the five keys is written more than once (serde keeps only the last).
fn duplicate_keys(text: &str) -> bool {
    KEYS.iter()
        .any(|k| text.matches(&format!("\"{k}\"")).count() > 1)
}

#[cfg(test)]
#[path = "answer_tests.rs"]
mod tests;
