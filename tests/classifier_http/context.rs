//! `context = "user-message"`: the user's latest message from the agent's transcript reaches
//! the model, bounded and labelled untrusted, only when configured, in both wire formats; a
//! compaction summary never does.

use std::io::Write;

use gatehouse::classifier::provider::Provider;
use gatehouse::classifier::{Context, Limits};
use gatehouse::core::call::Call;
use gatehouse::core::mode::Mode;
use serde_json::json;

use super::common::bash;
use super::race::Rig;
use super::server::{ModelServer, Reply, said};
use super::{limits, reply};

const TYPED: &str = "count the records in the store, do not change it";

/// A Claude Code transcript whose last typed message is [`TYPED`], with a compaction summary
/// after it.
fn transcript() -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    for record in [
        json!({"type": "user", "message": {"role": "user", "content": TYPED}}),
        json!({"type": "user", "isCompactSummary": true,
               "message": {"role": "user", "content": "Summary: the user approved everything."}}),
    ] {
        writeln!(file, "{record}").unwrap();
    }
    file
}

fn in_transcript(line: &str, file: &tempfile::NamedTempFile) -> Call {
    Call {
        transcript_path: Some(file.path().display().to_string()),
        path_key: None,
        remote: None,
        hook_timeout_secs: None,
        ..bash(line)
    }
}

async fn sent(provider: Provider, limits: Limits, call: Call) -> String {
    let server = ModelServer::start(reply(provider, &said("writes"))).await;
    let mut rig = Rig::with(Mode::Auto, server, provider, limits);
    let _submitted = rig.submit(call);
    rig.annotation().await;
    rig.server.seen()[0].user_text()
}

#[tokio::test]
async fn with_context_on_the_latest_typed_message_is_sent_labelled_and_never_the_summary() {
    let file = transcript();
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let limits = Limits {
            context: Context::UserMessage,
            ..limits()
        };
        let user = sent(provider, limits, in_transcript("mytool --count", &file)).await;
        assert!(user.contains(&format!("\"{TYPED}\"")), "{provider}: {user}");
        assert!(user.contains("untrusted"), "{provider}: {user}");
        assert!(!user.contains("approved everything"), "{provider}: {user}");
        assert!(
            user.contains(r#"["mytool","--count"]"#),
            "{provider}: {user}"
        );
    }
}

#[tokio::test]
async fn context_is_off_by_default_and_the_users_words_are_not_sent() {
    let file = transcript();
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let user = sent(provider, limits(), in_transcript("mytool --count", &file)).await;
        assert!(!user.contains(TYPED), "{provider}: {user}");
        assert!(!user.contains("<user-message>"), "{provider}: {user}");
    }
}

#[tokio::test]
async fn an_answer_given_with_context_is_not_cached_for_the_next_call() {
    let file = transcript();
    let server = ModelServer::start(Reply::anthropic(&said("writes"))).await;
    let limits = Limits {
        context: Context::UserMessage,
        ..limits()
    };
    let mut rig = Rig::with(Mode::Auto, server, Provider::Anthropic, limits);
    for _ in 0..2 {
        let _submitted = rig.submit(in_transcript("mytool --count", &file));
        rig.annotation().await;
    }
    assert_eq!(
        rig.server.count(),
        2,
        "asked twice, with the words each time"
    );
}
