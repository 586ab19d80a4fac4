//! Parsing a project's `.gatehouse.toml`, which a repository chooses: time per file at three
//! sizes, so a parse that grows faster than the file (as it once did, counting each entry's
//! line from the start: 96 s for 1.3 MB in a debug build) shows in the figures.

use std::path::Path;

use gatehouse::core::policy::file::parse_file;
use gatehouse::core::policy::{Layer, Trust};

fn main() {
    divan::main();
}

/// A project file of `entries` denied commands and as many `[[rule]]` tables.
fn big_policy(entries: usize) -> String {
    let mut text = String::from("denied_commands = [\n");
    for n in 0..entries {
        text.push_str(&format!("  \"tool-{n} --flag\",\n"));
    }
    text.push_str("]\n");
    for n in 0..entries {
        text.push_str(&format!(
            "[[rule]]\nid = \"r-{n}\"\nprefix = \"other-{n}\"\nverdict = \"deny\"\n"
        ));
    }
    text
}

#[divan::bench(args = [1_000, 4_000, 16_000])]
fn project_file(bencher: divan::Bencher, entries: usize) {
    let text = big_policy(entries);
    bencher
        .counter(divan::counter::BytesCount::new(text.len()))
        .bench(|| {
            let path = Path::new("/p/.gatehouse.toml");
            parse_file(&text, path, Layer::Project, Trust::Untrusted, &[]).unwrap()
        });
}
