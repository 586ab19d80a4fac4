//! Complete allow-lists of options, and a parser that holds a program to them.
//!
//! A [`Spec`] lists every option a program may take on a read-only line; anything else is
//! refused as unknown. The parser understands GNU conventions: combined short flags (`-nru`),
//! attached values (`-ooutput.txt`, `--output=x`), values in the next word, options after
//! operands, and `--`. A word that could expand into an option (`$X`, `*.txt`) is refused
//! unless it follows `--`.

use super::Judgement;
use crate::core::shell::escape;
use crate::core::shell::words::Word;

/// The options one program accepts.
#[derive(Debug)]
pub(crate) struct Spec {
    /// Short flags without a value, as one string of letters (`"nru"`).
    pub short: &'static str,
    /// Short options that take a value, attached (`-k2`) or in the next word (`-k 2`).
    pub short_value: &'static str,
    /// Long flags without a value (`"reverse"`).
    pub long: &'static [&'static str],
    /// Long options that take a value (`--key=2` or `--key 2`).
    pub long_value: &'static [&'static str],
    /// Long options whose value is optional and only ever attached (`--color[=when]`).
    pub long_optional: &'static [&'static str],
    /// Accepts `-20` as a count (`head -20`, `git log -3`).
    pub numeric: bool,
    /// Another spec whose options this one also accepts (`git log` takes the diff options).
    pub extends: Option<&'static Spec>,
}

impl Spec {
    /// A spec with only the fields that matter set; for use in `const` items.
    pub const EMPTY: Spec = Spec {
        short: "",
        short_value: "",
        long: &[],
        long_value: &[],
        long_optional: &[],
        numeric: false,
        extends: None,
    };

    fn find(&self, test: &dyn Fn(&Spec) -> bool) -> bool {
        test(self) || self.extends.is_some_and(|parent| parent.find(test))
    }

    fn takes_short(&self, letter: char) -> bool {
        self.find(&|s| s.short.contains(letter))
    }

    fn takes_short_value(&self, letter: char) -> bool {
        self.find(&|s| s.short_value.contains(letter))
    }

    fn takes_long(&self, name: &str) -> bool {
        self.find(&|s| s.long.contains(&name))
    }

    fn takes_long_value(&self, name: &str) -> bool {
        self.find(&|s| s.long_value.contains(&name))
    }

    fn takes_long_optional(&self, name: &str) -> bool {
        self.find(&|s| s.long_optional.contains(&name))
    }

    fn takes_numeric(&self) -> bool {
        self.find(&|s| s.numeric)
    }

    /// Every long option of the spec and the specs it extends.
    fn long_names(&self, out: &mut Vec<&'static str>) {
        out.extend(
            self.long
                .iter()
                .chain(self.long_value)
                .chain(self.long_optional),
        );
        if let Some(parent) = self.extends {
            parent.long_names(out);
        }
    }

    /// The long option `name` stands for, as GNU `getopt_long` reads it: an exact name, or
    /// the one option it is an unambiguous prefix of. `None` when unknown or ambiguous (the
    /// program then refuses the line, or we cannot tell which option it means).
    pub fn resolve_long(&self, name: &str) -> Option<&'static str> {
        let mut names = Vec::new();
        self.long_names(&mut names);
        if let Some(exact) = names.iter().find(|n| **n == name) {
            return Some(exact);
        }
        if name.is_empty() {
            return None;
        }
        let mut matches = names.iter().filter(|n| n.starts_with(name));
        let first = matches.next()?;
        matches.all(|n| n == first).then_some(*first)
    }
}

/// One option as given: `-n` or `--name`, with its value if it has one.
#[derive(Debug, Clone)]
pub(crate) struct Opt {
    pub name: String,
    pub value: Option<Word>,
}

/// A command line split into options and operands.
#[derive(Debug, Default)]
pub(crate) struct Parsed {
    pub opts: Vec<Opt>,
    pub args: Vec<Word>,
}

impl Parsed {
    /// True when any of `names` (`-o`, `--output`) was given.
    pub fn has(&self, names: &[&str]) -> bool {
        self.opts.iter().any(|o| names.contains(&o.name.as_str()))
    }

    /// The value of the last of `names` given.
    pub fn value(&self, names: &[&str]) -> Option<&Word> {
        self.opts
            .iter()
            .rev()
            .find(|o| names.contains(&o.name.as_str()))?
            .value
            .as_ref()
    }
}

/// Splits `args` (the words after the program name) by `spec`; refuses unknown options and
/// words that could become options.
pub(crate) fn parse(spec: &Spec, args: &[Word]) -> Result<Parsed, Judgement> {
    let mut parsed = Parsed::default();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word.is_static && word.text == "--" {
            parsed.args.extend(words.by_ref().cloned());
            break;
        }
        if !parse_option(spec, word, &mut words, &mut parsed)? {
            parsed.args.push(word.clone());
        }
    }
    Ok(parsed)
}

/// Parses the options in front of the first operand (POSIX order, as wrappers and `find`
/// need) and returns them with the words from that operand on.
pub(crate) fn parse_leading<'w>(
    spec: &Spec,
    args: &'w [Word],
) -> Result<(Parsed, &'w [Word]), Judgement> {
    let mut parsed = Parsed::default();
    let mut words = args.iter();
    loop {
        let rest = words.as_slice();
        let Some(word) = words.next() else {
            return Ok((parsed, rest));
        };
        if word.is_static && word.text == "--" {
            return Ok((parsed, words.as_slice()));
        }
        if !parse_option(spec, word, &mut words, &mut parsed)? {
            return Ok((parsed, rest));
        }
    }
}

/// Reads `word` into `parsed` as an option, taking its argument from `rest` where it needs
/// one. False when `word` is an operand; an error when it is a dynamic word that could
/// become an option.
fn parse_option<'a>(
    spec: &Spec,
    word: &Word,
    rest: &mut impl Iterator<Item = &'a Word>,
    parsed: &mut Parsed,
) -> Result<bool, Judgement> {
    let text = if word.is_static {
        word.text.as_str()
    } else {
        word.prefix.as_str()
    };
    if word.may_be_option() {
        return Err(could_be_option(word));
    }
    if let Some(long) = text.strip_prefix("--") {
        parse_long(spec, long, word, rest, parsed)?;
    } else if text.len() > 1 && text.starts_with('-') {
        parse_short(spec, text, word, rest, parsed)?;
    } else {
        return Ok(false);
    }
    Ok(true)
}

fn parse_long<'a>(
    spec: &Spec,
    long: &str,
    word: &Word,
    rest: &mut impl Iterator<Item = &'a Word>,
    parsed: &mut Parsed,
) -> Result<(), Judgement> {
    let (written, attached) = match long.split_once('=') {
        Some((name, _)) => (name, true),
        None => (long, false),
    };
    if !word.is_static && !attached {
        return Err(could_be_option(word));
    }
    let Some(name) = spec.resolve_long(written) else {
        return Err(unknown(&format!("--{written}")));
    };
    let flag = format!("--{name}");
    let attached_value = || {
        let after = word.text.split_once('=').map_or("", |(_, v)| v);
        if word.is_static {
            Word::literal(after)
        } else {
            Word::dynamic(&word.text)
        }
    };
    if spec.takes_long(name) && !attached {
        parsed.opts.push(Opt {
            name: flag,
            value: None,
        });
    } else if spec.takes_long_value(name) {
        let value = if attached {
            attached_value()
        } else {
            next_value(rest, &flag)?
        };
        parsed.opts.push(Opt {
            name: flag,
            value: Some(value),
        });
    } else if spec.takes_long_optional(name) {
        let value = attached.then(attached_value);
        parsed.opts.push(Opt { name: flag, value });
    } else {
        return Err(unknown(&flag));
    }
    Ok(())
}

fn parse_short<'a>(
    spec: &Spec,
    text: &str,
    word: &Word,
    rest: &mut impl Iterator<Item = &'a Word>,
    parsed: &mut Parsed,
) -> Result<(), Judgement> {
    let letters = &text[1..];
    if spec.takes_numeric() && word.is_static && letters.bytes().all(|b| b.is_ascii_digit()) {
        parsed.opts.push(Opt {
            name: "-NUM".to_string(),
            value: Some(Word::literal(letters)),
        });
        return Ok(());
    }
    for (index, letter) in letters.char_indices() {
        let flag = format!("-{letter}");
        let own_flag = spec.short.contains(letter);
        if !own_flag && spec.takes_short_value(letter) {
            let after = &letters[index + letter.len_utf8()..];
            let value = if !after.is_empty() || !word.is_static {
                if word.is_static {
                    Word::literal(after)
                } else {
                    Word::dynamic(&word.text)
                }
            } else {
                next_value(rest, &flag)?
            };
            parsed.opts.push(Opt {
                name: flag,
                value: Some(value),
            });
            return Ok(());
        }
        if !spec.takes_short(letter) || letter == '-' {
            return Err(unknown(&flag));
        }
        parsed.opts.push(Opt {
            name: flag,
            value: None,
        });
    }
    if !word.is_static {
        // The literal letters ran out before the expansion: it could add any flag.
        return Err(could_be_option(word));
    }
    Ok(())
}

pub(crate) fn unknown(flag: &str) -> Judgement {
    Judgement::unverified(format!(
        "option {} is not on the read-only list",
        escape(flag)
    ))
}

/// The value of an option given in the next word; a word the shell may split could smuggle
/// in more options.
fn next_value<'a>(
    rest: &mut impl Iterator<Item = &'a Word>,
    flag: &str,
) -> Result<Word, Judgement> {
    let value = rest.next().ok_or_else(|| missing_value(flag))?;
    if value.splits {
        return Err(could_be_option(value));
    }
    Ok(value.clone())
}

fn missing_value(flag: &str) -> Judgement {
    Judgement::unverified(format!("option {} lacks its value", escape(flag)))
}

pub(crate) fn could_be_option(word: &Word) -> Judgement {
    Judgement::dynamic(format!("{} could expand to an option", escape(&word.text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SORT: Spec = Spec {
        short: "nru",
        short_value: "ok",
        long: &["reverse"],
        long_value: &["output", "key"],
        long_optional: &["color"],
        ..Spec::EMPTY
    };

    fn words(line: &str) -> Vec<Word> {
        line.split_whitespace().map(Word::literal).collect()
    }

    #[test]
    fn combined_short_flags_are_split() {
        let parsed = parse(&SORT, &words("-nru file")).unwrap();
        assert_eq!(parsed.opts.len(), 3);
        assert_eq!(parsed.args[0].text, "file");
    }

    #[test]
    fn an_attached_short_value_is_read() {
        let parsed = parse(&SORT, &words("-ooutput.txt file")).unwrap();
        assert_eq!(parsed.value(&["-o"]).unwrap().text, "output.txt");
    }

    #[test]
    fn long_values_attached_or_separate_are_read() {
        assert_eq!(
            parse(&SORT, &words("--output=x"))
                .unwrap()
                .value(&["--output"])
                .unwrap()
                .text,
            "x"
        );
        assert_eq!(
            parse(&SORT, &words("--output y"))
                .unwrap()
                .value(&["--output"])
                .unwrap()
                .text,
            "y"
        );
    }

    #[test]
    fn an_unknown_flag_is_refused() {
        assert!(parse(&SORT, &words("-x")).is_err());
        assert!(parse(&SORT, &words("--outside=x")).is_err());
    }

    #[test]
    fn an_unambiguous_prefix_of_a_long_option_is_that_option() {
        let parsed = parse(&SORT, &words("--out=x --rev --k 2")).unwrap();
        assert_eq!(parsed.value(&["--output"]).unwrap().text, "x");
        assert!(parsed.has(&["--reverse"]));
        assert_eq!(parsed.value(&["--key"]).unwrap().text, "2");
    }

    #[test]
    fn an_ambiguous_prefix_is_refused() {
        const TWO: Spec = Spec {
            long: &["output", "outline"],
            ..Spec::EMPTY
        };
        assert!(parse(&TWO, &words("--out")).is_err());
        assert!(parse(&TWO, &words("--outp")).is_ok());
    }

    #[test]
    fn words_after_double_dash_are_operands() {
        let parsed = parse(&SORT, &words("-- -x")).unwrap();
        assert_eq!(parsed.args[0].text, "-x");
    }

    #[test]
    fn a_word_that_could_expand_to_an_option_is_refused() {
        assert!(parse(&SORT, &[Word::dynamic("$X")]).is_err());
    }
}
