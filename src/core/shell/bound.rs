//! Every value a line gives each of its variables, anywhere (`f=~/.ssh/id_rsa`, `for f in
//! ~/.ssh/*`), so that a word expanding one can be read as each of them: the credential check
//! then sees `cat "$f"` as `cat ~/.ssh/id_rsa`. Where or whether the assignment runs does not
//! matter: a value the line may give is one the word may hold. A name the line never sets keeps
//! its expansion, read as any name.

use std::collections::HashMap;

/// At most this many readings of one word are made; past it, the word is read as written.
const MOST: usize = 16;

#[derive(Debug, Clone, Default)]
pub struct Bound(HashMap<String, Vec<String>>);

impl Bound {
    /// Notes that `name` may hold `value`, as written in the line. Only a value that can
    /// change which folders a word goes through is kept (one with a `/`, a `~`, a `..` or an
    /// expansion of its own): a segment holding an expansion already stands for any name
    /// ([`crate::core::pathword`]), so a plain name (`1`, `notes`) adds nothing to read, and a
    /// loop over many of them would only multiply the readings.
    pub fn record(&mut self, name: &str, value: &str) {
        if !value.contains(['/', '~', '$']) && !value.contains("..") {
            return;
        }
        let values = self.0.entry(name.to_string()).or_default();
        if !values.iter().any(|v| v == value) {
            values.push(value.to_string());
        }
    }

    /// Adds what another walk (a script given to `bash -c`) bound.
    pub fn merge(&mut self, other: Bound) {
        for (name, values) in other.0 {
            for value in values {
                self.record(&name, &value);
            }
        }
    }

    /// `word` read with each value its bound variables may hold (`$f`, `${f}`), one variable
    /// at a time, besides itself; empty (no allocation) for the many words that expand no bound
    /// variable. At most [`MOST`] readings: every other variable of a reading still stands for
    /// any name in its segment, so no combination of values is needed.
    pub fn readings(&self, word: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if self.0.is_empty() || !word.contains('$') {
            return out;
        }
        for (name, values) in &self.0 {
            for form in [format!("${{{name}}}"), format!("${name}")] {
                let Some(start) = find_whole(word, &form) else {
                    continue;
                };
                for value in values {
                    if out.len() >= MOST {
                        return out;
                    }
                    let (head, tail) = (&word[..start], &word[start + form.len()..]);
                    let next = format!("{head}{value}{tail}");
                    if !out.contains(&next) {
                        out.push(next);
                    }
                }
            }
        }
        out
    }
}

/// Where `form` (`$f`) stands in `word` as the whole name (not the start of `$foo`).
fn find_whole(word: &str, form: &str) -> Option<usize> {
    word.match_indices(form).map(|(at, _)| at).find(|at| {
        form.ends_with('}')
            || !word[at + form.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_is_read_with_every_value_its_variables_may_hold() {
        let mut bound = Bound::default();
        bound.record("f", "~/.ssh/id_rsa");
        bound.record("f", "notes/a.txt");
        bound.record("d", "../.aws");
        // A plain name adds nothing: `$n` already stands for any name in its segment.
        bound.record("n", "42");
        assert_eq!(
            bound.readings("\"$f\""),
            ["\"~/.ssh/id_rsa\"", "\"notes/a.txt\""]
        );
        assert!(
            bound
                .readings("~/x/${d}/credentials")
                .contains(&"~/x/../.aws/credentials".into())
        );
        assert!(bound.readings("$n").is_empty());
        // `$foo` is not `$f`, and a word with no variable is itself.
        assert!(bound.readings("$foo").is_empty());
        assert!(bound.readings("README.md").is_empty());
    }

    #[test]
    fn readings_are_bounded() {
        let mut bound = Bound::default();
        for n in 0..20 {
            bound.record("a", &format!("a/{n}"));
            bound.record("b", &format!("b/{n}"));
        }
        assert!(bound.readings("$a/$b").len() <= MOST);
    }
}
