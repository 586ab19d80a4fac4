//! The structured assessment over the wire, in both formats: a read-only verdict allows only at
//! risk `low` with confidence at or over the threshold; a low confidence or any other risk only
//! annotates the dialog, with the model's rationale shown.

use gatehouse::classifier::provider::Provider;
use gatehouse::core::advice::Risk;
use gatehouse::core::decision::Decider;
use gatehouse::core::event::ClassifierState;
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::HumanAnswer;
use serde_json::json;

use super::common::bash;
use super::race::Rig;
use super::server::ModelServer;
use super::{limits, reply};

fn answer(risk: &str, confidence: f64) -> String {
    json!({
        "verdict": "read-only",
        "risk": risk,
        "categories": ["none"],
        "rationale": "It lists what the tool knows.",
        "confidence": confidence,
    })
    .to_string()
}

#[tokio::test]
async fn a_low_confidence_or_a_risk_above_low_never_allows() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        for (risk, confidence) in [("low", 0.79), ("medium", 0.99), ("high", 1.0)] {
            let server = ModelServer::start(reply(provider, &answer(risk, confidence))).await;
            let mut rig = Rig::with(Mode::Auto, server, provider, limits());
            let submitted = rig.submit(bash("mytool --list"));
            let dialog = rig.dialog().await;
            let ClassifierState::Advised(advice) = rig.annotation().await else {
                panic!("advice");
            };
            let assessment = advice.opinions[0].outcome.as_ref().unwrap();
            assert_eq!(assessment.rationale, "It lists what the tool knows.");
            assert_eq!(assessment.risk == Risk::Low, risk == "low");
            assert!(!advice.allows(), "{provider} {risk} {confidence}");
            let deny = HumanAnswer::Deny {
                reason: "no".into(),
            };
            assert!(rig.prompter.answer(dialog.id, deny));
            assert_eq!(submitted.await.unwrap().decider, Decider::Human);
        }
    }
}

#[tokio::test]
async fn read_only_at_low_risk_and_the_threshold_exactly_allows() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let server = ModelServer::start(reply(provider, &answer("low", 0.8))).await;
        let rig = Rig::with(Mode::Auto, server, provider, limits());
        let answer = rig.submit(bash("mytool --list")).await.unwrap();
        assert_eq!(answer.decider, Decider::Classifier, "{provider}");
    }
}
