//! What a successful sign-in leaves behind besides its session: the browser's device cookie (a
//! long-lived random token, kept per account as its SHA-256) and, when the account has signed in
//! from other browsers but never this one, a mail to its owner.

use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::Response;
use rand::RngCore;
use sha2::{Digest, Sha256};

use super::cookies::{cookie_attributes, cookie_values};
use super::error::ApiResult;
use crate::account_notices::{self, Notice};
use crate::db::known_devices::{self, Seen};
use crate::db::users::UserRow;
use crate::state::AppState;

/// How long a browser is remembered: 400 days, the longest a browser keeps a cookie.
const REMEMBERED_SECS: u64 = 400 * 24 * 3600;

fn device_cookie_name(https: bool) -> &'static str {
    if https {
        "__Host-ef_device"
    } else {
        "ef_device"
    }
}

/// Records the sign-in's browser for `user`, mails the owner about a browser new to the account,
/// and hands a browser without a device cookie its own (on `response`).
pub async fn remember_device(
    app: &AppState,
    headers: &HeaderMap,
    user: &UserRow,
    address: Option<std::net::IpAddr>,
    response: &mut Response,
) -> ApiResult<()> {
    let https = app.config.https;
    let sent = cookie_values(headers, device_cookie_name(https))
        .next_back()
        .filter(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_string);
    let token = match sent {
        Some(t) => t,
        None => {
            let mut buf = [0u8; 32];
            rand::rng().fill_bytes(&mut buf);
            let token = hex::encode(buf);
            let cookie = format!(
                "{}={token}; Max-Age={REMEMBERED_SECS}; {}",
                device_cookie_name(https),
                cookie_attributes(https)
            );
            if let Ok(v) = HeaderValue::from_str(&cookie) {
                response.headers_mut().append(header::SET_COOKIE, v);
            }
            token
        }
    };
    let hash: [u8; 32] = Sha256::digest(token.as_bytes()).into();
    let now = app.clock.now();
    if known_devices::sign_in(&app.pool, user.id, &hash, now).await? == Seen::New {
        let browser = headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .map_or_else(|| "a browser".to_string(), browser_of);
        let from = address.map_or_else(String::new, |a| format!(" from the address {a}"));
        account_notices::tell_now(
            &app.pool,
            user,
            &Notice {
                headline: "New sign-in to your account",
                text: format!(
                    "Your account was signed in to with {browser}{from}, on a device it had not \
                     been used on before. If this was you, there is nothing to do. If not, change \
                     your password and sign out the other devices (Signed-in devices, in your \
                     name's menu)."
                ),
            },
            now,
        )
        .await?;
    }
    Ok(())
}

/// The browser a `User-Agent` names, roughly, for a person to recognize ("Chrome on Linux").
fn browser_of(agent: &str) -> String {
    let has = |s: &str| agent.contains(s);
    let browser = [
        ("Edg/", "Edge"),
        ("Firefox/", "Firefox"),
        ("Chrome/", "Chrome"),
        ("Chromium/", "Chrome"),
        ("Safari/", "Safari"),
    ]
    .into_iter()
    .find(|(mark, _)| has(mark));
    let Some((_, browser)) = browser else {
        return "a browser".into();
    };
    let system = [
        ("Android", "Android"),
        ("iPhone", "iOS"),
        ("iPad", "iOS"),
        ("Windows", "Windows"),
        ("Mac OS", "macOS"),
        ("Linux", "Linux"),
    ]
    .into_iter()
    .find(|(mark, _)| has(mark));
    match system {
        Some((_, system)) => format!("{browser} on {system}"),
        None => browser.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::browser_of;

    #[test]
    fn a_user_agent_reads_as_a_browser_and_system() {
        assert_eq!(
            browser_of(
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) \
                 Chrome/131.0.0.0 Safari/537.36"
            ),
            "Chrome on Linux"
        );
        assert_eq!(
            browser_of(
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 \
                 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
            ),
            "Safari on iOS"
        );
        assert_eq!(browser_of("curl/8.0"), "a browser");
    }
}
