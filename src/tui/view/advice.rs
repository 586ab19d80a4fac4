//! The classifier's advice on a dialog, as one line: each classifier's verdict, risk,
//! categories and rationale. The rationale is model text, so it is escaped as agent text is.

use crate::core::advice::Advice;
use crate::core::escape::visible;

/// `classifier: writes, risk high [destructive-local]: It deletes files. (your call)`; with
/// several classifiers, each one's name and part, `; `-joined.
pub fn advice_text(advice: &Advice) -> String {
    let several = advice.opinions.len() > 1;
    let parts: Vec<String> = advice
        .opinions
        .iter()
        .map(|o| {
            let body = match &o.outcome {
                Ok(a) => a.to_string(),
                Err(why) => format!("failed: {why}"),
            };
            if several {
                format!("{}: {body}", o.name)
            } else {
                body
            }
        })
        .collect();
    format!("classifier: {} (your call)", visible(&parts.join("; ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::advice::{Assessment, Category, Opinion, Risk};
    use crate::core::decision::Verdict;

    #[test]
    fn the_rationale_is_shown_escaped_with_verdict_risk_and_categories() {
        let assessment = Assessment {
            verdict: Verdict::Writes,
            risk: Risk::High,
            categories: vec![Category::DestructiveLocal],
            rationale: "It deletes.\u{1b}[2J".into(),
            confidence: 0.9,
        };
        let one = Advice {
            opinions: vec![Opinion::judged("a", assessment.clone(), 0.8)],
        };
        let text = advice_text(&one);
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(text.contains("writes, risk high"), "{text}");
        assert!(text.contains("destructive-local"), "{text}");
        let two = Advice {
            opinions: vec![
                Opinion::judged("a", assessment, 0.8),
                Opinion::failed("b", "timed out"),
            ],
        };
        assert!(advice_text(&two).contains("b: failed: timed out"));
    }
}
