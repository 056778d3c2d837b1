//! The sheets' words in the consumer's language: each text a sheet writes is an
//! English literal listed in `crate::platform::texts::SHEETS` (so the catalogs are checked for
//! it; the test below checks the listing), translated by the serving rule set's catalogs, with
//! `{placeholders}` filled after translation.

use enrollflow_engine::i18n::Languages;
use time::Date;

pub struct Words<'a> {
    languages: &'a Languages,
    code: &'a str,
}

impl<'a> Words<'a> {
    pub fn new(languages: &'a Languages, code: &'a str) -> Self {
        Self { languages, code }
    }

    /// A text in the sheet's language (a name, a figure or a text no catalog has: as it is).
    pub fn t(&self, english: &str) -> String {
        self.languages.text(self.code, english)
    }

    /// A template in the sheet's language with its `{placeholders}` filled.
    pub fn f(&self, english: &str, values: &[(&str, &str)]) -> String {
        let mut out = self.t(english);
        for (name, value) in values {
            out = out.replace(&format!("{{{name}}}"), value);
        }
        out
    }

    /// A date in words ("January 1, 2025"; "1 de enero de 2025").
    pub fn date(&self, d: Date) -> String {
        self.languages.long_date(self.code, d)
    }

    /// What the engine writes through a translator (the rating's explanation).
    pub fn text_fn(&self) -> impl Fn(&str) -> String + '_ {
        |s| self.t(s)
    }
}

#[cfg(test)]
mod tests {
    use regex::Regex;

    /// Every literal a sheet passes to `t(` or `f(` is listed for the catalogs.
    #[test]
    fn every_text_a_sheet_writes_is_listed_for_the_catalogs() {
        let sources = [
            include_str!("mod.rs"),
            include_str!("comparison.rs"),
            include_str!("selection.rs"),
            include_str!("../../documents/pdf/mod.rs"),
        ];
        let call =
            Regex::new(r#"\b(?:w|words)\.(?:t|f)\(\s*"((?:[^"\\]|\\.)*)""#).expect("a pattern");
        let mut found = 0;
        for source in sources {
            for c in call.captures_iter(source) {
                let text = c[1].replace("\\\n", "").replace("\\\"", "\"");
                let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(
                    crate::platform::texts::SHEETS.contains(&text.as_str()),
                    "`{text}` is written by a sheet but not listed in texts::SHEETS"
                );
                found += 1;
            }
        }
        assert!(found > 40, "{found} texts found");
    }
}
