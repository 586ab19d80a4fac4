//! Several classifiers (`[[classifier]]`), a local OpenAI-compatible one and a remote
//! Anthropic one, each behind its own loopback server: the call is allowed only when both say
//! read-only over their own thresholds; one dissent, one shy answer or one timeout leaves the
//! dialog with the human, showing every opinion.

use std::sync::Arc;
use std::time::Duration;

use gatehouse::classifier::provider::Provider;
use gatehouse::classifier::{Limits, Panel};
use gatehouse::core::classifier::Classifier;
use gatehouse::core::decision::{Decider, Verdict};
use gatehouse::core::event::ClassifierState;
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::HumanAnswer;

use super::common::bash;
use super::race::Rig;
use super::server::{ModelServer, Reply, said};
use super::{classifier, limits};

/// A rig whose classifier is a panel of an OpenAI server answering `local` and an Anthropic
/// server answering `remote`, the second with `remote_limits`.
async fn rig(local: Reply, remote: Reply, remote_limits: Limits) -> (Rig, ModelServer) {
    let openai = ModelServer::start(local).await;
    let anthropic = ModelServer::start(remote).await;
    let panel = Panel::new(vec![
        classifier(&openai, Provider::OpenAi, limits()),
        classifier(&anthropic, Provider::Anthropic, remote_limits),
    ])
    .unwrap();
    let model: Arc<dyn Classifier> = Arc::new(panel);
    (Rig::around(Mode::Auto, openai, model), anthropic)
}

#[tokio::test]
async fn two_classifiers_that_both_clear_the_call_allow_it() {
    let read_only = || said("read-only");
    let (rig, remote) = rig(
        Reply::openai(&read_only()),
        Reply::anthropic(&read_only()),
        limits(),
    )
    .await;
    let answer = rig.submit(bash("mytool --list")).await.unwrap();
    assert_eq!(answer.decider, Decider::Classifier);
    assert_eq!((rig.server.count(), remote.count()), (1, 1));
}

#[tokio::test]
async fn one_dissent_one_shy_answer_or_one_timeout_leaves_the_dialog_with_the_human() {
    let shy = Limits {
        threshold_permille: 990,
        ..limits()
    };
    let quick = Limits {
        timeout: Duration::from_millis(200),
        ..limits()
    };
    let cases = [
        (Reply::anthropic(&said("writes")), limits(), "writes"),
        (
            Reply::anthropic(&said("read-only")),
            shy,
            "below its threshold",
        ),
        (
            Reply::anthropic(&said("read-only")).after(Duration::from_secs(3)),
            quick,
            "timed out",
        ),
    ];
    for (remote_reply, remote_limits, what) in cases {
        let (mut rig, _remote) = rig(
            Reply::openai(&said("read-only")),
            remote_reply,
            remote_limits,
        )
        .await;
        let submitted = rig.submit(bash("mytool --list"));
        let dialog = rig.dialog().await;
        let ClassifierState::Advised(advice) = rig.annotation().await else {
            panic!("advice when one {what}");
        };
        assert_eq!(advice.opinions.len(), 2, "{what}");
        assert!(advice.opinions[0].clears, "{what}: the local one agreed");
        assert!(!advice.opinions[1].clears, "{what}");
        assert!(!advice.allows(), "{what}");
        if what == "writes" {
            assert_eq!(advice.verdict(), Verdict::Writes);
        }
        let deny = HumanAnswer::Deny {
            reason: "no".into(),
        };
        assert!(rig.prompter.answer(dialog.id, deny), "{what}");
        assert_eq!(submitted.await.unwrap().decider, Decider::Human, "{what}");
    }
}

#[tokio::test]
async fn each_model_shows_warming_until_its_one_cheap_request_is_answered() {
    use gatehouse::classifier::model::Warmth;
    for (provider, reply) in [
        (Provider::OpenAi, Reply::openai("ok")),
        (Provider::Anthropic, Reply::anthropic("ok")),
    ] {
        let server = ModelServer::start(reply.after(Duration::from_millis(300))).await;
        let model = classifier(&server, provider, limits());
        assert_eq!(model.warmth(), Warmth::Cold);
        let warming = tokio::spawn({
            let model = model.clone();
            async move { model.warm().await }
        });
        super::wait_until(|| server.count() == 1).await;
        assert_eq!(model.warmth(), Warmth::Warming, "{provider}");
        warming.await.unwrap();
        assert_eq!(model.warmth(), Warmth::Warm, "{provider}");
        assert!(!model.breaker().is_open());
        assert_eq!(server.count(), 1, "one request per model");
    }
}

/// Warming has its own limit: a model that takes longer than a question's timeout to load
/// still warms, where a question's timeout would have called it failed.
#[tokio::test]
async fn warming_waits_for_a_slow_model_beyond_the_request_timeout() {
    use gatehouse::classifier::model::Warmth;
    for (provider, reply) in [
        (Provider::OpenAi, Reply::openai("ok")),
        (Provider::Anthropic, Reply::anthropic("ok")),
    ] {
        let server = ModelServer::start(reply.after(Duration::from_millis(400))).await;
        let slow_start = Limits {
            timeout: Duration::from_millis(100),
            warm_timeout: Duration::from_secs(10),
            ..limits()
        };
        let model = classifier(&server, provider, slow_start);
        model.warm().await;
        assert_eq!(model.warmth(), Warmth::Warm, "{provider}");
    }
}
