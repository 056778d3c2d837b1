//! What a successful sign-in leaves behind besides its session: the browser it came from is
//! remembered for the account (the device cookie's token, kept as its SHA-256), and when the
//! account has signed in from other browsers but never this one, its owner is mailed.

use std::net::IpAddr;

use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use crate::accounts::notices::{self, Notice};
use crate::db::PgPool;
use crate::db::known_devices::{self, Seen};
use crate::db::users::UserRow;
use crate::platform::error::ApiResult;

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
) -> ApiResult<()> {
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
