//! Encryption of sensitive answers (SSNs) at rest: AES-256-GCM with a random 96-bit nonce per
//! value, stored as `enc:v1:<base64(nonce || ciphertext)>`. The key comes from the environment
//! (`ENROLLFLOW_DATA_KEY`, 32 bytes in base64); `make demo` generates one.

use aes_gcm::aead::{Aead, AeadCore, KeyInit, OsRng};
use aes_gcm::{Aes256Gcm, Key, Nonce};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

const PREFIX: &str = "enc:v1:";

#[derive(Clone)]
pub struct Cipher(Aes256Gcm);

impl std::fmt::Debug for Cipher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Cipher(..)")
    }
}

impl Cipher {
    /// From a base64 key of 32 bytes.
    pub fn from_base64(key: &str) -> anyhow::Result<Self> {
        let bytes = STANDARD
            .decode(key.trim())
            .map_err(|_| anyhow::anyhow!("ENROLLFLOW_DATA_KEY must be base64"))?;
        anyhow::ensure!(
            bytes.len() == 32,
            "ENROLLFLOW_DATA_KEY must be 32 bytes (base64 of 32 random bytes)"
        );
        Ok(Self(Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(&bytes))))
    }

    /// A fresh random key (tests).
    pub fn random() -> Self {
        Self(Aes256Gcm::new(&Aes256Gcm::generate_key(&mut OsRng)))
    }

    pub fn encrypt(&self, plaintext: &str) -> anyhow::Result<String> {
        let nonce = Aes256Gcm::generate_nonce(&mut OsRng);
        let ct = self
            .0
            .encrypt(&nonce, plaintext.as_bytes())
            .map_err(|_| anyhow::anyhow!("encryption failed"))?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&ct);
        Ok(format!("{PREFIX}{}", STANDARD.encode(out)))
    }

    pub fn decrypt(&self, stored: &str) -> anyhow::Result<String> {
        let raw = stored
            .strip_prefix(PREFIX)
            .ok_or_else(|| anyhow::anyhow!("not an encrypted value"))?;
        let bytes = STANDARD
            .decode(raw)
            .map_err(|_| anyhow::anyhow!("corrupt encrypted value"))?;
        anyhow::ensure!(bytes.len() > 12, "corrupt encrypted value");
        let (nonce, ct) = bytes.split_at(12);
        let pt = self.0.decrypt(Nonce::from_slice(nonce), ct).map_err(|_| {
            anyhow::anyhow!("cannot decrypt a stored value (wrong ENROLLFLOW_DATA_KEY?)")
        })?;
        String::from_utf8(pt).map_err(|_| anyhow::anyhow!("corrupt encrypted value"))
    }

    pub fn is_encrypted(v: &str) -> bool {
        v.starts_with(PREFIX)
    }
}

/// How a sensitive value is shown once stored: only its last four characters.
pub fn mask(plain: &str) -> String {
    let n = plain.chars().count();
    let keep: String = plain.chars().skip(n.saturating_sub(4)).collect();
    format!("{}{keep}", "*".repeat(n.saturating_sub(4)))
}

/// A value the browser sent back unchanged from its mask.
pub fn is_mask(v: &str) -> bool {
    v.starts_with('*') && v.chars().filter(|c| *c != '*').count() <= 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_never_appear_in_the_stored_form() {
        let c = Cipher::random();
        let stored = c.encrypt("123456789").expect("encrypts");
        assert!(stored.starts_with("enc:v1:"));
        assert!(!stored.contains("123456789"));
        assert_ne!(
            stored,
            c.encrypt("123456789").expect("encrypts"),
            "random nonce"
        );
        assert_eq!(c.decrypt(&stored).expect("decrypts"), "123456789");
        assert!(
            Cipher::random().decrypt(&stored).is_err(),
            "another key cannot read it"
        );
    }

    #[test]
    fn masks_keep_the_last_four() {
        assert_eq!(mask("123456789"), "*****6789");
        assert!(is_mask("*****6789"));
        assert!(!is_mask("123456789"));
    }

    #[test]
    fn keys_must_be_32_bytes_of_base64() {
        assert!(Cipher::from_base64("c2hvcnQ=").is_err());
        assert!(Cipher::from_base64(&STANDARD.encode([7u8; 32])).is_ok());
    }
}
