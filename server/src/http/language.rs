//! The consumer's language (issue 21): the `enrollflow_lang` cookie the web app writes when a
//! language is chosen or first detected (`web/src/i18n/index.ts`), else the request's
//! `Accept-Language`, else English. The rule set decides which of them it speaks (its catalogs).

use std::convert::Infallible;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use enrollflow_engine::i18n::{Languages, SOURCE};

use super::cookies::cookie_values;

/// The cookie the web app keeps the chosen language in (not HttpOnly: the app writes it).
pub const LANGUAGE_COOKIE: &str = "enrollflow_lang";

/// The languages the request asks for, most wanted first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Language(Vec<String>);

impl Language {
    pub fn from_headers(headers: &HeaderMap) -> Self {
        let chosen = cookie_values(headers, LANGUAGE_COOKIE)
            .next()
            .filter(|v| !v.is_empty() && v.len() <= 35)
            .map(str::to_string);
        let mut wanted: Vec<(f32, String)> = headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .split(',')
            .filter_map(|item| {
                let mut parts = item.split(';').map(str::trim);
                let tag = parts.next().filter(|t| !t.is_empty() && *t != "*")?;
                let q = parts
                    .find_map(|p| p.strip_prefix("q="))
                    .map_or(Some(1.0), |q| q.parse::<f32>().ok())?;
                (q > 0.0).then(|| (q, tag.to_string()))
            })
            .collect();
        // Stable: tags of equal weight keep the order sent.
        wanted.sort_by(|a, b| b.0.total_cmp(&a.0));
        Self(
            chosen
                .into_iter()
                .chain(wanted.into_iter().map(|(_, t)| t))
                .collect(),
        )
    }

    /// The first wanted language the rule set speaks (a regional tag falls back to its language:
    /// `es-MX` is `es`); English when none is.
    pub fn pick(&self, languages: &Languages) -> String {
        self.0
            .iter()
            .find_map(|tag| {
                let primary = tag.split('-').next().unwrap_or(tag).to_ascii_lowercase();
                [tag.clone(), primary]
                    .into_iter()
                    .find(|t| languages.speaks(t))
            })
            .unwrap_or_else(|| SOURCE.to_string())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Language {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Self::from_headers(&parts.headers))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;
    use enrollflow_engine::Source;

    fn spanish() -> Languages {
        let mut problems = Vec::new();
        let l = Languages::load(
            &[Source::new("forms/locales/es.yaml", "Male: Masculino\n")],
            &mut problems,
        );
        assert!(problems.is_empty());
        l
    }

    fn headers(cookie: Option<&str>, accept: Option<&str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        if let Some(c) = cookie {
            h.insert(header::COOKIE, HeaderValue::from_str(c).expect("a header"));
        }
        if let Some(a) = accept {
            h.insert(
                header::ACCEPT_LANGUAGE,
                HeaderValue::from_str(a).expect("a header"),
            );
        }
        h
    }

    #[test]
    fn the_cookie_wins_then_accept_language_by_weight_then_english() {
        let l = spanish();
        let pick = |c, a| Language::from_headers(&headers(c, a)).pick(&l);
        assert_eq!(
            pick(Some("enrollflow_lang=en"), Some("es-MX,es;q=0.9")),
            "en"
        );
        assert_eq!(pick(None, Some("fr;q=0.9, es-MX;q=0.8, en;q=0.5")), "es");
        assert_eq!(pick(None, Some("en-US,en;q=0.9,es;q=0.8")), "en");
        assert_eq!(pick(Some("other=1; enrollflow_lang=es"), None), "es");
        // A language the rule set does not speak, or no preference at all: English.
        assert_eq!(pick(Some("enrollflow_lang=fr"), Some("de")), "en");
        assert_eq!(pick(None, None), "en");
        assert_eq!(pick(None, Some("es;q=0")), "en");
        // The tests' pseudo-language is asked by cookie.
        assert_eq!(pick(Some("enrollflow_lang=pseudo"), None), "pseudo");
    }
}
