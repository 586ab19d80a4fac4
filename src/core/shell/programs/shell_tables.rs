//! The tables of the shell builtins, from the SHELL BUILTIN COMMANDS section of bash(1): each
//! names the builtin's judge in [`super::shell`], or the plain refusal of the builtins that
//! only make sense at an interactive prompt or run a file's commands.

use super::manuals::{Rule, Table};
use super::shell::{
    alias, change_dir, compgen, eval, getopts, hash, history, jobs, kill, let_, mapfile,
    numeric_builtin, printf, read, set, shopt, shows_state, test, trap, type_, ulimit, umask,
};

/// The manual every builtin follows.
const BASH: &str = "bash(1) SHELL BUILTIN COMMANDS, GNU bash 5.2.15";

/// The reason given for the builtins of an interactive shell.
const INTERACTIVE: &str = "interactive shell builtin";

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "cd", manual: BASH, rule: Rule::Walked(change_dir),
        reads: &["cd src && ls", "cd /tmp; ls; cd -", "cd -P .. && pwd"],
        refuses: &["cd \"$(touch pwn)\"", "cd /tmp && rm -rf x"],
    },
    Table {
        program: "pushd", manual: BASH, rule: Rule::Walked(change_dir),
        reads: &["pushd src && ls && popd", "pushd -n /tmp"],
        refuses: &["pushd \"$(touch pwn)\""],
    },
    Table {
        program: "popd", manual: BASH, rule: Rule::Walked(change_dir),
        reads: &["pushd src && ls && popd; ls", "popd -n"],
        refuses: &["popd \"$(touch pwn)\""],
    },
    Table {
        program: "compgen", manual: BASH, rule: Rule::Walked(compgen),
        reads: &["compgen -c git", "compgen -A function", "compgen -W 'start stop' st"],
        refuses: &[
            "compgen -C 'touch pwn' x", "compgen -F _comp x", "compgen -W '$(touch pwn)' x",
            "compgen -aC 'touch pwn' x",
        ],
    },
    Table {
        program: "jobs", manual: BASH, rule: Rule::Walked(jobs),
        reads: &["jobs -l", "jobs -p", "jobs -rn %1"],
        refuses: &["jobs -x touch pwn", "jobs -lx touch pwn", "jobs $OPTS"],
    },
    Table {
        program: "dirs", manual: BASH, rule: Rule::Walked(shows_state),
        reads: &["dirs -v", "dirs -l +1"],
        refuses: &["dirs \"$(touch pwn)\"", "dirs -v > stack.txt"],
    },
    Table {
        program: "times", manual: BASH, rule: Rule::Walked(shows_state),
        reads: &["times"],
        refuses: &["times > times.txt"],
    },
    Table {
        program: "caller", manual: BASH, rule: Rule::Walked(shows_state),
        reads: &["caller 0"],
        refuses: &["caller > frames.txt"],
    },
    Table {
        program: "help", manual: BASH, rule: Rule::Walked(shows_state),
        reads: &["help cd", "help -d set", "help -s printf"],
        refuses: &["help cd > help.txt"],
    },
    Table {
        program: "unalias", manual: BASH, rule: Rule::Walked(shows_state),
        reads: &["unalias ll", "unalias -a"],
        refuses: &["unalias \"$(touch pwn)\""],
    },
    Table {
        program: "disown", manual: BASH, rule: Rule::Walked(shows_state),
        reads: &["disown -a", "disown -h %1"],
        refuses: &["disown \"$(touch pwn)\""],
    },
    Table {
        program: "shift", manual: BASH, rule: Rule::Walked(numeric_builtin),
        reads: &["set -- a b; shift; echo $1", "set -- a b c; shift 2"],
        refuses: &["shift 'a[$(touch pwn)]'"],
    },
    Table {
        program: "exit", manual: BASH, rule: Rule::Walked(numeric_builtin),
        reads: &["exit 0", "ls || exit 1"],
        refuses: &["exit 'a[$(touch pwn)]'"],
    },
    Table {
        program: "return", manual: BASH, rule: Rule::Walked(numeric_builtin),
        reads: &["return 0"],
        refuses: &["return 'a[$(touch pwn)]'"],
    },
    Table {
        program: "break", manual: BASH, rule: Rule::Walked(numeric_builtin),
        reads: &["for f in a b; do echo $f; break; done"],
        refuses: &["for f in a; do break 'a[$(touch pwn)]'; done"],
    },
    Table {
        program: "continue", manual: BASH, rule: Rule::Walked(numeric_builtin),
        reads: &["for f in a b; do continue; done"],
        refuses: &["for f in a; do continue 'a[$(touch pwn)]'; done"],
    },
    Table {
        program: "wait", manual: BASH, rule: Rule::Walked(numeric_builtin),
        reads: &["sleep 1 & wait", "wait -n"],
        refuses: &["wait 'a[$(touch pwn)]'", "wait -n -p PATH"],
    },
    Table {
        program: "test", manual: BASH, rule: Rule::Walked(test),
        reads: &["test -f Cargo.toml", "test -v HOME && echo set", "test -n \"$(ls)\""],
        refuses: &["test -v 'a[$(touch pwn)]'", "test -n \"$(rm x)\""],
    },
    Table {
        program: "[", manual: BASH, rule: Rule::Walked(test),
        reads: &["[ -d src ] && echo dir", "[ -f x ] || echo no x"],
        refuses: &["[ -v 'a[$(touch pwn)]' ]", "[ -f x"],
    },
    Table {
        program: "let", manual: BASH, rule: Rule::Walked(let_),
        reads: &["let x=1+2; echo $x", "let 'y = 3 * 4'"],
        refuses: &["let 'a[$(touch pwn)]'", "let \"$EXPR\""],
    },
    Table {
        program: "getopts", manual: BASH, rule: Rule::Walked(getopts),
        reads: &["getopts ab: o -a; echo $o"],
        refuses: &["getopts ab 'a[$(touch pwn)]'", "getopts ab \"$NAME\""],
    },
    Table {
        program: "type", manual: BASH, rule: Rule::Walked(type_),
        reads: &["type ls", "type -a ls", "type -P git"],
        refuses: &["type ls > where.txt"],
    },
    Table {
        program: "set", manual: BASH, rule: Rule::Walked(set),
        reads: &["set -euo pipefail; ls", "set -o", "set -- a b; echo $2", "set -x; ls"],
        refuses: &["set -k", "set -a", "set -o history", "set $OPTS"],
    },
    Table {
        program: "shopt", manual: BASH, rule: Rule::Walked(shopt),
        reads: &["shopt -s nullglob", "shopt -p", "shopt -q extglob", "shopt -qs globstar", "shopt -pu"],
        refuses: &[
            "shopt -s expand_aliases", "shopt -s extdebug", "shopt -s $OPT", "shopt -qs expand_aliases",
            "shopt -us extdebug", "shopt -o -s history",
        ],
    },
    Table {
        program: "trap", manual: BASH, rule: Rule::Walked(trap),
        reads: &["trap -p", "trap 'echo done' EXIT", "trap - INT"],
        refuses: &["trap 'touch pwn' EXIT", "trap 'rm -rf /tmp/x' EXIT; ls", "trap \"$HANDLER\" INT"],
    },
    Table {
        program: "hash", manual: BASH, rule: Rule::Walked(hash),
        reads: &["hash -t ls 2>/dev/null; true", "hash -l", "hash"],
        refuses: &["hash -p ./evil ls; ls", "hash -p /usr/bin/touch ls; ls pwn", "hash -r"],
    },
    Table {
        program: "alias", manual: BASH, rule: Rule::Walked(alias),
        reads: &["alias ll='ls -l'", "alias", "alias -p"],
        refuses: &["alias ls='touch pwn'\nls", "alias g='gatehouse mode allow-all'", "alias $DEF"],
    },
    Table {
        program: "eval", manual: BASH, rule: Rule::Walked(eval),
        reads: &["eval ls", "eval 'git status'"],
        refuses: &["eval 'touch x'", "eval \"$CMD\"", "eval $(ssh-agent)"],
    },
    Table {
        program: "source", manual: BASH, rule: Rule::Runs("runs the commands of a file"),
        reads: &[],
        refuses: &["source ./env.sh", "source venv/bin/activate && pytest"],
    },
    Table {
        program: ".", manual: BASH, rule: Rule::Runs("runs the commands of a file"),
        reads: &[],
        refuses: &[". ./script.sh", ". ~/.bashrc"],
    },
    Table {
        program: "enable", manual: BASH, rule: Rule::Runs("loads or switches builtins"),
        reads: &[],
        refuses: &["enable -f ./ext.so ext", "enable -n echo", "enable"],
    },
    Table {
        program: "read", manual: BASH, rule: Rule::Walked(read),
        reads: &["read -r x < notes.txt; echo $x", "read -r -a parts <<< 'a b'", "read -t 1 -n 1 key"],
        refuses: &[
            "read -r 'a[$(touch pwn)]' <<< x", "read -r x < /dev/tcp/127.0.0.1/443",
            "read -r -n 'a[$(touch pwn)]' x < notes.txt",
        ],
    },
    Table {
        program: "mapfile", manual: BASH, rule: Rule::Walked(mapfile),
        reads: &["mapfile -t a < notes.txt; echo ${a[0]}", "mapfile -t -n 5 head < notes.txt"],
        refuses: &["mapfile -C 'touch pwn' -c 1 a < notes.txt", "mapfile -t 'a[$(touch pwn)]' < notes.txt"],
    },
    Table {
        program: "readarray", manual: BASH, rule: Rule::Walked(mapfile),
        reads: &["readarray -t lines < notes.txt"],
        refuses: &["readarray -C 'touch pwn' -c 1 a < notes.txt"],
    },
    Table {
        program: "printf", manual: BASH, rule: Rule::Walked(printf),
        reads: &[
            "printf '%s %s' a b", "printf -v line '%s' x; echo $line", "printf '%(%F)T\\n' -1",
            "printf '%d\\n' 42", "printf -- -v", "printf \"$msg\"",
        ],
        refuses: &[
            "printf -v 'a[$(touch pwn)]' %s x", "printf pwn > notes.txt", "printf '%d' 'a[$(touch pwn)]'",
            "printf -v'a[$(touch pwn)]' %s x", "printf -vPATH %s /tmp/evil; ls",
            "printf -v a -v PATH %s /tmp/evil; ls", "printf $ARGS; ls", "printf \"$F\" %s /tmp/evil",
        ],
    },
    Table {
        program: "ulimit", manual: BASH, rule: Rule::Walked(ulimit),
        reads: &["ulimit -a", "ulimit -n"],
        refuses: &["ulimit -c unlimited", "ulimit -n 64"],
    },
    Table {
        program: "umask", manual: BASH, rule: Rule::Walked(umask),
        reads: &["umask", "umask -S"],
        refuses: &["umask 077", "umask u=rwx,go="],
    },
    Table {
        program: "kill", manual: BASH, rule: Rule::Walked(kill),
        reads: &["kill -l", "kill -0 1", "kill -l 9"],
        refuses: &["kill -9 1", "kill -s HUP 1", "kill $$", "kill -0 -1"],
    },
    Table {
        program: "history", manual: BASH, rule: Rule::Walked(history),
        reads: &["history", "history 20"],
        refuses: &["history -c", "history -w hist.txt", "history -d 3"],
    },
    Table {
        program: "fc", manual: BASH, rule: Rule::Interactive(INTERACTIVE),
        reads: &[], refuses: &["fc -l", "fc -s ls"],
    },
    Table {
        program: "bind", manual: BASH, rule: Rule::Interactive(INTERACTIVE),
        reads: &[], refuses: &["bind -x '\"\\C-t\": touch pwn'", "bind -p"],
    },
    Table {
        program: "complete", manual: BASH, rule: Rule::Interactive(INTERACTIVE),
        reads: &[], refuses: &["complete -C 'touch pwn' git", "complete -p"],
    },
    Table {
        program: "fg", manual: BASH, rule: Rule::Interactive(INTERACTIVE),
        reads: &[], refuses: &["fg %1"],
    },
    Table {
        program: "bg", manual: BASH, rule: Rule::Interactive(INTERACTIVE),
        reads: &[], refuses: &["bg %1"],
    },
    Table {
        program: "suspend", manual: BASH, rule: Rule::Interactive(INTERACTIVE),
        reads: &[], refuses: &["suspend -f"],
    },
    Table {
        program: "logout", manual: BASH, rule: Rule::Interactive(INTERACTIVE),
        reads: &[], refuses: &["logout"],
    },
];
