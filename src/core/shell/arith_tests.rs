//! Arithmetic contexts: code runs through subscripts in values the line cannot see.
//!
//! Each not-read-only line below was run under bash 5.2 with `x='a[$(echo PWNED >&2)]'` in the
//! environment (or the value shown) and printed PWNED.

use crate::core::shell::test_support::{assert_not_read_only, assert_read_only};

#[test]
fn literal_arithmetic_and_names_the_line_made_numbers_are_read_only() {
    assert_read_only(&[
        "(( 1 + 1 ))",
        "echo $((1 + 2)) $((2 ** 10)) $((1<<2)) $((0x1f + 8#17))",
        "for ((i=0;i<3;i++)); do echo $i; done",
        "let x=1+2",
        "let x=1+2 'y=x*2'",
        "n=5; echo $((n * 2))",
        "for i in 1 2 3; do echo $((i * 2)); done",
        "for i in {1..5}; do echo $((i + 1)); done",
        "echo $((RANDOM % 6)) $(($# + 1))",
        "echo ${HOME:0:3} ${HOME: -2}",
        "echo ${#HOME} ${!BASH*} $((${#HOME} + 1))",
        "[[ 3 -eq 3 ]]",
        "[ 1 -lt 2 ]",
        "test 1 -lt 2",
        "[ -f x ] || echo no x",
        "[[ -n $HOME ]] && echo set",
        "[ \"$a\" = \"$b\" ]",
        "test -f \"$F\"",
        "[[ -v HOME ]]",
        "shift 2",
        "exit 0",
        "printf '%s %s' a b",
        "printf '%s\\n' \"$X\"",
        "kill -0 1234",
        "unset FOO; ls",
        "x=$(( 1 + 2 )); shift $x 2>/dev/null; true",
        "x=1 && echo $((x))",
        "{ x=1; }; echo $((x))",
        "if x=1; then echo $((x)); fi",
        "x=\"$((4 * 2))\"; echo $((x + 1))",
    ]);
}

#[test]
fn a_value_from_outside_the_line_evaluated_as_arithmetic_is_not_read_only() {
    assert_not_read_only(&[
        "(( x ))",
        "(( x + 1 ))",
        "echo $(( x + 1 ))",
        "echo $(( $x ))",
        "echo $(( ${x} * 2 ))",
        "echo $[x+1]",
        "let 'y = x + 1'",
        "let y=x",
        "let 'a[$(id)]=1'",
        "for ((i=0; i<n; i++)); do :; done",
        "for ((i=x; i<3; i++)); do :; done",
        "[[ $x -eq 1 ]]",
        "[[ x -eq 1 ]]",
        "[[ 'a[$(id)]' -eq 1 ]]",
        "[ \"$x\" -eq 1 ]",
        "test \"$x\" -lt 2",
        "test -v \"$x\"",
        "[ -v 'a[$(id)]' ]",
        "[[ -v a[$x] ]]",
        "declare -i y=x",
        "declare -i y; y=$x",
        "local -i z=$x",
        "typeset -i q=\"$x\"",
        "echo ${HOME:x:1}",
        "echo ${HOME:0:x}",
        "set -- a b; echo ${@:x}",
        "arr=(1 2); echo ${arr[x]}",
        "arr=(1 2); echo ${arr[$x]}",
        "echo ${#arr[x]}",
        "echo ${!x}",
        "n=$x; echo ${!n}",
        "b[x]=1",
        "b[$x]=1",
        "arr=([x]=1)",
        "b=(1); unset \"b[$x]\"",
        "unset \"$x\"",
        "shift \"$x\"",
        "exit \"$x\"",
        "f(){ return \"$x\"; }; f",
        "for i in 1; do continue \"$x\"; done",
        "wait \"$x\"",
        "read -t \"$x\" v",
        "mapfile -n \"$x\" lines < f",
        "printf '%d\\n' \"$x\"",
        "printf '%.3f\\n' \"$x\"",
        "printf '%*s\\n' \"$x\" a",
        "printf '%(%s)T\\n' \"$x\"",
        "printf \"$fmt\" \"$x\"",
        "trap '' $x",
        "kill -0 \"$x\"",
        "kill -0 -1",
        "[ $a = b ]",
        "[ -f $file ]",
        "test $a",
        "test 1 \"$op\" 2",
        "for i in a b; do echo $((i)); done",
        "for i in $(seq 3); do echo $((i)); done",
        "read n; echo $((n + 1))",
        "n=1; n=foo; echo $((n))",
        "for ((i=0;i<3;i++)); do i=foo; done",
        "echo $(( $(cat f) + 1 ))",
        "if false; then x=1; fi; echo $((x))",
        "false && x=1; echo $((x))",
        "true || x=1; echo $((x))",
        "(x=1); echo $((x))",
        "x=1 | true; echo $((x))",
        "x=1 true; echo $((x))",
        "while false; do x=1; done; echo $((x))",
        "for i in; do :; done; echo $((i))",
        "for i; do :; done; echo $((i))",
        "for ((;0;x=1)); do :; done; echo $((x))",
        "f() { x=1; }; echo $((x))",
        "case a in b) x=1;; esac; echo $((x))",
        "(( 0 && (x = 1) )); echo $((x))",
        "let '0 && (x = 1)'; echo $((x))",
        "echo $(x=1) $((x))",
        "if false; then r=HOME; fi; echo ${!r}",
        "x=$(( $(cat f) )); shift $x",
        "x=\"$((1))$y\"; echo $((x))",
    ]);
}

#[test]
fn compgen_expands_its_word_list_and_runs_completion_commands() {
    assert_not_read_only(&[
        "compgen -W '$(id)' x",
        "compgen -W \"$x\"",
        "compgen -C 'id' x",
        "compgen -F f x",
        "compgen -aW '`id`'",
    ]);
    assert_read_only(&["compgen -c", "compgen -W 'a b c' a", "compgen -v B"]);
}

#[test]
fn xtrace_is_read_only_where_the_line_cannot_give_ps4_a_value() {
    assert_read_only(&[
        "set -x; ls",
        "set -ex",
        "set -o xtrace",
        "set -e",
        "set -euo pipefail",
        "set +x",
    ]);
    // PS4 is expanded, substitutions included, before each traced command: every way the
    // line could set it keeps the line from being read-only.
    assert_not_read_only(&[
        "PS4='$(touch p)'; set -x; ls",
        "set -x; PS4='$(touch p)'; ls",
        "read -r PS4 <<< '$(touch p)'; set -x; ls",
        "printf -v PS4 %s '$(touch p)'; set -x; ls",
        "declare PS4='`touch p`'; set -o xtrace; ls",
        "export PS4='$(touch p)' && set -x && ls",
        "for PS4 in '$(touch p)'; do set -x; ls; done",
        "mapfile -t PS4 < f; set -x; ls",
        "PS4='$(touch p)' bash -xc ls",
    ]);
}
