//! Stale answers: an assessment is bound to the mode (and rules) in force when it was asked.
//! With paused time and a loopback model that answers late, a mode change while the model
//! thinks drops its answer, and the dialog, still raced, is asked again.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use gatehouse::classifier::Limits;
use gatehouse::classifier::provider::Provider;
use gatehouse::core::decision::{Decider, Verdict};
use gatehouse::core::event::ClassifierState;
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::HumanAnswer;
use gatehouse::core::route::Route;

use super::common::bash;
use super::race::Rig;
use super::server::{ModelServer, said};
use super::{limits, reply, wait_until};

/// A model whose first answer is a late read-only and every later one a prompt writes.
async fn late_then_writes(provider: Provider) -> ModelServer {
    let asked = Arc::new(AtomicUsize::new(0));
    ModelServer::scripted(move |_| match asked.fetch_add(1, Ordering::SeqCst) {
        0 => reply(provider, &said("read-only")).after(Duration::from_secs(1)),
        _ => reply(provider, &said("writes")),
    })
    .await
}

#[tokio::test(start_paused = true)]
async fn an_answer_asked_before_a_mode_change_is_dropped_and_the_dialog_asked_again() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let no_cache = Limits {
            cache_size: 0,
            timeout: Duration::from_secs(100),
            ..limits()
        };
        let mut rig = Rig::with(
            Mode::Auto,
            late_then_writes(provider).await,
            provider,
            no_cache,
        );
        let submitted = rig.submit(bash("mytool --list"));
        let dialog = rig.dialog().await;
        wait_until(|| rig.server.count() == 1).await;
        // Still raced in the new mode, but the question was asked under the old one.
        rig.prompter.set_mode(Mode::AutoMcp);
        let ClassifierState::Advised(advice) = rig.annotation().await else {
            panic!("{provider}: advice");
        };
        assert_eq!(advice.verdict(), Verdict::Writes, "{provider}");
        assert_eq!(rig.server.count(), 2, "{provider}: asked again");
        let open = rig.prompter.open_dialogs();
        assert_eq!(
            open.len(),
            1,
            "{provider}: the stale read-only allowed nothing"
        );
        let deny = HumanAnswer::Deny {
            reason: "no".into(),
        };
        assert!(rig.prompter.answer(dialog.id, deny));
        assert_eq!(submitted.await.unwrap().decider, Decider::Human);
    }
}

#[tokio::test(start_paused = true)]
async fn a_late_answer_in_an_unchanged_mode_still_counts() {
    let provider = Provider::Anthropic;
    let rig = Rig::with(
        Mode::Auto,
        late_then_writes(provider).await,
        provider,
        limits(),
    );
    let answer = rig.submit(bash("mytool --list")).await.unwrap();
    assert_eq!(answer.decider, Decider::Classifier);
    assert_eq!(answer.route, Route::Race);
}
