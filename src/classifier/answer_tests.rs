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
        swap("[\"none\"]", "[\"none\", \"data-exfiltration\"]"),
        swap("[\"none\"]", "[\"credential-access\", \"none\"]"),
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

#[test]
fn a_batch_answer_gives_one_assessment_per_question_and_a_bad_item_fails_alone() {
    let good = r#"{"verdict":"read-only","risk":"low","categories":["none"],"rationale":"Lists.","confidence":0.9}"#;
    let bad = r#"{"verdict":"read-only","risk":"low","categories":["none"],"rationale":"Lists.","confidence":0.9,"approved":true}"#;
    let items = assessments_of(&format!("[{good}, {bad}, {good}]"), 3);
    assert!(items[0].is_ok() && items[2].is_ok());
    assert!(items[1].is_err(), "the extra key fails that item only");
}

#[test]
fn a_batch_answer_that_is_not_one_array_of_the_right_length_fails_every_question() {
    let good = r#"{"verdict":"read-only","risk":"low","categories":["none"],"rationale":"Lists.","confidence":0.9}"#;
    for text in [
        format!("[{good}]"),
        format!("[{good}, {good}, {good}]"),
        format!("Here: [{good}, {good}]"),
        good.to_string(),
    ] {
        let items = assessments_of(&text, 2);
        assert_eq!(items.len(), 2);
        assert!(items.iter().all(Result::is_err), "{text}");
    }
}

#[test]
fn a_read_only_answer_that_names_a_harm_never_clears() {
    // Read-only, low risk, full confidence: only `none` may stand beside it.
    let harmed = GOOD.replace("[\"none\"]", "[\"data-exfiltration\"]");
    let harmed = assessment_of(&harmed).unwrap();
    assert!(!harmed.clears(0.5));
    assert!(assessment_of(GOOD).unwrap().clears(0.5));
}
