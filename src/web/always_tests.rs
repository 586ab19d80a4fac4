//! The web page's "always" checked as the console's box checks it: every scope and while the
//! box offers is taken, and each one it does not offer is refused with what to send.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::*;
use crate::core::call::{CallId, test_call};
use crate::core::classify::assess;
use crate::core::event::Dialog;
use crate::core::mode::Mode;
use crate::core::route::route;
use crate::core::rules::Rules;

/// A dialog for `tool` with `input`, its call in a project or not.
fn dialog_of(tool: &str, input: Value, project: bool) -> Arc<Dialog> {
    let call = test_call(tool, input);
    let assessment = assess(&call, &Rules::default(), &[]);
    let routed = route(Mode::AllowRead, assessment.row);
    let mut d = Dialog::new(
        CallId(1),
        Arc::new(call),
        assessment,
        routed,
        Instant::now(),
    );
    d.offer.project = project.then(|| "/home/dev/project".into());
    Arc::new(d)
}

fn shell(line: &str, project: bool) -> Arc<Dialog> {
    dialog_of("Bash", json!({ "command": line }), project)
}

fn asked(scope: Scope, secs: Option<u64>, until_quit: bool) -> (Scope, Lasts) {
    (scope, lasts_of(secs, until_quit).unwrap())
}

fn bad(result: Result<HumanAnswer, Refusal>) -> String {
    match result {
        Err(Refusal::Bad(why)) => why,
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn a_session_always_is_the_default_and_lasts_while_the_console_runs_or_an_offered_while() {
    let d = shell("make lint", true);
    let answer = super::answer(&d, "make lint", asked(Scope::Session, None, false), false);
    assert!(matches!(
        answer,
        Ok(HumanAnswer::AllowAlways { lasts: None, .. })
    ));
    let answer = super::answer(
        &d,
        "make lint",
        asked(Scope::Session, Some(900), false),
        false,
    );
    assert!(matches!(
        answer,
        Ok(HumanAnswer::AllowAlways { lasts: Some(d), .. }) if d == Duration::from_secs(900)
    ));
}

#[test]
fn a_project_or_everyone_always_is_saved_or_kept_until_quit_as_the_console_offers() {
    let d = shell("make lint", true);
    let answer = super::answer(&d, "make lint", asked(Scope::Project, None, true), false);
    assert!(matches!(
        answer,
        Ok(HumanAnswer::AllowSaved {
            scope: SavedScope::Project,
            kept: Keeping::UntilQuit,
            lasts: None,
            ..
        })
    ));
    let answer = super::answer(
        &d,
        "make lint",
        asked(Scope::Everyone, Some(3600), false),
        false,
    );
    assert!(matches!(
        answer,
        Ok(HumanAnswer::AllowSaved {
            scope: SavedScope::Everyone,
            kept: Keeping::Saved,
            lasts: Some(_),
            ..
        })
    ));
}

#[test]
fn what_the_console_does_not_offer_is_refused_with_what_to_send() {
    let outside = shell("make lint", false);
    let why = bad(super::answer(
        &outside,
        "make lint",
        asked(Scope::Project, None, false),
        false,
    ));
    assert!(why.contains("in no project"), "{why}");
    let d = shell("make lint", true);
    let why = bad(super::answer(
        &d,
        "make lint",
        asked(Scope::Session, None, true),
        false,
    ));
    assert!(why.contains("scope project or everyone"), "{why}");
    // The console offers 15 min and 1 h; the page's other whiles are for modes.
    let Err(Refusal::Bad(why)) = lasts_of(Some(1800), false) else {
        panic!("30 min taken for an always");
    };
    assert!(why.contains("[900, 3600]"), "{why}");
    assert!(matches!(lasts_of(Some(900), true), Err(Refusal::Bad(_))));
    let edit = dialog_of(
        "Write",
        json!({"file_path": "/home/dev/project/a.txt", "content": "x"}),
        true,
    );
    let why = bad(super::answer(
        &edit,
        "/home/dev/project/a.txt",
        asked(Scope::Everyone, None, false),
        false,
    ));
    assert!(why.contains("only ever allowed for the session"), "{why}");
}

#[test]
fn a_prefix_saved_beyond_the_session_must_be_confirmed_as_in_the_console() {
    let d = shell("make lint", true);
    let first = super::answer(&d, "make *", asked(Scope::Everyone, None, false), false);
    assert!(matches!(first, Err(Refusal::Confirm(ref why)) if why.starts_with("BROAD")));
    let again = super::answer(&d, "make *", asked(Scope::Everyone, None, false), true);
    assert!(matches!(again, Ok(HumanAnswer::AllowSaved { .. })));
}

#[test]
fn the_page_is_told_the_scopes_and_whiles_the_call_can_have() {
    let inside = choices(&shell("make lint", true));
    assert_eq!(inside["scopes"], json!(["session", "project", "everyone"]));
    assert_eq!(inside["project"], "/home/dev/project");
    assert_eq!(inside["whiles"], json!([900, 3600]));
    let outside = choices(&shell("make lint", false));
    assert_eq!(outside["scopes"], json!(["session", "everyone"]));
}
