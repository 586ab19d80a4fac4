//! Everyday programs that only read and print: listers of the system's state (util-linux,
//! procps), demanglers and symbolisers, small text tools, and the modern `ls`/`du`/`hexdump`
//! replacements agents reach for. Each was checked against its `--help` or manual for an
//! option that writes a file, runs a command or reaches the network; none has one, so they
//! read whatever their arguments. `pygmentize` is held to its stdout options.

use super::{Rule, Table, short_letters};
use crate::core::shell::programs::flags::{self, Spec};
use crate::core::shell::programs::{Judged, Judgement, Risk};
use crate::core::shell::words::Word;

/// A program that reads whatever its arguments.
const fn reads(
    program: &'static str,
    manual: &'static str,
    what: &'static str,
    examples: &'static [&'static str],
) -> Table {
    Table {
        program,
        manual,
        rule: Rule::Reads(what),
        reads: examples,
        refuses: &[],
    }
}

/// A pager: interactive, as `less` is.
const fn pager(program: &'static str, manual: &'static str) -> Table {
    Table {
        program,
        manual,
        rule: Rule::Interactive("pages through a compressed file"),
        reads: &[],
        refuses: &[],
    }
}

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    reads("lzcat", "xz(1), XZ Utils 5.4", "prints decompressed files", &["lzcat archive.lzma"]),
    reads("lzmainfo", "lzmainfo(1), XZ Utils 5.4", "describes .lzma files", &["lzmainfo a.lzma"]),
    reads("lzgrep", "xzgrep(1), XZ Utils 5.4", "searches compressed files", &["lzgrep -n error log.lzma"]),
    reads("lzegrep", "xzgrep(1), XZ Utils 5.4", "searches compressed files", &["lzegrep 'a|b' log.lzma"]),
    reads("lzfgrep", "xzgrep(1), XZ Utils 5.4", "searches compressed files", &["lzfgrep x log.lzma"]),
    reads("xzegrep", "xzgrep(1), XZ Utils 5.4", "searches compressed files", &["xzegrep 'a|b' log.xz"]),
    reads("xzfgrep", "xzgrep(1), XZ Utils 5.4", "searches compressed files", &["xzfgrep x log.xz"]),
    reads("c++filt", "c++filt(1), GNU binutils 2.40", "demangles symbol names", &["c++filt _ZN3foo3barEv", "nm app.o | c++filt"]),
    reads("addr2line", "addr2line(1), GNU binutils 2.40", "maps addresses to source lines", &["addr2line -e app 0x401000"]),
    reads("lslocks", "lslocks(8), util-linux 2.38", "lists file locks", &["lslocks", "lslocks -J"]),
    reads("lsipc", "lsipc(1), util-linux 2.38", "lists IPC facilities", &["lsipc"]),
    reads("lsns", "lsns(8), util-linux 2.38", "lists namespaces", &["lsns -t net"]),
    reads("lsmem", "lsmem(1), util-linux 2.38", "lists memory ranges", &["lsmem"]),
    reads("lsfd", "lsfd(1), util-linux 2.38", "lists open files", &["lsfd -p 1"]),
    reads("lsirq", "lsirq(1), util-linux 2.38", "lists interrupts", &["lsirq"]),
    reads("ipcs", "ipcs(1), util-linux 2.38", "lists IPC facilities", &["ipcs -m"]),
    reads("mountpoint", "mountpoint(1), util-linux 2.38", "tells whether a directory is a mount point", &["mountpoint /proc"]),
    reads("getopt", "getopt(1), util-linux 2.38", "parses options and prints them", &["getopt -o ab: -- -a -b x"]),
    reads("pwdx", "pwdx(1), procps-ng 4.0", "prints processes' working directories", &["pwdx 1"]),
    reads("pmap", "pmap(1), procps-ng 4.0", "prints a process's memory map", &["pmap 1"]),
    reads("pathchk", "pathchk(1), GNU coreutils 9.1", "checks file names", &["pathchk -p some/name"]),
    reads("pinky", "pinky(1), GNU coreutils 9.1", "prints user information", &["pinky -l root"]),
    reads("manpath", "manpath(1), man-db 2.11", "prints the manual search path", &["manpath"]),
    reads("getcap", "getcap(8), libcap 2.66", "prints file capabilities", &["getcap /usr/bin/ping"]),
    reads("json_pp", "json_pp(1), Perl 5.36", "pretty-prints JSON", &["json_pp < package.json"]),
    reads("readtags", "readtags(1), Universal Ctags 5.9", "looks names up in a tags file", &["readtags -t tags main"]),
    reads("gettext", "gettext(1), GNU gettext 0.21", "prints translated messages", &["gettext -s hello"]),
    reads("ngettext", "ngettext(1), GNU gettext 0.21", "prints translated messages", &["ngettext file files 2"]),
    reads("mcookie", "mcookie(1), util-linux 2.38", "prints a random cookie", &["mcookie"]),
    reads("hmac256", "hmac256(1), libgcrypt 1.10", "prints a keyed digest", &["hmac256 key file.bin"]),
    reads("eza", "eza(1), eza 0.18", "lists files", &["eza -la --git", "eza --tree src"]),
    reads("exa", "exa(1), exa 0.10", "lists files", &["exa -l"]),
    reads("lsd", "lsd(1), lsd 1.0", "lists files", &["lsd -la"]),
    reads("dust", "dust --help, du-dust 0.9", "sums disk use", &["dust -d 1"]),
    reads("duf", "duf --help, duf 0.8", "lists file systems' use", &["duf"]),
    reads("tokei", "tokei --help, tokei 12.1", "counts lines of code", &["tokei", "tokei -o json src"]),
    reads("hexyl", "hexyl(1), hexyl 0.14", "prints a hex dump", &["hexyl -n 64 app.bin"]),
    pager("zless", "zless(1), gzip 1.12"),
    pager("zmore", "zmore(1), gzip 1.12"),
    pager("bzless", "bzless(1), bzip2 1.0"),
    pager("bzmore", "bzmore(1), bzip2 1.0"),
    pager("xzless", "xzless(1), XZ Utils 5.4"),
    pager("xzmore", "xzmore(1), XZ Utils 5.4"),
    pager("lzless", "xzless(1), XZ Utils 5.4"),
    pager("lzmore", "xzmore(1), XZ Utils 5.4"),
    Table {
        program: "pygmentize",
        manual: "pygmentize(1), Pygments 2.14",
        rule: Rule::Judged(pygmentize),
        reads: &["pygmentize -g src/main.py", "pygmentize -l rust -f terminal256 src/main.rs", "pygmentize -L lexers", "pygmentize -S monokai -f html"],
        refuses: &["pygmentize -o out.html src/main.rs", "pygmentize -x -l lexer.py:Evil x", "pygmentize -O full,cssfile=style.css -f html x.py", "pygmentize -P cssfile=s.css x.py"],
    },
];

/// `-o` writes a file, `-x` loads a lexer or formatter from a Python file, and `-O`/`-P`
/// formatter options can write one (the html formatter's `cssfile`): all left off.
const PYGMENTIZE: Spec = Spec {
    short: "gsvLNCH",
    short_value: "lfSa",
    long: &["help", "json"],
    ..Spec::EMPTY
};

fn pygmentize(args: &[Word]) -> Judged {
    for letter in short_letters(args, "lfSaoOPF") {
        match letter {
            'o' => return Err(Judgement::writer("pygmentize -o: writes a file")),
            'x' => {
                return Err(Judgement::risk(
                    Risk::RunsCode,
                    "pygmentize -x: loads a lexer or formatter from a Python file",
                ));
            }
            _ => {}
        }
    }
    flags::parse(&PYGMENTIZE, args)?;
    Ok(Judgement::read_only("prints highlighted source"))
}
