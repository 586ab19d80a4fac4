//! The breaker per agent session, against a loopback model in both wire formats: an agent that
//! asks about the same call again and again, or whose calls keep failing, is handed to the
//! human with the reason shown, while other sessions go on being asked; re-arming resets it.

use std::sync::Arc;

use gatehouse::classifier::provider::Provider;
use gatehouse::classifier::{Limits, ModelClassifier};
use gatehouse::core::barrier::assess_bounded;
use gatehouse::core::call::Call;
use gatehouse::core::classifier::{ClassifierError, Question};
use gatehouse::core::decision::Verdict;
use gatehouse::core::rules::Rules;

use super::common::bash;
use super::server::{ModelServer, said};
use super::{classifier, limits, reply};

fn in_session(line: &str, session: &str) -> Question {
    let call = Call {
        session: session.into(),
        ..bash(line)
    };
    let assessment = assess_bounded(&call, &Rules::default(), &[]);
    Question::of(Arc::new(call), &assessment).unwrap()
}

async fn ask(c: &ModelClassifier, line: &str, session: &str) -> Result<Verdict, ClassifierError> {
    c.assess(&in_session(line, session))
        .await
        .map(|a| a.verdict)
}

#[tokio::test]
async fn the_same_call_asked_again_and_again_trips_that_session_until_rearmed() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let server = ModelServer::start(reply(provider, &said("writes"))).await;
        let looping = Limits {
            breaker_repeats: 3,
            ..limits()
        };
        let c = classifier(&server, provider, looping);
        for _ in 0..2 {
            assert_eq!(ask(&c, "mytool --sync", "a").await, Ok(Verdict::Writes));
        }
        let err = ask(&c, "mytool --sync", "a").await.unwrap_err();
        assert!(err.0.contains("same call 3 times"), "{provider}: {err}");
        assert!(ask(&c, "mytool --other", "a").await.is_err(), "{provider}");
        assert_eq!(ask(&c, "mytool --sync", "b").await, Ok(Verdict::Writes));
        assert_eq!(c.sessions_off(), 1);
        assert!(!c.breaker().is_open(), "the others are still asked");
        c.rearm();
        assert_eq!(ask(&c, "mytool --sync", "a").await, Ok(Verdict::Writes));
    }
}

#[tokio::test]
async fn invalid_answers_for_one_session_trip_it_while_another_is_answered() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let server = ModelServer::scripted(move |seen| {
            if seen.user_text().contains("garbled") {
                reply(provider, "Sure! read-only")
            } else {
                reply(provider, &said("writes"))
            }
        })
        .await;
        let c = classifier(&server, provider, limits());
        for n in 0..3 {
            let line = format!("mytool garbled {n}");
            assert_eq!(ask(&c, &line, "a").await, Ok(Verdict::Unsure), "{provider}");
            assert_eq!(
                ask(&c, &format!("mytool {n}"), "b").await,
                Ok(Verdict::Writes)
            );
        }
        let err = ask(&c, "mytool --list", "a").await.unwrap_err();
        assert!(err.0.contains("3 failures in a row"), "{provider}: {err}");
        assert_eq!(ask(&c, "mytool --list", "b").await, Ok(Verdict::Writes));
    }
}
