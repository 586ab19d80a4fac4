//! Everyday read-only modes of programs known for their write modes, and viewers, probers
//! and listings, each beside the forms of the same program that write, run code or reach the
//! network.

use crate::core::shell::test_support::{assert_not_read_only, assert_read_only};

fn check(read_only: &[&str], not_read_only: &[&str]) {
    assert_read_only(read_only);
    assert_not_read_only(not_read_only);
}

#[test]
fn dd_reads_while_it_copies_to_standard_output() {
    check(
        &[
            "dd if=notes.txt status=none",
            "dd if=notes.txt bs=1 count=5 status=none",
            "dd if=notes.txt of=/dev/stdout status=none",
            "dd if=/dev/zero bs=1 count=4 status=none | od -c",
            "dd if=f skip=1 bs=2 count=2 2>/dev/null",
        ],
        &[
            "dd if=a of=b",
            "dd if=a of=/dev/stdout 1<victim",
            "dd if=a of=/dev/sda",
            "dd if=a $OPTS",
            "dd if=a of=$OUT",
            "dd if=a {of=b,}",
            "dd if=a foo=bar",
        ],
    );
}

#[test]
fn signal_zero_only_checks_that_a_process_exists() {
    check(
        &["kill -0 1234", "kill -s 0 1234", "kill -0 $$"],
        &[
            "kill 1234",
            "kill -9 1234",
            "kill -0 -1",
            "kill -s 0 -- -1",
            "kill -0 \"$PID\"",
        ],
    );
}

#[test]
fn a_dry_run_wins_over_force() {
    check(
        &[
            "git clean -fn",
            "git clean -n -f",
            "git clean -ndx",
            "rsync -n --delete --force src/ dst/",
            "patch --dry-run --force -p1 -i x.diff",
        ],
        &[
            "git clean -f",
            "git clean -fd",
            "git clean -n -i",
            "rsync --delete --force src/ dst/",
        ],
    );
}

#[test]
fn attached_option_values_are_values() {
    check(
        &[
            "git tag -n5",
            "git tag -n5 v2",
            "git tag -n",
            "date -Iseconds",
            "date -I",
            "date -u +%Y-%m-%dT%H:%M:%S",
            "date -d@1700000000 +%s",
        ],
        &[
            "git tag -n5 -d v2",
            "git tag v2",
            "date -s 2020-01-01",
            "date -us now",
        ],
    );
}

#[test]
fn git_read_forms_order_files_and_show_remotes_without_querying() {
    check(
        &[
            "git diff -O/dev/null",
            "git diff -Onotes.txt HEAD~1",
            "git log -O order.txt -1",
            "git remote show -n origin",
        ],
        &[
            "git remote show origin",
            "git diff -O$F",
            "git remote show -n origin --foo",
        ],
    );
}

#[test]
fn sed_in_place_is_reachable_by_a_prefix() {
    assert_not_read_only(&[
        "sed --in 1p notes.txt",
        "sed --in-pl=.bak 1p notes.txt",
        "sed --in-place 1p f",
    ]);
}

#[test]
fn viewers_with_paging_off_and_converters_to_standard_output_read() {
    check(
        &[
            "bat --paging=never notes.txt",
            "bat -p --paging=never notes.txt",
            "batcat -pp notes.txt",
            "bat -P -n f.rs",
            "pandoc README.md -t plain",
            "pandoc -f markdown -t html README.md",
        ],
        &[
            "bat notes.txt",
            "bat --pager=sh notes.txt",
            "bat --paging=always f",
            "bat cache --build",
            "pandoc -o out.html README.md",
            "pandoc -t custom.lua README.md",
            "pandoc -f reader.lua README.md",
            "pandoc --lua-filter f.lua README.md",
            "pandoc --filter ./x README.md",
            "pandoc https://example.com/x.md",
            "pandoc -t pdf README.md",
            "pandoc --extract-media=dir README.md",
        ],
    );
}

#[test]
fn media_and_metadata_probers_read_local_files() {
    check(
        &[
            "ffprobe -v error -show_format x.mp4",
            "ffprobe -hide_banner x.mp4",
            "ffprobe -v quiet -of json -show_streams -i x.mkv",
            "mediainfo x.mp4",
            "mediainfo --Output=JSON x.mp4",
            "exiftool x.jpg",
            "exiftool -j -G x.jpg",
        ],
        &[
            "ffprobe http://example.com/x.mp4",
            "ffprobe -report x.mp4",
            "ffprobe -o out.txt x.mp4",
            "ffprobe concat:a.mp4|b.mp4",
            "mediainfo --LogFile=out.txt x.mp4",
            "mediainfo https://example.com/x.mp4",
            "exiftool -Artist=me x.jpg",
            "exiftool -o out.jpg x.jpg",
            "exiftool -if '$Make' x.jpg",
            "exiftool -@ args.txt",
            "exiftool -p '${Make;system(\"id\")}' x.jpg",
        ],
    );
}

#[test]
fn capture_files_are_read_without_name_lookups() {
    check(
        &[
            "tcpdump -nr x.pcap",
            "tcpdump -n -r x.pcap port 80",
            "tcpdump -nn -r x.pcap -c 5",
        ],
        &[
            "tcpdump -r x.pcap",
            "tcpdump -n",
            "tcpdump -i eth0",
            "tcpdump -nr x.pcap -w out.pcap",
            "tcpdump -nr x.pcap -z ./x",
        ],
    );
}

#[test]
fn multiplexer_agent_and_bus_listings_read() {
    check(
        &[
            "tmux list-sessions",
            "tmux ls",
            "tmux list-windows -a",
            "tmux list-panes -a -F '#{pane_id}'",
            "tmux capture-pane -p",
            "tmux capture-pane -p -t main -S -100",
            "ssh-add -l",
            "ssh-add -L",
            "ssh-add -E sha256 -l",
            "busctl list",
            "busctl --no-pager list",
            "ssh-keygen -l -f ~/.ssh/known_hosts",
            "ssh-keygen -lf ~/.ssh/known_hosts",
            "ssh-keygen -F example.invalid -f ~/.ssh/known_hosts",
        ],
        &[
            "tmux",
            "tmux new -d",
            "tmux capture-pane",
            "tmux kill-server",
            "tmux -L other ls",
            "tmux -f conf ls",
            "tmux ls -F '#(id)'",
            "tmux ls \\; kill-server",
            "ssh-add key",
            "ssh-add -D",
            "ssh-add -d key",
            "busctl call org.x /x org.x Y",
            "busctl monitor",
            "busctl -H host list",
            "ssh-keygen -R host -f ~/.ssh/known_hosts",
            "ssh-keygen -H -f ~/.ssh/known_hosts",
            "ssh-keygen -t ed25519",
            "ssh-keygen -D ./lib.so",
        ],
    );
}

#[test]
fn package_listings_read_unless_they_may_reach_an_index() {
    check(
        &[
            "apt list --installed",
            "apt list --installed 2>/dev/null | head -3",
            "apt show bash",
            "apt policy bash",
            "dpkg -l",
            "dpkg -L bash",
            "dpkg -s bash",
            "pip show pip",
            "pip freeze",
            "pip3 freeze --all",
            "pip list --disable-pip-version-check",
            "pip list --no-index",
            "cargo install --list",
            "cargo tree --frozen",
            "cargo tree --offline --locked -e normal",
            "update-alternatives --display editor",
            "update-alternatives --query editor",
            "update-alternatives --list editor",
        ],
        &[
            "apt install x",
            "apt update",
            "apt list --installed -o Dir=/tmp",
            "pip list",
            "pip list --outdated",
            "pip install x",
            "pip show x --index-url http://x",
            "npm ls",
            "npm ls --depth=0",
            "npm install",
            "npm ls --no-update-notifier",
            "npm ls --depth=0 --update-notifier=false",
            "cargo tree",
            "cargo tree --frozen --manifest-path ../x/Cargo.toml",
            "cargo install ripgrep",
            "cargo build",
            "update-alternatives --set editor /bin/ed",
            "update-alternatives --config editor",
            "update-alternatives --display editor --altdir /tmp",
        ],
    );
}

#[test]
fn git_hashes_checks_packs_and_checks_the_database_without_writing() {
    check(
        &[
            "git hash-object README.md",
            "git hash-object --stdin < README.md",
            "git hash-object -t blob --no-filters README.md",
            "git verify-pack -v .git/objects/pack/pack-1.idx",
            "git fsck",
            "git fsck --unreachable --no-reflogs",
        ],
        &[
            "git hash-object -w README.md",
            "git hash-object -w --stdin",
            "git hash-object -wt blob x",
            "git fsck --lost-found",
            "git fsck --lost",
        ],
    );
}

#[test]
fn openssl_prints_random_bytes_base64_and_ciphers_only_to_standard_output() {
    check(
        &[
            "openssl rand -hex 16",
            "openssl rand -base64 32",
            "openssl base64 -in data.bin",
            "openssl base64 -d -in data.b64",
            "echo aGk= | openssl base64 -d",
            "openssl enc -aes-256-cbc -pbkdf2 -in notes.txt -pass pass:x -a",
            "openssl enc -d -aes-256-cbc -pbkdf2 -iter 100000 -in notes.enc -pass env:KEY",
            "echo hi | openssl enc -chacha20 -K 00 -iv 00",
        ],
        &[
            "openssl enc -aes-256-cbc -in notes.txt -out notes.enc -pass pass:x",
            "openssl enc -aes-256-cbc -engine evil -in x",
            "openssl enc -d -aes-256-cbc -in ~/.ssh/id_rsa.enc -pass pass:x",
            "openssl enc -aes-256-cbc -in \"$F\"",
            "openssl rand -out key.bin 32",
            "openssl rand -writerand seed 16",
            "openssl rand -engine x 16",
            "openssl base64 -d -in a.b64 -out a.bin",
            "openssl rand $N",
        ],
    );
}
