//! The consumer's language: the `enrollflow_lang` cookie the web app writes when a
//! language is chosen or first detected (`web/src/i18n/index.ts`), else the request's
//! `Accept-Language`, else English. The rule set decides which of them it speaks (its catalogs).
//!
//! `pick` chooses the first the serving rule set speaks (`es-MX` as `es`), else English. The step
//! view (cached per language), the preview, save errors, the flow, quoted plans (member names,
//! metal levels) and filter options are answered in it; `refusals_in_language` (a layer inside the
//! compression) translates every 4xx JSON answer's `error` and `errors` (the messages listed in
//! `crate::platform::texts::MESSAGES`; a test checks each sentence of the consumer-facing modules
//! is listed or developer-only). `server/tests/api/languages.rs`.

use std::convert::Infallible;

use axum::body::Body;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use axum::middleware::Next;
use axum::response::Response;
use enrollflow_engine::i18n::{Languages, SOURCE};
use serde_json::Value;

use crate::http::state::AppState;

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

    /// The first wanted language the rule set speaks (`Languages::pick`).
    pub fn pick(&self, languages: &Languages) -> String {
        languages.pick(&self.0)
    }

    /// The languages asked for, most wanted first.
    pub fn wanted(&self) -> &[String] {
        &self.0
    }
}

/// The server's refusals in the consumer's language: a 4xx JSON answer's `error`, and
/// each message of its `errors`, through the serving rule set's catalogs (a message no catalog
/// has, and every answer in English, is left as it is). Inside the compression layer: the bodies
/// read here are plain.
pub async fn refusals_in_language(
    State(app): State<AppState>,
    req: Request,
    next: Next,
) -> Response {
    let language = Language::from_headers(req.headers());
    let res = next.run(req).await;
    let json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"));
    if !res.status().is_client_error() || !json {
        return res;
    }
    let bundle = app.rules.current();
    let languages = bundle.engine.languages();
    let code = language.pick(languages);
    if code == SOURCE {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, REFUSAL_LIMIT).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let Ok(mut value) = serde_json::from_slice::<Value>(&bytes) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    let translate = |s: &mut String| *s = languages.text(&code, s);
    if let Some(Value::String(s)) = value.get_mut("error") {
        translate(s);
    }
    if let Some(Value::Object(errors)) = value.get_mut("errors") {
        for messages in errors.values_mut() {
            match messages {
                Value::String(s) => translate(s),
                Value::Array(list) => list.iter_mut().for_each(|m| {
                    if let Value::String(s) = m {
                        translate(s);
                    }
                }),
                _ => {}
            }
        }
    }
    match serde_json::to_vec(&value) {
        Ok(body) => {
            parts.headers.remove(header::CONTENT_LENGTH);
            Response::from_parts(parts, Body::from(body))
        }
        Err(_) => Response::from_parts(parts, Body::from(bytes)),
    }
}

/// A refusal's body is a few messages; a larger one is passed on as it is read.
const REFUSAL_LIMIT: usize = 256 * 1024;

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
            &[],
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

    /// Every sentence the consumer-facing modules write is a message the catalogs translate
    /// (`texts::MESSAGES`), or one only developers and agents meet.
    #[test]
    fn every_refusal_a_consumer_meets_is_listed_for_the_catalogs() {
        const NOT_FOR_CONSUMERS: [&str; 15] = [
            "The answers must be a JSON object.",
            "If-Match must be the application's revision.",
            "Step `{step}` is saved by its own form or selection.",
            "There is no step `{step}`.",
            "There is no step `{s}`.",
            "Step `{s}` is saved by its own page.",
            "No such plan type.",
            "No page shows these plans.",
            "No such option list.",
            "The upload could not be read: {e}",
            "Not a route template.",
            "Save and finish later is for the person applying; an agent's applications stay on the dashboard.",
            "The flag is `true` (medical, dental and vision) or `false`.",
            "No such text.",
            "Please enter a code from your authenticator app to continue.",
        ];
        let sources = [
            include_str!("steps.rs"),
            include_str!("plans.rs"),
            include_str!("care.rs"),
            include_str!("documents.rs"),
            include_str!("resume.rs"),
            include_str!("application.rs"),
            include_str!("open.rs"),
            include_str!("print.rs"),
            include_str!("legal.rs"),
            include_str!("error.rs"),
            include_str!("../app/applying/open.rs"),
            include_str!("../app/applying/save_step.rs"),
            include_str!("../documents/mod.rs"),
            include_str!("../app/applying/resume.rs"),
            include_str!("../app/applying/quotes.rs"),
        ];
        let literal = regex::Regex::new(r#""((?:[^"\\]|\\.)*)""#).expect("a pattern");
        let mut found = 0;
        for source in sources {
            let code = source.split("#[cfg(test)]").next().unwrap_or(source);
            let kept: Vec<&str> = code
                .lines()
                .filter(|l| {
                    let t = l.trim_start();
                    !t.starts_with("//") && !l.contains("tracing::") && !l.contains("description")
                })
                .collect();
            let kept = kept.join("\n");
            for c in literal.captures_iter(&kept) {
                let text = c[1].replace("\\\n", "");
                let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                let sentence = text.len() > 12
                    && text.contains(' ')
                    && text.chars().next().is_some_and(char::is_uppercase)
                    && text.chars().nth(1).is_some_and(char::is_lowercase);
                if !sentence {
                    continue;
                }
                found += 1;
                assert!(
                    crate::platform::texts::MESSAGES.contains(&text.as_str())
                        || enrollflow_engine::i18n::BUILT_IN.contains(&text.as_str())
                        || NOT_FOR_CONSUMERS.contains(&text.as_str()),
                    "`{text}` may reach a consumer: list it in texts::MESSAGES (and translate it)"
                );
            }
        }
        assert!(found > 30, "{found} sentences found");
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
