//! The HTTP side of a sign-in's device (`app::accounts::sign_in`): the browser's device cookie (a
//! long-lived random token) is read or handed out, and the browser named from its User-Agent.

use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::Response;
use rand::RngCore;

use super::cookies::{cookie_attributes, cookie_values};
use super::error::ApiResult;
use crate::app::accounts::UserRow;
use crate::app::accounts::sign_in;
use crate::http::state::AppState;

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
    let browser = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map_or_else(|| "a browser".to_string(), browser_of);
    let device = sign_in::Device {
        token: &token,
        browser: &browser,
        address,
    };
    Ok(sign_in::signed_in_from(&app.pool, user, &device, app.clock.now()).await?)
}

/// The browser a `User-Agent` names, as the owner's mail says it ("with Chrome on Linux"): the
/// name "Signed-in devices" lists (`sign_in::describe_browser`), "a browser" when it names none.
fn browser_of(agent: &str) -> String {
    match sign_in::describe_browser(Some(agent)) {
        named if named == sign_in::SOME_BROWSER => "a browser".into(),
        named => named,
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
