//! Guarded calls: edits and shell lines that may change gatehouse's own files are tamper, and
//! reads that may show a credential are asked, whatever lists them but an allow rule.

use std::path::PathBuf;
use std::sync::Arc;

use super::*;
use crate::core::call::test_call;
use crate::core::guard::{Guards, OwnFiles};
use crate::core::rules::Pattern;
use crate::core::shell::Secrets;
use serde_json::json;

fn guarded() -> Rules {
    let mut own = OwnFiles::default();
    own.add(
        "/home/me/.claude/settings.json",
        "Claude Code's hook settings",
    );
    own.add("/home/me/.config/gatehouse/rules.toml", "the saved rules");
    let mut secrets = Secrets::default();
    secrets.add("/srv/vault/**");
    Rules {
        guards: Arc::new(Guards {
            own,
            secrets,
            home: Some(PathBuf::from("/home/me")),
            read_keys: ["dir_path", "glob", "paths", "include"]
                .map(String::from)
                .to_vec(),
        }),
        ..Rules::default()
    }
}

fn in_project(tool: &str, input: serde_json::Value) -> Call {
    let mut call = test_call(tool, input);
    call.cwd = "/home/me/project".into();
    call
}

#[test]
fn an_edit_of_an_own_file_is_tamper_in_every_mode_and_no_session_allow_lists_it() {
    let r = guarded();
    for (tool, input) in [
        (
            "Write",
            json!({"file_path": "/home/me/.claude/settings.json", "content": "{}"}),
        ),
        (
            "Edit",
            json!({"file_path": "../.claude/settings.json", "old_string": "a", "new_string": "b"}),
        ),
        (
            "Write",
            json!({"file_path": ".gatehouse.toml", "content": ""}),
        ),
        (
            "Write",
            json!({"file_path": "/home/me/.config/gatehouse/rules.toml", "content": ""}),
        ),
        (
            "NotebookEdit",
            json!({"notebook_path": "x.ipynb", "file_path": ".gatehouse.toml", "new_source": ""}),
        ),
    ] {
        let call = in_project(tool, input.clone());
        let path = call.file_path().unwrap_or_default().to_string();
        let a = assess(&call, &r, &[SessionAllow::Path(path)]);
        assert_eq!(
            (a.class, a.row),
            (Class::Tamper, Row::Tamper),
            "{tool} {input}: {a:?}"
        );
        assert_eq!(a.route(Mode::AllowAll), Route::Ask, "{input}");
        assert!(
            a.explanation.contains("switch gatehouse off"),
            "{}",
            a.explanation
        );
    }
    let other = in_project("Write", json!({"file_path": "src/main.rs", "content": ""}));
    assert_eq!(assess(&other, &r, &[]).class, Class::Writer);
}

#[test]
fn a_shell_line_that_may_write_an_own_file_is_tamper_even_when_listed_safe() {
    let r = Rules {
        safe_commands: vec![Pattern::new("echo"), Pattern::new("sed")],
        ..guarded()
    };
    for line in [
        "echo x > .gatehouse.toml",
        "sed -i d ~/.claude/settings.json",
        "cp /tmp/x /home/me/.config/gatehouse/rules.toml",
    ] {
        let a = assess(&in_project("Bash", json!({ "command": line })), &r, &[]);
        assert_eq!(
            (a.class, a.row),
            (Class::Tamper, Row::Tamper),
            "{line}: {a:?}"
        );
        assert_eq!(a.route(Mode::AllowAll), Route::Ask, "{line}");
    }
}

#[test]
fn a_read_tool_on_a_credential_is_asked_and_other_reads_pass() {
    let r = guarded();
    for input in [
        json!({"file_path": "/home/me/.aws/credentials"}),
        json!({"file_path": "~/.ssh/id_ed25519"}),
        json!({"file_path": ".env"}),
        json!({"file_path": "/srv/vault/db"}),
        json!({"path": "/home/me", "pattern": "password"}),
        json!({"paths": ["README.md", "/home/bob/.netrc"]}),
        json!({"dir_path": "/home/me", "pattern": "password"}),
        json!({"include": ["**/.env"]}),
        json!({"pattern": "KEY", "glob": "**/.env*"}),
    ] {
        let a = assess(&in_project("Read", input.clone()), &r, &[]);
        assert_eq!(a.row, Row::Risky(Risk::Credential), "{input}: {a:?}");
        for mode in [Mode::AllowRead, Mode::Auto, Mode::AutoMcp] {
            assert_eq!(a.route(mode), Route::Ask, "{mode} {input}");
        }
        assert_eq!(a.route(Mode::AllowAll), Route::Allow);
    }
    for input in [
        json!({"file_path": "README.md"}),
        json!({"file_path": "/home/me/.ssh/id_rsa.pub"}),
        json!({"path": "/home/me/project", "pattern": "x"}),
        json!({"pattern": "**/.env"}),
    ] {
        let a = assess(&in_project("Read", input.clone()), &r, &[]);
        assert_eq!(a.row, Row::ReadOnly, "{input}: {a:?}");
    }
}

#[test]
fn a_configured_sensitive_path_makes_a_shell_read_a_credential_read() {
    let a = assess(
        &in_project("Bash", json!({"command": "cat /srv/vault/db"})),
        &guarded(),
        &[],
    );
    assert_eq!(a.row, Row::Risky(Risk::Credential), "{a:?}");
    let plain = assess(
        &in_project("Bash", json!({"command": "cat /srv/vault/db"})),
        &Rules::default(),
        &[],
    );
    assert_eq!(plain.row, Row::ReadOnly);
}

#[test]
fn only_an_allow_rule_lets_a_credential_read_through() {
    let line = "cat /home/me/.aws/credentials";
    let call = in_project("Bash", json!({ "command": line }));
    let listed_safe = Rules {
        safe_commands: vec![Pattern::new("cat")],
        ..guarded()
    };
    let a = assess(
        &call,
        &listed_safe,
        &[SessionAllow::shell("cat *").unwrap()],
    );
    assert_eq!(a.row, Row::Risky(Risk::Credential), "{a:?}");
    let text = format!("[[rule]]\ncommand = {line:?}\nverdict = \"allow\"\n");
    let ruled = Rules {
        policy: super::tests::user_policy(&text),
        ..guarded()
    };
    let a = assess(&call, &ruled, &[]);
    assert_eq!(
        (a.row, a.listed_by),
        (Row::Listed, Some(Decider::Rule)),
        "{a:?}"
    );
    // A prefix rule, as "allow always" saves for a harmless `cat README.md`, reaches every
    // file `cat` may be given: it lets no credential through.
    let prefixed = Rules {
        policy: super::tests::user_policy("[[rule]]\nprefix = \"cat\"\nverdict = \"allow\"\n"),
        ..guarded()
    };
    let a = assess(&call, &prefixed, &[]);
    assert_eq!(a.row, Row::Risky(Risk::Credential), "{a:?}");
}

#[test]
fn only_a_read_rule_for_its_one_file_lets_a_read_tool_show_a_credential() {
    let rules = |text: &str| Rules {
        policy: super::tests::user_policy(text),
        ..guarded()
    };
    let read_rule = rules(
        "[[rule]]\nread = \"~/.aws/credentials\"\nverdict = \"allow\"\n\
         [[rule]]\nread = \"/home/me/project/**\"\nverdict = \"allow\"\n",
    );
    let read = |input| assess(&in_project("Read", input), &read_rule, &[]);
    let a = read(json!({"file_path": "/home/me/.aws/credentials"}));
    assert_eq!(
        (a.row, a.listed_by),
        (Row::Listed, Some(Decider::Rule)),
        "{a:?}"
    );
    assert!(
        a.explanation.contains("allowed by rule"),
        "{}",
        a.explanation
    );
    let a = read(json!({"file_path": "/home/me/project/.env"}));
    assert_eq!(a.row, Row::Listed, "{a:?}");
    for input in [
        // Another credential, a path that may be the same file by another way, and a search
        // that also reads under a second key: each still asked.
        json!({"file_path": "/home/me/.ssh/id_rsa"}),
        json!({"file_path": "/home/me/project/../.ssh/id_rsa"}),
        json!({"file_path": "/home/me/.aws/credentials", "glob": "**/.env"}),
    ] {
        let a = read(input.clone());
        assert_eq!(a.row, Row::Risky(Risk::Credential), "{input}: {a:?}");
    }
    // A rule for the whole tool is not a rule for the file.
    let tool_rule = rules("[[rule]]\ntool = \"Read\"\nverdict = \"allow\"\n");
    let call = in_project("Read", json!({"file_path": "/home/me/.aws/credentials"}));
    let a = assess(&call, &tool_rule, &[]);
    assert_eq!(a.row, Row::Risky(Risk::Credential), "{a:?}");
    // A deny `read` rule refuses the read.
    let deny = rules("[[rule]]\nread = \"/home/me/.aws/*\"\nverdict = \"deny\"\n");
    assert_eq!(assess(&call, &deny, &[]).row, Row::Denied);
}

#[test]
fn a_command_that_may_write_with_a_word_known_only_at_run_time_is_listed_by_nothing() {
    let r = Rules {
        safe_commands: vec![Pattern::new("cp"), Pattern::new("mytool")],
        ..guarded()
    };
    let session = [SessionAllow::shell("mytool *").unwrap()];
    let listed = |line: &str| {
        let a = assess(
            &in_project("Bash", json!({ "command": line })),
            &r,
            &session,
        );
        a.row == Row::Listed
    };
    assert!(listed("cp a b"));
    assert!(listed("mytool --fix src"));
    assert!(!listed("cp a \"$DEST\""));
    assert!(!listed("mytool --fix $TARGET"));
}
