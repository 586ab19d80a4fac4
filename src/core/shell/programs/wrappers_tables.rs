//! The tables of the wrappers: programs and builtins that run the command after their own
//! options, judged in their place by [`super::wrappers`]. `sudo` and its kin are never
//! read-only, but their tables still walk the command they run so that it is recorded.

use super::manuals::{Rule, Table};
use super::wrappers::{
    chrt, command, coproc, env, exec, ionice, nice, nohup, runs_rest, stdbuf, sudo, taskset, time,
    timeout, trace,
};

const BASH: &str = "bash(1) SHELL BUILTIN COMMANDS, GNU bash 5.2.15";

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "env", manual: "env(1), GNU coreutils 9.1", rule: Rule::Walked(env),
        reads: &["env FOO=bar ls", "env -i ls", "env -C /tmp ls", "env -S 'FOO=bar ls'", "env -- ls"],
        refuses: &[
            "env rm -rf build", "env -S 'touch pwn'", "env sh -c 'touch pwn'", "env PATH=/tmp/evil ls",
            "env -S 'sort notes.txt\\_-o\\_x'", "env -S'sort notes.txt\\_-o\\_x'",
        ],
    },
    Table {
        program: "timeout", manual: "timeout(1), GNU coreutils 9.1", rule: Rule::Walked(timeout),
        reads: &["timeout 5 ls", "timeout -s KILL 10s tail -f log.txt"],
        refuses: &["timeout 5 rm x", "timeout 5 sh -c 'touch pwn'", "timeout 60 npm test"],
    },
    Table {
        program: "nice", manual: "nice(1), GNU coreutils 9.1", rule: Rule::Walked(nice),
        reads: &["nice -n 10 grep -r foo .", "nice -10 ls", "nice"],
        refuses: &["nice rm -rf build", "nice -n 5 find . -delete"],
    },
    Table {
        program: "time", manual: "time(1), GNU time 1.9; the time reserved word of bash(1), GNU bash 5.2.15",
        rule: Rule::Walked(time),
        reads: &["time ls", "time -p ls", "time (ls && pwd)", "/usr/bin/time -v ls"],
        refuses: &["time touch x", "/usr/bin/time -o t.txt ls", "/usr/bin/time --output=t.txt ls"],
    },
    Table {
        program: "stdbuf", manual: "stdbuf(1), GNU coreutils 9.1", rule: Rule::Walked(stdbuf),
        reads: &["stdbuf -oL tail -f log.txt", "stdbuf -o0 grep foo notes.txt"],
        refuses: &["stdbuf -oL rm x", "stdbuf -i0 sh -c 'touch pwn'"],
    },
    Table {
        program: "nohup", manual: "nohup(1), GNU coreutils 9.1", rule: Rule::Walked(nohup),
        reads: &["nohup ls > /dev/null", "nohup grep -r foo . >/dev/null 2>&1"],
        refuses: &["nohup ls", "nohup ./server &", "nohup rm x > /dev/null"],
    },
    Table {
        program: "sudo", manual: "sudo(8)", rule: Rule::Walked(sudo),
        reads: &[], refuses: &["sudo ls", "sudo -u postgres psql", "sudo -i", "sudo --version"],
    },
    Table {
        program: "doas", manual: "doas(1)", rule: Rule::Walked(sudo),
        reads: &[], refuses: &["doas ls", "doas -u www cat notes.txt"],
    },
    Table {
        program: "pkexec", manual: "pkexec(1)", rule: Rule::Walked(sudo),
        reads: &[], refuses: &["pkexec ls"],
    },
    Table {
        program: "su", manual: "su(1), util-linux 2.38.1", rule: Rule::Walked(sudo),
        reads: &[], refuses: &["su -c 'ls' root", "su"],
    },
    Table {
        program: "run0", manual: "run0(1)", rule: Rule::Walked(sudo),
        reads: &[], refuses: &["run0 ls"],
    },
    Table {
        program: "chrt", manual: "chrt(1), util-linux 2.38.1", rule: Rule::Walked(chrt),
        reads: &["chrt -i 0 ls", "chrt --idle 0 git status"],
        refuses: &["chrt -i 0 rm x", "chrt -p 10 1"],
    },
    Table {
        program: "ionice", manual: "ionice(1), util-linux 2.38.1", rule: Rule::Walked(ionice),
        reads: &["ionice -c3 ls", "ionice"],
        refuses: &["ionice -c3 rm x", "ionice -c 3 -p 1"],
    },
    Table {
        program: "taskset", manual: "taskset(1), util-linux 2.38.1", rule: Rule::Walked(taskset),
        reads: &["taskset -c 0 ls"],
        refuses: &["taskset -c 0 rm x", "taskset -p 0x1 1"],
    },
    Table {
        program: "strace", manual: "strace(1), strace 6.1", rule: Rule::Walked(trace),
        reads: &["strace -f -e trace=openat ls", "strace -c ls"],
        refuses: &[
            "strace -o trace.txt ls", "strace -otrace.txt ls", "strace -e inject=write:error=EIO ls",
            "strace -p 1", "strace touch x",
        ],
    },
    Table {
        program: "ltrace", manual: "ltrace(1)", rule: Rule::Walked(trace),
        reads: &["ltrace -c ls"],
        refuses: &["ltrace -o out ls", "ltrace touch x"],
    },
    Table {
        program: "unbuffer", manual: "unbuffer(1)", rule: Rule::Walked(runs_rest),
        reads: &["unbuffer ls"],
        refuses: &["unbuffer rm x", "unbuffer -p cat"],
    },
    Table {
        program: "builtin", manual: BASH, rule: Rule::Walked(runs_rest),
        reads: &["builtin cd src && ls", "builtin printf '%s' x"],
        refuses: &["builtin source ./env.sh", "builtin eval 'touch x'"],
    },
    Table {
        program: "busybox", manual: "busybox(1), BusyBox 1.35.0", rule: Rule::Walked(runs_rest),
        reads: &["busybox ls -l", "busybox sh -c 'ls'"],
        refuses: &["busybox rm x", "busybox wget http://example.com", "busybox --install -s /tmp/bin"],
    },
    Table {
        program: "coproc", manual: "the coproc reserved word of bash(1), GNU bash 5.2.15",
        rule: Rule::Walked(coproc),
        reads: &["coproc ls"],
        refuses: &["coproc rm x", "coproc touch pwn"],
    },
    Table {
        program: "command", manual: BASH, rule: Rule::Walked(command),
        reads: &["command -v git", "command -V rg", "command -p ls"],
        refuses: &["command rm x", "command exec rm x"],
    },
    Table {
        program: "exec", manual: BASH, rule: Rule::Walked(exec),
        reads: &["exec ls", "exec 2>&1; ls", "exec 3< notes.txt; cat <&3"],
        refuses: &["exec -a ls touch pwn", "exec > log.txt", "exec rm x"],
    },
];
