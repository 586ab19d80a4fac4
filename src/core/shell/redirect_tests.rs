//! Redirections judged against the descriptor table, through the whole analyser where the
//! order of several redirections matters.

use super::*;
use crate::core::shell::test_support::{assert_not_read_only, assert_read_only};

fn alone(operator: &str, target: &str) -> Safety {
    judge(
        operator,
        None,
        Some(&Word::literal(target)),
        &mut FdTable::default(),
    )
    .0
}

#[test]
fn writing_to_dev_null_is_harmless_but_to_a_disk_is_not() {
    assert_eq!(alone(">", "/dev/null"), Safety::ReadOnly);
    assert_eq!(alone(">", "/dev/sda"), Safety::Writer);
}

#[test]
fn descriptor_duplication_is_harmless_but_ampersand_to_a_file_writes() {
    assert_eq!(alone(">&", "2"), Safety::ReadOnly);
    assert_eq!(alone(">&", "out.txt"), Safety::Writer);
}

#[test]
fn a_dynamic_target_is_a_write() {
    let mut table = FdTable::default();
    assert_eq!(
        judge(">", None, Some(&Word::dynamic("$(mktemp)")), &mut table).0,
        Safety::Writer
    );
}

#[test]
fn the_standard_devices_pass_output_on_while_their_descriptor_is_inherited() {
    assert_read_only(&[
        "echo hi > /dev/stdout",
        "echo hi > /dev/stderr 2>/dev/null",
        "echo hi 2>/dev/null >/dev/stderr",
        "echo hi >/dev/fd/2",
        "cat f 2>&1 >/dev/stdout",
        "sort -o /dev/stdout f",
        "{ echo a >/dev/stdout; } 2>/dev/null",
        "cat <f >/dev/stdout",
    ]);
}

#[test]
fn an_earlier_redirection_that_rebinds_a_descriptor_makes_its_device_a_file() {
    // Verified under bash 5.2: `echo hi 1<victim >/dev/stdout` truncates victim and writes
    // `hi` into it, because /dev/stdout reopens /proc/self/fd/1 for writing.
    assert_not_read_only(&[
        "echo hi 1<victim >/dev/stdout",
        "echo hi 1<>victim",
        "echo hi 2<victim >/dev/stderr",
        "echo hi 2<victim >/dev/fd/2",
        "echo hi 2<victim 1>&2 >/dev/stdout",
        "echo hi 2<victim &>/dev/stderr",
        "echo hi 3<victim >/dev/fd/3",
        "echo hi >/dev/fd/3",
        "echo hi >&3",
        "sort -o /dev/stdout f 1<victim",
        "sort -o /dev/stderr f 2<victim",
        "uniq f /dev/stdout 1<victim",
        "tee /dev/stderr 2<victim",
        "xxd f /dev/stdout 1<victim",
        "0<&- 1<victim cat >/dev/stdout",
    ]);
}

#[test]
fn a_group_and_exec_rebind_descriptors_for_the_commands_inside_and_after() {
    assert_not_read_only(&[
        "{ echo hi >/dev/stdout; } 1<victim",
        "( echo hi >/dev/stdout ) 1<victim",
        "while read l; do echo \"$l\" >/dev/stdout; done 1<victim",
        "exec 1<victim; echo hi >/dev/stdout",
        "exec 1<victim\necho hi > /dev/stdout",
        "exec 2<victim; sort -o /dev/stderr f",
        "f() { echo hi >/dev/stdout; } 1<victim; f",
        "f() { echo hi >/dev/stdout; }; f 1<victim",
        "f() { echo hi >/dev/stdout; }; exec 1<victim; f",
        "{ exec 1<victim; }; echo hi >/dev/stdout",
    ]);
    // A duplicate of a descriptor opened for reading cannot be written through.
    assert_read_only(&[
        "exec 3<victim; echo hi >&3",
        "echo hi 2<victim 1>&2",
        "{ echo hi >/dev/stdout; } 2>/dev/null",
        "exec 2>/dev/null; echo hi >/dev/stderr",
        "f() { echo hi >/dev/stdout; }; f 2>/dev/null",
    ]);
}

#[test]
fn network_devices_are_not_read_only_in_any_direction() {
    assert_not_read_only(&[
        "cat </dev/tcp/example.com/80",
        "cat < /dev/udp/10.0.0.1/53",
        "exec 3<>/dev/tcp/example.com/80",
        "exec 3</dev/tcp/example.com/80",
        "echo hi >/dev/tcp/127.0.0.1/9",
        "read line </dev/tcp/h/1",
        "{ cat; } </dev/tcp/h/1",
        "cat <\"/dev/tcp/$HOST/80\"",
        "cat <\"$DEVICE\"",
        "cat < $F",
        "cat 3</dev/tcp/h/1 <&3",
    ]);
    assert_read_only(&["cat </dev/null", "cat < ./\"$F\"", "wc -l < notes/tcp.txt"]);
}

#[test]
fn a_dash_output_is_a_file_unless_the_program_reads_it_as_standard_output() {
    // Tried with coreutils 9: these create a file named `-`; uniq, xxd and iconv do not.
    assert_not_read_only(&[
        "echo hi | tee -",
        "sort -o - f",
        "shuf -o - f",
        "dd if=f of=-",
    ]);
    assert_read_only(&["uniq f -", "xxd f -", "iconv -f utf8 -t utf8 -o - f"]);
}
