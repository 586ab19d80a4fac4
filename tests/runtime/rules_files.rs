//! The saved rules and the trust list on disk: many `gatehouse rules add` at once lose none,
//! and a link planted where a save writes its temporary or backup file is never followed.

use crate::common;

use std::process::Stdio;

use common::place::Place;

#[test]
fn twenty_concurrent_rules_add_keep_every_rule_deny_and_allow_alike() {
    let place = Place::new("");
    let children: Vec<_> = (0..20)
        .map(|n| {
            let ruling = if n % 2 == 0 { "deny" } else { "allow" };
            let pattern = format!("tool{n} run");
            place
                .command(&["rules", "add", ruling, &pattern])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{text}");
        assert!(text.contains("saved rule"), "{text}");
    }
    let file = std::fs::read_to_string(place.path().join("rules.toml")).unwrap();
    for n in 0..20 {
        let ruling = if n % 2 == 0 { "deny" } else { "allow" };
        assert!(
            file.contains(&format!("id = \"{ruling}-tool{n}-run\"")),
            "rule {n} was lost:\n{file}"
        );
    }
}
