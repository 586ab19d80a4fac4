//! The web panel's box: the pairing link's QR code, the link itself and the certificate's
//! fingerprint under it, and the paired devices. Device names come from the devices' own
//! pairing requests, so they are escaped like agent text.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::overlay::{box_width, centered, draw_lines, key_line, rows_of};
use super::theme;
use crate::core::escape::visible;
use crate::tui::app::App;
use crate::tui::keymap::WEB_KEYS;

/// The panel's parts: the QR code when there is a link, the lines about the link (the link
/// itself apart, so it can have a row of its own), and the devices.
struct Parts {
    qr: Vec<String>,
    link: Option<String>,
    about: Vec<Line<'static>>,
    devices: Vec<Line<'static>>,
}

fn parts(app: &App) -> Parts {
    let mut parts = Parts {
        qr: Vec::new(),
        link: None,
        about: Vec::new(),
        devices: Vec::new(),
    };
    let Some(panel) = &app.web else {
        parts
            .about
            .push(Line::raw("asking the web console for a link…"));
        return parts;
    };
    if let Some(why) = &panel.error {
        parts.about.push(Line::raw(visible(why).into_owned()));
    }
    if let Some((link, qr, secs)) = &panel.link {
        parts.qr = qr.clone();
        parts.link = Some(link.clone());
        parts.about.push(Line::raw(format!(
            "Open on the phone (pairs once, within {secs} s):"
        )));
        let how = match is_loopback(link) {
            true => {
                "This is this machine's own address: a phone reaches it only through a tunnel \
                 (ssh -L with this port), or serve --web on a LAN address, over TLS (check the \
                 fingerprint). C copies the link."
            }
            false => "C copies the link.",
        };
        parts.about.push(Line::styled(how, theme::dim()));
        if let Some(fingerprint) = &panel.fingerprint {
            parts.about.push(Line::styled(
                format!("certificate SHA-256 {fingerprint}"),
                theme::dim(),
            ));
        }
    }
    if panel.devices.is_empty() {
        parts.devices.push(Line::raw("No paired devices yet."));
    }
    for (i, name) in panel.devices.iter().enumerate() {
        let style = match i == app.web_focus {
            true => theme::focus(),
            false => ratatui::style::Style::default(),
        };
        parts
            .devices
            .push(Line::styled(visible(name).into_owned(), style));
    }
    parts
}

/// The text column beside the QR code is at least this wide.
const BESIDE: u16 = 34;

/// The box: the QR code above the text where the terminal is tall enough, beside it (with the
/// link on a row of its own under both, and the keys left to the footer) where it is only wide
/// enough, else the text alone,
/// saying the code does not fit. The link is never wrapped where the terminal is wide enough
/// for it.
pub fn draw_web(frame: &mut Frame, area: Rect, app: &App) {
    let parts = parts(app);
    let qr_width = u16::try_from(parts.qr.first().map_or(0, |l| l.chars().count())).unwrap_or(0);
    let qr_rows = u16::try_from(parts.qr.len()).unwrap_or(u16::MAX);
    let link_width = parts.link.as_ref().map_or(0, |l| l.chars().count());
    let link_width = u16::try_from(link_width).unwrap_or(u16::MAX);
    let width = 60
        .max(qr_width + 2)
        .max(link_width.saturating_add(2).min(area.width));
    let inner = box_width(area, width).saturating_sub(2).max(1);
    let link_line = || parts.link.iter().map(|l| Line::raw(l.clone()));
    let keys = || [Line::raw(""), key_line(WEB_KEYS)];

    // Stacked: the code, the link, what it is, the devices, the keys.
    let mut stacked: Vec<Line<'static>> = parts.qr.iter().map(|l| Line::raw(l.clone())).collect();
    stacked.extend(parts.about.first().cloned());
    stacked.extend(link_line());
    stacked.extend(parts.about.iter().skip(1).cloned());
    stacked.push(Line::raw(""));
    stacked.extend(parts.devices.iter().cloned());
    stacked.extend(keys());
    let stacked_rows = u16::try_from(rows_of(&stacked, usize::from(inner))).unwrap_or(u16::MAX);
    if parts.qr.is_empty() || stacked_rows + 2 <= area.height {
        return draw_lines(frame, area, width, " web console ", stacked);
    }

    // Beside: the code on the left, the text on its right, the link and the keys under both.
    let beside_width = qr_width + 1 + BESIDE + 2;
    let mut text = parts.about.clone();
    text.push(Line::raw(""));
    text.extend(parts.devices.iter().cloned());
    let text_width = usize::from(area.width.min(width.max(beside_width)) - 2 - qr_width - 1);
    let text_rows = u16::try_from(rows_of(&text, text_width.max(1))).unwrap_or(u16::MAX);
    let top = qr_rows.max(text_rows);
    // Only the link under both: the footer under the box offers its keys.
    let below = 1;
    if area.width >= beside_width && top + below + 2 <= area.height {
        let width = width.max(beside_width);
        let popup = centered(area, width, top + below + 2);
        frame.render_widget(Clear, popup);
        let block = Block::bordered().title(" web console ");
        let inside = block.inner(popup);
        frame.render_widget(block, popup);
        let [upper, lower] =
            Layout::vertical([Constraint::Length(top), Constraint::Fill(1)]).areas(inside);
        let [left, _, right] = Layout::horizontal([
            Constraint::Length(qr_width),
            Constraint::Length(1),
            Constraint::Fill(1),
        ])
        .areas(upper);
        let qr: Vec<Line> = parts.qr.iter().map(|l| Line::raw(l.clone())).collect();
        frame.render_widget(Paragraph::new(qr), left);
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }), right);
        let under: Vec<Line> = link_line().collect();
        frame.render_widget(Paragraph::new(under).wrap(Wrap { trim: false }), lower);
        return;
    }

    // Neither fits: the text alone.
    let mut lines = vec![Line::styled(
        "(the terminal is too small for the QR code)",
        theme::dim(),
    )];
    lines.extend(stacked.into_iter().skip(parts.qr.len()));
    draw_lines(frame, area, width, " web console ", lines);
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
