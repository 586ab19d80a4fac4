//! "Allow always" through the real barrier: the rule the human saw is what is remembered, a
//! sibling command with other operands still asks, every later `session-allow` decision names
//! the rule in the audit log and counts a hit, and a revoked rule allows nothing more.

use crate::common;

use common::bash;
use common::rig::Rig;
use gatehouse::core::decision::Decider;
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::HumanAnswer;
use gatehouse::core::rules::SessionAllow;

#[tokio::test]
async fn an_exact_rule_allows_its_command_again_names_itself_and_can_be_revoked() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    let b = rig.barrier.clone();
    let first = tokio::spawn(async move { b.submit(bash("rm -rf build/cache")).await });
    let id = rig.opened().await;
    let allow = SessionAllow::shell("rm -rf build/cache").unwrap();
    assert!(rig.prompter.answer(
        id,
        HumanAnswer::AllowAlways {
            allow,
            note: None,
            lasts: None,
        }
    ));
    assert_eq!(first.await.unwrap().decider, Decider::Human);

    // A sibling with other operands is not covered: it asks.
    let b = rig.barrier.clone();
    let other = tokio::spawn(async move { b.submit(bash("rm -rf build/other")).await });
    rig.opened().await;
    other.abort();

    let again = rig.barrier.submit(bash("rm -rf build/cache")).await;
    assert_eq!(again.decider, Decider::SessionAllow);
    let rules = rig.prompter.session_rules();
    assert_eq!(rules.len(), 1);
    assert_eq!((rules[0].hits, rules[0].origin_call), (1, id.0));

    let audit = rig.audit();
    let answered = audit.iter().find(|r| r["decider"] == "human").unwrap();
    assert_eq!(answered["rule"], "rm -rf build/cache", "{answered}");
    let later = audit
        .iter()
        .find(|r| r["decider"] == "session-allow")
        .unwrap();
    assert_eq!(later["rule"], "#1 rm -rf build/cache", "{later}");

    assert!(rig.prompter.revoke(rules[0].id));
    let b = rig.barrier.clone();
    let after = tokio::spawn(async move { b.submit(bash("rm -rf build/cache")).await });
    rig.opened().await;
    after.abort();
}
