//! A pairing link as a QR code drawn in the terminal, from the `qrcode` crate's modules: two
//! rows of modules per line of text, in half-block characters, light modules lit (a dark
//! terminal's background is the code's dark), with a quiet zone of [`QUIET`] modules around it.

use qrcode::{Color, QrCode};

/// The quiet zone, in modules. The standard asks for four; phone cameras read a code with two
/// at once, and the two saved each side are what lets the code fit beside the text at 80×24.
pub const QUIET: usize = 2;

/// The QR code for `link`, as lines of text, or `None` if the link is too long for a QR code.
pub fn lines(link: &str) -> Option<Vec<String>> {
    let code = QrCode::new(link.as_bytes()).ok()?;
    let width = code.width();
    let colors = code.to_colors();
    let side = width + 2 * QUIET;
    // Light unless it is a dark module of the code itself.
    let lit = |row: usize, col: usize| {
        let inside = |i: usize| (QUIET..QUIET + width).contains(&i);
        !(inside(row) && inside(col) && colors[(row - QUIET) * width + col - QUIET] == Color::Dark)
    };
    let rows = (0..side).step_by(2).map(|top| {
        (0..side)
            .map(|col| {
                let upper = lit(top, col);
                let lower = top + 1 < side && lit(top + 1, col);
                match (upper, lower) {
                    (true, true) => '█',
                    (true, false) => '▀',
                    (false, true) => '▄',
                    (false, false) => ' ',
                }
            })
            .collect()
    });
    Some(rows.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINK: &str = "http://127.0.0.1:7870/#pair=0123456789abcdef0123456789abcdef";

    #[test]
    fn a_link_becomes_a_square_code_of_block_characters_with_a_lit_quiet_zone() {
        let lines = lines(LINK).unwrap();
        let modules = QrCode::new(LINK.as_bytes()).unwrap().width();
        let width = lines[0].chars().count();
        assert_eq!(width, modules + 2 * QUIET);
        assert!(lines.iter().all(|l| l.chars().count() == width));
        // Two rows of modules per line.
        assert_eq!(lines.len(), width.div_ceil(2));
        assert!(lines.concat().chars().all(|c| " ▀▄█".contains(c)));
        // The quiet zone is lit all round: the first line, and both edge columns.
        assert!(lines[0].chars().all(|c| c == '█'), "{}", lines[0]);
        for line in &lines[..lines.len() - 1] {
            assert_eq!(line.chars().next(), Some('█'), "{line}");
            assert_eq!(line.chars().last(), Some('█'), "{line}");
        }
    }

    /// The drawn characters back into modules (lit is light), as a camera would see them.
    fn modules_of(lines: &[String]) -> Vec<Vec<bool>> {
        let mut rows = Vec::new();
        for line in lines {
            let pairs: Vec<(bool, bool)> = line
                .chars()
                .map(|c| match c {
                    '█' => (true, true),
                    '▀' => (true, false),
                    '▄' => (false, true),
                    _ => (false, false),
                })
                .collect();
            rows.push(pairs.iter().map(|p| p.0).collect());
            rows.push(pairs.iter().map(|p| p.1).collect());
        }
        rows
    }

    #[test]
    fn a_decoder_reads_the_link_back_from_the_drawn_code() {
        for link in [
            LINK,
            "https://192.168.1.20:7870/#pair=ffeeddccbbaa99887766554433221100",
        ] {
            let modules = modules_of(&lines(link).unwrap());
            let side = modules[0].len();
            // Each module as 4×4 pixels, dark where the code is dark, inside a lit margin.
            let scale = 4;
            let mut image =
                rqrr::PreparedImage::prepare_from_greyscale(side * scale, side * scale, |x, y| {
                    match modules[y / scale][x / scale] {
                        true => 255,
                        false => 0,
                    }
                });
            let grids = image.detect_grids();
            assert_eq!(grids.len(), 1, "one code found in {link}");
            let (_, text) = grids[0].decode().expect("the code decodes");
            assert_eq!(text, link);
        }
    }

    #[test]
    fn the_drawn_code_has_the_code_s_own_modules() {
        // The top-left finder pattern: a dark 7×7 ring from the quiet zone's corner.
        let lines = lines(LINK).unwrap();
        let row: Vec<char> = lines[QUIET / 2].chars().collect();
        // Module rows QUIET and QUIET + 1: the finder's dark top edge over its ring's sides,
        // then the light separator column after it.
        let finder: String = row[QUIET..QUIET + 8].iter().collect();
        assert_eq!(finder, " ▄▄▄▄▄ █");
    }
}
