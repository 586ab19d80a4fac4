//! The barrier core stays free of terminals, sockets and HTTP, and of the modules built on it
//! (STYLE.md): this test reads its sources and fails if any of them reaches for one.

use std::path::Path;

const FORBIDDEN: &[&str] = &[
    "ratatui",
    "crossterm",
    "reqwest",
    "tokio::net",
    "std::net",
    "os::unix::net",
    "UnixStream",
    "UnixListener",
    "TcpStream",
    // The modules that use the core; the core never uses them.
    "crate::tui",
    "crate::server",
    "crate::classifier",
    "crate::agents",
    "crate::config",
    "crate::console",
    "crate::headless",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_core_imports_no_terminal_socket_or_http_code_nor_the_modules_above_it() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut files = Vec::new();
    rust_files(&core, &mut files);
    assert!(files.len() > 5, "found the core's sources");
    let mut offences = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in FORBIDDEN {
                if code.contains(word) {
                    offences.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "the core must stay pure:\n{}",
        offences.join("\n")
    );
}

/// The core's own code: each source file up to its first `#[cfg(test)]` (the tests that follow
/// may name agents and tools), skipping `*_tests.rs` and `tests.rs`, with `//` comments cut off. The shell
/// analyser (`src/core/shell/`) is left out: its tables spell programs' own options
/// (`rg --glob`, `journalctl --cursor`), which share words with agents' tool names.
fn core_code() -> Vec<(std::path::PathBuf, usize, String)> {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut files = Vec::new();
    rust_files(&core, &mut files);
    let mut lines = Vec::new();
    for file in files {
        let test_file = file.to_string_lossy().ends_with("_tests.rs")
            || file.file_name().is_some_and(|name| name == "tests.rs");
        if test_file || file.starts_with(core.join("shell")) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            let code = line.split("//").next().unwrap_or("").to_string();
            lines.push((file.clone(), n + 1, code));
        }
    }
    lines
}

/// The core names no agent and no agent's tool: every agent's names and every tool name a
/// dialect in the registry knows (and its bookkeeping tools) belong in `src/agents/`.
#[test]
fn the_core_names_no_agent_and_no_agents_tool() {
    use gatehouse::agents::registry;
    let mut words: Vec<String> = Vec::new();
    for dialect in registry::all() {
        let names = dialect.names();
        // As a string and as an identifier: `"claude"`, `Claude`, `claude_`.
        for name in [names.cli, names.agent].iter().chain(names.aliases) {
            words.push(format!("\"{name}"));
        }
        words.push(names.display.split(' ').next().unwrap().to_string());
        for (tool, _) in dialect.tools() {
            words.push(format!("\"{tool}\""));
        }
        for tool in dialect.internal_tools() {
            words.push(format!("\"{tool}\""));
        }
    }
    // Words that are a tool's name somewhere but mean something else here.
    let not_tools: &[(&str, &str)] = &[
        // The classifier's one-word answer `writes`, read by its prefix.
        ("decision.rs", "\"write\""),
        // The rules files' `edit = "glob"` match, a key of gatehouse's own format.
        ("policy/file.rs", "\"edit\""),
        ("rule.rs", "\"edit\""),
    ];
    let mut offences = Vec::new();
    for (file, n, code) in core_code() {
        for word in &words {
            let excused = not_tools
                .iter()
                .any(|(name, w)| file.ends_with(name) && w == word);
            if code.contains(word.as_str()) && !excused {
                offences.push(format!("{}:{n}: {word} in {}", file.display(), code.trim()));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "the core must name no agent and no agent's tool (that is the dialects' job):\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_config_does_not_import_the_console() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/config.rs"))
        .unwrap();
    assert!(
        !text.contains("crate::tui"),
        "config reads settings, it draws nothing"
    );
}

/// The `crate::…` and `gatehouse::…` paths the code under `place` (a folder or a file of
/// `src/`) names that start with one of `forbidden`, comments left out.
fn imports_of(place: &str, forbidden: &[&str]) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join(place);
    let mut files = Vec::new();
    if path.is_dir() {
        rust_files(&path, &mut files);
    } else {
        files.push(path);
    }
    assert!(!files.is_empty(), "{place} has sources");
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for module in forbidden {
                let names = [format!("crate::{module}"), format!("gatehouse::{module}")];
                if names.iter().any(|name| code.contains(name.as_str())) {
                    found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    found
}

/// One door, one path: each side reaches the others only through the modules between them.
#[test]
fn each_part_imports_only_what_it_stands_on() {
    let rules: &[(&str, &[&str])] = &[
        // The server carries lines; nobody outside the console's wiring reaches into it.
        ("agents", &["server"]),
        ("cli/attach.rs", &["server"]),
        ("web", &["server", "tui"]),
        // The contract between the two ends knows no agent; neither does the classifier.
        ("wire", &["agents", "server"]),
        ("classifier", &["agents"]),
        // The core imports no ground module and nothing built on it.
        (
            "core",
            &[
                "plumbing", "config", "wire", "web", "wiring", "preview", "cli",
            ],
        ),
        ("preview", &["tui", "web"]),
    ];
    let mut offences = Vec::new();
    for (place, forbidden) in rules {
        offences.extend(imports_of(place, forbidden));
    }
    assert!(
        offences.is_empty(),
        "imports across the layout:\n{}",
        offences.join("\n")
    );
}
