//! A pairing link as a QR code drawn in the terminal, by the `qrcode` crate: two rows of
//! modules per line of text, in half-block characters, with the quiet zone around it.

use qrcode::QrCode;
use qrcode::render::unicode::Dense1x2;

/// The QR code for `link`, as lines of text (dark modules drawn, light ones blank), or `None`
/// if the link is too long for a QR code.
pub fn lines(link: &str) -> Option<Vec<String>> {
    let code = QrCode::new(link.as_bytes()).ok()?;
    let text = code
        .render::<Dense1x2>()
        .dark_color(Dense1x2::Light)
        .light_color(Dense1x2::Dark)
        .quiet_zone(true)
        .build();
    Some(text.lines().map(str::to_string).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_becomes_a_square_code_of_block_characters() {
        let lines = lines("http://127.0.0.1:7870/#pair=0123456789abcdef0123456789abcdef").unwrap();
        let width = lines[0].chars().count();
        assert!(width > 20, "{width}");
        assert!(lines.iter().all(|l| l.chars().count() == width));
        // Two rows of modules per line: about half as many lines as columns.
        assert!(
            lines.len() * 2 >= width && lines.len() * 2 <= width + 2,
            "{}",
            lines.len()
        );
        assert!(lines.concat().chars().all(|c| " ▀▄█".contains(c)));
    }
}
