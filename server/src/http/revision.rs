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
//! `db::applications::save_data`; the purchase too), which the wizard shows at the top of the step
//! with the application reloaded (`server/tests/api/lost_update.rs`).

use std::future::Future;
use std::sync::{Arc, Mutex};

use axum::http::{HeaderMap, HeaderValue};
use uuid::Uuid;

/// What a browser last saw of its session's application.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen {
    pub application: Option<Uuid>,
    pub revision: i64,
}

struct Request {
    seen: Option<Seen>,
    wrote: Mutex<Option<Seen>>,
}

tokio::task_local! {
    static REQUEST: Arc<Request>;
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

/// Runs a request's handling with what its cookie said; answers what the handling wrote (the
/// cookie to set), if anything.
pub async fn scope<F: Future>(seen: Option<Seen>, f: F) -> (F::Output, Option<Seen>) {
    let request = Arc::new(Request {
        seen,
        wrote: Mutex::new(None),
    });
    let out = REQUEST.scope(request.clone(), f).await;
    let wrote = *request
        .wrote
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    (out, wrote)
}

/// Records that this request left the session with `application` at `revision` (a save, a
/// restart, a new session). Outside a request (tools, tests calling in directly) it does nothing.
pub fn wrote(application: Option<Uuid>, revision: i64) {
    let _ = REQUEST.try_with(|r| {
        *r.wrote
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Seen {
            application,
            revision,
        });
    });
}

/// Whether a cached session whose application is `application` agrees with what the browser saw.
pub fn session_is_current(seen: Option<&Seen>, application: Option<Uuid>) -> bool {
    seen.is_none_or(|s| s.application == application)
}

/// Whether a cached copy of application `id` at `revision` is at least what this request's
/// browser last wrote of it.
pub fn application_is_current(id: Uuid, revision: i64) -> bool {
    REQUEST
        .try_with(|r| {
            r.seen
                .is_none_or(|s| s.application != Some(id) || revision >= s.revision)
        })
        .unwrap_or(true)
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

    #[tokio::test]
    async fn a_request_sees_its_cookie_and_reports_its_write() {
        let id = Uuid::new_v4();
        let seen = Seen {
            application: Some(id),
            revision: 3,
        };
        let (checks, wrote) = scope(Some(seen), async {
            let checks = (
                application_is_current(id, 2),
                application_is_current(id, 3),
                application_is_current(Uuid::new_v4(), 0),
            );
            super::wrote(Some(id), 4);
            checks
        })
        .await;
        assert_eq!(checks, (false, true, true));
        assert_eq!(
            wrote,
            Some(Seen {
                application: Some(id),
                revision: 4
            })
        );
        assert!(application_is_current(id, 0), "no request: no constraint");
        assert!(session_is_current(None, Some(id)));
        assert!(!session_is_current(Some(&seen), None));
    }
}
