//! Per-program judgements, through the public analyser.

use crate::core::shell::test_support::{assert_not_read_only, assert_read_only};

fn check(read_only: &[&str], not_read_only: &[&str]) {
    assert_read_only(read_only);
    assert_not_read_only(not_read_only);
}

#[test]
fn sort_writes_only_with_an_output_file_or_runs_a_compressor() {
    check(
        &[
            "sort -nru f",
            "sort -k2,2 -t: f",
            "sort -o /dev/stdout f",
            "sort -- -o",
        ],
        &[
            "sort -o out f",
            "sort -oout f",
            "sort --output=x f",
            "sort f -o x",
            "sort --out=x f",
            "sort --compress-program=x f",
            "sort $X f",
            "sort *.txt",
        ],
    );
}

#[test]
fn uniq_and_xxd_write_their_second_operand() {
    check(
        &[
            "uniq -c f",
            "xxd -p f",
            "xxd -r -p f",
            "uniq in /dev/stdout",
        ],
        &["uniq a b", "xxd a b", "xxd -r -s 100 a b"],
    );
}

#[test]
fn find_actions_are_judged_and_unknown_tests_refused() {
    check(
        &[
            "find . -name '*.rs' -exec wc -l {} +",
            "find . -type f -print0",
            "find -L . -newermt 2024-01-01",
        ],
        &[
            "find . -delete",
            "find . -exec rm {} +",
            "find . -fprint x",
            "find . -ok cat {} ;",
            "find . -frobnicate",
            "find $D",
            "find . -exec sh -c 'rm $0' {} ;",
        ],
    );
}

#[test]
fn a_find_exec_command_ends_at_a_semicolon_or_at_a_plus_right_after_braces() {
    check(
        &["find . -name a -exec echo X {} + -print"],
        &[
            "find . -name a -exec echo X + -delete ;",
            "find . -exec echo {} + -delete",
            "find . -exec echo {} $P -delete ;",
            "find . -exec echo $S -delete ;",
        ],
    );
}

#[test]
fn git_formats_that_verify_signatures_or_name_a_configured_alias_are_refused() {
    check(
        &[
            "git log --format='%h %s' -3",
            "git log --pretty=oneline",
            "git for-each-ref --format='%(refname)'",
        ],
        &[
            "git log --format='%h %G?'",
            "git show -s --pretty=format:%GK",
            "git log --format %GG",
            "git for-each-ref --format='%(signature)'",
            "git log --pretty=mine",
        ],
    );
}

#[test]
fn sed_scripts_that_write_or_execute_are_found() {
    check(
        &[
            "sed -n 1,5p f",
            "sed 's/a/b/g' f",
            "sed -e 1d -e 2d f",
            "sed --sandbox 's/a/b/w x' f",
            "sed -n '/x/{p;q}' f",
        ],
        &[
            "sed -i s/a/b/ f",
            "sed -ni p f",
            "sed --in-place=.bak s/a/b/ f",
            "sed 's/a/b/w x' f",
            "sed 1e f",
            "sed 's/a/b/e' f",
            "sed -f s.sed f",
            "sed -n 1p *",
            "sed \"$S\" f",
        ],
    );
}

#[test]
fn awk_programs_that_write_or_run_commands_are_found() {
    check(
        &[
            "awk '{print $1}' f",
            "awk 'NR > 1' f",
            "awk -F, -v x=1 '{print x}' f",
            "awk '/a|b/' f",
            "awk '{print $1/2}' f",
        ],
        &[
            "awk '{print > \"x\"}' f",
            "awk '{print | \"sh\"}' f",
            "awk 'BEGIN{system(\"ls\")}'",
            "awk -f x.awk f",
            "awk '\"ls\" | getline'",
            "awk '{x++ / 2; system(\"rm x\") }'",
            "awk \"$P\" f",
        ],
    );
}

#[test]
fn ripgrep_options_that_run_programs_are_refused() {
    check(
        &[
            "rg -n foo src",
            "rg -g '*.rs' -i foo",
            "rg -g\"$G\" foo",
            "rg --files",
            "rg -C3 foo",
        ],
        &[
            "rg --pre x foo",
            "rg -z foo",
            "rg -nz foo",
            "rg --search-zip foo",
            "rg --hostname-bin x foo",
            "rg $P",
            "rg foo *",
        ],
    );
}

#[test]
fn git_read_subcommands_pass_and_their_writing_options_do_not() {
    check(
        &[
            "git log --oneline -5",
            "git -C . status",
            "git diff --stat HEAD~1",
            "git show HEAD:src/lib.rs",
            "git branch -a",
            "git tag -l",
            "git config user.name",
            "git stash list",
            "git diff -- *.rs",
        ],
        &[
            "git log --output=x",
            "git diff --ext-diff",
            "git -c x=y log",
            "git -C ../x log",
            "git -p log",
            "git branch new",
            "git tag v1",
            "git config user.name me",
            "git stash",
            "git push",
            "git fetch",
            "git log *",
            "git grep -O x",
            "git cat-file --textconv HEAD:x",
        ],
    );
}

#[test]
fn archivers_read_only_when_listing_or_writing_to_stdout() {
    check(
        &[
            "tar -tf a.tar",
            "tar tzf a.tgz",
            "tar -cf - src",
            "tar -xOf a.tar x",
            "gzip -dc f.gz",
            "gzip",
            "unzip -l a.zip",
            "7z l a.7z",
            "xz -l f.xz",
        ],
        &[
            "tar -xf a.tar",
            "tar -cf a.tar x",
            "tar -tf a.tar --to-command=sh",
            "tar -c -I sh -f - x",
            "gzip f",
            "gunzip f.gz",
            "unzip a.zip",
            "7z x a.7z",
            "zstd f",
        ],
    );
}

#[test]
fn text_tools_with_output_options_write() {
    check(
        &[
            "base64 -d f",
            "shuf -n 3 f",
            "tree -L 2",
            "file -b f",
            "yq '.a' f.yml",
            "tee",
            "ls | tee /dev/null",
        ],
        &[
            "base64 -o x f",
            "shuf -o x f",
            "tree -o x",
            "file -C -m m",
            "yq -i '.a=1' f",
            "tee x",
            "iconv -f a -t b -o x f",
        ],
    );
}

#[test]
fn system_tools_read_only_in_their_show_forms() {
    check(
        &[
            "date +%s",
            "date -u",
            "hostname",
            "ip addr show",
            "systemctl status x",
            "sysctl kernel.x",
            "iptables -L -n",
            "crontab -l",
            "docker ps -a",
            "journalctl -u x -n 5",
            "dmesg -T",
            "rsync -an a/ b/",
            "patch --dry-run -p1",
            "kill -l",
            "mktemp -u",
        ],
        &[
            "date -s now",
            "date 0101",
            "hostname x",
            "ip link set x up",
            "systemctl restart x",
            "sysctl -w x=1",
            "iptables -F",
            "crontab -r",
            "docker rm x",
            "docker run x",
            "journalctl --vacuum-size=1M",
            "dmesg -C",
            "rsync a/ b/",
            "patch -p1",
            "kill 1",
            "mktemp",
        ],
    );
}

#[test]
fn network_tools_and_project_runners_are_not_read_only() {
    check(
        &[],
        &[
            "curl x",
            "wget x",
            "ping h",
            "dig x",
            "ssh h",
            "npm test",
            "cargo build",
            "make",
            "python x.py",
            "node -e 1",
        ],
    );
}

#[test]
fn read_only_tools_accept_dynamic_words_and_globs() {
    check(
        &[
            "ls $DIR",
            "cat *.md",
            "grep -r \"$P\" src",
            "wc -l $(git ls-files)",
            "head -n 3 src/*.rs",
        ],
        &[],
    );
}
