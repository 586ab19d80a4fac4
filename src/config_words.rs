//! The config parser's messages in a person's words: an unknown key gets the known key it is
//! closest to ("did you mean `ask_timeout_secs`?"), and Rust's type names become what to
//! write (`expected a number of seconds`, not `expected u64`).

/// `message` from the TOML parser, reworded. `line` is the text of the line it points at.
pub fn reword(message: &str, line: &str) -> String {
    if let Some(said) = unknown_key(message) {
        return said;
    }
    let key = line.split('=').next().unwrap_or("").trim();
    let number = if key.ends_with("_secs") {
        "a number of seconds"
    } else if key.ends_with("_ms") {
        "a number of milliseconds"
    } else if key.ends_with("_mib") {
        "a number of MiB"
    } else {
        "a whole number"
    };
    let mut text = message.to_string();
    for (rust, words) in [
        ("expected u64", number),
        ("expected u32", number),
        ("expected u16", number),
        ("expected usize", number),
        ("expected i64", number),
        ("expected a boolean", "true or false"),
        (
            "expected a sequence",
            "a list in brackets, like [\"a\", \"b\"]",
        ),
        ("expected a map", "a table"),
    ] {
        text = text.replace(rust, &format!("expected {words}"));
    }
    text.replace("invalid type: ", "")
}

/// `unknown field `x`, expected one of `a`, `b`` as `unknown key `x`; did you mean `a`?`.
fn unknown_key(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    let (key, rest) = rest.split_once('`')?;
    let known: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
    // A key that holds the typed one whole (`ask_timeout` in `ask_timeout_secs`) comes first,
    // then the fewest edits.
    let closest = known
        .iter()
        .map(|k| (!k.contains(key), distance(key, k), *k))
        .min()
        .filter(|(apart, d, k)| !apart || *d <= (k.len() / 2).max(2))
        .map(|(_, d, k)| (d, k));
    Some(match closest {
        Some((_, k)) => format!("unknown key `{key}`; did you mean `{k}`?"),
        None if known.is_empty() => format!("unknown key `{key}`"),
        None => format!(
            "unknown key `{key}`; the keys here are {}",
            known.join(", ")
        ),
    })
}

/// The edit distance (insertions, deletions, substitutions) between `a` and `b`.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut last = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let keep = last + usize::from(ca != *cb);
            last = row[j + 1];
            row[j + 1] = keep.min(row[j] + 1).min(last + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelt_key_gets_the_closest_known_one() {
        let said = reword(
            "unknown field `ask_timeout`, expected one of `mode`, `ask_timeout_secs`, `notify`",
            "ask_timeout = 5",
        );
        assert_eq!(
            said,
            "unknown key `ask_timeout`; did you mean `ask_timeout_secs`?"
        );
    }

    #[test]
    fn a_key_like_none_lists_the_known_ones() {
        let said = reword(
            "unknown field `zzzzzzzz`, expected one of `mode`, `notify`",
            "zzzzzzzz = 1",
        );
        assert_eq!(
            said,
            "unknown key `zzzzzzzz`; the keys here are mode, notify"
        );
    }

    #[test]
    fn rust_types_become_what_to_write() {
        let said = reword(
            "invalid type: string \"9m\", expected u64",
            "ask_timeout_secs = \"9m\"",
        );
        assert_eq!(said, "string \"9m\", expected a number of seconds");
    }

    #[test]
    fn the_edit_distance_counts_each_change_once() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("same", "same"), 0);
    }
}
