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

#[test]
fn the_config_does_not_import_the_console() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/config.rs"))
        .unwrap();
    assert!(
        !text.contains("crate::tui"),
        "config reads settings, it draws nothing"
    );
}
