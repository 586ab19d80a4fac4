//! A rules file's unknown key said where it is and what was probably meant: the parser reports
//! the table it is in (the `[[rule]]` line), so the key's own line is looked up below it, and
//! the nearest key the table takes is offered.

/// The keys a `[[rule]]` table takes, and the keys at the top of a rules file, as written.
const RULE_KEYS: &str =
    "id tool prefix command edit mcp read network verdict reason project host expires learned";
const FILE_KEYS: &str = "mode_ceiling denied_commands safe_commands sensitive_paths rule";

/// For a parse error `message` at byte `at` of `text` that names an unknown field: the line the
/// key is on, and a fix naming the nearest key the table takes.
pub fn placed(text: &str, at: usize, message: &str) -> Option<(usize, String)> {
    let key = message.strip_prefix("unknown field `")?.split('`').next()?;
    let (line, in_rule) = line_of_key(text, at, key)?;
    let keys: Vec<&str> = match in_rule {
        true => RULE_KEYS.split(' ').collect(),
        false => FILE_KEYS.split(' ').collect(),
    };
    let nearest = keys
        .iter()
        .map(|k| (strsim::levenshtein(k, key), *k))
        .filter(|(distance, _)| *distance <= 2)
        .min();
    let known = keys.join("`, `");
    let fix = match nearest {
        Some((_, k)) => format!("did you mean `{k}`? The keys here are `{known}`"),
        None => format!("the keys here are `{known}`"),
    };
    Some((line, fix))
}

/// The 1-based line of `key = …` at or after byte `at`, and whether it is inside a `[[rule]]`.
fn line_of_key(text: &str, at: usize, key: &str) -> Option<(usize, bool)> {
    let start = text[..at.min(text.len())].rfind('\n').map_or(0, |n| n + 1);
    let mut in_rule = text[..start].contains("[[rule]]");
    for (n, line) in text[start..].lines().enumerate() {
        let trimmed = line.trim_start();
        in_rule |= trimmed.starts_with("[[rule]]");
        let named = trimmed
            .strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with('='));
        if named {
            let before = text[..start].matches('\n').count();
            return Some((before + n + 1, in_rule));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_rule_key_is_placed_on_its_own_line_with_the_key_meant() {
        let text = "denied_commands = [\"x\"]\n\n[[rule]]\nid = \"a\"\nprefix = \"npm\"\nverdict = \"deny\"\nreasn = \"typo\"\n";
        let at = text.find("[[rule]]").unwrap();
        let (line, fix) = placed(text, at, "unknown field `reasn`, expected one of `id`").unwrap();
        assert_eq!(line, 7);
        assert!(fix.starts_with("did you mean `reason`?"), "{fix}");
    }

    #[test]
    fn a_key_far_from_any_is_listed_without_a_guess() {
        let text = "[[rule]]\nid = \"a\"\nwhatever = 1\n";
        let (line, fix) = placed(text, 0, "unknown field `whatever`").unwrap();
        assert_eq!(line, 3);
        assert!(fix.starts_with("the keys here are"), "{fix}");
    }
}
