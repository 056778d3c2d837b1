//! Server-side sessions in PostgreSQL and the CSRF guard.
//!
//! - The cookie holds a random 256-bit token (hex); the table holds only its SHA-256.
//! - Cookie: `HttpOnly; SameSite=Lax; Path=/`, plus `Secure` and the `__Host-` prefix over HTTPS.
//!   It has no Max-Age: the server enforces the idle limit from `last_seen_at` and its clock.
//! - Every `/api/` request with a live session counts as activity (`last_seen_at` is written at most
//!   every 15 seconds).
//! - A session ends after 30 idle minutes or 12 hours after it began, however busy (both set in
//!   `ServeArgs`). A cookie naming such a session makes the request's state `Expired`: handlers that
//!   need a session answer 419, and the response clears the cookie.
//! - A cookie naming a session replaced (login, impersonation, switch back) or ended (logout,
//!   timeout) within the last minute is a request the browser sent before it had the new cookie:
//!   `Replaced`, answered 419 `{"session": "replaced"}` without touching the cookie (clearing it,
//!   or starting a session, would overwrite the new one when that answer lands last). A cookie
//!   naming nothing known is `Ended`: 419, the cookie untouched.
//! - A session may carry a user (and, while an admin acts as an agent's user, the admin as
//!   `impersonator_id`). They are set only when a session is created: logging in, impersonating
//!   and switching back replace the session (`replace`: new token, new CSRF token, old row deleted).
//! - State-changing requests must be same-origin (Fetch Metadata, else `Origin`; agent subdomains
//!   are same-site to each other, so same-site is not enough: 403) and carry the session's token in
//!   `X-CSRF-Token` (419 otherwise).
//!
//! The extractors are `SessionState` and `LiveSession`; a session also records its browser.
//! `server/tests/api/sessions.rs`, `session_control.rs`, `web/e2e/accounts.spec.ts` ("second tab").

use std::sync::Arc;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rand::RngCore;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::cookies::{cookie_attributes, cookie_values};
use super::error::ApiError;
use super::revision::{self, Seen};
use crate::app::accounts::sessions::{self as store, Cutoffs, Found, NewSession};
use crate::app::audit;
use crate::http::state::AppState;
use crate::platform::cache::CachedSession;
use crate::rules::evaluation::{self, RuleBudget};

pub const CSRF_HEADER: &str = "x-csrf-token";

/// A live session, as the request found it.
#[derive(Debug, Clone)]
pub struct Session {
    pub id_hash: [u8; 32],
    pub csrf_token: String,
    pub application_id: Option<Uuid>,
    /// The logged-in user (the agent's user while an admin impersonates); `None` for visitors.
    pub user_id: Option<Uuid>,
    /// The admin acting as `user_id`, while impersonating.
    pub impersonator_id: Option<Uuid>,
    /// What the browser last saw of its application (the `ef_rev` cookie), if it said.
    pub seen: Option<Seen>,
    /// The rule time this request may spend in all (`ENROLLFLOW_RULE_BUDGET_MS`), carried with
    /// its rule work (`crate::rules::evaluation`).
    pub budget: RuleBudget,
}

/// What the request's cookie led to.
#[derive(Debug, Clone, Default)]
pub enum SessionState {
    #[default]
    None,
    /// Idle or past its lifetime (or a malformed cookie): the answer clears the cookie.
    Expired,
    /// Replaced or ended within the last minute: a request sent before the browser had the new
    /// cookie. Nothing touches the cookie.
    Replaced,
    /// No such session (swept, or ended by a password change, an admin or the user elsewhere).
    Ended,
    Live(Arc<Session>),
}

impl SessionState {
    pub fn live(&self) -> Option<&Arc<Session>> {
        match self {
            SessionState::Live(s) => Some(s),
            _ => None,
        }
    }

    /// The error for a handler that needs a live session and has none.
    pub fn missing(&self) -> ApiError {
        match self {
            SessionState::Replaced => ApiError::SessionReplaced,
            _ => ApiError::SessionExpired,
        }
    }
}

pub fn cookie_name(https: bool) -> &'static str {
    if https {
        "__Host-ef_session"
    } else {
        "ef_session"
    }
}

fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    hex::encode(buf)
}

/// The session token from the request's cookies (the last one sent), if it has the right shape.
fn token_from(headers: &HeaderMap, name: &str) -> Option<Result<String, ()>> {
    cookie_values(headers, name).next_back().map(|v| {
        let ok = v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit());
        if ok { Ok(v.to_string()) } else { Err(()) }
    })
}

fn session_cookie(https: bool, token: &str) -> Result<HeaderValue, ApiError> {
    let cookie = format!(
        "{}={token}; {}",
        cookie_name(https),
        cookie_attributes(https)
    );
    Ok(HeaderValue::from_str(&cookie).map_err(anyhow::Error::new)?)
}

/// Starts a new session and returns it with the `Set-Cookie` value that hands it to the browser.
pub async fn start(app: &AppState) -> Result<(Session, HeaderValue), ApiError> {
    let fresh = Fresh::new();
    store::create(
        &app.pool,
        &fresh.id_hash,
        &fresh.csrf_token,
        app.clock.now(),
    )
    .await?;
    fresh.handed_out(app, None, None)
}

/// A new session's random token (only the cookie keeps it), its hash and its CSRF token.
struct Fresh {
    token: String,
    id_hash: [u8; 32],
    csrf_token: String,
}

impl Fresh {
    fn new() -> Self {
        let token = random_hex(32);
        Fresh {
            id_hash: hash_token(&token),
            csrf_token: random_hex(32),
            token,
        }
    }

    /// Once the row is stored: the session (without an application) and its `Set-Cookie`.
    fn handed_out(
        self,
        app: &AppState,
        user_id: Option<Uuid>,
        impersonator_id: Option<Uuid>,
    ) -> Result<(Session, HeaderValue), ApiError> {
        // The session layer tells the browser it holds no application (`revision::written`).
        let cookie = session_cookie(app.config.https, &self.token)?;
        Ok((
            Session {
                id_hash: self.id_hash,
                csrf_token: self.csrf_token,
                application_id: None,
                user_id,
                impersonator_id,
                seen: None,
                budget: evaluation::budget(app.config.rule_budget()),
            },
            cookie,
        ))
    }
}

/// Replaces the caller's session (if any) with a new one for `user_id` (with `impersonator_id`
/// while an admin acts as that user): a new token and a new CSRF token, the old row deleted in
/// the same transaction. Logging in, impersonating and switching back all go through here, so a
/// session id never changes hands (no fixation) and the old cookie stops working at once. The
/// application the old session had is not carried over. `second_factor_at`: when the person
/// proved their second factor (this login's code, or the session impersonation started from).
pub async fn replace(
    app: &AppState,
    old: Option<&Session>,
    user_id: Option<Uuid>,
    impersonator_id: Option<Uuid>,
    second_factor_at: Option<time::OffsetDateTime>,
    headers: &HeaderMap,
) -> Result<(Session, HeaderValue), ApiError> {
    let fresh = Fresh::new();
    let user_agent = user_agent(headers);
    store::replace(
        &app.pool,
        &app.caches,
        old.map(|s| &s.id_hash),
        &NewSession {
            id_hash: &fresh.id_hash,
            csrf_token: &fresh.csrf_token,
            user_id,
            impersonator_id,
            user_agent: user_agent.as_deref(),
            second_factor_at,
        },
        app.clock.now(),
    )
    .await?;
    fresh.handed_out(app, user_id, impersonator_id)
}

/// The browser's User-Agent, at most 300 characters (shown in "Signed-in devices").
fn user_agent(headers: &HeaderMap) -> Option<String> {
    let ua = headers.get(header::USER_AGENT)?.to_str().ok()?.trim();
    (!ua.is_empty()).then(|| ua.chars().take(300).collect())
}

/// Evicts sessions ended in PostgreSQL by hash (the triggers tell the other instances).
pub fn evict_all(app: &AppState, hashes: &[Vec<u8>]) {
    store::evict(&app.caches, hashes);
}

/// Ends a session: deletes it and returns the `Set-Cookie` value that clears the cookie.
pub async fn end(app: &AppState, session: &Session) -> Result<HeaderValue, ApiError> {
    store::end(&app.pool, &app.caches, &session.id_hash, app.clock.now()).await?;
    Ok(clearing_cookie(app.config.https))
}

fn clearing_cookie(https: bool) -> HeaderValue {
    let cookie = format!(
        "{}=; Max-Age=0; {}",
        cookie_name(https),
        cookie_attributes(https)
    );
    HeaderValue::from_str(&cookie).unwrap_or_else(|_| HeaderValue::from_static(""))
}

fn is_state_changing(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Same-origin check for state-changing requests: Fetch Metadata when the browser sends it,
/// otherwise the `Origin` header against this request's own origin.
fn same_origin(headers: &HeaderMap, https: bool) -> bool {
    if let Some(site) = headers.get("sec-fetch-site") {
        return matches!(site.as_bytes(), b"same-origin" | b"none");
    }
    match (headers.get(header::ORIGIN), headers.get(header::HOST)) {
        (Some(origin), Some(host)) => {
            let scheme = if https { "https" } else { "http" };
            origin.as_bytes() == format!("{scheme}://{}", host.to_str().unwrap_or("")).as_bytes()
        }
        (Some(_), None) => false,
        // No browser metadata at all: not a cross-site browser request; the token still decides.
        (None, _) => true,
    }
}

/// Compares secrets without an early exit on the first different byte (only the length shows).
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The live session of a token's hash: from the cache while its recorded activity is recent and
/// it names the application the browser last saw (`seen`, the `ef_rev` cookie), otherwise from
/// PostgreSQL (which records the activity and decides idle expiry).
async fn resolve(
    app: &AppState,
    id_hash: [u8; 32],
    seen: Option<&Seen>,
) -> Result<SessionState, ApiError> {
    let now = app.clock.now();
    let cutoffs = Cutoffs {
        idle: now - app.config.idle_timeout(),
        created: now - app.config.session_lifetime(),
    };
    let fresh = |c: &CachedSession| revision::session_is_current(seen, c.application_id);
    let live = |c: &CachedSession| Session {
        id_hash,
        csrf_token: c.csrf_token.clone(),
        application_id: c.application_id,
        user_id: c.user_id,
        impersonator_id: c.impersonator_id,
        seen: seen.copied(),
        budget: evaluation::budget(app.config.rule_budget()),
    };
    Ok(
        match store::find(&app.pool, &app.caches, id_hash, now, cutoffs, fresh).await? {
            Found::Live(c) => SessionState::Live(Arc::new(live(&c))),
            Found::Expired => SessionState::Expired,
            Found::Replaced => SessionState::Replaced,
            Found::Ended => SessionState::Ended,
        },
    )
}

/// Middleware on every request: resolves the session of `/api/` calls, records activity, and guards
/// state-changing calls against cross-site request forgery.
pub async fn layer(State(app): State<AppState>, mut req: Request, next: Next) -> Response {
    if !req.uri().path().starts_with("/api/") {
        return next.run(req).await;
    }
    let https = app.config.https;
    let seen = revision::from_headers(req.headers(), https);
    let state = match token_from(req.headers(), cookie_name(https)) {
        None => SessionState::None,
        Some(Err(())) => SessionState::Expired,
        Some(Ok(token)) => {
            let id_hash = hash_token(&token);
            match resolve(&app, id_hash, seen.as_ref()).await {
                Ok(state) => state,
                Err(e) => return e.into_response(),
            }
        }
    };

    if is_state_changing(req.method()) {
        if !same_origin(req.headers(), https) {
            let entry = refusal(&app, &req, &state, "foreign origin");
            record_refusal(&app, entry).await;
            return ApiError::Forbidden.into_response();
        }
        let sent = req.headers().get(CSRF_HEADER).map(HeaderValue::as_bytes);
        let valid = match (state.live(), sent) {
            (Some(s), Some(sent)) => constant_time_eq(s.csrf_token.as_bytes(), sent),
            _ => false,
        };
        if !valid {
            // A live session's call without its token is what a forged cross-site request looks
            // like; a call without a session has nothing to forge.
            if state.live().is_some() {
                let entry = refusal(&app, &req, &state, "wrong CSRF token");
                record_refusal(&app, entry).await;
            }
            return state.missing().into_response();
        }
    }

    let expired = matches!(state, SessionState::Expired);
    req.extensions_mut().insert(state);
    let mut response = next.run(req).await;
    let wrote = revision::written(&mut response, cookie_name(https));
    if let Some(cookie) = wrote
        .filter(|w| Some(w) != seen.as_ref())
        .and_then(|w| revision::cookie(https, &w))
    {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    if expired {
        let name = cookie_name(https).as_bytes();
        let sets_cookie = response
            .headers()
            .get_all(header::SET_COOKIE)
            .iter()
            .any(|v| v.as_bytes().starts_with(name));
        if !sets_cookie {
            response
                .headers_mut()
                .append(header::SET_COOKIE, clearing_cookie(https));
        }
    }
    response
}

/// The audit row of a state-changing call refused here (foreign origin, wrong CSRF token): the
/// route template and why, the session's user, the address; never a value from the request.
fn refusal(app: &AppState, req: &Request, state: &SessionState, why: &str) -> audit::Entry {
    let route = req
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map_or("(no route)", |p| p.as_str());
    let live = state.live();
    let address = super::host::client_address(app, req.headers(), req.extensions());
    audit::Entry {
        action: audit::Action::RequestRefused,
        actor: live.and_then(|s| s.impersonator_id.or(s.user_id)),
        subject: live.and_then(|s| s.user_id),
        address,
        detail: Some(format!("{} {route}: {why}", req.method())),
        ..Default::default()
    }
}

async fn record_refusal(app: &AppState, entry: audit::Entry) {
    if let Err(e) = audit::record(&app.pool, app.clock.now(), &entry).await {
        tracing::error!(error = %e, "the refusal's audit row not written");
    }
}

impl<S: Send + Sync> FromRequestParts<S> for SessionState {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<SessionState>()
            .cloned()
            .unwrap_or_default())
    }
}

/// The request's live session; extracting it answers 419 when there is none or it expired.
#[derive(Debug, Clone)]
pub struct LiveSession(pub Arc<Session>);

impl std::ops::Deref for LiveSession {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.0
    }
}

impl<S: Send + Sync> FromRequestParts<S> for LiveSession {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        match parts.extensions.get::<SessionState>() {
            Some(SessionState::Live(s)) => Ok(LiveSession(s.clone())),
            Some(other) => Err(other.missing()),
            None => Err(ApiError::SessionExpired),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).expect("header"));
        }
        h
    }

    #[test]
    fn the_token_is_read_only_from_the_named_cookie_and_must_be_64_hex() {
        let good = "a".repeat(64);
        let h = headers(&[("cookie", &format!("x=1; ef_session={good}; y=2"))]);
        assert_eq!(token_from(&h, "ef_session"), Some(Ok(good)));
        let h = headers(&[("cookie", "ef_session=short")]);
        assert_eq!(token_from(&h, "ef_session"), Some(Err(())));
        let h = headers(&[("cookie", "other=1")]);
        assert_eq!(token_from(&h, "ef_session"), None);
    }

    #[test]
    fn same_site_is_not_same_origin() {
        assert!(same_origin(
            &headers(&[("sec-fetch-site", "same-origin")]),
            false
        ));
        assert!(!same_origin(
            &headers(&[("sec-fetch-site", "same-site")]),
            false
        ));
        assert!(!same_origin(
            &headers(&[("sec-fetch-site", "cross-site")]),
            false
        ));
        let h = headers(&[
            ("origin", "http://acme.localhost:8080"),
            ("host", "acme.localhost:8080"),
        ]);
        assert!(same_origin(&h, false));
        assert!(!same_origin(&h, true));
        let h = headers(&[
            ("origin", "http://evil.localhost:8080"),
            ("host", "acme.localhost:8080"),
        ]);
        assert!(!same_origin(&h, false));
    }

    #[test]
    fn tokens_compare_in_full() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}
