use super::*;

fn hosts() -> Hosts {
    Hosts::new(
        "127.0.0.1:7870".parse().unwrap(),
        Some("https://box.example.ts.net:7870"),
    )
}

#[test]
fn a_host_header_naming_this_console_passes() {
    let hosts = hosts();
    for host in [
        "127.0.0.1:7870",
        "localhost:7870",
        "LOCALHOST:7870",
        "[::1]:7870",
        "192.168.1.20:7870",
        "box.example.ts.net:7870",
        "127.0.0.1",
    ] {
        assert!(hosts.allows(host), "{host}");
    }
}

#[test]
fn a_host_header_an_attackers_dns_could_point_here_is_refused() {
    let hosts = hosts();
    for host in [
        "evil.example:7870",
        "evil.example",
        "127.0.0.1.evil.example:7870",
        "localhost:80",
        "127.0.0.1:7871",
        "",
        ":7870",
        "::1:7870",
        "[::1]x",
        "box.example.ts.net.evil:7870",
    ] {
        assert!(!hosts.allows(host), "{host}");
    }
}

#[test]
fn a_link_to_every_interface_names_the_machine() {
    let link = link_host("0.0.0.0:7870".parse().unwrap());
    assert!(
        link.ends_with(":7870") && !link.starts_with("0.0.0.0"),
        "{link}"
    );
    assert_eq!(link_host("10.0.0.5:7870".parse().unwrap()), "10.0.0.5:7870");
}
