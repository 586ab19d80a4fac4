//! A seeded generator of sed scripts for the sed oracle: well-formed scripts mixing every
//! construct of GNU sed 4.9, weighted to the lexically tricky ones (a delimiter inside a
//! bracket expression, labels followed by `;`, `a`/`i`/`c` text holding `;e id`, escaped and
//! regex-special delimiters, newlines, `}` placements, `#n`), and a "soup" of fragments that
//! makes mostly broken scripts.
//!
//! A script holds an `r` or `R`, or `w /dev/stdout`, only when it is made [`Reads::Files`]:
//! only then may sed's sandbox refuse a script our reader calls read-only, and the oracle
//! checks those by sed's `--debug` listing instead, which the generator keeps easy to read
//! (no `/` and no newline in their replacements, no text line starting with a blank).

/// A small deterministic generator (xorshift64*), so a seed always gives the same scripts.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Whether a script may hold commands that read files or write to sed's own streams.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    Files,
    Nothing,
}

/// One script: well-formed in most cases, a soup of fragments in a fifth of them.
pub fn script(rng: &mut Rng) -> (String, Reads) {
    if rng.chance(20) {
        return (soup(rng), Reads::Nothing);
    }
    let reads = if rng.chance(12) {
        Reads::Files
    } else {
        Reads::Nothing
    };
    let mut out = String::new();
    if rng.chance(5) {
        out.push_str("#n\n");
    }
    let count = 1 + rng.below(5);
    for n in 0..count {
        if n > 0 {
            out.push_str(rng.pick(&[";", "\n", " ; ", "\n\n", ";;", " "]));
        }
        command(rng, reads, &mut out, 0);
    }
    (out, reads)
}

fn command(rng: &mut Rng, reads: Reads, out: &mut String, depth: usize) {
    if rng.chance(45) {
        address(rng, out);
        if rng.chance(25) {
            out.push_str(rng.pick(&["!", " ! ", "!  "]));
        }
    }
    match rng.below(15) {
        0..=2 => substitute(rng, reads, out),
        3 => out.push_str(rng.pick(&[
            "p", "d", "=", "x", "G", "h", "N", "P", "z", "F", "l", "l 5", "q", "Q 3", "n", "D",
            "g", "H", "q5",
        ])),
        4 | 5 => out.push_str(rng.pick(&[
            ":a", ": lbl", "ba", "b", "t a", "Tlbl", "b lbl", ":a ", "ta ", ":x1", "b x1",
        ])),
        6 => out.push_str(rng.pick(&[
            "a foo",
            "a\\\nfoo;e id",
            "i\\text;w x",
            "c\\\nline1\\\ne id",
            "a foo\\\\",
            "a  }e id",
            "a;e id",
            "i\\",
            "a\\  w x",
            "c x}",
            "afoo#e",
        ])),
        7 => out.push_str(rng.pick(&["e", "e id", "w x", "W y", "e\tid"])),
        8 if reads == Reads::Files => out.push_str(rng.pick(&[
            "r x",
            "R notes",
            "r x;e id",
            "w /dev/stdout",
            "W /dev/stderr",
            "r x}",
        ])),
        9 if depth < 2 => {
            out.push_str(rng.pick(&["{", "{ ", "{\n"]));
            for n in 0..1 + rng.below(3) {
                if n > 0 {
                    out.push_str(rng.pick(&[";", "\n", " ; "]));
                }
                command(rng, reads, out, depth + 1);
            }
            out.push_str(rng.pick(&["}", ";}", "\n}", " }", "; } "]));
        }
        10 => out.push_str(rng.pick(&["# c;e id", "#n", "#w x"])),
        11 => out.push_str(rng.pick(&["v", "v 4.2", "y/abc/xyz/", "y|a\\|b|cde|", "y,a\\,,b,"])),
        _ => substitute(rng, reads, out),
    }
}

const DELIMITERS: &[&str] = &[
    "/", "/", "/", "|", ",", ":", ".", "[", "]", "^", "#", "x", " ", ";", "!", "{", "}", "e", "w",
    "*", "=", "-", "@", "&",
];

fn address(rng: &mut Rng, out: &mut String) {
    let delimiter = rng.pick(DELIMITERS);
    match rng.below(4) {
        0 => out.push_str(rng.pick(&[
            "1", "$", "2,4", "0~3", "1,+2", "3,~4", "0,/y/", "1 , 3", "5~", "2,$",
        ])),
        1 => {
            out.push('/');
            regex(rng, "/", out);
            out.push('/');
        }
        2 => {
            out.push('\\');
            out.push_str(delimiter);
            regex(rng, delimiter, out);
            out.push_str(delimiter);
        }
        _ => {
            out.push('/');
            regex(rng, "/", out);
            out.push_str(rng.pick(&["/I", "/M", "/ I", "/,/z/", "/,+1", "/IM,$"]));
        }
    }
}

fn substitute(rng: &mut Rng, reads: Reads, out: &mut String) {
    let delimiter = rng.pick(DELIMITERS);
    out.push('s');
    out.push_str(delimiter);
    regex(rng, delimiter, out);
    out.push_str(delimiter);
    let replacement = if reads == Reads::Files {
        rng.pick(&["X", "&", "", "a b", "\\1"]).to_string()
    } else {
        match rng.below(6) {
            0 => format!("a\\{delimiter}b"),
            1 => "a\\\nb".to_string(),
            2 => format!("[{delimiter}]"),
            _ => rng.pick(&["X", "&", "", "\\&", "\\n"]).to_string(),
        }
    };
    out.push_str(&replacement);
    out.push_str(delimiter);
    let mut flags = vec![
        "", "", "g", "p", "2", "I", "M", "e", "w x", " g", "pe", "gw z",
    ];
    if reads == Reads::Files {
        flags.extend(["gw /dev/stdout", "w /dev/stderr"]);
    }
    out.push_str(rng.pick(&flags));
}

/// A regular expression for `delimiter`, from pieces that trip a naive scan.
fn regex(rng: &mut Rng, delimiter: &str, out: &mut String) {
    for _ in 0..1 + rng.below(3) {
        let piece = match rng.below(12) {
            0 => format!("[{delimiter}]"),
            1 => format!("[]{delimiter}]"),
            2 => format!("[^{delimiter}]"),
            3 => format!("[[:alpha:]{delimiter}]"),
            4 => format!("\\{delimiter}"),
            5 => format!("[\\{delimiter}]"),
            6 => format!("[^]{delimiter}x]"),
            7 => "\\\n".to_string(),
            _ => rng
                .pick(&["x", "a.*", "[[:space:]]", "\\n", "^", "$", "[]]", "\\(y\\)"])
                .to_string(),
        };
        out.push_str(&piece);
    }
}

/// Fragments strung together at random: mostly scripts sed rejects.
fn soup(rng: &mut Rng) -> String {
    const FRAGMENTS: &[&str] = &[
        "[",
        "]",
        "/",
        "\\",
        ";",
        "\n",
        "}",
        "{",
        ":a",
        "b",
        "t",
        "e id",
        "w x",
        "s/",
        "s|",
        "a ",
        "i\\",
        "#",
        " ",
        "!",
        "I",
        "[:alpha:]",
        "^",
        "|",
        ",",
        "$",
        "1",
        "~",
        "+",
        "p",
        "y/",
        "x",
        "e",
        "w",
        "c",
        ":",
        "=",
        "q",
        "l",
        "\\n",
        "M",
        "0",
        "2",
        "{p}",
        "s/x/y/",
        "[^/]",
        "\\\n",
        "[[:",
        ":]",
        ".",
        "g",
        "T",
        "z",
    ];
    let mut out = String::new();
    for _ in 0..2 + rng.below(11) {
        out.push_str(rng.pick(FRAGMENTS));
    }
    out
}
