//! The tables of the network tools with a read form ([`super::network`]): socket and route
//! listings with their DNS lookups turned off, `rsync --dry-run` and `openssl` inspection.

use super::manuals::{Rule, Table};
use super::network::{fuser, ifconfig, last, openssl, resolver_lister, route, rsync, ss};

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "ss", manual: "ss(8), iproute2 6.1.0", rule: Rule::Walked(ss),
        reads: &[
            "ss -tlnp", "ss -s", "ss -tan state established", "ss -tn dst 10.0.0.1",
            "ss -o state established '( dport = :ssh or sport = :ssh )'", "ss -xn src /tmp/.X11-unix/*",
        ],
        refuses: &[
            "ss -K dst 10.0.0.1", "ss -tlnr", "ss --kill", "ss -D dump.bin", "ss -n dst example.com",
            "ss -tn '( dst localhost or src 10.0.0.1 )'", "ss -n dst \"$HOST\"", "ss -n -F filter.txt",
        ],
    },
    Table {
        program: "fuser", manual: "fuser(1), psmisc 23.6", rule: Rule::Walked(fuser),
        reads: &["fuser 8080/tcp", "fuser -v 22/tcp", "fuser -m /mnt", "fuser 22,10.0.0.1,22/tcp"],
        refuses: &[
            "fuser -k 8080/tcp", "fuser -km /mnt", "fuser --kill 53/udp", "fuser 22,example.com,22/tcp",
            "fuser -n tcp 22,localhost", "fuser \"$PORT\"/tcp",
        ],
    },
    Table {
        program: "rsync", manual: "rsync(1), rsync 3.5.0", rule: Rule::Walked(rsync),
        reads: &["rsync -av --dry-run src/ dst/", "rsync -n -a src/ x/", "rsync --list-only src/", "rsync -n -a --mkpath src/ new/dir/"],
        refuses: &[
            "rsync -av src/ dst/", "rsync -av src/ host:/dst", "rsync -n -e ssh src/ host:/dst",
            "rsync -n --log-file=r.log src/ dst/", "rsync -n src/ rsync://host/mod/",
        ],
    },
    Table {
        program: "openssl", manual: "openssl(1ssl) and its command pages, OpenSSL 3.0.19",
        rule: Rule::Walked(openssl),
        reads: &[
            "openssl dgst -sha256 file", "openssl version -a", "openssl rand -hex 16",
            "openssl list -digest-commands",
        ],
        refuses: &[
            "openssl s_client -connect example.com:443", "openssl genrsa -out key.pem 2048",
            "openssl rand -out r.bin 16", "openssl x509 -in a.crt -out b.crt", "openssl",
            "openssl x509 -in http://127.0.0.1/c.crt -noout -text", "openssl crl -in http://127.0.0.1/x.crl -noout",
        ],
    },
    Table {
        program: "route", manual: "route(8), net-tools 2.10", rule: Rule::Walked(route),
        reads: &["route -n", "route -ne"],
        refuses: &["route add default gw 10.0.0.1", "route", "route del -net 10.0.0.0/8"],
    },
    Table {
        program: "arp", manual: "arp(8), net-tools 2.10", rule: Rule::Walked(route),
        reads: &["arp -n", "arp -an"],
        refuses: &["arp -s 10.0.0.1 00:11:22:33:44:55", "arp -a", "arp -d 10.0.0.1"],
    },
    Table {
        program: "netstat", manual: "netstat(8), net-tools 2.10", rule: Rule::Walked(resolver_lister),
        reads: &["netstat -an", "netstat -tlnp", "netstat -i"],
        refuses: &["netstat -a", "netstat -tlp", "netstat $OPTS"],
    },
    Table {
        program: "lsof", manual: "lsof(8), lsof 4.95.0", rule: Rule::Walked(resolver_lister),
        reads: &["lsof -n -P -i :8080", "lsof -n notes.txt", "lsof -nP -p 1", "lsof -nP -i @127.0.0.1:22"],
        refuses: &["lsof -i", "lsof notes.txt", "lsof -n -i @example.com", "lsof -n -iTCP@localhost:80", "lsof -n -i \"$ADDR\""],
    },
    Table {
        program: "last", manual: "last(1), util-linux 2.38.1", rule: Rule::Walked(last),
        reads: &["last -n 5", "last reboot"],
        refuses: &["last -d", "last --dns", "last -n 5 -d", "last --dn", "last --d"],
    },
    Table {
        program: "lastb", manual: "last(1), util-linux 2.38.1", rule: Rule::Walked(last),
        reads: &["lastb -n 5"],
        refuses: &["lastb -d", "lastb --dns", "lastb --dn"],
    },
    Table {
        program: "ifconfig", manual: "ifconfig(8), net-tools 2.10", rule: Rule::Walked(ifconfig),
        reads: &["ifconfig", "ifconfig -a", "ifconfig lo"],
        refuses: &["ifconfig eth0 down", "ifconfig lo mtu 1400"],
    },
];
