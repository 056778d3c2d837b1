//! PDF sheets: a small layout helper over printpdf (0.12, built-in Helvetica, no html engine).
//!
//! A [`Sheet`] is a US Letter document with margins, a branded header on every page (agency, agent,
//! phone, e-mail, NPN, the sheet's title and date), a footer line with "Page N of M", headings,
//! wrapped paragraphs and tables whose rows wrap and which continue on the next page with their
//! header repeated. Text is real PDF text (WinAnsi-encoded built-in fonts), so `pdftotext` reads
//! it back. printpdf draws a list of `Op`s per page with the origin at the bottom left; this module
//! keeps a cursor `y` that moves down from the top margin.

mod evidence;
mod text;

pub use evidence::evidence;

use text::truncate;
pub use text::{format_phone, plain_text, text_width, wrap};

use printpdf::{
    BuiltinFont, Color, Line, LinePoint, Mm, Op, PaintMode, PdfDocument, PdfFontHandle, PdfPage,
    PdfSaveOptions, Point, Pt, Rect, Rgb, TextItem,
};

/// US Letter in points.
const LETTER: (f32, f32) = (612.0, 792.0);
const MARGIN: f32 = 36.0;
/// The header takes this much from the top margin down.
const HEADER_HEIGHT: f32 = 62.0;
/// Nothing of the body goes below this (the footer lives under it).
const BODY_BOTTOM: f32 = MARGIN + 26.0;

const BODY_SIZE: f32 = 9.5;
const CELL_SIZE: f32 = 8.0;
const CELL_LEADING: f32 = 10.0;
const CELL_PAD_X: f32 = 3.0;
const CELL_PAD_Y: f32 = 3.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orientation {
    Portrait,
    Landscape,
}

/// The words of a sheet's frame in its language: templates with `{name}`, `{npn}`, `{n}` and
/// `{count}` (`app::printing::words`).
#[derive(Debug, Clone)]
pub struct Labels {
    pub agent: String,
    pub npn: String,
    pub page: String,
}

impl Default for Labels {
    fn default() -> Self {
        Self {
            agent: "Agent: {name}".into(),
            npn: "NPN {npn}".into(),
            page: "Page {n} of {count}".into(),
        }
    }
}

/// Who the sheet is presented by (the site's agent).
#[derive(Debug, Clone, Default)]
pub struct Branding {
    pub agency_name: String,
    pub agent_name: String,
    /// As stored (digits); shown as (xxx) xxx-xxxx.
    pub phone: String,
    pub email: String,
    pub npn: String,
    pub address_lines: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

#[derive(Debug, Clone)]
pub struct Column {
    pub title: String,
    /// Relative width (points, say): the table shares the body's width by these weights.
    pub weight: f32,
    pub align: Align,
}

impl Column {
    pub fn left(title: &str, weight: f32) -> Self {
        Self {
            title: title.to_string(),
            weight,
            align: Align::Left,
        }
    }
    pub fn right(title: &str, weight: f32) -> Self {
        Self {
            title: title.to_string(),
            weight,
            align: Align::Right,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct Table {
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    pub bold: bool,
    pub size: f32,
    /// Grey level of the text (0 black).
    pub grey: f32,
}

impl Style {
    pub const BODY: Style = Style {
        bold: false,
        size: BODY_SIZE,
        grey: 0.0,
    };
    pub const STRONG: Style = Style {
        bold: true,
        size: BODY_SIZE,
        grey: 0.0,
    };
    pub const HEADING: Style = Style {
        bold: true,
        size: 12.0,
        grey: 0.0,
    };
    pub const NOTE: Style = Style {
        bold: false,
        size: 8.0,
        grey: 0.35,
    };
}

/// A document being laid out.
pub struct Sheet {
    title: String,
    branding: Branding,
    labels: Labels,
    date: String,
    footer: String,
    width: f32,
    height: f32,
    pages: Vec<Vec<Op>>,
    /// The page being drawn on.
    page: usize,
    /// The next line's top, in points from the bottom.
    y: f32,
}

impl Sheet {
    /// A sheet with its first page started; `date` is shown as given ("November 20, 2024").
    pub fn new(
        title: &str,
        branding: Branding,
        labels: Labels,
        date: &str,
        footer: &str,
        orientation: Orientation,
    ) -> Self {
        let (width, height) = match orientation {
            Orientation::Portrait => LETTER,
            Orientation::Landscape => (LETTER.1, LETTER.0),
        };
        let mut s = Self {
            title: title.to_string(),
            branding,
            labels,
            date: date.to_string(),
            footer: footer.to_string(),
            width,
            height,
            pages: Vec::new(),
            page: 0,
            y: 0.0,
        };
        s.new_page();
        s
    }

    /// The width between the margins.
    pub fn body_width(&self) -> f32 {
        self.width - 2.0 * MARGIN
    }

    fn ops(&mut self) -> &mut Vec<Op> {
        if self.pages.is_empty() {
            self.pages.push(Vec::new());
        }
        let i = self.page.min(self.pages.len() - 1);
        &mut self.pages[i]
    }

    /// Starts a page and draws its header.
    pub fn new_page(&mut self) {
        self.pages.push(Vec::new());
        self.page = self.pages.len() - 1;
        let top = self.height - MARGIN;
        let left = MARGIN;
        let right = self.width - MARGIN;
        let b = self.branding.clone();
        let title_style = Style::HEADING;
        let small = Style {
            bold: false,
            size: 9.0,
            grey: 0.2,
        };
        let agency = Style {
            bold: true,
            size: 14.0,
            grey: 0.0,
        };
        self.text_at(left, top - 14.0, agency, &b.agency_name);
        let title = self.title.clone();
        let tw = text_width(&title, title_style);
        self.text_at(right - tw, top - 14.0, title_style, &title);

        let mut agent = self.labels.agent.replace("{name}", &b.agent_name);
        if !b.npn.is_empty() {
            agent.push_str("  \u{b7}  ");
            agent.push_str(&self.labels.npn.replace("{npn}", &b.npn));
        }
        self.text_at(left, top - 28.0, small, &agent);
        let date = self.date.clone();
        let dw = text_width(&date, small);
        self.text_at(right - dw, top - 28.0, small, &date);

        let contact: Vec<String> = [format_phone(&b.phone), b.email.clone()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect();
        let contact = contact.join("  \u{b7}  ");
        self.text_at(left, top - 40.0, small, &contact);
        let address = b.address_lines.join(", ");
        let aw = text_width(&address, small);
        if !address.is_empty() && text_width(&contact, small) + aw + 24.0 < right - left {
            self.text_at(right - aw, top - 40.0, small, &address);
        }
        self.rule(top - 48.0, 0.8, 0.3);
        self.y = top - HEADER_HEIGHT;
    }

    /// Moves to a new page unless `height` more points fit on this one.
    pub fn ensure(&mut self, height: f32) {
        if self.y - height < BODY_BOTTOM {
            self.new_page();
        }
    }

    pub fn space(&mut self, points: f32) {
        self.y -= points;
    }

    /// A bold heading, kept with at least `keep` points of what follows.
    pub fn heading(&mut self, text: &str) {
        self.heading_keep(text, 40.0);
    }

    pub fn heading_keep(&mut self, text: &str, keep: f32) {
        let style = Style::HEADING;
        self.ensure(style.size * 1.3 + 6.0 + keep);
        self.space(4.0);
        self.paragraph(style, text);
        self.space(2.0);
    }

    /// Text wrapped to the body's width.
    pub fn paragraph(&mut self, style: Style, text: &str) {
        let lines = wrap(text, self.body_width(), style);
        let leading = style.size * 1.3;
        for line in lines {
            self.ensure(leading);
            let y = self.y - style.size;
            self.text_at(MARGIN, y, style, &line);
            self.y -= leading;
        }
    }

    /// Label and value on one line (the value may wrap), e.g. "Effective date: January 1, 2025".
    pub fn field(&mut self, label: &str, value: &str) {
        let style = Style::BODY;
        let label = format!("{label}: ");
        let lw = text_width(&label, Style::STRONG);
        let lines = wrap(value, self.body_width() - lw, style);
        let leading = style.size * 1.3;
        for (i, line) in lines.iter().enumerate() {
            self.ensure(leading);
            let y = self.y - style.size;
            if i == 0 {
                self.text_at(MARGIN, y, Style::STRONG, &label);
            }
            self.text_at(MARGIN + lw, y, style, line);
            self.y -= leading;
        }
    }

    /// A table; it goes on over as many pages as it needs, its header row on top of each.
    pub fn table(&mut self, t: &Table) {
        let total: f32 = t.columns.iter().map(|c| c.weight.max(0.1)).sum();
        let widths: Vec<f32> = t
            .columns
            .iter()
            .map(|c| c.weight.max(0.1) / total * self.body_width())
            .collect();
        let header: Vec<String> = t.columns.iter().map(|c| c.title.clone()).collect();
        let bold = Style {
            bold: true,
            size: CELL_SIZE,
            grey: 0.0,
        };
        let plain = Style {
            bold: false,
            size: CELL_SIZE,
            grey: 0.0,
        };
        let header_cells = layout_row(&header, &widths, bold);
        let header_h = row_height(&header_cells);
        let first_h = t
            .rows
            .first()
            .map_or(0.0, |r| row_height(&layout_row(r, &widths, plain)));
        self.ensure(header_h + first_h);
        self.draw_row(t, &widths, &header_cells, bold, true);
        for (i, row) in t.rows.iter().enumerate() {
            let cells = layout_row(row, &widths, plain);
            let h = row_height(&cells);
            if self.y - h < BODY_BOTTOM {
                self.new_page();
                self.draw_row(t, &widths, &header_cells, bold, true);
            }
            if i % 2 == 1 {
                self.fill_rect(MARGIN, self.y - h, self.body_width(), h, 0.95);
            }
            self.draw_row(t, &widths, &cells, plain, false);
        }
    }

    fn draw_row(
        &mut self,
        t: &Table,
        widths: &[f32],
        cells: &[Vec<String>],
        style: Style,
        header: bool,
    ) {
        let h = row_height(cells);
        let top = self.y;
        if header {
            self.fill_rect(MARGIN, top - h, self.body_width(), h, 0.86);
        }
        let mut x = MARGIN;
        for (i, lines) in cells.iter().enumerate() {
            let w = widths[i];
            let align = t.columns.get(i).map_or(Align::Left, |c| c.align);
            for (n, line) in lines.iter().enumerate() {
                let base = top - CELL_PAD_Y - CELL_SIZE - n as f32 * CELL_LEADING + 1.0;
                let tx = match align {
                    Align::Left => x + CELL_PAD_X,
                    Align::Right => x + w - CELL_PAD_X - text_width(line, style),
                };
                self.text_at(tx, base, style, line);
            }
            x += w;
        }
        self.y -= h;
        self.rule(self.y, if header { 0.6 } else { 0.3 }, 0.6);
    }

    fn text_at(&mut self, x: f32, y: f32, style: Style, text: &str) {
        if text.is_empty() {
            return;
        }
        let font = if style.bold {
            BuiltinFont::HelveticaBold
        } else {
            BuiltinFont::Helvetica
        };
        let ops = self.ops();
        ops.push(Op::SetFillColor {
            col: grey(style.grey),
        });
        ops.push(Op::StartTextSection);
        ops.push(Op::SetFont {
            font: PdfFontHandle::Builtin(font),
            size: Pt(style.size),
        });
        ops.push(Op::SetTextCursor {
            pos: Point { x: Pt(x), y: Pt(y) },
        });
        ops.push(Op::ShowText {
            items: vec![TextItem::Text(text.to_string())],
        });
        ops.push(Op::EndTextSection);
    }

    fn rule(&mut self, y: f32, thickness: f32, level: f32) {
        let (l, r) = (MARGIN, self.width - MARGIN);
        let ops = self.ops();
        ops.push(Op::SetOutlineColor { col: grey(level) });
        ops.push(Op::SetOutlineThickness { pt: Pt(thickness) });
        ops.push(Op::DrawLine {
            line: Line {
                points: vec![
                    LinePoint {
                        p: Point { x: Pt(l), y: Pt(y) },
                        bezier: false,
                    },
                    LinePoint {
                        p: Point { x: Pt(r), y: Pt(y) },
                        bezier: false,
                    },
                ],
                is_closed: false,
            },
        });
    }

    fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, level: f32) {
        let ops = self.ops();
        ops.push(Op::SetFillColor { col: grey(level) });
        ops.push(Op::DrawRectangle {
            rectangle: Rect {
                x: Pt(x),
                y: Pt(y),
                width: Pt(w),
                height: Pt(h),
                mode: Some(PaintMode::Fill),
                winding_order: None,
            },
        });
    }

    /// The number of pages so far.
    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// Adds the footers ("Page N of M") and writes the PDF, created at `created` (the clock's
    /// time: the document's creation and modification dates).
    pub fn finish(mut self, created: time::OffsetDateTime) -> Vec<u8> {
        let count = self.pages.len();
        let note = Style::NOTE;
        for n in 0..count {
            let page = self
                .labels
                .page
                .replace("{n}", &(n + 1).to_string())
                .replace("{count}", &count.to_string());
            let pw = text_width(&page, note);
            let right = self.width - MARGIN;
            let footer = truncate(&self.footer, right - MARGIN - pw - 18.0, note);
            self.page = n;
            self.rule(MARGIN + 14.0, 0.5, 0.6);
            self.text_at(MARGIN, MARGIN + 3.0, note, &footer);
            self.text_at(right - pw, MARGIN + 3.0, note, &page);
        }
        let mut doc = PdfDocument::new(&self.title);
        doc.metadata.info.author = self.branding.agency_name.clone();
        doc.metadata.info.creator = "Enrollflow".into();
        if let Ok(at) = printpdf::OffsetDateTime::from_unix_timestamp(created.unix_timestamp()) {
            doc.metadata.info.creation_date = at;
            doc.metadata.info.modification_date = at;
            doc.metadata.info.metadata_date = at;
        }
        let (w, h) = (Mm::from(Pt(self.width)), Mm::from(Pt(self.height)));
        let pages = self
            .pages
            .into_iter()
            .map(|ops| PdfPage::new(w, h, ops))
            .collect();
        let mut warnings = Vec::new();
        doc.with_pages(pages)
            .save(&PdfSaveOptions::default(), &mut warnings)
    }
}

fn grey(level: f32) -> Color {
    Color::Rgb(Rgb {
        r: level,
        g: level,
        b: level,
        icc_profile: None,
    })
}

fn layout_row(row: &[String], widths: &[f32], style: Style) -> Vec<Vec<String>> {
    widths
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let text = row.get(i).map_or("", String::as_str);
            wrap(text, w - 2.0 * CELL_PAD_X, style)
        })
        .collect()
}

fn row_height(cells: &[Vec<String>]) -> f32 {
    let lines = cells.iter().map(Vec::len).max().unwrap_or(1).max(1);
    lines as f32 * CELL_LEADING + 2.0 * CELL_PAD_Y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_in_plan_names_becomes_plain_text() {
        assert_eq!(
            plain_text("UnitedHealthcare Choice Plus<sup>&reg;</sup> Silver PPO"),
            "UnitedHealthcare Choice Plus\u{ae} Silver PPO"
        );
        assert_eq!(
            plain_text("A&amp;B <b>Plan</b>&trade;&nbsp;Gold &#174; &#x2122;"),
            "A&B Plan\u{2122} Gold \u{ae} \u{2122}"
        );
        assert_eq!(
            plain_text("Tom & Jerry &bogus; <unclosed"),
            "Tom & Jerry &bogus; <unclosed"
        );
    }

    #[test]
    fn phones_read_like_us_numbers() {
        assert_eq!(format_phone("7345550142"), "(734) 555-0142");
        assert_eq!(format_phone("1-734-555-0142"), "(734) 555-0142");
        assert_eq!(format_phone("555-01"), "555-01");
    }

    #[test]
    fn text_is_measured_and_wrapped() {
        let s = Style::BODY;
        // Helvetica: "a" is 556/1000 em, "i" 222.
        assert!((text_width("a", s) - 0.556 * BODY_SIZE).abs() < 0.05);
        assert!(text_width("iiii", s) < text_width("MMMM", s));
        let lines = wrap(
            "one two three four five six",
            text_width("one two three", s),
            s,
        );
        assert_eq!(lines, vec!["one two three", "four five six"]);
        let cut = wrap("abcdefghij", text_width("abcd", s), s);
        assert!(cut.len() >= 3 && cut.concat() == "abcdefghij", "{cut:?}");
    }

    #[test]
    fn a_long_table_repeats_its_header_and_pages_are_numbered() {
        let mut sheet = Sheet::new(
            "Test",
            Branding {
                agency_name: "Acme".into(),
                ..Branding::default()
            },
            Labels::default(),
            "January 1, 2025",
            "footer",
            Orientation::Portrait,
        );
        let table = Table {
            columns: vec![Column::left("Name", 3.0), Column::right("Amount", 1.0)],
            rows: (0..120)
                .map(|i| vec![format!("Row {i}"), format!("${i}0.00")])
                .collect(),
        };
        sheet.paragraph(Style::BODY, &"word ".repeat(60));
        sheet.table(&table);
        assert!(sheet.page_count() >= 3);
        let pdf = sheet.finish(time::macros::datetime!(2024-11-20 15:00 UTC));
        assert!(pdf.starts_with(b"%PDF-"));
    }
}
