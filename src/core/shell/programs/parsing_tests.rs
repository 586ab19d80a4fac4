//! Options and operands read the way bash expands them and each program parses them: globs
//! and braces that build options or operands, long-option prefixes, bundles, iproute2's
//! prefix matching, options after operands, and program quirks.

use crate::core::shell::test_support::{assert_not_read_only, assert_read_only};

#[test]
fn a_dash_word_with_a_glob_or_brace_can_become_any_option() {
    // `-{d,}` expands to `-d -`; a file named `-delete` matches `-*`.
    assert_not_read_only(&[
        "unzip -l a.zip -{d,x} /tmp",
        "git log -*",
        "sort -{o,}x f",
        "tar -t{f,} a.tar",
        "date -{s,}",
        "ip -*",
        "uniq -* f",
        "xxd -{r,} f",
        "git diff --out{put,}=x",
        "journalctl -$X",
        "systemctl --$X status",
    ]);
    assert_read_only(&["ls -*", "cat -{n,}", "rg -g\"$VAR\" pattern"]);
}

#[test]
fn a_glob_that_may_add_an_output_operand_is_not_read_only() {
    assert_not_read_only(&[
        "uniq *.txt",
        "uniq in{,.bak}",
        "xxd f*",
        "xxd $F",
        "git config user.name *",
        "git config user.{name,email}",
        "git symbolic-ref HEAD refs/heads/*",
    ]);
    assert_read_only(&["uniq ./\"$F\"", "xxd -- \"$F\"", "git config user.name"]);
}

#[test]
fn a_long_option_is_reachable_by_any_unambiguous_prefix() {
    assert_not_read_only(&[
        "sort --out=x f",
        "sort --outp x f",
        "shuf --outp=x f",
        "iconv --outp=x f",
        "base64 --out x f",
        "hostname --fil=/tmp/x",
        "hostname -Fx",
    ]);
    assert_read_only(&["sort --rev f", "sort --numeric f", "uniq --coun f"]);
}

#[test]
fn git_config_stops_at_its_first_operand() {
    // `git config key value --get` sets key (the last word is a value pattern).
    assert_not_read_only(&[
        "git config user.name x --get",
        "git config core.pager cat -l",
        "git config core.fsmonitor ./x --list",
        "git config user.name --get",
    ]);
    assert_read_only(&[
        "git config --get user.email",
        "git config -l --show-origin",
        "git config --get-regexp '^alias'",
    ]);
}

#[test]
fn ip_matches_objects_and_verbs_by_prefix_in_its_own_order() {
    assert_read_only(&[
        "ip route",
        "ip a",
        "ip a s",
        "ip addr sh dev eth0",
        "ip -s link",
        "ip link sh",
        "ip r g 1.1.1.1",
        "ip n",
        "ip neigh show",
        "ip -br -c a",
        "ip -j route list",
    ]);
    assert_not_read_only(&[
        "ip link s dev eth0 down",
        "ip l s eth0 up",
        "ip n f all",
        "ip r fl cache",
        "ip a a 10.0.0.1/24 dev eth0",
        "ip route del default",
        "ip netns exec x sh",
        "ip -b cmds.txt",
        "ip -batch cmds.txt",
        "ip -r route",
        "ip rule sa",
    ]);
}

#[test]
fn iptables_bundles_are_read_letter_by_letter() {
    assert_read_only(&[
        "iptables -L -n",
        "iptables -nvL",
        "iptables -vnL INPUT",
        "iptables -t nat -nL",
        "iptables -tnat -L",
        "iptables -L --line",
        "iptables -S",
        "ip6tables -nL --line-numbers",
        "iptables-save",
        "iptables-save -t filter -c",
        "nft list ruleset",
        "nft -a list table inet filter",
    ]);
    assert_not_read_only(&[
        "iptables -F",
        "iptables -nZL",
        "iptables -L -Z",
        "iptables -nvF",
        "iptables -L --zero",
        "iptables -L --modprobe=/tmp/x",
        "iptables -A INPUT -j DROP",
        "iptables-save -f /etc/x",
        "iptables-save -M /tmp/x",
        "nft flush ruleset",
        "nft -f rules.nft",
        "nft add table inet x",
        "nft -N list ruleset",
        "nft --reversedns list ruleset",
    ]);
}

#[test]
fn tar_opens_host_colon_path_archives_through_a_remote_shell() {
    assert_not_read_only(&[
        "tar -tf host:archive.tar",
        "tar -t --file=user@host:/a.tar",
        "tar tf h:x",
        "tar -tf \"$ARCHIVE\"",
        "TAPE=host:/a.tar tar -t",
        "tar tfC host:a.tar dir",
        "tar tbf 20 host:a.tar",
        "tar -tIsh -f a.tar",
        "tar tIf sh a.tar",
    ]);
    assert_read_only(&[
        "tar -tf archive.tar",
        "tar -tf ./dir:x.tar",
        "tar --force-local -tf c:x.tar",
        "tar tfC a.tar dir",
        "tar ztf archive.tar.gz",
    ]);
}

#[test]
fn options_that_rerun_the_program_or_change_metadata_are_not_read_only() {
    assert_not_read_only(&[
        "tree -R -L 1 -H .",
        "tree -RL 2",
        "file -p f",
        "file --preserve-date f",
        "file --pres f",
    ]);
    assert_read_only(&["tree -L 2", "tree -J", "file -b f"]);
}

#[test]
fn options_that_reach_another_host_or_another_program_are_not_on_the_lists() {
    assert_not_read_only(&[
        "systemctl -H host status",
        "systemctl --host=h status",
        "systemctl --ho h status",
        "patch --dry-run -e -i x.ed f",
        "zstd -c --rm f",
        "lz4 -c in out",
    ]);
    assert_read_only(&[
        "systemctl status x",
        "patch --dry-run -p1 -i x.diff",
        "zstd -c f",
    ]);
}

#[test]
fn xxd_reads_options_only_before_its_first_operand() {
    // Found by the execution oracle: `xxd notes.txt -u` writes a file named `-u`.
    assert_not_read_only(&[
        "xxd notes.txt -u",
        "xxd -p notes.txt -o",
        "xxd -c - /etc/hostname -ip",
        "xxd -i /dev/stderr -r",
    ]);
    assert_read_only(&[
        "xxd -l 16 notes.txt",
        "xxd -r -p f",
        "xxd -p notes.txt | xxd -r -p",
    ]);
}

#[test]
fn listings_that_look_names_up_in_dns_are_network() {
    // Found by the execution oracle: each of these sent a datagram to a resolver.
    assert_not_read_only(&[
        "hostname -f",
        "hostname --fqdn",
        "hostname -A",
        "hostname -i",
        "hostname -d",
        "lsof -i",
        "lsof -i :22",
        "lsof",
        "netstat -a",
        "netstat -tulp",
        "route",
        "arp -a",
        "arp -as 10.0.0.1 00:11:22:33:44:55",
        "last -d",
        "ss -r",
        "ss --resolve",
    ]);
    assert_read_only(&[
        "hostname",
        "hostname -s",
        "hostname -I",
        "fuser notes.txt",
        "fuser 22/tcp",
        "fuser -v 53/udp",
        "lsof -n -i :22",
        "lsof -nP",
        "netstat -an",
        "netstat -tulpn",
        "netstat -i",
        "route -n",
        "route -nee",
        "arp -n",
        "arp -an",
        "last",
        "ss -tlnp",
    ]);
}

#[test]
fn comparers_that_run_another_program_are_not_read_only() {
    assert_not_read_only(&[
        "diff -l a b",
        "diff -ul a b",
        "diff --paginate a b",
        "diff --pag a b",
        "diff \"$A\" b",
        "diff3 --diff-program=./x a b c",
        "diff3 --diff-prog ./x a b c",
        "git verify-commit HEAD",
        "git verify-tag v1",
    ]);
    assert_read_only(&[
        "diff -u old.rs new.rs",
        "diff -I local a b",
        "diff -Ilocal a b",
        "diff <(sort a.txt) <(sort b.txt)",
        "diff3 a b c",
        "diff -- \"$A\" b",
    ]);
}
