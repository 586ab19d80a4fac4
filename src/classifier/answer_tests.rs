use super::*;

const GOOD: &str = r#"{"verdict": "read-only", "risk": "low", "categories": ["none"], "rationale": "It lists files.", "confidence": 0.93}"#;

#[test]
fn a_well_formed_object_is_read_whole() {
    let a = assessment_of(&format!("  {GOOD}\n")).unwrap();
    assert_eq!(a.verdict, Verdict::ReadOnly);
    assert_eq!(a.risk, Risk::Low);
    assert_eq!(a.categories, vec![Category::None]);
    assert_eq!(a.rationale, "It lists files.");
    assert_eq!(a.confidence, 0.93);
}

#[test]
fn any_other_shape_value_extra_text_or_extra_key_is_invalid() {
    let swap = |from: &str, to: &str| GOOD.replace(from, to);
    for answer in [
        "read-only".to_string(),
        format!("```json\n{GOOD}\n```"),
        format!("Here it is: {GOOD}"),
        format!("{GOOD} read-only"),
        format!("[{GOOD}]"),
        swap("\"read-only\"", "\"readonly\""),
        swap("\"read-only\"", "\"Read-only\""),
        swap("\"low\"", "\"none\""),
        swap("[\"none\"]", "[\"safe\"]"),
        swap("[\"none\"]", "[]"),
        swap("[\"none\"]", "\"none\""),
        swap("[\"none\"]", "[\"none\", \"none\"]"),
        swap("0.93", "1.5"),
        swap("0.93", "-0.1"),
        swap("0.93", "\"0.93\""),
        swap("It lists files.", "One.\nTwo."),
        swap("It lists files.", ""),
        swap(", \"confidence\": 0.93", ""),
        swap("\"confidence\"", "\"extra\": 1, \"confidence\""),
        swap(
            "{\"verdict\": \"read-only\"",
            "{\"verdict\": \"writes\", \"verdict\": \"read-only\"",
        ),
        String::new(),
    ] {
        assert!(assessment_of(&answer).is_err(), "{answer}");
    }
}
