use super::*;
use crate::core::call::ToolKind;
use crate::core::rule::Ruling;

fn remote(projects: Vec<(&str, Content)>) -> Remote {
    Remote {
        host: "build-box".into(),
        projects: projects
            .into_iter()
            .map(|(path, content)| Carried {
                path: path.into(),
                content,
            })
            .collect(),
    }
}

fn subject(tool: &str) -> Subject<'_> {
    Subject {
        tool,
        kind: &ToolKind::Other,
        path: None,
        root: None,
        home: None,
        host: Some("build-box"),
    }
}

fn text(s: &str) -> Content {
    Content::Text(s.into())
}

#[test]
fn a_carried_project_file_tightens_and_its_allows_are_set_aside() {
    let policy = Policy::default();
    let file = "[[rule]]\ntool = \"Frob\"\nverdict = \"deny\"\n\n\
                [[rule]]\ntool = \"Quux\"\nverdict = \"allow\"\n";
    let from = remote(vec![("/home/u/p/.gatehouse.toml", text(file))]);
    let judged = policy
        .judge_remote("/home/u/p/src", &from, subject("Frob"), &[])
        .unwrap();
    let hit = judged.strictest().unwrap();
    assert_eq!(hit.rule.ruling, Ruling::Deny);
    assert_eq!(
        hit.path.as_deref(),
        Some(Path::new("build-box:/home/u/p/.gatehouse.toml"))
    );
    let judged = policy
        .judge_remote("/home/u/p/src", &from, subject("Quux"), &[])
        .unwrap();
    assert!(judged.strictest().is_none(), "an untrusted allow counts");
    assert_eq!(judged.root, None, "a remote call is in no project here");
}

#[test]
fn a_remote_call_never_reads_the_project_files_of_this_disk() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".gatehouse.toml"),
        "[[rule]]\ntool = \"Frob\"\nverdict = \"deny\"\n",
    )
    .unwrap();
    let policy = Policy::default();
    let cwd = dir.path().to_str().unwrap();
    let local = Subject {
        host: None,
        ..subject("Frob")
    };
    assert!(policy.judge(cwd, local, &[]).unwrap().strictest().is_some());
    let judged = policy
        .judge_remote(cwd, &remote(vec![]), subject("Frob"), &[])
        .unwrap();
    assert!(judged.strictest().is_none());
}

#[test]
fn a_carried_file_that_cannot_be_used_refuses_the_call() {
    let policy = Policy::default();
    for content in [
        Content::Unreadable("permission denied".into()),
        text("[[rule]]\nverdict = \"deny\"\n"),
        text(&"#".repeat(MAX_POLICY_BYTES + 1)),
    ] {
        let from = remote(vec![("/p/.gatehouse.toml", content.clone())]);
        let err = policy
            .judge_remote("/p", &from, subject("Frob"), &[])
            .unwrap_err();
        assert_eq!(
            err.path,
            Path::new("build-box:/p/.gatehouse.toml"),
            "{content:?}"
        );
    }
    let relative = remote(vec![("p/.gatehouse.toml", text(""))]);
    assert!(
        policy
            .judge_remote("/p", &relative, subject("Frob"), &[])
            .is_err()
    );
    let many = remote(vec![
        ("/p/.gatehouse.toml", text(""));
        MAX_CARRIED_FILES + 1
    ]);
    assert!(
        policy
            .judge_remote("/p", &many, subject("Frob"), &[])
            .is_err()
    );
}

#[test]
fn a_host_rule_applies_to_calls_from_that_host_only() {
    let rules = crate::core::policy::file::parse_file(
        "[[rule]]\ntool = \"Frob\"\nverdict = \"deny\"\nhost = \"build-box\"\n",
        Path::new("/c/config.toml"),
        Layer::Saved,
        Trust::Own,
        &[],
    )
    .unwrap();
    let policy = Policy::of_files(None, Some(rules));
    let from = remote(vec![]);
    let on_box = policy
        .judge_remote("/p", &from, subject("Frob"), &[])
        .unwrap();
    assert_eq!(
        on_box.strictest().map(|h| h.rule.ruling),
        Some(Ruling::Deny)
    );
    let other = Remote {
        host: "other".into(),
        ..from.clone()
    };
    let elsewhere = Subject {
        host: Some("other"),
        ..subject("Frob")
    };
    let judged = policy.judge_remote("/p", &other, elsewhere, &[]).unwrap();
    assert!(judged.strictest().is_none());
    let local = Subject {
        host: None,
        ..subject("Frob")
    };
    assert!(
        policy
            .judge("/p", local, &[])
            .unwrap()
            .strictest()
            .is_none()
    );
}
