//! Viewers and probers coding agents run: `bat` with paging off, `pandoc` to standard output,
//! `ffprobe`, `mediainfo`, `exiftool` reading tags, `tcpdump -r` of a capture file, `busctl`
//! listings, the SSH agent's key list and `ssh-keygen` fingerprints and searches.

use super::flags::{self, Spec};
use super::hosts;
use super::{Judged, Judgement, Risk};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

/// Operands that are plain local files: static, and not a URL or `proto:` name.
fn local_files(name: &str, operands: &[Word]) -> Result<(), Judgement> {
    for operand in operands {
        let text = operand.literal_text().ok_or_else(|| {
            Judgement::dynamic(format!("{name} reads a file known only at run time"))
        })?;
        if text.contains("://") || text.split_once(':').is_some_and(|(p, _)| !p.contains('/')) {
            return Err(Judgement::risk(
                Risk::Network,
                format!("{name} may open {} as a URL or protocol", escape(text)),
            ));
        }
    }
    Ok(())
}

#[rustfmt::skip]
const BAT: Spec = Spec {
    short: "ApnfLdPusS",
    short_value: "lHrm",
    long: &[
        "show-all", "plain", "number", "force-colorization", "list-languages", "diff", "unbuffered",
        "squeeze-blank", "chop-long-lines", "list-themes", "no-config", "no-custom-assets",
    ],
    long_value: &[
        "language", "highlight-line", "line-range", "map-syntax", "file-name", "diff-context",
        "tabs", "wrap", "terminal-width", "color", "italic-text", "decorations", "paging", "theme",
        "style", "binary", "squeeze-limit", "nonprintable-notation", "strip-ansi",
    ],
    ..Spec::EMPTY
};

/// `bat` pages through `less` unless paging is off (`--paging=never`, `-P`, `-pp`).
pub(super) fn bat(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&BAT, args)?;
    let plain = parsed
        .opts
        .iter()
        .filter(|o| o.name == "-p" || o.name == "--plain")
        .count();
    let never = parsed.value(&["--paging"]).and_then(Word::literal_text) == Some("never");
    if !(never || plain >= 2 || parsed.has(&["-P"])) {
        return Err(Judgement::risk(
            Risk::Pager,
            format!("{name}: may run a pager"),
        ));
    }
    Ok(Judgement::read_only("prints highlighted files"))
}

#[rustfmt::skip]
const PANDOC: Spec = Spec {
    short: "sNp",
    short_value: "frtwVM",
    long: &[
        "standalone", "toc", "table-of-contents", "number-sections", "ascii", "strip-comments",
        "no-highlight", "preserve-tabs", "list-input-formats", "list-output-formats",
        "list-extensions", "list-highlight-languages", "list-highlight-styles", "sandbox",
        "html-q-tags", "section-divs", "reference-links", "quiet", "verbose", "fail-if-warnings",
    ],
    long_value: &[
        "from", "read", "to", "write", "wrap", "columns", "tab-stop", "eol", "variable",
        "metadata", "shift-heading-level-by", "toc-depth", "highlight-style", "markdown-headings",
        "reference-location", "top-level-division", "dpi", "track-changes",
    ],
    ..Spec::EMPTY
};

/// `pandoc` printing to standard output; filters, Lua readers and writers, output files and
/// fetched resources are not on the list.
pub(super) fn pandoc(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&PANDOC, args)?;
    for format in [
        "-f", "-r", "--from", "--read", "-t", "-w", "--to", "--write",
    ] {
        for opt in parsed.opts.iter().filter(|o| o.name == format) {
            let known = opt
                .value
                .as_ref()
                .and_then(Word::literal_text)
                .is_some_and(|v| {
                    !v.is_empty()
                        && v.chars()
                            .all(|c| c.is_ascii_alphanumeric() || "+-_".contains(c))
                        && !matches!(v.split(['+', '-']).next(), Some("pdf"))
                });
            if !known {
                return Err(Judgement::unverified(
                    "a format that is a script or needs an output file",
                ));
            }
        }
    }
    local_files("pandoc", &parsed.args)?;
    Ok(Judgement::read_only(
        "converts a document to standard output",
    ))
}

/// `ffprobe` spells options with one dash; these only choose what it prints.
#[rustfmt::skip]
const FFPROBE_FLAGS: &[&str] = &[
    "-hide_banner", "-show_format", "-show_streams", "-show_packets", "-show_frames",
    "-show_chapters", "-show_programs", "-show_error", "-show_data", "-show_private_data",
    "-count_frames", "-count_packets", "-pretty", "-sexagesimal", "-unit", "-prefix",
    "-byte_binary_prefix", "-bitexact", "-show_versions", "-show_program_version",
    "-show_library_versions", "-formats", "-codecs", "-decoders", "-demuxers", "-protocols",
];
const FFPROBE_VALUES: &[&str] = &[
    "-v",
    "-loglevel",
    "-of",
    "-print_format",
    "-output_format",
    "-show_entries",
    "-select_streams",
    "-read_intervals",
    "-i",
    "-f",
];

pub(super) fn ffprobe(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut files = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let text = word
            .literal_text()
            .ok_or_else(|| Judgement::dynamic("ffprobe: an argument known only at run time"))?;
        if FFPROBE_FLAGS.contains(&text) {
            continue;
        }
        if FFPROBE_VALUES.contains(&text) {
            let value = words
                .next()
                .ok_or_else(|| Judgement::unverified("ffprobe: missing value"))?;
            if text == "-i" {
                files.push(value.clone());
            }
            // The lavfi device reads a filter graph as its input, and filters can write files,
            // open sockets or load plugins (ffmpeg-filters(1): metadata, zmq, frei0r).
            if text == "-f" && value.literal_text().is_none_or(|format| format == "lavfi") {
                return Err(Judgement::risk(
                    Risk::RunsCode,
                    "ffprobe -f lavfi: runs a filter graph",
                ));
            }
            continue;
        }
        if text.starts_with('-') {
            return Err(flags::unknown(text));
        }
        files.push(word.clone());
    }
    local_files("ffprobe", &files)?;
    Ok(Judgement::read_only("probes media files"))
}

/// `mediainfo`: `--LogFile` writes and URLs reach the network.
pub(super) fn mediainfo(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut files = Vec::new();
    for word in args {
        let text = word.literal_text().unwrap_or("");
        let name = text.split('=').next().unwrap_or(text).to_ascii_lowercase();
        match name.as_str() {
            "-f" | "--full" | "--output" | "--language" | "--help" | "--version"
            | "--info-parameters" => {
                if text.to_ascii_lowercase().contains("file://") {
                    return Err(Judgement::unverified(
                        "mediainfo: output template from a file",
                    ));
                }
            }
            n if n.starts_with('-') => return Err(flags::unknown(text)),
            _ => files.push(word.clone()),
        }
    }
    local_files("mediainfo", &files)?;
    Ok(Judgement::read_only("reads media metadata"))
}

/// `exiftool` reads tags with these; `-TAG=`, `-o`, `-if`, `-p` and argument files are not.
#[rustfmt::skip]
const EXIFTOOL_FLAGS: &[&str] = &[
    "-a", "-s", "-S", "-G", "-g", "-j", "-json", "-n", "-l", "-e", "-u", "-U", "-H", "-X",
    "-csv", "-short", "-groupNames", "-ver", "-q", "-m", "-t", "-T", "-D", "-r", "-fast",
    "-fast2", "-s2", "-s3", "-G0", "-G1", "-g0", "-g1", "-list", "-listw", "-listf",
];

pub(super) fn exiftool(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut files = Vec::new();
    for word in args {
        let text = word
            .literal_text()
            .ok_or_else(|| Judgement::dynamic("exiftool: an argument known only at run time"))?;
        if EXIFTOOL_FLAGS.contains(&text) {
            continue;
        }
        if text.starts_with('-') {
            return Err(flags::unknown(text));
        }
        files.push(word.clone());
    }
    local_files("exiftool", &files)?;
    Ok(Judgement::read_only("reads file metadata"))
}

const TCPDUMP: Spec = Spec {
    short: "nNvqeStxXAKlUp#",
    short_value: "rcsFTy",
    long: &["number"],
    ..Spec::EMPTY
};

/// `tcpdump -r FILE -n` reads a capture file; without `-n` it looks names up in DNS, and
/// without `-r` it captures from an interface.
pub(super) fn tcpdump(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&TCPDUMP, args)?;
    let Some(file) = parsed.value(&["-r"]) else {
        return Err(Judgement::risk(
            Risk::Network,
            "tcpdump: captures from an interface",
        ));
    };
    local_files("tcpdump", std::slice::from_ref(file))?;
    if !parsed.has(&["-n"]) {
        return Err(Judgement::risk(
            Risk::Network,
            "tcpdump without -n: looks addresses up in DNS",
        ));
    }
    if parsed.args.iter().any(|a| !a.is_static) {
        return Err(Judgement::dynamic(
            "tcpdump: a filter known only at run time",
        ));
    }
    if parsed.has(&["-F"]) {
        return Err(Judgement::risk(
            Risk::Network,
            "tcpdump -F: the filter file may name hosts, looked up in DNS",
        ));
    }
    let filter: Vec<&str> = parsed.args.iter().map(|a| a.text.as_str()).collect();
    if let Some(host) = hosts::pcap_host(&filter.join(" ")) {
        return Err(Judgement::risk(
            Risk::Network,
            format!("tcpdump filter {}: looks the host up in DNS", escape(host)),
        ));
    }
    Ok(Judgement::read_only("reads a capture file"))
}

#[rustfmt::skip]
const BUSCTL: Spec = Spec {
    short: "lqj",
    long: &[
        "no-pager", "user", "system", "full", "acquired", "activatable", "unique",
        "show-machine", "no-legend", "verbose", "quiet", "list",
    ],
    long_optional: &["json"],
    ..Spec::EMPTY
};

/// `busctl list` and `busctl status` read the bus; other verbs call or watch services.
pub(super) fn busctl(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&BUSCTL, args)?;
    match parsed.args.first().and_then(Word::literal_text) {
        None | Some("list") => Ok(Judgement::read_only("lists bus peers")),
        Some("status") if parsed.args.len() <= 2 => Ok(Judgement::read_only("shows a bus peer")),
        Some(verb) => Err(Judgement::unverified(format!(
            "busctl {}: calls or watches services",
            escape(verb)
        ))),
    }
}

const SSH_ADD: Spec = Spec {
    short: "lLvq",
    short_value: "E",
    ..Spec::EMPTY
};

/// `ssh-add -l` and `-L` list the agent's keys; everything else changes them.
pub(super) fn ssh_add(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed =
        flags::parse(&SSH_ADD, args).map_err(|_| Judgement::writer("changes the agent's keys"))?;
    if !parsed.has(&["-l", "-L"]) || !parsed.args.is_empty() {
        return Err(Judgement::writer("changes the agent's keys"));
    }
    Ok(Judgement::read_only("lists the agent's keys"))
}

const SSH_KEYGEN: Spec = Spec {
    short: "lvq",
    short_value: "FfE",
    ..Spec::EMPTY
};

/// `ssh-keygen -l` fingerprints and `-F host` searches known keys; every other mode writes.
pub(super) fn ssh_keygen(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&SSH_KEYGEN, args).map_err(|_| Judgement::writer("writes keys"))?;
    if !parsed.has(&["-l", "-F"]) || !parsed.args.is_empty() {
        return Err(Judgement::writer("writes keys"));
    }
    Ok(Judgement::read_only("fingerprints or searches known keys"))
}
