//! Read-your-writes on any instance: the `ef_rev` cookie.
//!
//! Behind a round-robin balancer a browser's next request may reach an instance that has not yet
//! heard of the save it just made (announcements travel through PostgreSQL in milliseconds, the
//! next request can be faster). So every answer that changes the session's application, or saves
//! it, also sets `ef_rev={application id}.{revision}` (`-` for none). On the next request any
//! instance compares: a cached session naming another application, or a cached application older
//! than that revision, is not served; PostgreSQL answers instead (and refreshes the cache).
//!
//! The cookie is `HttpOnly; SameSite=Lax; Path=/` (`__Host-`, `Secure` over HTTPS) like the
//! session's, holds no personal data, and is only a hint: a forged value can only make its own
//! requests skip the cache.
//!
//! No lost update: a step view carries the application's `revision`; the step form sends it back as
//! `If-Match` with each save (then each save's and upload's own), and `PUT
//! /api/application/step/{step}` refuses a save against a newer revision with 409
//! (`app::applying::open::store_summarized`, the `revision = $expected` guard of
//! `db/applications.rs`, `save_data`; the purchase too), which the wizard shows at the top of the step
//! with the application reloaded (`server/tests/api/lost_update.rs`).
//!
//! Both travel as values: the session layer reads the cookie into the request's `Session`
//! (`Session::seen`, which the use cases get in their `Caller`), and a handler that changes the
//! session's application answers a [`Wrote`] part, which the session layer turns into the cookie.

use std::convert::Infallible;

use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponseParts, Response, ResponseParts};
use uuid::Uuid;

use crate::app::applying::open::ApplicationRow;
pub use crate::app::applying::open::Seen;

/// What a handler left the session's application at, carried in its answer (a response
/// extension) for the session layer to tell the browser in `ef_rev`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wrote(pub Seen);

impl Wrote {
    /// The session's application `id` at `revision` (a save, an upload, an application opened).
    pub fn application(id: Uuid, revision: i64) -> Self {
        Wrote(Seen {
            application: Some(id),
            revision,
        })
    }

    /// The session holds no application any more (a restart).
    pub fn none() -> Self {
        Wrote(NO_APPLICATION)
    }

    /// The application as a store left it.
    pub fn row(row: &ApplicationRow) -> Self {
        Self::application(row.id, row.revision)
    }
}

impl IntoResponseParts for Wrote {
    type Error = Infallible;

    fn into_response_parts(self, mut res: ResponseParts) -> Result<ResponseParts, Infallible> {
        res.extensions_mut().insert(self);
        Ok(res)
    }
}

const NO_APPLICATION: Seen = Seen {
    application: None,
    revision: 0,
};

/// What an answer leaves the browser's session at: what its handler wrote, or no application
/// when it hands the browser a new session (`session_cookie`, the session cookie's name, set to a
/// value).
pub fn written(response: &mut Response, session_cookie: &str) -> Option<Seen> {
    if let Some(Wrote(seen)) = response.extensions_mut().remove::<Wrote>() {
        return Some(seen);
    }
    let new_session = response
        .headers()
        .get_all(axum::http::header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.strip_prefix(session_cookie)?.strip_prefix('='))
        .any(|value| !value.starts_with(';') && !value.is_empty());
    new_session.then_some(NO_APPLICATION)
}

pub fn cookie_name(https: bool) -> &'static str {
    if https { "__Host-ef_rev" } else { "ef_rev" }
}

/// The `ef_rev` cookie's value in a request (the last one sent), if it has the right shape.
pub fn from_headers(headers: &HeaderMap, https: bool) -> Option<Seen> {
    super::cookies::cookie_values(headers, cookie_name(https))
        .next_back()
        .and_then(parse)
}

fn parse(value: &str) -> Option<Seen> {
    if value == "-" {
        return Some(Seen {
            application: None,
            revision: 0,
        });
    }
    let (id, revision) = value.split_once('.')?;
    Some(Seen {
        application: Some(id.parse().ok()?),
        revision: revision.parse().ok().filter(|r| *r >= 0)?,
    })
}

fn format(seen: &Seen) -> String {
    match seen.application {
        Some(id) => format!("{}.{}", id.simple(), seen.revision),
        None => "-".into(),
    }
}

/// The `Set-Cookie` value that records `seen`.
pub fn cookie(https: bool, seen: &Seen) -> Option<HeaderValue> {
    HeaderValue::from_str(&format!(
        "{}={}; {}",
        cookie_name(https),
        format(seen),
        super::cookies::cookie_attributes(https)
    ))
    .ok()
}

/// Whether a cached session whose application is `application` agrees with what the browser saw.
pub fn session_is_current(seen: Option<&Seen>, application: Option<Uuid>) -> bool {
    seen.is_none_or(|s| s.application == application)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header;

    #[test]
    fn the_cookie_round_trips_and_bad_values_are_ignored() {
        let id = Uuid::new_v4();
        let seen = Seen {
            application: Some(id),
            revision: 12,
        };
        let set = cookie(false, &seen).expect("header");
        let pair = set
            .to_str()
            .expect("ascii")
            .split(';')
            .next()
            .expect("pair")
            .to_string();
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("ef_session=x; {pair}")).expect("header"),
        );
        assert_eq!(from_headers(&h, false), Some(seen));
        assert_eq!(from_headers(&h, true), None, "another name over HTTPS");
        for bad in [
            "ef_rev=",
            "ef_rev=abc.1",
            "ef_rev=x",
            &format!("ef_rev={id}.-3"),
        ] {
            h.insert(header::COOKIE, HeaderValue::from_str(bad).expect("header"));
            assert_eq!(from_headers(&h, false), None, "{bad}");
        }
        h.insert(header::COOKIE, HeaderValue::from_static("ef_rev=-"));
        assert_eq!(
            from_headers(&h, false),
            Some(Seen {
                application: None,
                revision: 0
            })
        );
    }

    #[test]
    fn what_the_browser_saw_bounds_the_cached_copies_and_an_answer_reports_its_write() {
        use crate::app::applying::open::is_current;
        use axum::response::IntoResponse;

        let id = Uuid::new_v4();
        let seen = Seen {
            application: Some(id),
            revision: 3,
        };
        let checks = (
            is_current(Some(seen), id, 2),
            is_current(Some(seen), id, 3),
            is_current(Some(seen), Uuid::new_v4(), 0),
        );
        assert_eq!(checks, (false, true, true));
        assert!(is_current(None, id, 0), "no cookie: no constraint");
        assert!(session_is_current(None, Some(id)));
        assert!(!session_is_current(Some(&seen), None));

        // A handler's write travels in its answer.
        let mut answer = (Wrote::application(id, 4), "saved").into_response();
        assert_eq!(
            written(&mut answer, "ef_session"),
            Some(Seen {
                application: Some(id),
                revision: 4
            })
        );
        assert_eq!(written(&mut answer, "ef_session"), None, "taken once");
        // A new session starts without an application; a cleared cookie writes nothing.
        let mut new_session =
            ([(header::SET_COOKIE, "ef_session=abc; Path=/")], "hello").into_response();
        assert_eq!(
            written(&mut new_session, "ef_session"),
            Some(NO_APPLICATION)
        );
        let mut cleared = ([(header::SET_COOKIE, "ef_session=; Max-Age=0")], "bye").into_response();
        assert_eq!(written(&mut cleared, "ef_session"), None);
    }
}
