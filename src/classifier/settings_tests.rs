use super::*;

fn parse(text: &str) -> Result<ClassifierConfig, Invalid> {
    RawClassifier::validate(Some(toml::from_str(text).unwrap()))
}

#[test]
fn a_table_fills_what_it_leaves_out_from_its_providers_defaults() {
    let ClassifierConfig::Model(config) = parse("provider = \"anthropic\"").unwrap() else {
        panic!("a model");
    };
    assert_eq!(config, ModelConfig::defaults(Provider::Anthropic));
    let ClassifierConfig::Model(local) =
        parse("base_url = \"http://localhost:11434/v1/\"\nmodel = \"qwen3\"\napi_key_env = \"\"")
            .unwrap()
    else {
        panic!("a model");
    };
    assert_eq!(local.provider, Provider::OpenAi);
    assert_eq!(local.base_url, "http://localhost:11434/v1");
    assert_eq!(local.api_key_env, None);
}

fn parse_all(text: &str) -> Result<ClassifierConfig, Invalid> {
    #[derive(Deserialize)]
    struct File {
        classifier: Option<RawClassifiers>,
    }
    RawClassifiers::validate(toml::from_str::<File>(text).unwrap().classifier)
}

#[test]
fn an_array_of_tables_lists_several_classifiers_in_order_and_one_table_still_works() {
    let ClassifierConfig::Several(models) = parse_all(
        "[[classifier]]\nbase_url = \"http://localhost:8080/v1\"\napi_key_env = \"\"\n\
         confidence_threshold = 0.9\n[[classifier]]\nprovider = \"anthropic\"\n",
    )
    .unwrap() else {
        panic!("several");
    };
    assert_eq!(models.len(), 2);
    assert_eq!(models[0].limits.threshold(), 0.9);
    assert_eq!(models[1].provider, Provider::Anthropic);
    assert!(matches!(
        parse_all("[classifier]\nprovider = \"anthropic\"\n").unwrap(),
        ClassifierConfig::Model(_)
    ));
    assert!(matches!(
        parse_all("[[classifier]]\nprovider = \"anthropic\"\n").unwrap(),
        ClassifierConfig::Model(_)
    ));
    assert_eq!(
        parse_all("[[classifier]]\n[[classifier]]\nprovider = \"none\"\n").unwrap(),
        ClassifierConfig::Off
    );
}

#[test]
fn provider_none_turns_the_classifier_off() {
    assert_eq!(parse("provider = \"none\"").unwrap(), ClassifierConfig::Off);
    assert_eq!(
        RawClassifier::validate(None).unwrap(),
        ClassifierConfig::FromEnvironment
    );
}

#[test]
fn a_key_in_place_of_its_variables_name_is_refused_without_echoing_it() {
    let err = parse("api_key_env = \"sk-ant-api03-secret\"").unwrap_err();
    assert!(!err.message.contains("secret"), "{}", err.message);
    assert!(err.fix.contains("name"), "{}", err.fix);
}

#[test]
fn bad_urls_and_out_of_range_limits_are_refused() {
    assert!(parse("base_url = \"ftp://x\"").is_err());
    assert!(parse("base_url = \"localhost:8080\"").is_err());
    assert!(parse("timeout_ms = 5").unwrap_err().fix.contains("100"));
    assert!(parse("max_concurrent = 0").is_err());
    assert!(parse("breaker_failures = 0").is_err());
    assert!(parse("model = \" \"").is_err());
    assert!(parse("confidence_threshold = 1.5").is_err());
    let ClassifierConfig::Model(m) = parse("confidence_threshold = 0.95").unwrap() else {
        panic!("a model");
    };
    assert_eq!(m.limits.threshold(), 0.95);
}

#[test]
fn context_and_the_allow_all_review_are_off_unless_asked_for_and_a_bad_context_is_refused() {
    let ClassifierConfig::Model(plain) = parse("provider = \"anthropic\"").unwrap() else {
        panic!("a model");
    };
    assert_eq!(plain.limits.context, Context::CallOnly);
    assert_eq!(plain.limits.review, AllowAllReview::Off);
    let ClassifierConfig::Model(opted) =
        parse("context = \"user-message\"\nreview_allow_all = true").unwrap()
    else {
        panic!("a model");
    };
    assert_eq!(opted.limits.context, Context::UserMessage);
    assert_eq!(opted.limits.review, AllowAllReview::Assess);
    let bad = parse("context = \"transcript\"").unwrap_err();
    assert!(bad.message.contains("\"transcript\""), "{}", bad.message);
    assert!(bad.fix.contains("user-message"), "{}", bad.fix);
}
