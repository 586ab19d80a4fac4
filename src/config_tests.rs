use super::*;
use crate::classifier::provider::Provider;
use crate::classifier::settings::ModelConfig;

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse(text, Path::new("/home/u/.config/gatehouse/config.toml"))
}

#[test]
fn an_empty_file_gives_the_defaults() {
    let config = parse("").unwrap();
    assert_eq!(config.settings.mode, Mode::AllowRead);
    assert_eq!(config.settings.ask_timeout, Duration::from_secs(540));
    assert_eq!(config.settings.on_timeout, Fallback::Deny);
    assert_eq!(config.settings.on_shutdown, Fallback::Defer);
    assert_eq!(config.cycle, ModeCycle::default());
    assert!(
        config
            .settings
            .rules
            .internal_tools
            .contains(&"TodoWrite".to_string())
    );
}

#[test]
fn every_key_is_read() {
    let config = parse(
        r#"
mode = "AUTO"
mode_cycle = ["allow-read", "auto"]
ask_timeout_secs = 60
on_timeout = "defer"
on_shutdown = "deny"
safe_commands = ["npm test", "WebFetch"]
denied_commands = ["git push"]
read_only_tools = ["mcp__github__search_issues"]
internal_tools = ["TodoWrite"]
audit_log = "/tmp/audit.jsonl"
notify = "osc9"
"#,
    )
    .unwrap();
    let s = &config.settings;
    assert_eq!(s.mode, Mode::Auto);
    assert_eq!(config.cycle.modes(), [Mode::AllowRead, Mode::Auto]);
    assert_eq!(s.ask_timeout, Duration::from_secs(60));
    assert_eq!(
        (s.on_timeout, s.on_shutdown),
        (Fallback::Defer, Fallback::Deny)
    );
    assert_eq!(s.rules.safe_commands.len(), 2);
    assert_eq!(s.rules.denied_commands[0].as_str(), "git push");
    assert!(
        s.rules
            .read_only_tools
            .contains("mcp__github__search_issues")
    );
    assert_eq!(s.rules.internal_tools, ["TodoWrite"]);
    assert_eq!(config.audit_log, Path::new("/tmp/audit.jsonl"));
    assert_eq!(config.notify, Notify::Osc9);
}

#[test]
fn an_unknown_key_names_the_file_line_and_a_fix() {
    let err = parse("mode = \"auto\"\n\nmodee = \"auto\"\n").unwrap_err();
    let text = err.to_string();
    assert_eq!(err.line, Some(3), "{text}");
    assert!(
        text.starts_with("/home/u/.config/gatehouse/config.toml:3: "),
        "{text}"
    );
    assert!(text.contains("modee"), "{text}");
    assert!(text.contains("did you mean `mode`?"), "{text}");
    assert!(text.contains("`gatehouse config example`"), "{text}");
}

#[test]
fn a_misspelt_timeout_is_matched_and_a_wrong_type_is_said_in_words() {
    let err = parse("ask_timeout = 60\n").unwrap_err();
    assert!(
        err.message.contains("did you mean `ask_timeout_secs`?"),
        "{err}"
    );
    let err = parse("ask_timeout_secs = \"9m\"\n").unwrap_err();
    assert!(
        err.message.contains("expected a number of seconds"),
        "{err}"
    );
    assert!(!err.message.contains("u64"), "{err}");
}

#[test]
fn a_bad_mode_lists_the_good_ones_at_its_line() {
    let err = parse("\nmode = \"yolo\"\n").unwrap_err();
    assert_eq!(err.line, Some(2));
    assert!(err.message.contains("allow-read"), "{}", err.message);
}

#[test]
fn write_tools_can_never_be_listed_safe() {
    let err = parse("safe_commands = [\n  \"ls\",\n  \"Edit\",\n]\n").unwrap_err();
    assert_eq!(err.line, Some(3));
    assert!(err.message.contains("Edit"), "{}", err.message);
}

#[test]
fn out_of_range_and_empty_values_are_refused() {
    assert_eq!(parse("ask_timeout_secs = 0").unwrap_err().line, Some(1));
    assert!(parse("mode_cycle = []").is_err());
    assert!(parse("denied_commands = [\" \"]").is_err());
    assert!(
        parse("on_timeout = \"allow\"").is_err(),
        "a timeout can never allow"
    );
}

#[test]
fn the_memory_bound_of_open_calls_is_a_figure_in_mib() {
    let defaults = parse("").unwrap().server;
    assert_eq!(defaults.max_pending_bytes, 256 * 1024 * 1024);
    assert_eq!(defaults.request_timeout, Duration::from_secs(2));
    let set = parse("max_pending_mib = 16").unwrap().server;
    assert_eq!(set.max_pending_bytes, 16 * 1024 * 1024);
    for bad in ["max_pending_mib = 0", "max_pending_mib = 4096"] {
        let err = parse(bad).unwrap_err();
        assert!(err.fix.contains("1 to 4095"), "{err}");
    }
}

#[test]
fn a_missing_explicit_file_is_an_error_not_the_defaults() {
    let err = Config::load(Some(Path::new("/nonexistent/gatehouse.toml"))).unwrap_err();
    assert!(err.to_string().contains("cannot read"), "{err}");
}

/// The example file, with every `# key = value` line and `# [table]` header uncommented.
fn example_uncommented() -> String {
    let example = include_str!("../config.example.toml");
    example
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("# ")?;
            if rest.starts_with('[') && rest.ends_with(']') {
                return Some(rest);
            }
            let key = rest.split(" = ").next()?;
            (rest.contains(" = ") && key.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
                .then_some(rest)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_example_documents_every_key_with_its_default() {
    let text = example_uncommented();
    let keys: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(" = ").map(|(key, _)| key))
        .collect();
    for key in [
        "mode",
        "mode_cycle",
        "ask_timeout_secs",
        "on_timeout",
        "on_shutdown",
        "safe_commands",
        "denied_commands",
        "read_only_tools",
        "internal_tools",
        "sensitive_paths",
        "audit_log",
        "max_pending_mib",
        "notify",
        "notify_command",
        "listen",
        "url",
        "allow_plain_http",
        "suggest_after",
        "provider",
        "base_url",
        "model",
        "api_key_env",
        "timeout_ms",
        "max_concurrent",
        "cache_size",
        "breaker_failures",
        "breaker_repeats",
        "confidence_threshold",
        "mcp_descriptions",
    ] {
        assert!(keys.contains(&key), "config.example.toml lacks {key}");
    }
    let example = parse(&text).expect("the uncommented example parses");
    let defaults = parse("").unwrap();
    assert_eq!(example.settings.mode, defaults.settings.mode);
    assert_eq!(example.cycle, defaults.cycle);
    assert_eq!(example.settings.ask_timeout, defaults.settings.ask_timeout);
    assert_eq!(example.server, defaults.server);
    assert!(
        !example.audit_log.starts_with("~"),
        "a leading ~ is the home folder"
    );
    assert_eq!(
        example.settings.rules.internal_tools,
        defaults.settings.rules.internal_tools
    );
    assert_eq!(
        example.classifier,
        ClassifierConfig::Model(ModelConfig::defaults(Provider::OpenAi)),
        "the [classifier] values shown are openai's defaults"
    );
}

#[test]
fn no_classifier_table_means_the_environment_decides() {
    assert_eq!(
        parse("").unwrap().classifier,
        ClassifierConfig::FromEnvironment
    );
}

#[test]
fn a_bad_classifier_value_names_its_line_and_a_fix() {
    let err = parse("mode = \"auto\"\n[classifier]\nprovider = \"anthropic\"\ntimeout_ms = 1\n")
        .unwrap_err();
    assert_eq!(err.line, Some(4), "{err}");
    assert!(err.message.contains("timeout_ms"), "{err}");
    assert!(err.fix.contains("100"), "{err}");
    let err = parse("[classifier]\nprovider = \"gemini\"\n").unwrap_err();
    assert_eq!(err.line, Some(2), "{err}");
    assert!(err.message.contains("anthropic"), "{err}");
    let err = parse("[classifier]\napi_key = \"sk-1\"\n").unwrap_err();
    assert_eq!(err.line, Some(2), "{err}");
}

#[test]
fn rule_tables_in_the_config_are_read_and_a_bad_one_names_its_line() {
    let config = parse("[[rule]]\nprefix = \"git push\"\nverdict = \"deny\"\n").unwrap();
    let call = crate::core::call::test_call("Bash", serde_json::json!({"command": "git push"}));
    let a = crate::core::classify::assess(&call, &config.settings.rules, &[]);
    assert_eq!(
        a.class,
        crate::core::route::Class::Denied,
        "{}",
        a.explanation
    );
    assert!(a.explanation.contains("config.toml"), "{}", a.explanation);
    let err =
        parse("mode = \"plan\"\n\n[[rule]]\ntool = \"Edit\"\nverdict = \"allow\"\n").unwrap_err();
    assert_eq!(err.line, Some(3), "{err}");
    assert!(err.to_string().contains("writes files"), "{err}");
    let err = parse("suggest_after = 1000\n").unwrap_err();
    assert!(err.to_string().contains("0 to never suggest"), "{err}");
    assert_eq!(parse("").unwrap().suggest_after, 3);
}

#[test]
fn opencode_servers_are_listed_with_where_their_password_is_but_never_the_password() {
    let config = parse(
        "[[opencode]]\nurl = \"http://127.0.0.1:4096\"\npassword_env = \"OC_PW\"\n\
         [[opencode]]\nurl = \"http://box:4096\"\nusername = \"alice\"\n",
    )
    .unwrap();
    assert_eq!(config.opencode.len(), 2);
    assert_eq!(config.opencode[0].password_env.as_deref(), Some("OC_PW"));
    assert_eq!(config.opencode[1].username.as_deref(), Some("alice"));
    assert!(parse("").unwrap().opencode.is_empty());
    let err = parse("[[opencode]]\nurl = \"http://h:1\"\npassword = \"s3cret\"\n").unwrap_err();
    assert_eq!(err.line, Some(3), "{err}");
    let err = parse("[[opencode]]\nurl = \"localhost:4096\"\n").unwrap_err();
    assert_eq!(err.line, Some(2), "{err}");
    assert!(err.message.contains("not the address"), "{err}");
}

#[test]
fn a_config_file_larger_than_policy_files_may_be_is_refused_naming_the_file_and_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let line = "# a comment that pads the file out\n";
    std::fs::write(&path, line.repeat(2 * 1024 * 1024 / line.len())).unwrap();
    let err = Config::load(Some(&path)).unwrap_err().to_string();
    assert!(err.contains(path.to_str().unwrap()), "{err}");
    assert!(err.contains("1 MiB"), "{err}");
}

#[test]
fn sensitive_paths_add_credential_patterns_and_an_empty_one_is_refused() {
    use crate::core::pathword::Place;
    let config = parse("sensitive_paths = [\"/srv/vault/**\", \"*.secret\"]").unwrap();
    let secrets = &config.settings.rules.guards.secrets;
    for path in ["/srv/vault/db/pw", "conf/app.secret", "~/.ssh/id_rsa"] {
        assert!(secrets.named(path, Place::default()).is_some(), "{path}");
    }
    assert!(secrets.named("README.md", Place::default()).is_none());
    let err = parse("sensitive_paths = [\" \"]").unwrap_err().to_string();
    assert!(
        err.contains("names no path") && err.contains("fix:"),
        "{err}"
    );
}

#[test]
fn the_guards_hold_gatehouse_own_files_beside_the_config() {
    use crate::core::pathword::Place;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.toml");
    std::fs::write(&file, "").unwrap();
    let config = Config::load(Some(&file)).unwrap();
    let own = &config.settings.rules.guards.own;
    let none = Place::default();
    for path in [
        file.clone(),
        dir.path().join("rules.toml"),
        dir.path().join("trusted.toml"),
        config.audit_log.clone(),
    ] {
        assert!(
            own.touched(path.to_str().unwrap(), none).is_some(),
            "{path:?}"
        );
    }
    for path in [
        "~/.claude/settings.json",
        "proj/.claude/settings.local.json",
        ".codex/hooks.json",
    ] {
        assert!(own.touched(path, none).is_some(), "{path}");
    }
    assert!(
        own.touched(dir.path().join("notes.txt").to_str().unwrap(), none)
            .is_none()
    );
}
