//! "Allow always" beyond the session, through the real barrier: a rule saved for everyone or
//! for one project is written to the saved-rules file, settles the open dialogs it now covers
//! (in other sessions too), and decides later calls as a rule; a project rule stays in its
//! project; removing it makes the calls ask again.

use crate::common;

use std::path::Path;
use std::sync::Arc;

use common::call_in;
use common::rig::Rig;
use gatehouse::core::barrier::Settings;
use gatehouse::core::call::Call;
use gatehouse::core::decision::{Decider, Decision};
use gatehouse::core::mode::Mode;
use gatehouse::core::policy::load::Policy;
use gatehouse::core::prompter::{HumanAnswer, Keeping, SavedScope};
use gatehouse::core::rules::{Rules, SessionAllow};
use serde_json::json;

fn rig_saving_in(config: &Path) -> Rig {
    let paths = crate::common::policy_paths_in(config);
    let policy = Policy::load(paths, Vec::new(), None, Vec::new()).unwrap();
    Rig::with(
        Settings {
            mode: Mode::AllowRead,
            rules: Rules {
                policy: Arc::new(policy),
                ..Rules::default()
            },
            ..Settings::default()
        },
        None,
    )
}

fn bash_in(session: &str, cwd: &Path, line: &str) -> Call {
    Call {
        cwd: cwd.display().to_string(),
        ..call_in(session, "Bash", json!({ "command": line }))
    }
}

#[tokio::test]
async fn a_rule_saved_for_everyone_settles_open_dialogs_of_other_sessions_and_later_calls() {
    let config = tempfile::tempdir().unwrap();
    let mut rig = rig_saving_in(config.path());
    let here = tempfile::tempdir().unwrap();
    let b = rig.barrier.clone();
    let call = bash_in("s1", here.path(), "make lint");
    let first = tokio::spawn(async move { b.submit(call).await });
    let id = rig.opened().await;
    let b = rig.barrier.clone();
    let call = bash_in("s2", here.path(), "make lint");
    let second = tokio::spawn(async move { b.submit(call).await });
    rig.opened().await;

    let allow = SessionAllow::shell("make lint").unwrap();
    let answer = HumanAnswer::AllowSaved {
        allow,
        scope: SavedScope::Everyone,
        note: None,
        lasts: None,
        kept: Keeping::Saved,
    };
    assert!(rig.prompter.answer(id, answer));
    assert_eq!(first.await.unwrap().decider, Decider::Human);
    assert_eq!(
        second.await.unwrap().decider,
        Decider::Rule,
        "the other session's open dialog is settled by the saved rule"
    );
    let later = rig
        .barrier
        .submit(bash_in("s3", here.path(), "make lint"))
        .await;
    assert_eq!(later.decider, Decider::Rule);
    let sibling = rig.barrier.clone();
    let call = bash_in("s3", here.path(), "make lint --fix");
    let open = tokio::spawn(async move { sibling.submit(call).await });
    rig.opened().await;
    open.abort();

    let saved = std::fs::read_to_string(config.path().join("rules.toml")).unwrap();
    assert!(saved.contains("command = \"make lint\""), "{saved}");
    let audit = rig.audit();
    let human = audit.iter().find(|r| r["decider"] == "human").unwrap();
    assert!(
        human["rule"]
            .as_str()
            .unwrap()
            .starts_with("saved rule allow-always"),
        "{human}"
    );
    let rules_file = config.path().join("rules.toml");
    assert!(
        human["rule"]
            .as_str()
            .unwrap()
            .contains(&format!(" in {}", rules_file.display())),
        "the save says where it went: {human}"
    );
    assert_eq!(human["shape"], "Bash make lint");
    let by_rule = audit.iter().find(|r| r["decider"] == "rule").unwrap();
    let named = by_rule["rule"].as_str().unwrap();
    assert!(named.starts_with("rule allow-always"), "{by_rule}");
    assert!(
        named.contains("rules.toml"),
        "the audit names the file: {by_rule}"
    );

    assert!(rig.prompter.unsave_rule("allow-always").unwrap());
    let b = rig.barrier.clone();
    let call = bash_in("s4", here.path(), "make lint");
    let again = tokio::spawn(async move { b.submit(call).await });
    rig.opened().await;
    again.abort();
}

#[tokio::test]
async fn a_rule_saved_for_a_project_applies_only_under_that_project() {
    let config = tempfile::tempdir().unwrap();
    let mut rig = rig_saving_in(config.path());
    let repo = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(repo.path().join(".git")).unwrap();
    std::fs::create_dir_all(repo.path().join("sub")).unwrap();
    let b = rig.barrier.clone();
    let call = bash_in("s1", &repo.path().join("sub"), "make lint");
    let first = tokio::spawn(async move { b.submit(call).await });
    let id = rig.opened().await;
    let answer = HumanAnswer::AllowSaved {
        allow: SessionAllow::shell("make lint").unwrap(),
        scope: SavedScope::Project,
        note: None,
        lasts: None,
        kept: Keeping::Saved,
    };
    assert!(rig.prompter.answer(id, answer));
    first.await.unwrap();
    let inside = rig
        .barrier
        .submit(bash_in("s2", repo.path(), "make lint"))
        .await;
    assert_eq!(inside.decider, Decider::Rule);
    let elsewhere = tempfile::tempdir().unwrap();
    let b = rig.barrier.clone();
    let call = bash_in("s2", elsewhere.path(), "make lint");
    let outside = tokio::spawn(async move { b.submit(call).await });
    rig.opened().await;
    outside.abort();
}

#[tokio::test]
async fn a_rule_saved_for_a_while_is_written_with_its_expiry_and_decides_until_then() {
    let config = tempfile::tempdir().unwrap();
    let mut rig = rig_saving_in(config.path());
    let here = tempfile::tempdir().unwrap();
    let call = bash_in("s1", here.path(), "make lint");
    let first = tokio::spawn({
        let b = rig.barrier.clone();
        async move { b.submit(call).await }
    });
    let id = rig.opened().await;
    let quarter = std::time::Duration::from_secs(15 * 60);
    let answer = HumanAnswer::AllowSaved {
        allow: SessionAllow::shell("make lint").unwrap(),
        scope: SavedScope::Everyone,
        note: None,
        lasts: Some(quarter),
        kept: Keeping::Saved,
    };
    let before = std::time::SystemTime::now();
    assert!(rig.prompter.answer(id, answer));
    first.await.unwrap();
    let file = std::fs::read_to_string(config.path().join("rules.toml")).unwrap();
    let expires = file
        .lines()
        .find_map(|l| l.strip_prefix("expires = "))
        .unwrap_or_else(|| panic!("no expiry in {file}"));
    let at = humantime::parse_rfc3339(expires.trim_matches('"')).unwrap();
    let from = before
        .checked_sub(std::time::Duration::from_secs(1))
        .unwrap();
    assert!(at >= from + quarter && at <= from + quarter + std::time::Duration::from_secs(60));
    let later = rig
        .barrier
        .submit(bash_in("s2", here.path(), "make lint"))
        .await;
    assert_eq!(later.decider, Decider::Rule);
    let audit = rig.audit();
    let saved = audit.iter().find(|r| r["decider"] == "human").unwrap();
    assert!(
        saved["rule"].as_str().unwrap().contains("for 15m"),
        "{saved}"
    );
}

/// Every rules file the console knows now (in memory included), each readable.
fn files_known(rig: &Rig) -> Vec<std::sync::Arc<gatehouse::core::policy::RuleFile>> {
    rig.prompter
        .policy()
        .known()
        .into_iter()
        .flatten()
        .collect()
}

/// A `make lint` call of session s1 in `here`, allowed by the human always for everyone, kept
/// in the console's memory until it quits.
async fn keep_make_lint_until_quit(rig: &mut Rig, here: &Path) {
    let b = rig.barrier.clone();
    let call = bash_in("s1", here, "make lint");
    let first = tokio::spawn(async move { b.submit(call).await });
    let id = rig.opened().await;
    let answer = HumanAnswer::AllowSaved {
        allow: SessionAllow::shell("make lint").unwrap(),
        scope: SavedScope::Everyone,
        note: None,
        lasts: None,
        kept: Keeping::UntilQuit,
    };
    assert!(rig.prompter.answer(id, answer));
    assert_eq!(first.await.unwrap().decider, Decider::Human);
}

#[tokio::test]
async fn an_always_kept_until_the_console_quits_allows_later_calls_and_writes_no_file() {
    let config = tempfile::tempdir().unwrap();
    let mut rig = rig_saving_in(config.path());
    let here = tempfile::tempdir().unwrap();
    keep_make_lint_until_quit(&mut rig, here.path()).await;
    let later = rig
        .barrier
        .submit(bash_in("s2", here.path(), "make lint"))
        .await;
    assert_eq!(
        (later.decision, later.decider),
        (Decision::allow(), Decider::Rule),
        "another session is allowed by the rule kept in memory"
    );
    let written: Vec<_> = std::fs::read_dir(config.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        !written.iter().any(|n| n == "rules.toml"),
        "nothing written: {written:?}"
    );
    let audit = rig.audit();
    assert!(
        audit[0]["rule"]
            .as_str()
            .unwrap()
            .contains("until gatehouse quits"),
        "{}",
        audit[0]
    );
}

#[tokio::test]
async fn an_always_kept_until_quit_deleted_from_the_panel_stops_allowing_and_is_audited() {
    use gatehouse::core::policy::Layer;
    let config = tempfile::tempdir().unwrap();
    let mut rig = rig_saving_in(config.path());
    let here = tempfile::tempdir().unwrap();
    keep_make_lint_until_quit(&mut rig, here.path()).await;
    // It is kept as an in-memory rule, in a place that says where, and in no saved file.
    let known = files_known(&rig);
    let kept: Vec<_> = known.iter().filter(|f| f.layer == Layer::Memory).collect();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].origin(), "the console's memory (until it quits)");
    assert_eq!(kept[0].rules.len(), 1);
    let rule = kept[0].rules[0].id.clone();
    assert!(!known.iter().any(|f| f.layer == Layer::Saved));

    assert!(rig.prompter.forget_kept_rule(&rule));
    assert!(!rig.prompter.forget_kept_rule(&rule), "forgotten once");
    let b = rig.barrier.clone();
    let call = bash_in("s2", here.path(), "make lint");
    let later = tokio::spawn(async move { b.submit(call).await });
    let asked = rig.opened().await;
    assert!(rig.prompter.answer(
        asked,
        HumanAnswer::Deny {
            reason: "asked again".into()
        }
    ));
    assert_eq!(later.await.unwrap().decider, Decider::Human);
    let audit = rig.audit();
    let deleted: Vec<_> = audit
        .iter()
        .filter(|r| r["rule_deleted"] == rule.as_str())
        .collect();
    assert_eq!(deleted.len(), 1, "{audit:?}");
    assert_eq!(deleted[0]["layer"], "in-memory");
    let known = files_known(&rig);
    assert!(known.iter().all(|f| f.rules.is_empty()), "{known:?}");
}
