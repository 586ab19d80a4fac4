//! A seeded, reproducible grammar fuzzer of bash lines aimed at the analyser's flag tables.
//!
//! It combines the programs the analyser has tables for with their options in every spelling
//! the program's own parser accepts (unambiguous long-option prefixes, `--opt=v` and
//! `--opt v`, attached short values, bundles, and glob or brace forms that expand into
//! options), operands that are files named like options or a second, output operand,
//! redirections (descriptor numbers, `/dev` paths, `<>`, duplications, `exec`) and
//! expansions that run code (array subscripts in every arithmetic context, substring offsets,
//! indirection, substitutions). Most lines it makes are not read-only; the oracle executes
//! the ones the analyser calls read-only.

/// A small deterministic generator (xorshift64*), so a seed always gives the same lines.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// One program: its name, flags without values, options with a value, and operands.
struct Program {
    name: &'static str,
    flags: &'static [&'static str],
    valued: &'static [&'static str],
    operands: &'static [&'static str],
}

/// Operands that are files of the tripwire, files named like options, globs and devices.
const FILES: &[&str] = &[
    "notes.txt",
    "data.csv",
    "README.md",
    "x",
    "-o",
    "-i",
    "--index-file=x",
    "-delete",
    "--output=x",
    "*",
    "*.txt",
    "-*",
    "[-]*",
    "{notes.txt,x}",
    "$HOME/.bashrc",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/fd/1",
    "/etc/hostname",
    "src",
    ".",
    "-",
    "~/.profile",
    "/dev/null",
];

#[rustfmt::skip]
const PROGRAMS: &[Program] = &[
    Program { name: "sort", flags: &["-r", "-n", "-u", "-f", "--reverse", "--unique", "--debug", "-m", "-c"],
        valued: &["-o", "--output", "-k", "-t", "--field-separator", "-T", "--temporary-directory", "--compress-program", "--files0-from", "-S", "--random-source"],
        operands: FILES },
    Program { name: "uniq", flags: &["-c", "-d", "-u", "-i", "--count"], valued: &["-f", "-s", "-w", "--skip-fields"], operands: FILES },
    Program { name: "base64", flags: &["-d", "-i", "--decode"], valued: &["-w", "--wrap"], operands: FILES },
    Program { name: "xxd", flags: &["-r", "-p", "-u", "-i"], valued: &["-c", "-l", "-s", "-g", "-o"], operands: FILES },
    Program { name: "shuf", flags: &["-e", "-r", "-z"], valued: &["-n", "-o", "--output", "-i", "--random-source", "--head-count"], operands: FILES },
    Program { name: "tee", flags: &["-a", "-i", "-p", "--append"], valued: &["--output-error"], operands: FILES },
    Program { name: "tree", flags: &["-a", "-d", "-f", "-L2", "--noreport", "-J", "-X"], valued: &["-o", "-L", "-I", "-P", "--filelimit", "--fromfile"], operands: FILES },
    Program { name: "file", flags: &["-b", "-i", "-L", "-z", "--mime", "-C"], valued: &["-m", "-f", "-F", "--magic-file", "-e"], operands: FILES },
    Program { name: "iconv", flags: &["-l", "-c", "-s"], valued: &["-f", "-t", "-o", "--output", "--from-code", "--to-code"], operands: FILES },
    Program { name: "head", flags: &["-q", "-v", "-5", "--quiet"], valued: &["-n", "-c", "--lines", "--bytes"], operands: FILES },
    Program { name: "tail", flags: &["-q", "-v", "-f", "--retry"], valued: &["-n", "-c", "--lines", "--pid", "-s"], operands: FILES },
    Program { name: "cat", flags: &["-n", "-A", "-v", "-s", "-b"], valued: &[], operands: FILES },
    Program { name: "grep", flags: &["-r", "-n", "-i", "-l", "-c", "-v", "-E", "-F", "-o", "--color=never"], valued: &["-e", "-f", "-m", "-A", "-B", "-C", "--include", "--exclude", "--regexp", "--file"], operands: &["beta", "-e", "alpha", "notes.txt", "*", "-r", "."] },
    Program { name: "rg", flags: &["-n", "-i", "-l", "--files", "--hidden", "-uu", "-z", "--search-zip", "--no-config"], valued: &["--pre", "--pre-glob", "-e", "-g", "--glob", "-t", "--type-add", "-f", "--ignore-file", "--replace"], operands: &["beta", "notes.txt", ".", "*", "-z"] },
    Program { name: "sed", flags: &["-n", "-E", "-r", "-s", "-u", "-z", "--posix", "--debug", "--sandbox"], valued: &["-e", "-f", "-i", "--in-place", "--expression", "-l", "--file"], operands: &["1p", "s/a/b/", "s/a/b/w out", "1w out", "1e id", "'s/a/b/e'", "notes.txt", "*", "p", "r notes.txt", "=", "W out"] },
    Program { name: "awk", flags: &["--posix", "-S", "--sandbox", "--lint"], valued: &["-F", "-v", "-f", "-e", "--file", "-i", "-l"], operands: &["'{print}'", "'{print > \"out\"}'", "'BEGIN{system(\"id\")}'", "'{print | \"sh\"}'", "'{print $1}'", "notes.txt", "*", "'BEGIN{getline < \"notes.txt\"; print}'", "'BEGIN { \"id\" | getline x }'"] },
    Program { name: "find", flags: &["-print", "-ls", "-print0", "-L", "-H", "-depth", "-empty"], valued: &["-name", "-type", "-maxdepth", "-newer", "-exec", "-execdir", "-ok", "-fprint", "-fls", "-fprintf", "-delete", "-printf", "-path", "-regex"], operands: &[".", "src", "*", "-o", "-delete", "{}", "';'", "+", "-exec", "\\;"] },
    Program { name: "git", flags: &["--no-pager", "-p", "--paginate", "--bare", "-P"], valued: &["-C", "-c", "--git-dir", "--work-tree", "--exec-path", "--namespace", "--config-env"],
        operands: &["status", "log", "diff", "show", "branch", "tag", "config", "clean", "-fn", "-nf", "-ffdx", "-dn", "remote", "stash", "blame", "ls-files", "rev-parse", "describe", "shortlog", "grep", "cat-file", "for-each-ref", "reflog", "notes", "worktree", "submodule", "--output=x", "-o", "--output", "-n5", "-l", "--list", "user.name", "x", "-v", "show", "--get", "--add", "--unset", "--global", "--file", "-f", "--local", "--ext-diff", "--textconv", "-O", "--open-files-in-pager", "--orderfile=x", "-Ox", "--no-index", "HEAD", "v1", "-d", "-D", "-m", "-M", "--set-upstream-to", "-u", "origin", "-a", "--stat", "--format=%s", "--pretty=format:%H", "--index-file=x", "--contains", "--delete", "--edit", "--rename", "list", "drop", "pop", "clear", "prune", "get-url", "set-url", "add", "--exec", "--upload-pack=id", "--", "notes.txt", "*", "--oneline", "-1", "--follow", "-S", "-G", "--output-directory", "--name-only", "--word-diff", "-x"] },
    Program { name: "tar", flags: &["-t", "-x", "-c", "-v", "-z", "-O", "--to-stdout", "-tf", "-xOf", "-tvf", "-cf", "--list", "--force-local", "-k", "--keep-old-files"], valued: &["-f", "--file", "-C", "-I", "--use-compress-program", "--to-command", "--checkpoint-action", "--rsh-command", "--index-file", "-T", "--files-from", "-X", "--exclude-from", "--info-script", "-F", "--new-volume-script"], operands: &["host:x", "a.tar", "-", "x", "notes.txt", "*", "exec=id", "/dev/stdout", "--wildcards"] },
    Program { name: "date", flags: &["-u", "-R", "-I", "--utc", "--rfc-3339=date", "+%Y-%m-%d", "+%s"], valued: &["-d", "--date", "-s", "--set", "-f", "--file", "-r", "--reference"], operands: &["+%F", "now", "x", "notes.txt", "'2020-01-01'", "+%Y%m%d%H%M"] },
    Program { name: "dd", flags: &["status=none", "count=1", "bs=1", "skip=1", "iflag=fullblock", "conv=notrunc", "oflag=append"], valued: &[], operands: &["if=notes.txt", "of=x", "of=/dev/stdout", "of=/dev/null", "if=/dev/zero", "of=-o", "if=/dev/tcp/127.0.0.1/80", "of=/dev/fd/1"] },
    Program { name: "kill", flags: &["-0", "-l", "-s", "-9", "-L", "-n"], valued: &[], operands: &["$$", "1", "0", "-1", "HUP", "0", "%1"] },
    Program { name: "ls", flags: &["-la", "-R", "-1", "--color=never", "-d", "--hyperlink", "-Z"], valued: &["-I", "--ignore", "-w", "--format", "--sort", "--time-style"], operands: FILES },
    Program { name: "echo", flags: &["-n", "-e", "-E"], valued: &[], operands: FILES },
    Program { name: "printf", flags: &[], valued: &["-v"], operands: &["'%s\\n'", "x", "a[$(touch pwn)]", "'%(%F)T'", "'%q'", "notes.txt", "'a[$(id)]'"] },
    Program { name: "jq", flags: &["-r", "-c", "-n", "-s", "--raw-output", "-e"], valued: &["--arg", "--rawfile", "--slurpfile", "-f", "--from-file", "-L", "--indent"], operands: &[".", "'.a'", "sample.json", "'input_filename'", "'$__loc__'", "*", "x", "'env'"] },
    Program { name: "diff", flags: &["-u", "-r", "-q", "-N", "--color=never", "-y"], valued: &["--from-file", "--to-file", "-x", "-X", "--exclude-from", "-I", "-F"], operands: FILES },
    Program { name: "od", flags: &["-c", "-x", "-An", "-tx1"], valued: &["-N", "-j", "-w", "-t"], operands: FILES },
    Program { name: "cut", flags: &["-s", "--complement"], valued: &["-d", "-f", "-c", "-b", "--output-delimiter"], operands: FILES },
    Program { name: "wc", flags: &["-l", "-c", "-w", "-L"], valued: &["--files0-from"], operands: FILES },
    Program { name: "stat", flags: &["-L", "-t", "-f"], valued: &["-c", "--format", "--printf"], operands: FILES },
    Program { name: "env", flags: &["-i", "-0", "-v", "--debug"], valued: &["-u", "-C", "-S", "--split-string", "--chdir", "--unset"], operands: &["ls", "cat", "x=1", "notes.txt", "sh", "-c", "id", "PATH=.", "BASH_ENV=x"] },
    Program { name: "xargs", flags: &["-0", "-r", "-t", "-x", "--null", "-o"], valued: &["-n", "-I", "-a", "-d", "-P", "-L", "--arg-file", "-E", "-s"], operands: &["echo", "cat", "ls", "rm", "grep", "notes.txt", "sh", "-c", "sed", "-i"] },
    Program { name: "timeout", flags: &["-k1", "--foreground", "-v", "--preserve-status"], valued: &["-s", "--signal", "-k", "--kill-after"], operands: &["1", "5", "ls", "cat", "notes.txt", "sh", "-c", "id"] },
    Program { name: "ip", flags: &["-4", "-6", "-s", "-j", "-d", "-br", "-c", "-o", "-n", "-N", "-b", "-batch", "-force"], valued: &["-n", "-netns", "-b", "-batch", "-f", "-family"], operands: &["a", "addr", "address", "r", "route", "l", "link", "n", "neigh", "show", "list", "ls", "add", "del", "flush", "set", "dev", "lo", "up", "down", "monitor", "netns", "exec", "id", "rule", "help", "lis", "sh", "fl", "f"] },
    Program { name: "hostname", flags: &["-f", "-s", "-i", "-I", "-d", "-A", "-b", "--fqdn", "--short"], valued: &["-F", "--file"], operands: &["x", "oracle", "notes.txt", "-F"] },
    Program { name: "uname", flags: &["-a", "-r", "-m", "-s", "-n"], valued: &[], operands: &[] },
    Program { name: "ps", flags: &["aux", "-ef", "-e", "-o", "pid,cmd", "--forest", "-H", "axjf"], valued: &["-p", "-u", "-C"], operands: &["1", "$$"] },
    Program { name: "readlink", flags: &["-f", "-e", "-m", "-n"], valued: &[], operands: FILES },
    Program { name: "test", flags: &["-e", "-f", "-d", "-v", "-n", "-z", "-r", "-w"], valued: &[], operands: &["notes.txt", "'a[$(touch pwn)]'", "x", "-eq", "1", "'a[$(id)]'", "=", "-gt", "'1+a[$(touch pwn)]'", "'x'"] },
    Program { name: "cmp", flags: &["-s", "-l", "-b", "--verbose"], valued: &["-i", "-n", "--ignore-initial"], operands: FILES },
    Program { name: "tr", flags: &["-d", "-s", "-c"], valued: &[], operands: &["a", "b", "'a-z'", "'A-Z'", "-o", "x"] },
    Program { name: "nl", flags: &["-ba", "-p"], valued: &["-s", "-w", "-v", "-i"], operands: FILES },
    Program { name: "du", flags: &["-sh", "-a", "-c", "--apparent-size", "-x", "-0"], valued: &["-d", "--max-depth", "--files0-from", "-X", "--exclude-from", "--exclude", "-t"], operands: FILES },
    Program { name: "df", flags: &["-h", "-T", "-i", "--total", "-l"], valued: &["-t", "-x", "--output"], operands: &[".", "/", "x"] },
    Program { name: "md5sum", flags: &["-c", "-b", "--tag", "--quiet", "--strict"], valued: &[], operands: FILES },
    Program { name: "iptables", flags: &["-L", "-n", "-v", "-S", "-x", "--line-numbers", "--line", "-nvL", "-vnL", "-F", "-Z", "-X", "-nL", "--list", "--numeric"], valued: &["-t", "--table", "-A", "-D", "-I", "-P", "-N", "--modprobe", "-w", "-j"], operands: &["INPUT", "filter", "nat", "DROP", "ACCEPT", "-L", "-F"] },
    Program { name: "nft", flags: &["-a", "-j", "-n", "-s", "-t", "-c", "--check", "--handle"], valued: &["-f", "--file", "-I", "--includepath"], operands: &["list", "ruleset", "tables", "flush", "add", "table", "inet", "t", "delete", "x", "-f"] },
    Program { name: "dpkg", flags: &["-l", "-L", "-s", "-S", "-p", "--get-selections", "--list", "--status", "--audit", "-C", "-i", "-r", "-P", "--configure", "-a"], valued: &["--admindir", "--root", "--log", "--set-selections", "-R", "--instdir"], operands: &["bash", "x.deb", "x", "*", "-i"] },
    Program { name: "apt", flags: &["list", "--installed", "--upgradable", "show", "search", "policy", "install", "remove", "update", "-y", "-q", "--all-versions"], valued: &["-o", "-c", "-t"], operands: &["bash", "x", "APT::Update::Pre-Invoke::=touch\\ pwn", "Dir::Cache=x"] },
    Program { name: "pip", flags: &["list", "freeze", "show", "-v", "--user", "--outdated", "-o", "--format=freeze", "--disable-pip-version-check", "--no-input", "install", "download", "check"], valued: &["--log", "--cache-dir", "--path", "-r", "--requirement", "--index-url", "-i", "--format"], operands: &["pip", "x", "notes.txt", "-r"] },
    Program { name: "npm", flags: &["ls", "list", "--depth=0", "-g", "--all", "--json", "--long", "--parseable", "install", "run", "exec", "view", "outdated", "--offline"], valued: &["--prefix", "--logs-dir", "--cache", "--userconfig", "--depth", "--loglevel"], operands: &["x", ".", "test", "-g"] },
    Program { name: "tmux", flags: &["ls", "list-sessions", "list-windows", "list-panes", "capture-pane", "-p", "-a", "kill-server", "new", "-d", "source-file", "run-shell", "pipe-pane", "show-options", "-g", "display", "list-keys"], valued: &["-S", "-L", "-f", "-t", "-F", "-b"], operands: &["x", "'touch pwn'", "status", "off", "-p"] },
    Program { name: "ssh-keygen", flags: &["-l", "-L", "-H", "-y", "-lf", "-E", "-v", "-q"], valued: &["-f", "-F", "-R", "-E", "-N", "-t", "-C", "-Y", "-n", "-s", "-I"], operands: &["~/.ssh/known_hosts", "example.invalid", "sha256", "x", "-f"] },
    Program { name: "ssh-add", flags: &["-l", "-L", "-D", "-d", "-x", "-X", "-e", "-s", "-k", "-q", "-v", "-c"], valued: &["-E", "-t", "-T", "-H", "-h", "-S"], operands: &["x", "~/.ssh/known_hosts", "sha256"] },
    Program { name: "update-alternatives", flags: &["--display", "--query", "--list", "--get-selections", "--set", "--auto", "--remove", "--install", "--config", "--all", "--skip-auto", "--verbose", "--quiet"], valued: &["--altdir", "--admindir", "--log", "--root"], operands: &["editor", "/bin/ed", "x", "/usr/bin/editor", "1"] },
    Program { name: "busctl", flags: &["list", "tree", "status", "introspect", "call", "emit", "set-property", "monitor", "capture", "--no-pager", "--user", "--system", "-l", "--json=short"], valued: &["--address", "-H", "-M", "--host", "--machine"], operands: &["org.freedesktop.DBus", "/", "x", "y"] },
    Program { name: "lsof", flags: &["-n", "-P", "-i", "-nP", "-w", "-t", "-U", "+D"], valued: &["-p", "-c", "-u", "-a", "-s", "-F", "-i"], operands: &[":22", ":8080", "notes.txt", ".", "tcp", "-i"] },
    Program { name: "fuser", flags: &["-v", "-m", "-n", "-a", "-k", "-i", "-4", "-6", "-s", "-u", "-M"], valued: &["-n", "-SIGNAL"], operands: &["notes.txt", ".", "22/tcp", "8080/tcp", "tcp", "53/udp", "-k"] },
    Program { name: "lsb_release", flags: &["-a", "-d", "-c", "-r", "-i", "-s", "--all", "--short"], valued: &[], operands: &["x"] },
    Program { name: "realpath", flags: &["-e", "-m", "-s", "-q", "--relative-to=."], valued: &["--relative-to", "--relative-base"], operands: FILES },
];

/// Redirections; most are harmless only while the descriptor table says so.
const REDIRECTS: &[&str] = &[
    "> /dev/null",
    "2>&1",
    "2>/dev/null",
    "< notes.txt",
    ">/dev/stdout",
    "1<notes.txt",
    "1<notes.txt >/dev/stdout",
    "0<>x",
    "<>notes.txt",
    "1<>x",
    "2<>x 2>/dev/stderr",
    ">&2",
    "2>/dev/stderr",
    "3<>/dev/tcp/127.0.0.1/80",
    "< /dev/tcp/127.0.0.1/22",
    "9>&1",
    "1>&-",
    "<&0",
    ">| /dev/null",
    "&>/dev/null",
    "> /dev/fd/2",
    "2<notes.txt 2>/dev/fd/2",
    "<<<x",
    "<<< $((a[$(touch pwn)]))",
    "< /dev/udp/127.0.0.1/53",
    "3>&1 1<x 1>&3",
    ">/dev/tty",
    "1<>/dev/stdout",
    "4<x >/dev/fd/4",
    "0</dev/null",
];

/// Whole lines or fragments that put code where bash evaluates arithmetic or expansions.
const EXPANSIONS: &[&str] = &[
    "echo $(( 1 + 2 ))",
    "echo $(( a[$(touch pwn)] ))",
    "x='a[$(touch pwn)]'; echo $(( x ))",
    "x='a[$(touch pwn)]'; (( x ))",
    "x='a[$(touch pwn)]'; let x",
    "x='a[$(touch pwn)]'; [[ $x -eq 0 ]]",
    "x='a[$(touch pwn)]'; [[ x -eq 0 ]]",
    "x='a[$(touch pwn)]'; test -v \"$x\"",
    "test -v 'a[$(touch pwn)]'",
    "[ -v 'a[$(touch pwn)]' ]",
    "declare -i n='a[$(touch pwn)]'",
    "local -i n=1",
    "x='a[$(touch pwn)]'; declare -i n=x",
    "s=abc; echo ${s:$(touch pwn)}",
    "s=abc; o='a[$(touch pwn)]'; echo ${s:o}",
    "s=abc; echo ${s:1:2}",
    "s=abc; o='a[$(touch pwn)]'; echo ${s:0:o}",
    "r='a[$(touch pwn)]'; echo ${!r}",
    "r=HOME; echo ${!r}",
    "x='a[$(touch pwn)]'; for (( i=x; i<1; i++ )); do :; done",
    "for (( i=0; i<2; i++ )); do echo $i; done",
    "a=(1 2); echo ${a[$(touch pwn)]}",
    "a=(1 2); i='$(touch pwn)'; echo ${a[i]}",
    "a=(1 2); echo ${a[1]}",
    "a=(1 2); x='a[$(touch pwn)]'; echo ${a[x]}",
    "echo $[ a[$(touch pwn)] ]",
    "x='a[$(touch pwn)]'; echo $(( x + 1 ))",
    "x=1; y=x; echo $(( y ))",
    "x='a[$(touch pwn)]'; printf '%d' \"$x\"",
    "x='a[$(touch pwn)]'; printf -v 'a[$(touch pwn)]' %s x",
    "read -r 'a[$(touch pwn)]' <<< x",
    "x='a[$(touch pwn)]'; echo ${x@P}",
    "x='$(touch pwn)'; echo ${x@P}",
    "x='$(touch pwn)'; eval echo $x",
    "shopt -s extglob; echo ${x//+(a)/b}",
    "x='a[$(touch pwn)]'; case $((x)) in *) ;; esac",
    "x='a[$(touch pwn)]'; echo ${#a[x]}",
    "x='a[$(touch pwn)]'; unset \"$x\"",
    "x='a[$(touch pwn)]'; [[ -v $x ]]",
    "x='a[$(touch pwn)]'; echo ${x:+y}",
    "export -n 'a[$(touch pwn)]'",
    "x='a[$(touch pwn)]'; : $(( x ))",
    "shift $(( a[$(touch pwn)] ))",
    "x='a[$(touch pwn)]'; shift x",
    "x='a[$(touch pwn)]'; echo ${@:x}",
    "x='a[$(touch pwn)]'; exit x",
    "x='a[$(touch pwn)]'; return x 2>/dev/null",
    "x='a[$(touch pwn)]'; wait -n x 2>/dev/null; true",
    "cat <(touch pwn)",
    "echo hi > >(cat)",
    "diff <(sort notes.txt) <(sort x)",
    "ls | tee >(touch pwn)",
    "trap 'touch pwn' EXIT",
    "trap 'touch pwn' DEBUG; ls",
    "f() { touch pwn; }; f",
    "shopt -s expand_aliases; alias ls='touch pwn'\nls",
    "hash -p /usr/bin/touch ls; ls pwn",
    "enable -n echo; echo pwn",
    "coproc touch pwn",
    "exec -a ls touch pwn",
    "command -p ls",
    "PS4='$(touch pwn)'; set -x; ls",
    "BASH_ENV=script.sh bash -c ls",
    "cat <<EOF\n$(touch pwn)\nEOF",
    "cat <<'EOF'\n$(touch pwn)\nEOF",
    "mapfile -C 'touch pwn' -c 1 a < notes.txt",
    "mapfile -t a < notes.txt; echo ${a[0]}",
    "compgen -C 'touch pwn' x",
    "compgen -W '$(touch pwn)' x",
    "complete -C 'touch pwn' ls",
    "source script.sh",
    ". ./script.sh",
    "eval ls",
    "type -a ls",
    "declare -p HOME",
    "echo $(< notes.txt)",
    "echo `touch pwn`",
    "[[ $(touch pwn) ]]",
    "case x in $(touch pwn)) ;; esac",
    "for x in $(touch pwn); do :; done",
    "select x in a; do break; done < /dev/null",
    "read -r x < notes.txt; echo $x",
    "umask 000; ls",
    "cd /tmp && ls",
    "cd .. && ls",
    "x=1; readonly x; echo $x",
    "printf '%(%F)T\\n' -1",
    "printf -v x '%s' 1; echo $x",
    "set -- a b; shift; echo $1",
    "getopts ab: o -a; echo $o",
    "x=$'a\\nb'; echo \"$x\"",
    "echo ${x@Q}",
    "time ls",
    "ulimit -n",
    "jobs; wait",
    "exec 3< notes.txt; read -u 3 line; echo $line",
    "history -s touch pwn; fc -s",
];

/// Prefixes before a command.
const PREFIXES: &[&str] = &[
    "",
    "",
    "",
    "",
    "LC_ALL=C ",
    "GIT_PAGER=cat ",
    "TZ=UTC ",
    "command ",
    "builtin ",
    "exec ",
    "nice ",
    "env ",
    "time ",
    "x=$((a[$(touch pwn)])) ",
    "nohup ",
    "stdbuf -o0 ",
    "\\",
];

/// Connectors between commands.
const CONNECTORS: &[&str] = &[" | ", " && ", "; ", " || ", " |& ", "\n"];

/// Spellings of one option: itself, unambiguous-looking prefixes, attached and separate
/// values, and glob or brace forms that expand into it.
fn spell(rng: &mut Rng, option: &str, value: Option<&str>) -> String {
    let long = option.starts_with("--");
    let name = if long && option.len() > 4 && rng.chance(40) {
        // A prefix of the long option: getopt_long takes any unambiguous one.
        let keep = 3 + rng.below(option.len() - 3);
        &option[..keep.max(4)]
    } else {
        option
    };
    let name = match rng.below(10) {
        0 if name.len() > 2 => format!(
            "{}[{}]{}",
            &name[..name.len() - 1],
            &name[name.len() - 1..],
            ""
        ),
        1 if name.len() > 2 => format!("{}?", &name[..name.len() - 1]),
        2 => format!("{{{name},}}"),
        3 if name.len() > 3 => format!("{}*", &name[..name.len() - 1]),
        _ => name.to_string(),
    };
    match value {
        None => name,
        Some(value) if long => {
            if rng.chance(50) {
                format!("{name}={value}")
            } else {
                format!("{name} {value}")
            }
        }
        Some(value) => {
            if rng.chance(50) {
                format!("{name}{value}")
            } else {
                format!("{name} {value}")
            }
        }
    }
}

fn simple_command(rng: &mut Rng) -> String {
    let program = &PROGRAMS[rng.below(PROGRAMS.len())];
    let mut words = vec![format!("{}{}", rng.pick(PREFIXES), program.name)];
    let count = rng.below(4);
    for _ in 0..count {
        match rng.below(6) {
            0 | 1 if !program.flags.is_empty() => {
                // A bundle of short flags, or one flag.
                let a = rng.pick(program.flags);
                if rng.chance(30) && a.len() == 2 && !a.starts_with("--") {
                    let b = rng.pick(program.flags).trim_start_matches('-');
                    words.push(format!("{a}{b}"));
                } else {
                    words.push(spell(rng, a, None));
                }
            }
            2 if !program.valued.is_empty() => {
                let option = rng.pick(program.valued);
                let value = rng.pick(FILES);
                words.push(spell(rng, option, Some(value)));
            }
            _ if !program.operands.is_empty() => words.push(rng.pick(program.operands).to_string()),
            _ => {}
        }
    }
    if rng.chance(40) && !program.operands.is_empty() {
        words.push(rng.pick(program.operands).to_string());
    }
    if rng.chance(35) {
        words.push(rng.pick(REDIRECTS).to_string());
    }
    words.join(" ")
}

/// One fuzzer line.
pub fn line(rng: &mut Rng) -> String {
    match rng.below(10) {
        0 => rng.pick(EXPANSIONS).to_string(),
        1 => format!("exec {}; {}", rng.pick(REDIRECTS), simple_command(rng)),
        2 => format!("{{ {}; }} {}", simple_command(rng), rng.pick(REDIRECTS)),
        3 => format!(
            "{}{}{}",
            simple_command(rng),
            rng.pick(CONNECTORS),
            simple_command(rng)
        ),
        4 => format!("{}; {}", rng.pick(EXPANSIONS), simple_command(rng)),
        5 => format!("( {} ) {}", simple_command(rng), rng.pick(REDIRECTS)),
        _ => simple_command(rng),
    }
}

/// `count` lines from `seed`; the same arguments always give the same lines.
pub fn lines(seed: u64, count: usize) -> Vec<String> {
    let mut rng = Rng::new(seed);
    (0..count).map(|_| line(&mut rng)).collect()
}

#[test]
fn the_fuzzer_is_reproducible_and_varied() {
    let first = lines(7, 200);
    assert_eq!(first, lines(7, 200));
    assert_ne!(first, lines(8, 200));
    let distinct: std::collections::HashSet<_> = first.iter().collect();
    assert!(
        distinct.len() > 150,
        "only {} distinct lines",
        distinct.len()
    );
}
