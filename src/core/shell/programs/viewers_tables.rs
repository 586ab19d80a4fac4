//! The tables of the viewers and probers ([`super::viewers`]): highlighters with paging off,
//! converters and media probes writing to standard output, capture files read with DNS off,
//! bus listings and the SSH agent's and known hosts' keys.

use super::manuals::{Rule, Table};
use super::viewers::{
    bat, busctl, exiftool, ffprobe, mediainfo, pandoc, ssh_add, ssh_keygen, tcpdump,
};

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "bat", manual: "bat(1)", rule: Rule::Walked(bat),
        reads: &["bat --paging=never notes.txt", "bat -pp src/main.rs", "bat -P -l rust src/lib.rs"],
        refuses: &["bat notes.txt", "bat --paging=always notes.txt", "bat --pager=x -P notes.txt", "bat cache --build"],
    },
    Table {
        program: "batcat", manual: "bat(1), installed as batcat on Debian", rule: Rule::Walked(bat),
        reads: &["batcat --paging=never notes.txt"],
        refuses: &["batcat notes.txt"],
    },
    Table {
        program: "pandoc", manual: "pandoc(1)", rule: Rule::Walked(pandoc),
        reads: &["pandoc -t html README.md", "pandoc README.md -t plain", "pandoc -f markdown -t rst notes.md"],
        refuses: &[
            "pandoc README.md -o x.html", "pandoc --lua-filter=x README.md", "pandoc -F x README.md",
            "pandoc -t pdf README.md", "pandoc https://example.com -t plain", "pandoc -t custom.lua README.md",
        ],
    },
    Table {
        program: "ffprobe", manual: "ffprobe(1)", rule: Rule::Walked(ffprobe),
        reads: &[
            "ffprobe -hide_banner x.mp4", "ffprobe -v error -show_format -of json x.mp4",
            "ffprobe -f mp4 -i x.mp4",
        ],
        refuses: &[
            "ffprobe -report x", "ffprobe http://example.com/x.mp4", "ffprobe -i rtsp://cam/stream",
            "ffprobe -f lavfi -i 'testsrc,frei0r=./evil.so'", "ffprobe -f lavfi nullsrc,zmq",
        ],
    },
    Table {
        program: "mediainfo", manual: "mediainfo(1)", rule: Rule::Walked(mediainfo),
        reads: &["mediainfo x.mp4", "mediainfo --Output=JSON x.mp4"],
        refuses: &["mediainfo --LogFile=x notes.txt", "mediainfo https://example.com/x.mp4"],
    },
    Table {
        program: "exiftool", manual: "exiftool(1p)", rule: Rule::Walked(exiftool),
        reads: &["exiftool x.jpg", "exiftool -j -G x.jpg"],
        refuses: &[
            "exiftool -all= notes.txt", "exiftool -w txt notes.txt", "exiftool -Artist=me x.jpg",
            "exiftool -o out.jpg x.jpg", "exiftool -p '${FileName;system(\"id\")}' x.jpg",
        ],
    },
    Table {
        program: "tcpdump", manual: "tcpdump(8) and pcap-filter(7), tcpdump 4.99.3", rule: Rule::Walked(tcpdump),
        reads: &[
            "tcpdump -nr x.pcap", "tcpdump -n -r x.pcap -c 10 port 80", "tcpdump -nr x.pcap host 10.0.0.1",
            "tcpdump -nr x.pcap 'tcp port http or https'",
        ],
        refuses: &[
            "tcpdump -r x.pcap", "tcpdump -r x.pcap -w y", "tcpdump -i eth0 -n",
            "tcpdump -n -r x.pcap -z sh -w y", "tcpdump -n -r x.pcap host example.com",
            "tcpdump -nr x.pcap 'port 443 and (host api.example.com or 10.0.0.1)'",
            "tcpdump -n -r x.pcap -F filter.txt",
        ],
    },
    Table {
        program: "busctl", manual: "busctl(1), systemd 252", rule: Rule::Walked(busctl),
        reads: &["busctl list", "busctl --no-pager list", "busctl status"],
        refuses: &[
            "busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager Reload",
            "busctl set-property x y z w v", "busctl monitor", "busctl -H host list",
        ],
    },
    Table {
        program: "ssh-add", manual: "ssh-add(1), OpenSSH 9.2p1", rule: Rule::Walked(ssh_add),
        reads: &["ssh-add -l", "ssh-add -L", "ssh-add -l -E md5"],
        refuses: &["ssh-add ~/.ssh/id_ed25519", "ssh-add -D", "ssh-add -d key"],
    },
    Table {
        program: "ssh-keygen", manual: "ssh-keygen(1), OpenSSH 9.2p1", rule: Rule::Walked(ssh_keygen),
        reads: &["ssh-keygen -lf ~/.ssh/known_hosts", "ssh-keygen -F example.invalid -f ~/.ssh/known_hosts"],
        refuses: &[
            "ssh-keygen -t ed25519 -f k -N ''", "ssh-keygen -R example.invalid", "ssh-keygen -H -f ~/.ssh/known_hosts",
            "ssh-keygen -l -D ./pkcs11.so",
        ],
    },
];
