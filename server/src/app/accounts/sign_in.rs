//! What a successful sign-in leaves behind besides its session: the browser it came from is
//! remembered for the account (the device cookie's token, kept as its SHA-256), and when the
//! account has signed in from other browsers but never this one, its owner is mailed. Also the
//! name a person recognizes a browser by ("Chrome on Linux"), from its User-Agent.

use std::net::IpAddr;

use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use crate::accounts::notices::{self, Notice};
use crate::db::PgPool;
use crate::db::known_devices::{self, Seen};
use crate::db::users::UserRow;

/// Where a sign-in came from: the device cookie's token, the browser as a person would name it
/// ("Chrome on Linux"), and the client's address.
pub struct Device<'a> {
    pub token: &'a str,
    pub browser: &'a str,
    pub address: Option<IpAddr>,
}

/// Records the sign-in's device for `user` and mails the owner about a device new to the account.
pub async fn signed_in_from(
    pool: &PgPool,
    user: &UserRow,
    device: &Device<'_>,
    now: OffsetDateTime,
) -> anyhow::Result<()> {
    let hash: [u8; 32] = Sha256::digest(device.token.as_bytes()).into();
    if known_devices::sign_in(pool, user.id, &hash, now).await? == Seen::New {
        let from = device
            .address
            .map_or_else(String::new, |a| format!(" from the address {a}"));
        notices::tell_now(
            pool,
            user,
            &Notice {
                headline: "New sign-in to your account",
                text: format!(
                    "Your account was signed in to with {}{from}, on a device it had not been \
                     used on before. If this was you, there is nothing to do. If not, change your \
                     password and sign out the other devices (Signed-in devices, in your name's \
                     menu).",
                    device.browser
                ),
            },
            now,
        )
        .await?;
    }
    Ok(())
}

/// What a User-Agent that names no browser we know is listed as.
pub const SOME_BROWSER: &str = "A browser";

/// A short name for a User-Agent: the browser and the system.
pub fn describe_browser(user_agent: Option<&str>) -> String {
    let Some(ua) = user_agent else {
        return "Unknown browser".into();
    };
    let browser = if ua.contains("Edg/") {
        "Edge"
    } else if ua.contains("OPR/") {
        "Opera"
    } else if ua.contains("Firefox/") {
        "Firefox"
    } else if ua.contains("HeadlessChrome/") || ua.contains("Chrome/") || ua.contains("CriOS/") {
        "Chrome"
    } else if ua.contains("Safari/") {
        "Safari"
    } else {
        SOME_BROWSER
    };
    let system = if ua.contains("Android") {
        "Android"
    } else if ua.contains("iPhone") || ua.contains("iPad") {
        "iOS"
    } else if ua.contains("Windows") {
        "Windows"
    } else if ua.contains("Mac OS X") || ua.contains("Macintosh") {
        "macOS"
    } else if ua.contains("CrOS") {
        "ChromeOS"
    } else if ua.contains("Linux") {
        "Linux"
    } else {
        return browser.to_string();
    };
    format!("{browser} on {system}")
}

#[cfg(test)]
mod tests {
    use super::describe_browser;

    #[test]
    fn a_user_agent_is_named_by_browser_and_system() {
        let chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like \
                      Gecko) Chrome/131.0.0.0 Safari/537.36";
        assert_eq!(describe_browser(Some(chrome)), "Chrome on Windows");
        let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 \
                      (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
        assert_eq!(describe_browser(Some(iphone)), "Safari on iOS");
        let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
        assert_eq!(describe_browser(Some(firefox)), "Firefox on Linux");
        assert_eq!(describe_browser(None), "Unknown browser");
        assert_eq!(describe_browser(Some("curl/8.0")), "A browser");
    }
}
