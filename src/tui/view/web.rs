//! The web panel's box: the pairing link's QR code, the link itself and the certificate's
//! fingerprint under it, and the paired devices. Device names come from the devices' own
//! pairing requests, so they are escaped like agent text.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::overlay::{box_width, centered, key_line, rows_of};
use super::theme;
use crate::core::escape::visible;
use crate::tui::app::App;
use crate::tui::keymap::WEB_KEYS;

pub fn draw_web(frame: &mut Frame, area: Rect, app: &App) {
    let mut lines = Vec::new();
    let mut width = 60u16;
    match &app.web {
        None => lines.push(Line::raw("asking the web console for a link…")),
        Some(panel) => {
            if let Some(why) = &panel.error {
                lines.push(Line::raw(visible(why).into_owned()));
            }
            if let Some((link, qr, secs)) = &panel.link {
                let qr_width = qr.first().map_or(0, |l| l.chars().count());
                width = width.max(u16::try_from(qr_width + 2).unwrap_or(u16::MAX));
                // The QR code fits only where the terminal is wide and tall enough for it.
                let fits = usize::from(area.width) > qr_width + 2
                    && usize::from(area.height) > qr.len() + 10;
                if fits {
                    lines.extend(qr.iter().map(|l| Line::raw(l.clone())));
                } else {
                    lines.push(Line::styled(
                        "(the terminal is too small for the QR code)",
                        theme::dim(),
                    ));
                }
                lines.push(Line::raw(format!(
                    "Open on the phone (pairs once, within {secs} s):"
                )));
                lines.push(Line::raw(link.clone()));
                // The box is made wide enough for the link where the terminal is; else C
                // copies it whole.
                let link_width = u16::try_from(link.chars().count() + 2).unwrap_or(u16::MAX);
                width = width.max(link_width.min(area.width));
                if is_loopback(link) {
                    lines.push(Line::styled(
                        "This is this machine's own address: a phone reaches it only through a \
                         tunnel (ssh -L with this port), or serve --web on a LAN address, over \
                         TLS (check the fingerprint). C copies the link.",
                        theme::dim(),
                    ));
                } else {
                    lines.push(Line::styled("C copies the link.", theme::dim()));
                }
                if let Some(fingerprint) = &panel.fingerprint {
                    lines.push(Line::styled(
                        format!("certificate SHA-256 {fingerprint}"),
                        theme::dim(),
                    ));
                }
            }
            lines.push(Line::raw(""));
            if panel.devices.is_empty() {
                lines.push(Line::raw("No paired devices yet."));
            }
            for (i, name) in panel.devices.iter().enumerate() {
                let style = if i == app.web_focus {
                    theme::focus()
                } else {
                    ratatui::style::Style::default()
                };
                lines.push(Line::styled(visible(name).into_owned(), style));
            }
        }
    }
    lines.push(Line::raw(""));
    lines.push(key_line(WEB_KEYS));
    let inner = usize::from(box_width(area, width).saturating_sub(2)).max(1);
    let rows = rows_of(&lines, inner);
    let popup = centered(area, width, u16::try_from(rows + 2).unwrap_or(u16::MAX));
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" web console ")),
        popup,
    );
}

/// Whether `link` points at this machine's loopback address, which a phone cannot open.
fn is_loopback(link: &str) -> bool {
    let host = link
        .split("://")
        .nth(1)
        .unwrap_or(link)
        .split(['/', '#'])
        .next()
        .unwrap_or("");
    let host = host.rsplit_once(':').map_or(host, |(h, port)| {
        if port.chars().all(|c| c.is_ascii_digit()) {
            h
        } else {
            host
        }
    });
    matches!(host, "localhost" | "[::1]") || host.starts_with("127.")
}
