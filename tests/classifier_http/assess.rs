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
    answer_with(risk, confidence, &["none"])
}

fn answer_with(risk: &str, confidence: f64, categories: &[&str]) -> String {
    json!({
        "verdict": "read-only",
        "risk": risk,
        "categories": categories,
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
async fn a_read_only_answer_naming_a_harm_never_allows_and_none_beside_a_harm_is_invalid() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        for categories in [
            &["data-exfiltration"][..],
            &["credential-access", "code-execution"][..],
            &["none", "data-exfiltration"][..],
        ] {
            let text = answer_with("low", 1.0, categories);
            let server = ModelServer::start(reply(provider, &text)).await;
            let mut rig = Rig::with(Mode::Auto, server, provider, limits());
            let submitted = rig.submit(bash("mytool --list"));
            let dialog = rig.dialog().await;
            let ClassifierState::Advised(advice) = rig.annotation().await else {
                panic!("advice");
            };
            assert!(!advice.allows(), "{provider} {categories:?}");
            // `none` beside a harm contradicts itself: the answer is not one.
            let outcome = advice.opinions[0].outcome.as_ref();
            let readable = outcome.is_ok_and(|a| !a.is_stand_in());
            assert_eq!(readable, !categories.contains(&"none"), "{categories:?}");
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
        let audit = rig.audit();
        let advice = (
            &audit[0]["advice"],
            &audit[0]["confidence"],
            &audit[0]["risk"],
        );
        assert_eq!(
            advice,
            (&json!("read-only"), &json!(0.8), &json!("low")),
            "{provider}: the classifier's allow keeps what it said, for eval --from-audit"
        );
    }
}

#[tokio::test]
async fn the_audit_records_whether_the_humans_answer_agreed_with_the_advice() {
    use super::server::said;
    use gatehouse::core::decision::Decision;
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let server = ModelServer::start(reply(provider, &said("writes"))).await;
        let mut rig = Rig::with(Mode::Auto, server, provider, limits());
        for (n, answer) in [
            HumanAnswer::Deny {
                reason: "no".into(),
            },
            HumanAnswer::Allow { note: None },
        ]
        .into_iter()
        .enumerate()
        {
            let submitted = rig.submit(bash(&format!("mytool --sync {n}")));
            let dialog = rig.dialog().await;
            let ClassifierState::Advised(_) = rig.annotation().await else {
                panic!("advice");
            };
            assert!(rig.prompter.answer(dialog.id, answer));
            let _: Decision = submitted.await.unwrap().decision;
        }
        let audit = rig.audit();
        assert_eq!(audit[0]["advice"], "writes", "{provider}");
        assert_eq!(
            audit[0]["agreed"], true,
            "{provider}: a deny agrees with writes"
        );
        assert_eq!(audit[1]["agreed"], false, "{provider}: an allow does not");
        assert_eq!(
            (&audit[1]["confidence"], &audit[1]["risk"]),
            (&json!(0.95), &json!("medium")),
            "{provider}: with the advice's confidence and risk"
        );
    }
}

#[tokio::test]
async fn advice_asked_outside_auto_is_shown_and_never_resolves_even_when_it_would_clear() {
    use gatehouse::core::route::Route;
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let server = ModelServer::start(reply(provider, &answer("low", 0.99))).await;
        let mut rig = Rig::with(Mode::AllowRead, server, provider, limits());
        let submitted = rig.submit(bash("mytool --list"));
        let dialog = rig.dialog().await;
        assert_eq!(dialog.route, Route::Ask);
        assert_eq!(rig.server.count(), 0, "not asked until the human asks");
        assert!(rig.prompter.ask_advice(dialog.id));
        let ClassifierState::Advised(advice) = rig.annotation().await else {
            panic!("advice");
        };
        assert!(advice.allows(), "{provider}: it would clear a race");
        assert_eq!(
            rig.prompter.open_dialogs().len(),
            1,
            "{provider}: still the human's"
        );
        let deny = HumanAnswer::Deny {
            reason: "no".into(),
        };
        assert!(rig.prompter.answer(dialog.id, deny));
        assert_eq!(submitted.await.unwrap().decider, Decider::Human);
        assert_eq!(rig.server.count(), 1);
    }
}

fn assessed(verdict: &str, risk: &str, confidence: f64) -> String {
    json!({
        "verdict": verdict,
        "risk": risk,
        "categories": ["destructive-local"],
        "rationale": "It may wipe the tool's store.",
        "confidence": confidence,
    })
    .to_string()
}

fn reviewing() -> gatehouse::classifier::Limits {
    gatehouse::classifier::Limits {
        review: gatehouse::classifier::AllowAllReview::Assess,
        ..limits()
    }
}

#[tokio::test]
async fn in_allow_all_a_confident_high_risk_under_review_asks_the_human_and_shows_why() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        for risk in ["high", "critical"] {
            let server = ModelServer::start(reply(provider, &assessed("writes", risk, 0.9))).await;
            let mut rig = Rig::with(Mode::AllowAll, server, provider, reviewing());
            let submitted = rig.submit(bash("mytool --wipe"));
            let dialog = rig.dialog().await;
            assert_eq!(dialog.route, gatehouse::core::route::Route::Ask);
            let ClassifierState::Advised(advice) = rig.annotation().await else {
                panic!("the alarm is shown");
            };
            assert!(advice.alarms() && !advice.allows(), "{provider} {risk}");
            // Choosing allow-all again does not let the mode allow what its review held.
            assert_eq!(rig.prompter.set_mode(Mode::AllowAll), 0, "{provider}");
            assert_eq!(rig.prompter.open_dialogs().len(), 1, "{provider}");
            assert!(
                rig.prompter
                    .answer(dialog.id, HumanAnswer::Allow { note: None })
            );
            assert_eq!(submitted.await.unwrap().decider, Decider::Human);
            assert_eq!(rig.server.count(), 1);
        }
    }
}

#[tokio::test]
async fn under_review_a_calm_shy_or_failed_answer_leaves_allow_all_as_it_was() {
    use gatehouse::core::decision::Decision;
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        for text in [
            assessed("writes", "medium", 1.0),
            assessed("writes", "critical", 0.5),
            "the store will be wiped: critical".to_string(),
        ] {
            let server = ModelServer::start(reply(provider, &text)).await;
            let rig = Rig::with(Mode::AllowAll, server, provider, reviewing());
            let answer = rig.submit(bash("mytool --wipe")).await.unwrap();
            assert_eq!(
                (answer.decision, answer.decider),
                (Decision::allow(), Decider::Mode),
                "{provider} {text}"
            );
            assert_eq!(rig.server.count(), 1, "it was assessed first");
        }
    }
}

#[tokio::test]
async fn review_never_asks_about_proven_reads_and_is_off_unless_configured() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let alarm = assessed("writes", "critical", 1.0);
        let server = ModelServer::start(reply(provider, &alarm)).await;
        let rig = Rig::with(Mode::AllowAll, server, provider, reviewing());
        assert_eq!(
            rig.submit(bash("ls -la")).await.unwrap().decider,
            Decider::Rule
        );
        assert_eq!(
            rig.server.count(),
            0,
            "{provider}: a proven read is not reviewed"
        );
        let server = ModelServer::start(reply(provider, &alarm)).await;
        let rig = Rig::with(Mode::AllowAll, server, provider, limits());
        let answer = rig.submit(bash("mytool --wipe")).await.unwrap();
        assert_eq!(answer.decider, Decider::Mode);
        assert_eq!(rig.server.count(), 0, "{provider}: off by default");
    }
}
