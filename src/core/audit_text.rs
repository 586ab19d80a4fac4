//! What the audit log writes of an agent's text: the subject kept whole up to a large bound, and
//! no character in the JSON that a reader's terminal or editor would act on or hide.
//!
//! serde_json already escapes `"`, `\` and U+0000–001F. [`escape_invisible`] escapes the rest
//! of what must not reach a reader raw, as `\uXXXX` (a surrogate pair above U+FFFF): DEL and the
//! C1 controls U+007F–009F, the line and paragraph separators U+2028/2029, the bidi marks,
//! embeddings, overrides and isolates U+200E/200F, U+202A–202E, U+2066–2069, the zero-width
//! characters U+200B–200D, U+2060 and U+FEFF, the tag characters U+E0000–E007F, and the
//! combining grapheme joiner U+034F. The JSON means the same text; it only reads differently.

/// The most of a subject kept in a record, in bytes.
pub const SUBJECT_BYTES: usize = 64 * 1024;

/// Whether `c` is written as an escape in the audit log (beyond what JSON escapes itself).
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{7F}'..='\u{9F}'
        | '\u{2028}' | '\u{2029}'
        | '\u{200E}' | '\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}'
        | '\u{200B}'..='\u{200D}'
        | '\u{2060}' | '\u{FEFF}'
        | '\u{E0000}'..='\u{E007F}'
        | '\u{34F}')
}

/// `json` (as serde_json wrote it) with every [`is_invisible`] character written as `\uXXXX`.
/// Such characters can only occur inside JSON strings, where the escape means the same.
pub fn escape_invisible(json: &str) -> String {
    if !json.chars().any(is_invisible) {
        return json.to_string();
    }
    let mut out = String::with_capacity(json.len() + 64);
    for c in json.chars() {
        if is_invisible(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The subject as recorded: whole up to [`SUBJECT_BYTES`], else cut on a character boundary
/// and marked with how much was kept, so a reader knows the rest exists.
pub fn subject(text: &str) -> String {
    if text.len() <= SUBJECT_BYTES {
        return text.to_string();
    }
    let mut cut = SUBJECT_BYTES;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!(
        "{}… [cut: the first {cut} of {} bytes are kept]",
        &text[..cut],
        text.len()
    )
}

/// The most characters of a plan's first line kept as its record's subject.
pub const PLAN_SUBJECT_CHARS: usize = 120;

/// What a record keeps of a plan, in place of its whole text: how long it was and its digest,
/// so the plan approved is still identified (the agent's transcript or plan file holds it).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PlanMark {
    /// The plan's length in bytes.
    pub bytes: usize,
    /// The hex SHA-256 of its text.
    pub sha256: String,
}

/// A plan's subject and mark: its first non-empty line, cut to [`PLAN_SUBJECT_CHARS`], so a
/// long plan makes a short record.
pub fn plan(text: &str) -> (String, PlanMark) {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    let subject = super::audit::shorten(first.unwrap_or_default(), PLAN_SUBJECT_CHARS);
    let mark = PlanMark {
        bytes: text.len(),
        sha256: super::policy::load::hash(text.as_bytes()),
    };
    (subject, mark)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_plan_is_recorded_as_its_first_line_cut_with_its_length_and_digest() {
        let plan_text = format!("\n# Refactor the parser\n\n{}", "- step\n".repeat(20_000));
        let (subject, mark) = plan(&plan_text);
        assert_eq!(subject, "# Refactor the parser");
        assert_eq!(mark.bytes, plan_text.len());
        assert_eq!(mark.sha256.len(), 64);
        let (long, _) = plan(&"x".repeat(500));
        assert_eq!(
            long.chars().count(),
            PLAN_SUBJECT_CHARS + 1,
            "cut and marked with …"
        );
        assert!(long.ends_with('…'));
        let (_, other) = plan(&plan_text.replace("parser", "lexer"));
        assert_ne!(other.sha256, mark.sha256, "another plan, another digest");
    }

    #[test]
    fn invisible_and_bidi_characters_become_escapes_that_mean_the_same() {
        let text = "a\u{202E}b\u{2066}c\u{200B}d\u{FEFF}e\u{2028}f\u{85}g\u{7F}h\u{E0041}i\u{34F}j\u{200E}";
        let json = serde_json::to_string(&serde_json::json!({ "s": text })).unwrap();
        let escaped = escape_invisible(&json);
        assert!(escaped.is_ascii(), "{escaped}");
        assert!(escaped.contains("\\u202E"), "{escaped}");
        assert!(
            escaped.contains("\\uDB40\\uDC41"),
            "a tag character: {escaped}"
        );
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(back["s"], text);
    }

    #[test]
    fn ordinary_text_is_left_as_it_is() {
        let json = r#"{"s":"héllo — 日本 ✓"}"#;
        assert_eq!(escape_invisible(json), json);
    }

    #[test]
    fn a_subject_is_whole_up_to_the_bound_and_says_when_it_is_cut() {
        let short = "x".repeat(SUBJECT_BYTES);
        assert_eq!(subject(&short), short);
        let long = format!("{}é{}", "x".repeat(SUBJECT_BYTES - 1), "y".repeat(10));
        let kept = subject(&long);
        assert!(kept.starts_with(&"x".repeat(SUBJECT_BYTES - 1)));
        assert!(
            kept.ends_with(&format!(
                "… [cut: the first {} of {} bytes are kept]",
                SUBJECT_BYTES - 1,
                long.len()
            )),
            "cut before the two-byte é: {}",
            &kept[SUBJECT_BYTES - 8..]
        );
    }
}
