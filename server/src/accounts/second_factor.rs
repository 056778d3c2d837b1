//! The second factor: TOTP codes (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of clock
//! drift either way) and single-use recovery codes.
//!
//! - A secret is 20 random bytes (RFC 4226's 160 bits), shown once as base32, as an `otpauth://`
//!   URI and as its QR code (SVG); it is stored encrypted under the data key.
//! - A code is accepted once: the step it matched is recorded and no code of that step or an
//!   earlier one is accepted again (`users.totp_last_step`).
//! - Recovery codes are 24 characters from a 32-letter alphabet (120 random bits), so a SHA-256
//!   of them is enough (ASVS 5.0 6.5.2 asks a password hash only below 112 bits).
//!
//! Codes by totp-rs; the QR code by qrcode. Also the code throttle's key.

use qrcode::QrCode;
use qrcode::render::svg;
use rand::Rng;
use sha2::{Digest, Sha256};
use totp_rs::{Algorithm, Builder, Secret, Totp};

/// The name authenticator apps show above the code.
pub const ISSUER: &str = "Enrollflow";
/// How many recovery codes a user gets (a new set replaces the old).
pub const RECOVERY_CODES: usize = 10;
/// Letters of a recovery code: no 0/O, 1/I to mistake for each other.
const RECOVERY_ALPHABET: &[u8; 32] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const RECOVERY_LEN: usize = 24;
/// A login's password step is good for this long before its code must come.
pub const CHALLENGE_VALID_FOR: time::Duration = time::Duration::minutes(5);
/// Impersonating an agent needs the admin's second factor within this long.
pub const RECENT: time::Duration = time::Duration::minutes(15);

fn totp(secret_base32: &str, account: &str) -> anyhow::Result<Totp> {
    let secret = Secret::try_from_base32(secret_base32)
        .map_err(|e| anyhow::anyhow!("a stored TOTP secret is not base32: {e:?}"))?;
    Builder::new()
        .with_algorithm(Algorithm::SHA1)
        .with_digits(6)
        .with_skew(1)
        .with_step_duration(30)
        .with_secret(secret)
        .with_issuer(Some(ISSUER))
        .with_account_name(account.replace(':', "."))
        .build()
        .map_err(|e| anyhow::anyhow!("TOTP: {e:?}"))
}

/// A new random secret, base32 (what people type into an app that cannot scan).
pub fn new_secret() -> String {
    let mut bytes = [0u8; 20];
    rand::rng().fill(&mut bytes);
    Secret::new_stack(bytes).to_base32()
}

fn unix(at: time::OffsetDateTime) -> u64 {
    u64::try_from(at.unix_timestamp()).unwrap_or(0)
}

/// The step a typed code matches at `at` (the current one or one either side), if any. Spaces and
/// dashes in what was typed are ignored.
pub fn matching_step(secret_base32: &str, typed: &str, at: time::OffsetDateTime) -> Option<i64> {
    let code: String = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let t = totp(secret_base32, "-").ok()?;
    t.check(&code, unix(at)).and_then(|s| i64::try_from(s).ok())
}

/// The code for `at` (tests and the demo's `enrollflow demo-code`).
pub fn code_at(secret_base32: &str, at: time::OffsetDateTime) -> anyhow::Result<String> {
    Ok(totp(secret_base32, "-")?.generate(unix(at)).to_string())
}

/// What a person needs to add the secret to an authenticator app.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct Enrolment {
    /// The secret in base32, for typing in by hand.
    pub secret: String,
    /// The `otpauth://totp/…` URI the QR code holds.
    pub uri: String,
    /// The QR code of the URI, an SVG document.
    pub qr_svg: String,
}

/// The enrolment of `secret` for the account `email`.
pub fn enrolment(secret_base32: &str, email: &str) -> anyhow::Result<Enrolment> {
    let uri = totp(secret_base32, email)?
        .to_url()
        .map_err(|e| anyhow::anyhow!("otpauth URI: {e:?}"))?;
    let qr = QrCode::new(uri.as_bytes())?;
    let qr_svg = qr
        .render::<svg::Color<'_>>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build();
    Ok(Enrolment {
        secret: secret_base32.to_string(),
        uri,
        qr_svg,
    })
}

/// Ten new recovery codes, grouped by four for reading (`ABCD-EFGH-…`).
pub fn new_recovery_codes() -> Vec<String> {
    let mut rng = rand::rng();
    (0..RECOVERY_CODES)
        .map(|_| {
            let raw: Vec<u8> = (0..RECOVERY_LEN)
                .map(|_| RECOVERY_ALPHABET[rng.random_range(0..RECOVERY_ALPHABET.len())])
                .collect();
            raw.chunks(4)
                .map(|c| String::from_utf8_lossy(c).into_owned())
                .collect::<Vec<_>>()
                .join("-")
        })
        .collect()
}

/// The stored hash of a recovery code as typed (case, spaces and dashes do not matter); `None`
/// when it cannot be one.
pub fn recovery_hash(typed: &str) -> Option<[u8; 32]> {
    let code: String = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    (code.len() == RECOVERY_LEN && code.bytes().all(|b| RECOVERY_ALPHABET.contains(&b)))
        .then(|| Sha256::digest(format!("recovery:{code}").as_bytes()).into())
}

/// The throttling key of a person's second-factor attempts (apart from their password's).
pub fn throttle_key(user_id: uuid::Uuid) -> [u8; 32] {
    Sha256::digest(format!("second-factor:{user_id}").as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    // RFC 6238, appendix B: the SHA-1 secret "12345678901234567890", 8 digits there; the last
    // six digits are the 6-digit code.
    const RFC_SECRET: &str = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

    #[test]
    fn codes_follow_rfc_6238() {
        for (unix, eight) in [
            (59, "94287082"),
            (1_111_111_109, "07081804"),
            (1_234_567_890, "89005924"),
            (2_000_000_000, "69279037"),
        ] {
            let at = time::OffsetDateTime::from_unix_timestamp(unix).expect("time");
            assert_eq!(code_at(RFC_SECRET, at).expect("code"), eight[2..]);
        }
    }

    #[test]
    fn a_code_matches_its_step_and_one_either_side_only() {
        let secret = new_secret();
        let at = time::OffsetDateTime::from_unix_timestamp(1_700_000_010).expect("time");
        let step = 1_700_000_010 / 30;
        let code = code_at(&secret, at).expect("code");
        assert_eq!(matching_step(&secret, &code, at), Some(step));
        assert_eq!(
            matching_step(&secret, &code, at + time::Duration::seconds(30)),
            Some(step)
        );
        assert_eq!(
            matching_step(&secret, &code, at + time::Duration::seconds(90)),
            None
        );
        assert_eq!(
            matching_step(&secret, &format!("{} {}", &code[..3], &code[3..]), at),
            Some(step)
        );
        assert_eq!(matching_step(&secret, "12345", at), None);
        assert_eq!(matching_step(&secret, "abcdef", at), None);
    }

    #[test]
    fn the_enrolment_names_the_account_and_draws_a_qr_code() {
        let e = enrolment(&new_secret(), "ann@example.com").expect("enrolment");
        assert!(
            e.uri
                .starts_with("otpauth://totp/Enrollflow:ann%40example.com?"),
            "{}",
            e.uri
        );
        assert!(e.uri.contains(&format!("secret={}", e.secret)));
        assert!(e.qr_svg.contains("<svg"));
        assert_eq!(e.secret.len(), 32);
    }

    #[test]
    fn recovery_codes_are_random_and_forgiving_to_type() {
        let codes = new_recovery_codes();
        assert_eq!(codes.len(), 10);
        assert_eq!(codes[0].len(), 29);
        assert_ne!(codes[0], codes[1]);
        let typed = codes[0].to_lowercase().replace('-', " ");
        assert_eq!(recovery_hash(&typed), recovery_hash(&codes[0]));
        assert!(recovery_hash(&codes[0]).is_some());
        assert_eq!(recovery_hash("ABCD"), None);
        assert_eq!(recovery_hash("0000-1111-0000-1111-0000-1111"), None);
    }
}
