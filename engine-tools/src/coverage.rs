//! The coverage report as one HTML page, and the floor a run must reach (`rules/coverage.yaml`).

use std::fmt::Write as _;

use enrollflow_engine::coverage::{Item, Report, Totals};
use serde::{Deserialize, Serialize};

/// The report as one HTML page: the totals, what was not reached with file:line, and every
/// script line marked reached (green), not reached (red) or holding a branch not taken.
pub fn html(report: &Report, title: &str) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t}</title><style>\
         body{{font:15px/1.45 system-ui,sans-serif;margin:1rem auto;max-width:72rem;padding:0 1rem;color:#1b1b1b}}\
         table{{border-collapse:collapse}}td,th{{padding:.2rem .6rem;text-align:left;border-bottom:1px solid #ddd}}\
         pre{{margin:0;font:13px/1.35 ui-monospace,monospace}}\
         .src td{{border:0;padding:0 .5rem;vertical-align:top}}.n{{color:#666;text-align:right}}\
         .hit{{background:#e7f4e4}}.miss{{background:#f9dede}}.part{{background:#fff1c2}}\
         .no{{color:#b50909}}.yes{{color:#2e7d32}}details{{margin:.6rem 0}}summary{{cursor:pointer;font-weight:600}}\
         </style></head><body><h1>{t}</h1><table><tr><th>Kind</th><th>Reached</th><th>Total</th><th>%</th></tr>",
        t = esc(title)
    );
    for (name, t) in report.totals.by_name() {
        let _ = write!(
            h,
            "<tr><td>{name}</td><td>{}</td><td>{}</td><td>{:.1}</td></tr>",
            t.reached,
            t.total,
            (t.percent() * 10.0).floor() / 10.0
        );
    }
    h.push_str("</table>");
    let kinds = [
        ("transition", "Transitions"),
        ("modal", "Dialogs asked by rules"),
        ("field", "Fields shown and hidden"),
        ("carrier", "Carriers quoted"),
        ("crosswalk", "Crosswalk mappings renewed"),
    ];
    let missed: Vec<&Item> = report
        .items
        .iter()
        .filter(|i| !i.reached && matches!(i.kind.as_str(), "statement" | "expression" | "branch"))
        .collect();
    let _ = write!(
        h,
        "<h2>Statements, expressions and branches not reached ({})</h2><ul>",
        missed.len()
    );
    for i in missed {
        let _ = write!(
            h,
            "<li><code>{}:{}</code> {}: <code>{}</code></li>",
            esc(&i.file),
            i.line,
            esc(&i.kind),
            esc(&i.what)
        );
    }
    h.push_str("</ul>");
    for (kind, heading) in kinds {
        let items: Vec<&Item> = report.items.iter().filter(|i| i.kind == kind).collect();
        let _ = write!(h, "<h2>{heading}</h2><table>");
        for i in items {
            let _ = write!(
                h,
                "<tr><td class=\"{}\">{}</td><td>{}</td><td><code>{}:{}</code></td></tr>",
                if i.reached { "yes" } else { "no" },
                if i.reached { "reached" } else { "not reached" },
                esc(&i.what),
                esc(&i.file),
                i.line
            );
        }
        h.push_str("</table>");
    }
    if !report.page_modals.is_empty() {
        h.push_str("<h2>Dialogs the page opens (reached by browser tests)</h2><ul>");
        for i in &report.page_modals {
            let _ = write!(
                h,
                "<li>{} <code>{}:{}</code></li>",
                esc(&i.what),
                esc(&i.file),
                i.line
            );
        }
        h.push_str("</ul>");
    }
    h.push_str("<h2>Scripts</h2>");
    for f in &report.files {
        let (n, r) = f
            .lines
            .iter()
            .fold((0, 0), |(n, r), l| (n + l.statements, r + l.reached));
        let _ = write!(
            h,
            "<details><summary>{} — {r}/{n} statements</summary><table class=\"src\">",
            esc(&f.path)
        );
        for (i, l) in f.lines.iter().enumerate() {
            let class = if l.statements == 0 {
                ""
            } else if l.reached == 0 {
                "miss"
            } else if l.reached < l.statements || !l.missed_branches.is_empty() {
                "part"
            } else {
                "hit"
            };
            let note = if l.missed_branches.is_empty() {
                String::new()
            } else {
                format!("  ← {}", l.missed_branches.join(", "))
            };
            let _ = write!(
                h,
                "<tr class=\"{class}\"><td class=\"n\">{}</td><td><pre>{}{}</pre></td></tr>",
                i + 1,
                esc(&l.text),
                esc(&note)
            );
        }
        h.push_str("</table></details>");
    }
    h.push_str("</body></html>\n");
    h
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The least coverage accepted (`rules/coverage.yaml`), in percent by kind.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Floor {
    pub statements: Option<f64>,
    pub branches: Option<f64>,
    pub transitions: Option<f64>,
    pub modals: Option<f64>,
    pub fields: Option<f64>,
    pub carriers: Option<f64>,
    pub crosswalk: Option<f64>,
}

impl Floor {
    /// Reads `rules/coverage.yaml`.
    pub fn parse(text: &str) -> Result<Self, enrollflow_engine::Diagnostic> {
        enrollflow_engine::yaml::parse(enrollflow_engine::COVERAGE_FLOOR, text)
    }

    /// The kinds below the floor: "statements 93.2% < 95%".
    pub fn shortfalls(&self, totals: &Totals) -> Vec<String> {
        let floors = [
            self.statements,
            self.branches,
            self.transitions,
            self.modals,
            self.fields,
            self.carriers,
            self.crosswalk,
        ];
        totals
            .by_name()
            .iter()
            .zip(floors)
            .filter_map(|((name, t), floor)| {
                let floor = floor?;
                (t.percent() + 1e-9 < floor)
                    .then(|| format!("{name} {:.1}% is below the floor of {floor}%", t.percent()))
            })
            .collect()
    }
}
