//! A seeded lexical fuzzer: bash lines that differ where parsers differ.
//!
//! The grammar fuzzer (`fuzz.rs`) aims at the programs' option tables; this one aims at the
//! layer below, where a parser can read a line differently from bash: every quoting and
//! escaping form in every position (words, here-document delimiters, substitutions one to three
//! deep, `$'…'` and `$"…"`), backquotes with their escaped backquotes, line continuations,
//! carriage returns and other control characters, comments in odd places, `<<-` and several here-documents on one line,
//! here-strings, brace and extglob words, `coproc`, `case` patterns, `[[ =~ ]]`, arithmetic
//! `for`, process substitution and descriptor forms. It also mutates the corpus's own lines:
//! quoting styles swapped, substitutions nested, continuations inserted. Most of what it makes
//! only reads, so that the structural oracle has many lines to compare with bash's reading.

use super::fuzz::Rng;

/// Read-only commands whose words may be anything.
const PRINTERS: &[&str] = &["echo", "printf '%s\\n'", "true", ":", "test -n", "echo -n"];

/// Read-only commands over the tripwire's files.
const READERS: &[&str] = &[
    "cat notes.txt",
    "ls",
    "wc -l notes.txt",
    "grep -n alpha notes.txt",
    "head -n 1 notes.txt",
    "sort notes.txt",
    "cut -d, -f1 data.csv",
    "tr a-z A-Z",
    "cat",
    "wc -c",
];

const PLAIN: &[&str] = &[
    "alpha",
    "notes.txt",
    "x",
    "-n",
    "a.b",
    "%s",
    "beta",
    "EOF",
    "}",
    "{",
    "#",
    "a#b",
    "!",
    "x=1",
    "--",
    "~",
    "~/x",
    "a,b",
    "then",
    "done",
    "fi",
    "esac",
    "in",
    "do",
];

/// Characters worth escaping or quoting inside a word.
const SPECIAL: &[&str] = &[
    ";", "&", "|", "(", ")", "<", ">", " ", "\t", "`", "$", "\"", "'", "\\", "#", "*", "?", "[",
    "]", "{", "}", "~", "!", "=", "\n",
];

/// Text inside backquotes: bash's backslashes before `\`, `` ` `` and `$` (and `"` inside
/// double quotes) added, so the body bash runs is `inner`.
fn backquote(inner: &str, in_double_quotes: bool, rng: &mut Rng) -> String {
    let mut out = String::from("`");
    for c in inner.chars() {
        match c {
            '\\' | '`' => {
                out.push('\\');
                out.push(c);
            }
            // Escaping `$` is optional outside a nested backquote: both spellings run the same.
            '$' if rng.chance(50) => out.push_str("\\$"),
            '"' if in_double_quotes => out.push_str("\\\""),
            _ => out.push(c),
        }
    }
    out.push('`');
    out
}

/// One word in one of the quoting forms.
fn word(rng: &mut Rng, depth: usize) -> String {
    let nested = depth < 3;
    match rng.below(22) {
        0..=3 => rng.pick(PLAIN).to_string(),
        4 => format!("'{}'", rng.pick(SPECIAL).replace('\'', "")),
        5 => format!("'a{}b'", rng.pick(SPECIAL).replace('\'', "'\\''")),
        6 => {
            let inner = rng.pick(SPECIAL);
            let inner = if matches!(inner, "\"" | "\\" | "$" | "`") {
                format!("\\{inner}")
            } else {
                inner.to_string()
            };
            format!("\"a{inner}b\"")
        }
        7 => format!(
            "$'{}'",
            rng.pick(&[
                "a\\x41", "\\101b", "\\u0041", "x\\ny", "\\'q", "\\\\", "\\e[0m", "\\t"
            ])
        ),
        8 => format!("$\"{}\"", rng.pick(PLAIN)),
        9 => format!("\\{}", rng.pick(SPECIAL).replace('\n', "n")),
        10 => format!("{}{}", word(rng, depth + 1), word(rng, depth + 1)),
        11 if nested => format!("$({})", inline(rng, depth + 1)),
        12 if nested => backquote(&inline(rng, depth + 1), false, rng),
        13 if nested => format!("\"a $({}) b\"", inline(rng, depth + 1)),
        14 if nested => format!("\"a {} b\"", backquote(&inline(rng, depth + 1), true, rng)),
        15 => rng
            .pick(&[
                "${HOME}",
                "${x:-a b}",
                "${#HOME}",
                "\"${HOME%/*}\"",
                "$HOME",
                "\"$@\"",
                "$#",
            ])
            .to_string(),
        16 => rng.pick(&["$((1 + 2))", "$((0x10))", "$[1+1]"]).to_string(),
        17 => rng
            .pick(&[
                "{a,b}",
                "{1..3}",
                "*.txt",
                "?ote*",
                "[n]otes.txt",
                "@(a|b)",
                "!(x)",
            ])
            .to_string(),
        18 if nested => format!("<({})", inline(rng, depth + 1)),
        19 => format!("\"{}\"", rng.pick(PLAIN)),
        20 => format!("'{}'", rng.pick(PLAIN)),
        _ => rng.pick(PLAIN).to_string(),
    }
}

/// Redirections that only read, discard or duplicate.
const REDIRECTS: &[&str] = &[
    "2>/dev/null",
    ">/dev/null",
    "< notes.txt",
    "2>&1",
    "<notes.txt 2>&1",
    "&>/dev/null",
    "3<notes.txt",
    "0<&-",
    ">&2",
    "2>&-",
    "{fd}<notes.txt",
    "3<&0",
    "4<&0-",
    "1>&2-",
    "2>>/dev/null",
    "&>>/dev/null",
    "9</dev/null 9<&-",
    "<&3 3<notes.txt",
    "2>/dev/null 1>&2",
    "0</dev/null",
];

/// One simple command on one line.
fn simple(rng: &mut Rng, depth: usize) -> String {
    let mut words = vec![if rng.chance(70) {
        rng.pick(PRINTERS).to_string()
    } else {
        rng.pick(READERS).to_string()
    }];
    for _ in 0..rng.below(4) {
        words.push(word(rng, depth));
    }
    if rng.chance(25) {
        words.push(rng.pick(REDIRECTS).to_string());
    }
    if rng.chance(10) {
        words.push(format!("<<< {}", word(rng, depth)));
    }
    let separator = if rng.chance(8) { " \\\n" } else { " " };
    words.join(separator)
}

/// A command line without here-documents, for substitutions and compounds.
fn inline(rng: &mut Rng, depth: usize) -> String {
    match rng.below(14) {
        0 => format!("{} | {}", simple(rng, depth), rng.pick(READERS)),
        1 => format!("{} && {}", simple(rng, depth), simple(rng, depth)),
        2 => format!("{}; {}", simple(rng, depth), simple(rng, depth)),
        3 => format!("( {} )", simple(rng, depth)),
        4 => format!("{{ {}; }}", simple(rng, depth)),
        5 => format!(
            "if {}; then {}; else {}; fi",
            simple(rng, depth),
            simple(rng, depth),
            simple(rng, depth)
        ),
        6 => format!(
            "for v in {} {}; do {}; done",
            word(rng, depth),
            word(rng, depth),
            simple(rng, depth)
        ),
        7 => format!(
            "case {} in {}|b) {};; *) {};; esac",
            word(rng, depth),
            rng.pick(&["a", "'x'", "\"$HOME\"", "@(x|y)", "[ab]*"]),
            simple(rng, depth),
            simple(rng, depth)
        ),
        8 => format!(
            "[[ {} =~ {} ]] || {}",
            word(rng, depth),
            rng.pick(&["^a", "a|b", "'x'", "(a)+", "\\$"]),
            simple(rng, depth)
        ),
        9 => format!(
            "for (( i = 0; i < 2; i++ )); do {}; done",
            simple(rng, depth)
        ),
        10 => format!(
            "{} # {}",
            simple(rng, depth),
            rng.pick(&["$(touch pwn)", "`touch pwn`", "'", "\"", "\\"])
        ),
        11 => format!("time {}", simple(rng, depth)),
        12 => format!("! {} || {}", simple(rng, depth), simple(rng, depth)),
        _ => simple(rng, depth),
    }
}

/// Delimiter words and the line bash ends their body at.
const DELIMITERS: &[(&str, &str)] = &[
    ("EOF", "EOF"),
    ("'EOF'", "EOF"),
    ("\"EOF\"", "EOF"),
    ("\\EOF", "EOF"),
    ("E\"O\"F", "EOF"),
    ("E'O'F", "EOF"),
    ("E\\OF", "EOF"),
    ("$'EOF'", "EOF"),
    ("$'E\\x4fF'", "EOF"),
    ("END_1", "END_1"),
    ("'a b'", "a b"),
];

/// A line with one or two here-documents, their bodies holding substitutions and lines that
/// look like their end.
fn heredocs(rng: &mut Rng) -> String {
    let count = 1 + rng.below(2);
    let mut header = Vec::new();
    let mut bodies = String::new();
    for _ in 0..count {
        let (delimiter, end) = DELIMITERS[rng.below(DELIMITERS.len())];
        let dash = rng.chance(30);
        header.push(format!("{}{delimiter}", if dash { "<<-" } else { "<<" }));
        let tab = if dash { "\t" } else { "" };
        for _ in 0..rng.below(3) {
            let line = match rng.below(7) {
                0 => format!("a $({}) b", inline(rng, 1)),
                1 => backquote(&inline(rng, 1), false, rng),
                2 => rng
                    .pick(&["EOF ", " EOF", "E\"O\"F", "EOF)", "'EOF'", "\\EOF"])
                    .to_string(),
                3 => "E\\\nOF".to_string(),
                4 => "$HOME ${x:-y} \\$ \\` '\"".to_string(),
                _ => word(rng, 1),
            };
            bodies.push_str(&format!("{tab}{line}\n"));
        }
        bodies.push_str(&format!("{tab}{end}\n"));
    }
    let command = rng
        .pick(READERS)
        .split(' ')
        .next()
        .unwrap_or("cat")
        .to_string();
    let tail = match rng.below(4) {
        0 => format!(" | {}", rng.pick(READERS)),
        1 => " >/dev/null".to_string(),
        2 => format!("; {}", simple(rng, 1)),
        _ => String::new(),
    };
    let after = if rng.chance(50) {
        format!("{}\n", simple(rng, 1))
    } else {
        String::new()
    };
    format!("{command} {}{tail}\n{bodies}{after}", header.join(" "))
        .trim_end_matches('\n')
        .to_string()
}

/// A corpus line changed in one of the ways lexers disagree on.
fn mutate(line: &str, rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => line.replacen(' ', " \\\n", 1 + rng.below(2)),
        1 => format!("echo \"$({line})\""),
        2 => format!("echo {}", backquote(line, false, rng)),
        3 => format!("echo \"{}\"", backquote(line, true, rng)),
        4 => line.replace('\'', "\""),
        _ => format!("{{ {line}\n}}"),
    }
}

/// `count` lines from `seed`, some of them mutations of `corpus`; the same arguments always
/// give the same lines.
pub fn lines(seed: u64, count: usize, corpus: &[String]) -> Vec<String> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| match rng.below(10) {
            0 | 1 => heredocs(&mut rng),
            2 if !corpus.is_empty() => {
                let line = &corpus[rng.below(corpus.len())];
                mutate(line, &mut rng)
            }
            3 => {
                let control = rng.pick(&["\r", "\u{1}", "\u{7f}", "\u{b}", "\u{c}", "\u{1b}[0m"]);
                format!("{}{control}", inline(&mut rng, 0))
            }
            4 => format!("coproc {}", simple(&mut rng, 0)),
            _ => inline(&mut rng, 0),
        })
        .collect()
}

#[test]
fn the_lexical_fuzzer_is_reproducible_and_varied() {
    let corpus = vec!["ls -la 'a b'".to_string()];
    let first = lines(7, 300, &corpus);
    assert_eq!(first, lines(7, 300, &corpus));
    let distinct: std::collections::HashSet<_> = first.iter().collect();
    assert!(
        distinct.len() > 250,
        "only {} distinct lines",
        distinct.len()
    );
    assert!(first.iter().any(|l| l.contains("<<-")));
    assert!(first.iter().any(|l| l.contains("\\`")));
}
