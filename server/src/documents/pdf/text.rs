//! Text for the built-in Helvetica faces: advance widths, word wrap, truncation with an ellipsis,
//! and the plain text of the catalog's simple HTML (plan names with `<sup>&reg;</sup>`) and of
//! phone numbers. Only layout measures text; everything else in the sheets is words.

use std::sync::OnceLock;

use printpdf::BuiltinFont;

use super::Style;

/// Advance widths (thousandths of an em) of Helvetica and Helvetica-Bold for the characters the
/// built-in fonts can show, read once from printpdf's copies of the faces.
fn widths(bold: bool) -> &'static [u16; 256] {
    static REGULAR: OnceLock<[u16; 256]> = OnceLock::new();
    static BOLD: OnceLock<[u16; 256]> = OnceLock::new();
    let (cell, font) = if bold {
        (&BOLD, BuiltinFont::HelveticaBold)
    } else {
        (&REGULAR, BuiltinFont::Helvetica)
    };
    cell.get_or_init(|| {
        let mut out = [556u16; 256];
        out[32] = 278;
        out[160] = 278;
        if let Some(f) = font.get_parsed_font() {
            let em = f32::from(f.units_per_em.max(1));
            for (c, slot) in out.iter_mut().enumerate().skip(33) {
                let Ok(code) = u32::try_from(c) else { continue };
                if let Some(w) = f
                    .lookup_glyph_index(code)
                    .and_then(|g| f.get_glyph_width(g))
                {
                    *slot = (f32::from(w) * 1000.0 / em).round() as u16;
                }
            }
        }
        out
    })
}

/// The width of `text` in points (Latin-1 characters measured; others as a digit).
pub fn text_width(text: &str, style: Style) -> f32 {
    let w = widths(style.bold);
    let units: u32 = text
        .chars()
        .map(|c| {
            let i = c as usize;
            u32::from(if i < 256 { w[i] } else { 556 })
        })
        .sum();
    units as f32 / 1000.0 * style.size
}

/// Greedy word wrap; a word wider than the line is cut.
pub fn wrap(text: &str, width: f32, style: Style) -> Vec<String> {
    let mut lines = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        for word in para.split_whitespace() {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if text_width(&candidate, style) <= width {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            // The word alone: cut it while it is too wide.
            let mut rest = word.to_string();
            while text_width(&rest, style) > width && rest.chars().count() > 1 {
                let mut cut = String::new();
                for ch in rest.chars() {
                    let mut next = cut.clone();
                    next.push(ch);
                    if text_width(&next, style) > width && !cut.is_empty() {
                        break;
                    }
                    cut = next;
                }
                rest = rest[cut.len()..].to_string();
                lines.push(cut);
            }
            line = rest;
        }
        lines.push(line);
    }
    if lines.is_empty() {
        lines.push(String::new());
    }
    lines
}

/// `text` cut with an ellipsis to fit `width`.
pub(super) fn truncate(text: &str, width: f32, style: Style) -> String {
    if text_width(text, style) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    for ch in text.chars() {
        let mut next = out.clone();
        next.push(ch);
        next.push('\u{2026}');
        if text_width(&next, style) > width {
            break;
        }
        out.push(ch);
    }
    out.push('\u{2026}');
    out
}

/// A US phone number as (xxx) xxx-xxxx; anything else as given.
pub fn format_phone(phone: &str) -> String {
    let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
    let d = match digits.len() {
        11 if digits.starts_with('1') => &digits[1..],
        _ => digits.as_str(),
    };
    if d.len() == 10 {
        format!("({}) {}-{}", &d[..3], &d[3..6], &d[6..])
    } else {
        phone.trim().to_string()
    }
}

/// Plan names may hold simple HTML (`Choice Plus<sup>&reg;</sup>`): the text without tags, the
/// common entities decoded, spaces collapsed.
pub fn plain_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find(['<', '&']) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if rest.starts_with('<') {
            match rest.find('>') {
                Some(end) => rest = &rest[end + 1..],
                None => {
                    out.push_str(rest);
                    rest = "";
                }
            }
            continue;
        }
        let end = rest.find(';').filter(|&e| e <= 10);
        let decoded = end.and_then(|e| entity(&rest[1..e]));
        match (end, decoded) {
            (Some(e), Some(c)) => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn entity(name: &str) -> Option<char> {
    Some(match name {
        "amp" => '&',
        "reg" => '\u{ae}',
        "trade" => '\u{2122}',
        "copy" => '\u{a9}',
        "nbsp" => ' ',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        _ => {
            let n = name.strip_prefix('#')?;
            let code = match n.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => n.parse().ok()?,
            };
            char::from_u32(code)?
        }
    })
}
