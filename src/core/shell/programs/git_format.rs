//! git's format options, which can run gpg.
//!
//! A `--format`/`--pretty` with a signature placeholder (`%G?`, `%GS`, `%GK`, `%GG`... in
//! `log`, `show`, `rev-list`; `%(signature...)` in `for-each-ref`, `branch`, `tag`) makes git
//! verify each signed commit by running `gpg.program`, a program the repository's own config
//! may name; `verify-commit` is refused for the same reason. In the log family a format name
//! that is not built in (`--pretty=mine`) is a `pretty.mine` alias from the configuration,
//! which may hold such a placeholder.

use super::{Judgement, Risk};
use crate::core::shell::words::Word;

/// The pretty formats git knows without configuration.
const BUILT_IN: &[&str] = &[
    "oneline",
    "short",
    "medium",
    "full",
    "fuller",
    "reference",
    "email",
    "mboxrd",
    "raw",
];

/// Subcommands whose `--format`/`--pretty` name a pretty format (aliases included).
const LOG_FAMILY: &[&str] = &[
    "log",
    "show",
    "whatchanged",
    "rev-list",
    "shortlog",
    "reflog",
    "stash",
];

pub(super) fn check(sub: &str, args: &[Word]) -> Result<(), Judgement> {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let Some(text) = word.literal_text() else {
            continue;
        };
        if text == "--" {
            break;
        }
        let value = match text.split_once('=') {
            Some(("--format" | "--pretty", value)) => value,
            None if text == "--format" => match words.next() {
                Some(next) => next
                    .literal_text()
                    .ok_or_else(|| Judgement::dynamic("git --format known only at run time"))?,
                None => break,
            },
            _ => continue,
        };
        format(sub, value)?;
    }
    Ok(())
}

fn format(sub: &str, value: &str) -> Result<(), Judgement> {
    if value.contains("%G") || value.contains("%(signature") {
        return Err(Judgement::risk(
            Risk::Network,
            "git format with a signature placeholder: runs gpg, which may fetch keys",
        ));
    }
    let named = !value.contains('%') && !value.contains(':');
    if named && LOG_FAMILY.contains(&sub) && !BUILT_IN.contains(&value) {
        return Err(Judgement::unverified(
            "git --pretty=NAME: a format alias from the configuration",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check;
    use crate::core::shell::words::Word;

    fn words(args: &[&str]) -> Vec<Word> {
        args.iter().map(|a| Word::literal(a)).collect()
    }

    #[test]
    fn a_signature_placeholder_is_refused_in_every_spelling() {
        for args in [
            &["--format=%h %G?"][..],
            &["--pretty=format:%GK"],
            &["--format", "%GG"],
            &["--format=%(signature:key)"],
        ] {
            assert!(check("log", &words(args)).is_err(), "{args:?}");
        }
    }

    #[test]
    fn a_format_alias_from_the_configuration_is_refused_in_the_log_family() {
        assert!(check("log", &words(&["--pretty=mine"])).is_err());
        assert!(check("log", &words(&["--pretty=oneline"])).is_ok());
        assert!(check("log", &words(&["--format=%h %s"])).is_ok());
        assert!(check("archive", &words(&["--format=tar"])).is_ok());
    }

    #[test]
    fn words_after_a_double_dash_are_paths() {
        assert!(check("log", &words(&["--", "--format=%G?"])).is_ok());
    }
}
