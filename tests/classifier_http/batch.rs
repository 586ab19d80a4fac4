//! Batches, in both wire formats: questions that wait for a busy slot go together in the next
//! one, bounded by max_concurrent, with one assessment per question; a bad item fails alone.

use std::time::Duration;

use gatehouse::classifier::Limits;
use gatehouse::classifier::provider::Provider;
use gatehouse::core::decision::{Decider, Verdict};
use gatehouse::core::event::{ClassifierState, Event};
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::HumanAnswer;
use serde_json::json;

use super::common::bash;
use super::race::Rig;
use super::server::{ModelServer, Seen, said};
use super::{ask, classifier, futures_join, limits, reply, wait_until};

/// How many questions a request carries (`Question 1 of N:` headers; none: one).
fn questions(seen: &Seen) -> usize {
    let user = seen.user_text();
    match user.split_once("Question 1 of ") {
        Some((_, rest)) => rest.split(':').next().unwrap().parse().unwrap(),
        None => 1,
    }
}

fn item(verdict: &str, risk: &str, confidence: f64) -> serde_json::Value {
    json!({"verdict": verdict, "risk": risk, "categories": ["none"],
           "rationale": "It lists entries.", "confidence": confidence})
}

/// A slow model that answers read-only to every question, as one object or one array.
async fn slow_read_only(provider: Provider) -> ModelServer {
    ModelServer::scripted(move |seen| {
        let text = match questions(seen) {
            1 => said("read-only"),
            n => json!(vec![item("read-only", "low", 0.95); n]).to_string(),
        };
        reply(provider, &text).after(Duration::from_millis(500))
    })
    .await
}

#[tokio::test]
async fn questions_waiting_for_a_busy_slot_go_together_in_the_next_one() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let server = slow_read_only(provider).await;
        let two = Limits {
            max_concurrent: 2,
            ..limits()
        };
        let c = classifier(&server, provider, two);
        let asks = (0..5)
            .map(|n| {
                let c = c.clone();
                tokio::spawn(async move { ask(&c, &format!("mytool {n}")).await })
            })
            .collect::<Vec<_>>();
        let answers = futures_join(asks).await;
        assert!(
            answers.iter().all(|r| *r == Ok(Verdict::ReadOnly)),
            "{answers:?}"
        );
        let seen = server.seen();
        let sizes: Vec<usize> = seen.iter().map(questions).collect();
        assert_eq!(
            sizes,
            [1, 1, 3],
            "{provider}: two alone, then the three that waited"
        );
        let all: String = seen.iter().map(Seen::user_text).collect();
        for n in 0..5 {
            assert!(
                all.contains(&format!(r#"["mytool","{n}"]"#)),
                "{provider}: {n}"
            );
        }
        assert_eq!(
            seen[2].body["max_tokens"],
            3 * 256,
            "{provider}: room for three"
        );
    }
}

#[tokio::test]
async fn raced_dialogs_batched_together_get_one_assessment_each_and_a_bad_item_fails_alone() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        // The first question goes alone and says writes; the two that waited share a request
        // whose answer clears the first and garbles the second.
        let server = ModelServer::scripted(move |seen| {
            let text = match questions(seen) {
                1 => said("writes"),
                _ => json!([item("read-only", "low", 0.95), {"verdict": "read-only"}]).to_string(),
            };
            reply(provider, &text).after(Duration::from_millis(300))
        })
        .await;
        let one = Limits {
            max_concurrent: 1,
            ..limits()
        };
        let mut rig = Rig::with(Mode::Auto, server, provider, one);
        let first = rig.submit(bash("mytool --first"));
        wait_until(|| rig.server.count() == 1).await;
        let second = rig.submit(bash("mytool --second"));
        let third = rig.submit(bash("mytool --third"));
        let (mut allowed, mut advised) = (0, Vec::new());
        while allowed < 1 || advised.len() < 2 {
            match rig.prompter.next_event().await.unwrap() {
                Event::Resolved(outcome) if outcome.decider == Decider::Classifier => allowed += 1,
                Event::Classifier {
                    id,
                    state: ClassifierState::Advised(advice),
                } => advised.push((id, advice)),
                _ => {}
            }
        }
        assert_eq!(
            rig.prompter.open_dialogs().len(),
            2,
            "{provider}: the writer and the garbled one stay yours"
        );
        for (id, advice) in advised {
            assert!(!advice.allows(), "{provider}");
            let deny = HumanAnswer::Deny {
                reason: "no".into(),
            };
            assert!(rig.prompter.answer(id, deny));
        }
        let mut deciders = Vec::new();
        for handle in [first, second, third] {
            deciders.push(handle.await.unwrap().decider);
        }
        deciders.sort_by_key(|d| d.name());
        assert_eq!(
            deciders,
            [Decider::Classifier, Decider::Human, Decider::Human],
            "{provider}"
        );
        assert_eq!(
            rig.server.count(),
            2,
            "{provider}: one alone, one batch of two"
        );
    }
}
