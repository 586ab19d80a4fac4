//! Behaviour of the whole analyser on tricky lines.

use super::{Safety, analyse};
use crate::core::shell::test_support::{assert_not_read_only, assert_read_only, safety};

#[test]
fn an_empty_line_is_unverified() {
    assert_eq!(safety(""), Safety::Unverified);
    assert_eq!(safety("   \n"), Safety::Unverified);
    // A line of comments runs nothing and is read-only (see forms_tests.rs).
}

#[test]
fn explanation_lists_the_least_safe_parts_first() {
    let analysis = analyse("ls > out.txt; rm x");
    assert_eq!(
        analysis.explanation(),
        "rm: removes files; > out.txt: writes a file"
    );
}

#[test]
fn explanation_of_a_read_only_line_names_its_programs() {
    assert_eq!(analyse("ls | wc -l").explanation(), "read-only: ls, wc");
}

#[test]
fn explanation_names_a_program_once_and_a_parse_failure_once() {
    assert_eq!(
        analyse("tee x").explanation(),
        "tee: writes files (table tee, tee(1), GNU coreutils 9.1)"
    );
    assert_eq!(
        analyse("sudo ls").explanation(),
        "sudo: runs as another user (table sudo, sudo(8))"
    );
    let unterminated = analyse("echo 'abc").explanation();
    assert_eq!(
        unterminated.matches("never closed").count(),
        1,
        "an unclosed quote is said as such, once: {unterminated}"
    );
    let unbalanced = analyse("echo a)").explanation();
    assert_eq!(unbalanced.matches("parse").count(), 1, "{unbalanced}");
}

#[test]
fn explanation_escapes_control_characters() {
    let explanation = analyse("foo\u{1b}[31m x").explanation();
    assert!(
        !explanation.chars().any(|c| c.is_control()),
        "{explanation:?}"
    );
}

#[test]
fn commands_inside_substitutions_and_groups_count() {
    assert_not_read_only(&[
        "echo $(rm x)",
        "echo `rm x`",
        "cat <(rm x)",
        "echo >(rm x)",
        "(rm x)",
        "{ rm x; }",
        "if true; then rm x; fi",
        "while false; do rm x; done",
        "case a in a) rm x;; esac",
        "cat <<EOF\n$(rm x)\nEOF",
        "echo \"${x:-$(rm y)}\"",
        "echo $(( $(rm x) ))",
    ]);
}

#[test]
fn a_quoted_heredoc_body_is_data() {
    assert_read_only(&["cat <<'EOF'\n$(rm x)\nEOF", "cat <<\"EOF\"\n`rm x`\nEOF"]);
}

#[test]
fn wrappers_are_looked_through_and_the_inner_command_is_recorded() {
    let analysis = analyse("timeout 5 git push");
    assert_eq!(analysis.safety, Safety::Writer);
    assert!(analysis.commands.iter().any(|c| c.words == ["git", "push"]));
    let analysis = analyse("bash -c 'cd x && git push'");
    assert!(analysis.commands.iter().any(|c| c.words == ["git", "push"]));
}

#[test]
fn wrappers_of_read_only_commands_are_read_only() {
    assert_read_only(&[
        "timeout 5 ls",
        "nice -n 5 cat x",
        "env LC_ALL=C sort f",
        "stdbuf -oL grep x f",
        "command ls",
        "xargs grep foo",
        "bash -c 'ls | wc -l'",
        "time ls",
    ]);
}

#[test]
fn sudo_and_its_kin_are_never_read_only() {
    for line in [
        "sudo ls",
        "doas cat x",
        "pkexec ls",
        "su -c ls",
        "sudo -u me true",
    ] {
        assert_eq!(safety(line), Safety::Writer, "{line}");
    }
}

#[test]
fn xargs_appends_words_that_may_be_options() {
    assert_not_read_only(&["xargs sort", "xargs find", "xargs rg x", "xargs git diff"]);
}

#[test]
fn a_wrapper_runs_the_program_even_where_a_function_shadows_its_name() {
    assert_not_read_only(&["rm() { :; }; timeout 5 rm x", "rm() { :; }; command rm x"]);
}

#[test]
fn a_function_defined_above_may_be_called() {
    assert_read_only(&["f() { ls; }; f", "show() { cat \"$1\"; }\nshow README.md"]);
    assert_not_read_only(&["f() { rm x; }; f", "rm x; rm() { :; }"]);
}

#[test]
fn an_alias_used_later_in_the_line_is_not_trusted() {
    assert_read_only(&["alias ll='ls -l'"]);
    assert_not_read_only(&["alias ls='rm -rf .'\nls"]);
}

#[test]
fn only_system_paths_are_trusted_as_command_words() {
    assert_read_only(&[
        "/bin/ls",
        "/usr/bin/git status",
        "/usr/local/bin/rg foo",
        "\\ls",
        "'cat' x",
    ]);
    assert_not_read_only(&[
        "./ls",
        "bin/grep x",
        "~/bin/ls",
        "/tmp/ls",
        "/usr/bin/../../tmp/ls",
        "$CMD",
        "$(echo ls)",
    ]);
}

#[test]
fn quote_removal_reveals_writers() {
    for line in ["\"rm\" x", "'rm' x", "r''m x", "\\rm x", "$'\\x72m' x"] {
        assert_eq!(safety(line), Safety::Writer, "{line}");
    }
}

#[test]
fn redirections_are_judged_by_operator_and_target() {
    assert_read_only(&[
        "ls 2>/dev/null",
        "ls >/dev/null 2>&1",
        "ls >&2",
        "ls 2>&-",
        "cat < f",
        "cat 0<f",
        "ls &>/dev/null",
    ]);
    for line in [
        "ls > f",
        "ls >> f",
        "ls 1> f",
        "ls >| f",
        "ls &> f",
        "ls &>> f",
        "ls >&f",
        "ls 2> err",
        "ls > /dev/sda",
    ] {
        assert_eq!(safety(line), Safety::Writer, "{line}");
    }
    assert_not_read_only(&["cat <> f"]);
}

#[test]
fn words_hung_on_a_redirection_still_belong_to_the_command() {
    assert_eq!(safety("xargs < list.txt rm"), Safety::Writer);
    assert_eq!(safety("ls 2>/dev/null -la"), Safety::ReadOnly);
}

#[test]
fn environment_prefixes_that_change_what_runs_are_refused() {
    assert_read_only(&[
        "LC_ALL=C ls",
        "TZ=UTC date",
        "GIT_PAGER=cat git log",
        "FOO=bar ls",
        "X=$(pwd) ls",
    ]);
    assert_not_read_only(&[
        "PATH=/tmp ls",
        "LD_PRELOAD=x.so ls",
        "GIT_DIR=/x git status",
        "GIT_PAGER=less git log",
        "BASH_ENV=x bash -c ls",
        "PATH=$(pwd) ls",
        "X=$(rm y) ls",
        "GIT_DIR=$(pwd) git status",
        "export PATH=/tmp; ls",
        "PS4='$(x)' bash -xc ls",
    ]);
}

#[test]
fn a_plain_variable_set_from_a_read_only_command_is_read_only_and_its_uses_are_judged() {
    assert_read_only(&[
        "d=$(pwd); cat \"$d/README.md\"",
        "root=$(git rev-parse --show-toplevel); ls \"$root\"",
        "n=$(wc -l < README.md); echo \"$n lines\"",
        "names=`git ls-files`; wc -l $names",
    ]);
    assert_not_read_only(&[
        "d=$(rm -rf x); ls",
        "c=$(echo rm); $c -rf x",
        "o=$(echo -delete); find . $o",
        "x=$(cat f); (( x ))",
        "x=$(cat f); echo $(( x + 1 ))",
        "p=$(pwd); eval \"$p\"",
        "PAGER=$(echo less); git log",
        "f=$(echo ~/.ssh/id_rsa); cat \"$f\"",
        "x=$(cat f); ${!x}",
    ]);
}

#[test]
fn git_after_a_change_of_directory_is_not_trusted() {
    assert_not_read_only(&[
        "cd /tmp/evil && git status",
        "cd x; bash -c 'git log'",
        "env -C /x git status",
    ]);
    assert_read_only(&["cd src && ls"]);
}

#[test]
fn help_and_version_of_a_known_program_are_read_only() {
    assert_read_only(&["rm --help", "curl --version", "git status -h"]);
    assert_not_read_only(&["rm -rf x --help", "foo --help", "./x --help"]);
}

#[test]
fn shell_state_changes_are_refused() {
    assert_not_read_only(&[
        "hash -p ./evil ls",
        "shopt -s expand_aliases",
        "set -o vi; ls",
        "trap 'rm x' EXIT",
        "source x.sh",
        "mapfile -C 'rm x' -c 1 a < f",
        "printf -v 'a[$(rm x)]' x",
        "read PATH",
        "umask 000",
        "enable -f x.so y",
    ]);
    assert_read_only(&[
        "set -euo pipefail",
        "trap -p",
        "shopt -s nullglob",
        "read -r line",
    ]);
}

#[test]
fn eval_and_nested_shells_are_analysed() {
    assert_read_only(&["eval ls", "sh -c 'echo hi'", "env -S 'FOO=1 ls'"]);
    assert_not_read_only(&[
        "eval 'rm x'",
        "eval \"$X\"",
        "bash -c \"$X\"",
        "bash",
        "sh script.sh",
        "bash -s",
    ]);
}

#[test]
fn assignments_hidden_in_expansions_and_arithmetic_are_judged() {
    assert_not_read_only(&[
        "echo ${PATH:=/tmp}; ls",
        "let PATH=1; ls",
        "(( PATH = 0 )); ls",
        "echo $((PATH=5))",
        "for ((PATH=0;;)); do ls; done",
        "getopts a PATH",
        "read -a PATH",
    ]);
    assert_read_only(&[
        "(( i = 1 ))",
        "let x=1+2",
        "x=1; echo $((x+1))",
        "while IFS= read -r l; do echo \"$l\"; done < f",
    ]);
}

#[test]
fn version_queries_are_read_only_except_for_sudo() {
    assert_read_only(&["python3 -V", "node -v", "java -version", "bash --version"]);
    assert_not_read_only(&[
        "sudo --version",
        "sudo -V",
        "vim -v",
        "python -v",
        "shutdown -h",
    ]);
}

#[test]
fn prompt_expansion_of_a_variable_is_not_trusted() {
    assert_not_read_only(&["x='$(rm y)'; echo \"${x@P}\""]);
    assert_read_only(&["echo \"${x@Q}\""]);
}

#[test]
fn every_explanation_stays_on_one_line() {
    for line in [
        "set -\u{7}",
        "fd -x $'\\n'",
        "f\u{1}() { :; }; f\u{1}",
        "echo $'a\\nb' > $'x\\ny'",
    ] {
        let explanation = analyse(line).explanation();
        assert!(
            !explanation.chars().any(char::is_control),
            "{line:?}: {explanation:?}"
        );
    }
}

#[test]
fn an_unquoted_expansion_may_split_into_options_anywhere_in_a_word() {
    assert_not_read_only(&[
        "find . x$(echo ' -delete')",
        "find . -name $X",
        "sort -k $K f",
        "rg -g$G pattern",
        "git diff foo-$(date).txt",
        "exec -a $N ls",
    ]);
    assert_read_only(&[
        "find . -name \"$X\"",
        "sort -k \"$K\" f",
        "rg -g\"$G\" p",
        "git diff \"foo-$(date).txt\"",
    ]);
}

#[test]
fn an_escaped_backquote_inside_backquotes_opens_a_nested_substitution() {
    // bash removes the backslashes and runs `touch pwn` as a substitution of its own.
    assert_not_read_only(&[
        "echo `echo \\`touch pwn\\``",
        "echo \"`echo \\`touch pwn\\``\"",
        "echo `echo \\`echo \\\\\\`touch pwn\\\\\\`\\``",
        "echo `echo \\$(touch pwn)`",
        "echo \"`echo \\\"\\$(touch pwn)\\\"`\"",
        "cat <<EOF\n`echo \\`touch pwn\\``\nEOF",
    ]);
    assert_read_only(&[
        "echo `echo \\`echo hi\\``",
        "echo `date`",
        "echo \"`echo \\\"hi\\\"`\"",
        "echo `echo '\\$HOME'`",
    ]);
}

#[test]
fn an_ansi_c_string_that_bash_ends_elsewhere_is_refused() {
    // tree-sitter read `$'\\'` as running on past its closing quote.
    assert_not_read_only(&["echo $'\\\\'; touch pwn; echo ''"]);
    assert_read_only(&["echo $'a\\'b' x", "echo $'\\\\' x"]);
}

#[test]
fn a_translated_string_the_parser_splits_is_refused() {
    assert_not_read_only(&["echo -n $\"x\"", "echo a$\"x\""]);
}

#[test]
fn redirections_that_end_a_list_or_pipeline_belong_to_its_last_command() {
    // tree-sitter hangs them on the whole list; bash on the last command, which is where the
    // analyser applies them, a number written against one being its descriptor.
    assert_read_only(&[
        "ls | grep foo 2>/dev/null",
        "ls && cat notes.txt 2>&1",
        "[[ a =~ b ]] || echo x \\\n0<&-",
    ]);
    assert_not_read_only(&[
        "ls | cat 1<x >/dev/stdout",
        "ls && cat 1<>x",
        "ls; echo hi > out.txt",
        "{ ls; } | sort >x",
    ]);
}

#[test]
fn coproc_before_a_reserved_word_is_refused() {
    assert_not_read_only(&["coproc echo { touch pwn; }", "coproc echo fi"]);
    assert_read_only(&["coproc ls"]);
}

#[test]
fn a_continuation_after_an_escaped_blank_joins_the_word_and_is_refused() {
    // bash reads `my\ file.txt`, one word; tree-sitter reads two.
    assert_not_read_only(&["ls \\\nmy\\ \\\nfile.txt", "cat a\\ \\\nb"]);
    assert_read_only(&["ls \\\n  -la"]);
}

#[test]
fn an_escaped_ampersand_at_the_end_of_a_word_is_refused() {
    assert_not_read_only(&["echo a \\&;", "if echo \\&; then ls; fi"]);
    assert_read_only(&["echo a\\&b", "echo \\&\\& x", "echo \\&"]);
}
