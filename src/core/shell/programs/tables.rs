//! Programs whose judgement does not depend on their arguments.
//!
//! Readers here have no option that writes, runs other code or reaches the network, so they
//! are read-only with any arguments, dynamic and globbed ones included (`cat *.md`, `ls $DIR`).
//! Writers, network tools, runners of project code and interactive programs are listed with
//! the reason a person should see.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::{Judgement, Risk};

/// Read-only whatever their arguments.
#[rustfmt::skip]
const READERS: &[&str] = &[
    "cat", "ls", "dir", "vdir", "echo", "head", "tail", "wc", "grep", "egrep", "fgrep", 
    "zcat", "bzcat", "xzcat", "zstdcat", "lz4cat", "stat", "cut", "tr", "nl",
    "rev", "tac", "dirname", "basename", "pwd", "true", "false", ":", "printenv", "id", "whoami",
    "groups", "uname", "arch", "nproc", "locale", "tty", "cal", "ncal", "factor", "seq", "yes",
    "expr", "bc", "numfmt", "sleep", "realpath", "readlink", "paste", "join", "comm",
    "column", "fold", "fmt", "expand", "unexpand", "od", "hexdump", "hd", "md5sum", "sha1sum",
    "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum",
    "cmp", "ps", "pgrep", "pidof", "pstree", "du", "df", "free", "uptime", "w", "who", "users",
    "lscpu", "lsblk", "lsusb", "lspci", "lsmod", "jq", 
    "readelf", "pdfinfo", "which", "whereis", "vmstat", "iostat", "mpstat",
    "logname", "hostid", "base32", "basenc", "look", "tsort", "pr", "colordiff", "wdiff", "getconf",
    "lsattr", "namei", "whatis", "apropos", "md5",
    "shasum", "sha1", "findmnt", "lastlog", "locate",
    "plocate", "zipinfo", "lsb_release",
];

/// Known writers and why.
#[rustfmt::skip]
const WRITERS: &[(&str, &str)] = &[
    ("rm", "removes files"), ("rmdir", "removes directories"), ("unlink", "removes a file"),
    ("mv", "moves files"), ("cp", "copies files"), ("touch", "creates or touches files"),
    ("mkdir", "creates directories"), ("chmod", "changes permissions"),
    ("chown", "changes ownership"), ("chgrp", "changes ownership"),
    ("chattr", "changes file attributes"), ("setfacl", "changes file permissions"),
    ("ln", "creates links"), ("link", "creates a link"),
    ("truncate", "truncates files"),
    ("shred", "destroys files"), ("install", "installs files"), ("mkfifo", "creates a pipe file"),
    ("mknod", "creates a device file"), ("split", "writes files"), ("csplit", "writes files"),
    ("sponge", "writes a file"), ("unix2dos", "rewrites files"), ("dos2unix", "rewrites files"),
    ("strip", "rewrites binaries"), ("rename", "renames files"),
    ("ar", "writes archives"), ("zip", "writes archives"), ("rar", "writes archives"), ("unrar", "extracts archives"),
    ("killall", "signals processes"), ("pkill", "signals processes"),
    ("reboot", "restarts the machine"), ("shutdown", "stops the machine"),
    ("poweroff", "stops the machine"), ("halt", "stops the machine"),
    ("umount", "unmounts file systems"),
    ("modprobe", "loads kernel modules"), ("insmod", "loads kernel modules"),
    ("rmmod", "unloads kernel modules"), ("ldconfig", "rebuilds the library cache"),
    ("passwd", "changes passwords"), ("chsh", "changes the login shell"),
    ("chfn", "changes account details"), ("useradd", "changes accounts"),
    ("userdel", "changes accounts"), ("usermod", "changes accounts"),
    ("groupadd", "changes accounts"), ("at", "schedules commands"), ("batch", "schedules commands"),
    ("launchctl", "changes services"), ("service", "changes services"),
    ("defaults", "changes preferences"),
    ("pbcopy", "writes the clipboard"), ("xclip", "writes the clipboard"),
    ("xsel", "writes the clipboard"), ("open", "opens files in other programs"),
    ("xdg-open", "opens files in other programs"),
    ("screen", "starts terminal sessions"), ("script", "records the terminal to a file"),
    ("ffmpeg", "writes media files"), ("convert", "writes images"), 
    ("apt-get", "installs packages"),  ("yum", "installs packages"),
    ("dnf", "installs packages"), ("pacman", "installs packages"), ("brew", "installs packages"),
    ("snap", "installs packages"), ("flatpak", "installs packages"),
    ("nix-env", "installs packages"),  ("swapoff", "changes swap"),
    ("mkfs", "formats disks"), ("fdisk", "partitions disks"), ("parted", "partitions disks"),
    ("wipefs", "wipes disks"), ("chroot", "runs a command in another root"),
];

#[rustfmt::skip]
const NETWORK: &[&str] = &[
    "curl", "wget", "ssh", "scp", "sftp", "dig", "host", "nslookup", "ping", "ping6", "traceroute",
    "tracepath", "mtr", "whois", "nc", "ncat", "netcat", "socat", "telnet", "ftp", "gh", "glab",
    "aws", "az", "gcloud", "gsutil", "kubectl", "helm", "terraform", "tofu", "pulumi", "sendmail",
    "mail", "mailx", "mutt", "http", "https", "nmap", "ldapsearch", "ntpdate", "rclone", "s3cmd",
    "doctl", "flyctl", "heroku", "vercel", "netlify", "wrangler", "ansible", "ansible-playbook",
    "vagrant", "packer", "nordvpn", "tailscale", "ollama",
];

#[rustfmt::skip]
const RUNNERS: &[&str] = &[
    "python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "deno", "bun", "ruby",
    "perl", "php", "lua", "luajit", "julia", "java", "javac", "kotlin", "kotlinc", "scala", "go",
    "rustc", "rustup", "gcc", "g++", "cc", "c++", "clang", "clang++", "make", "gmake",
    "cmake", "ninja", "meson", "bazel", "bazelisk", "buck", "gradle", "gradlew", "mvn", "ant",
    "sbt", "mix", "elixir", "iex", "erl", "rake", "bundle", "gem", "composer", "npm", "npx", "pnpm",
    "pnpx", "yarn", "pipx", "poetry", "uv", "uvx", "pdm", "hatch", "pytest", "tox",
    "nox", "mypy", "pyright", "ruff", "black", "flake8", "pylint", "isort", "eslint", "prettier",
    "tsc", "ts-node", "tsx", "jest", "vitest", "mocha", "jupyter", "ipython", "R", "Rscript",
    "swift", "swiftc", "zig", "stack", "cabal", "ghc", "ghci", "runghc", "dotnet", "pwsh",
    "powershell", "tclsh", "wish", "expect", "osascript", "mysql", "psql", "redis-cli",
    "mongo", "mongosh", "m4", "gdb", "lldb", "valgrind", "docker-compose", "nix",
    "nix-shell", "direnv", "asdf", "mise", "pre-commit", "golangci-lint", "clippy-driver",
    "rustfmt", "gofmt", "shellcheck", "hadolint", "ldd", "configure", "autoreconf", "automake",
    "autoconf", "libtool", "pkg-config", "conda", "mamba", "terraform-ls", "coverage", "hyperfine",
    "entr", "nodemon", "lein", "clojure", "clj", "ocaml", "dune", "opam", "racket", "guile", "sbcl",
    "nim", "crystal", "dart", "flutter", "v", "odin", "gleam", "elm", "purs", "spago", "idris2",
    "agda", "coqc", "lean", "lake",
];

#[rustfmt::skip]
const INTERACTIVE: &[&str] = &[
    "less", "more", "most", "pg", "man", "info", "vim", "vi", "nvim", "view", "vimdiff", "nano",
    "pico", "emacs", "emacsclient", "code", "subl", "fzf", "top", "htop", "btop", "atop", "tig",
    "lazygit", "ranger", "nnn", "mc", "visudo", "vipw", "ed", "ex", "sk", "gitk", "nmtui", "ncdu",
    "irb", "pry",
];

/// Which list first names a program: the lists are looked through in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Listed {
    Reader,
    Writer(&'static str),
    Network,
    Runner,
    Interactive,
}

/// Every listed program by name, so that a command's name is looked up once instead of
/// compared with each of the hundreds of names above.
static LISTED: LazyLock<HashMap<&'static str, Listed>> = LazyLock::new(|| {
    let readers = READERS.iter().map(|name| (*name, Listed::Reader));
    let writers = WRITERS
        .iter()
        .map(|(name, why)| (*name, Listed::Writer(why)));
    let network = NETWORK.iter().map(|name| (*name, Listed::Network));
    let runners = RUNNERS.iter().map(|name| (*name, Listed::Runner));
    let interactive = INTERACTIVE.iter().map(|name| (*name, Listed::Interactive));
    let mut listed = HashMap::new();
    let in_order = readers.chain(writers).chain(network).chain(runners);
    for (name, list) in in_order.chain(interactive) {
        listed.entry(name).or_insert(list);
    }
    listed
});

/// The judgement of a program that ignores its arguments, if it is one we list.
/// The simple list that holds `name`, by the name `explain` gives it.
pub(crate) fn list_of(name: &str) -> Option<&'static str> {
    LISTED.get(name).map(|listed| match listed {
        Listed::Reader => "readers",
        Listed::Writer(_) => "writers",
        Listed::Network => "network",
        Listed::Runner => "runners",
        Listed::Interactive => "interactive",
    })
}

pub(crate) fn simple(name: &str) -> Option<Judgement> {
    let runner = || Judgement::risk(Risk::RunsCode, "runs project code or a script");
    match LISTED.get(name) {
        Some(Listed::Reader) => Some(Judgement::read_only("reads only")),
        Some(Listed::Writer(why)) => Some(Judgement::writer(*why)),
        Some(Listed::Network) => Some(Judgement::risk(Risk::Network, "reaches the network")),
        Some(Listed::Runner) => Some(runner()),
        _ if name.starts_with("python3.") => Some(runner()),
        Some(Listed::Interactive) => {
            Some(Judgement::risk(Risk::Pager, "interactive program or pager"))
        }
        None => None,
    }
}

/// True for programs that are read-only whatever their arguments.
pub(crate) fn reads_whatever(name: &str) -> bool {
    LISTED.get(name) == Some(&Listed::Reader)
}

/// True for runtimes and build tools (used to accept `-V` as a version query).
pub(crate) fn is_runner(name: &str) -> bool {
    RUNNERS.contains(&name) || name.starts_with("python3.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::shell::{Safety, analyse};

    #[test]
    fn a_listed_program_is_looked_up_in_the_first_list_that_names_it() {
        fn first_list(name: &str) -> Option<Listed> {
            if READERS.contains(&name) {
                return Some(Listed::Reader);
            }
            if let Some((_, why)) = WRITERS.iter().find(|(writer, _)| *writer == name) {
                return Some(Listed::Writer(why));
            }
            if NETWORK.contains(&name) {
                return Some(Listed::Network);
            }
            if RUNNERS.contains(&name) {
                return Some(Listed::Runner);
            }
            INTERACTIVE.contains(&name).then_some(Listed::Interactive)
        }
        let writers = WRITERS.iter().map(|(name, _)| name);
        let names = READERS.iter().chain(writers).chain(NETWORK).chain(RUNNERS);
        for name in names.chain(INTERACTIVE) {
            assert_eq!(LISTED.get(name).copied(), first_list(name), "{name}");
        }
        assert_eq!(LISTED.get("no-such-program"), None);
    }

    /// Each listed program's own test: through the whole analyser, a reader given a file is
    /// read-only and every other listed program is not.
    #[test]
    fn every_listed_program_is_judged_by_its_list_through_the_whole_analyser() {
        let mut failures = Vec::new();
        for name in READERS {
            // `ps` takes letters, not files: `ps notes.txt` asks for the environment (`e`).
            let operand = if *name == "ps" { "aux" } else { "notes.txt" };
            let line = format!("{name} {operand}");
            let analysis = analyse(&line);
            if analysis.safety != Safety::ReadOnly {
                failures.push(format!("{line:?}: {}", analysis.explanation()));
            }
        }
        let writers = WRITERS.iter().map(|(name, _)| name);
        for name in writers.chain(NETWORK).chain(RUNNERS).chain(INTERACTIVE) {
            let line = format!("{name} notes.txt");
            let analysis = analyse(&line);
            if analysis.safety == Safety::ReadOnly {
                failures.push(format!("{line:?}: {}", analysis.explanation()));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
