//! Saved rules that last a while (issue 23 section 2, part): a rule's `expires` in
//! `rules.toml` stops it matching once due, through the real hook and `gatehouse serve`;
//! `gatehouse rules list` says how long each has left; a time that does not read is refused
//! with its line and the fix. Times are written relative to now, an hour either side, so
//! nothing waits.

use crate::common;

use std::time::{Duration, SystemTime};

use common::place::Place;
use common::{bash_payload_in, decision_of};

fn at(time: SystemTime) -> String {
    humantime::format_rfc3339_seconds(time).to_string()
}

#[test]
fn an_expired_saved_allow_stops_matching_and_rules_list_shows_the_time_left() {
    let place = Place::new("");
    let hour = Duration::from_secs(3600);
    let now = SystemTime::now();
    std::fs::write(
        place.path().join("rules.toml"),
        format!(
            "[[rule]]\nid = \"lint\"\nprefix = \"make lint\"\nverdict = \"allow\"\n\
             expires = \"{}\"\n\n\
             [[rule]]\nid = \"test\"\nprefix = \"make test\"\nverdict = \"allow\"\n\
             expires = \"{}\"\n",
            at(now - hour),
            at(now + hour)
        ),
    )
    .unwrap();
    let list = place.command(&["rules", "list"]).output().unwrap();
    let text = String::from_utf8_lossy(&list.stdout);
    assert!(list.status.success(), "{text}");
    let line_of = |id: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(id))
            .unwrap_or_else(|| panic!("no {id} in {text}"))
            .to_string()
    };
    assert!(line_of("lint").contains("expired"), "{text}");
    assert!(line_of("test").contains("expires in 59m"), "{text}");

    let _serve = place.serve(&["--on-ask", "deny"]);
    let here = place.path();
    let (out, err) = place.hook(&bash_payload_in(here, "make test"));
    assert_eq!(decision_of(&out).0, "allow", "{out} {err}");
    // Expired: asked like any unknown line, which this serve denies.
    let (out, err) = place.hook(&bash_payload_in(here, "make lint"));
    assert_eq!(decision_of(&out).0, "deny", "{out} {err}");
}

#[test]
fn an_expiry_that_is_not_a_time_is_refused_with_its_line_and_the_fix() {
    let place = Place::new("");
    std::fs::write(
        place.path().join("rules.toml"),
        "[[rule]]\nprefix = \"make lint\"\nverdict = \"allow\"\nexpires = \"in an hour\"\n",
    )
    .unwrap();
    let list = place.command(&["rules", "list"]).output().unwrap();
    let text = String::from_utf8_lossy(&list.stderr);
    assert!(!list.status.success());
    assert!(
        text.contains("\"in an hour\", which is not a time"),
        "{text}"
    );
    assert!(text.contains("RFC 3339"), "{text}");
}
