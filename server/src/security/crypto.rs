//! Encryption of sensitive values at rest (SSNs, private mail, authenticator secrets): AES-256-GCM
//! with a random 96-bit nonce per value, stored as `enc:v2:<key id>:<base64(nonce || ciphertext)>`.
//!
//! A `Cipher` is a key ring: the current key encrypts, and any key of the ring decrypts what it
//! encrypted (found by the key id the value carries), so `enrollflow rotate-key` can re-encrypt
//! under a new key while the service runs (`crate::security::keys`). A key's id is derived from the key
//! (the first 8 hex digits of a SHA-256), so no id is configured. Values written before key ids
//! (`enc:v1:<base64>`) are read with any key of the ring.
//!
//! A value bound to its place (`encrypt_bound`: an SSN to its application and field) carries that
//! place as AES-GCM associated data: copied to another row or field, it no longer decrypts.
//!
//! Keys come from the environment or a file, never a command-line flag: `ENROLLFLOW_DATA_KEY` or
//! `ENROLLFLOW_DATA_KEY_FILE` (32 bytes in base64), and during a rotation the earlier keys in
//! `ENROLLFLOW_OLD_DATA_KEYS` (comma-separated) or `ENROLLFLOW_OLD_DATA_KEYS_FILE` (one a line).
//!
//! `keys_from_env` reads them. Also the masks (`*****6789`, `mask`). Checked by the tests below
//! and `server/tests/api/key_rotation.rs` (a swapped ciphertext is refused).

use std::sync::Arc;

use aes_gcm::aead::{Aead, AeadCore, KeyInit, OsRng, Payload};
use aes_gcm::{Aes256Gcm, Key, Nonce};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};

const V1: &str = "enc:v1:";
const V2: &str = "enc:v2:";

struct DataKey {
    id: String,
    aead: Aes256Gcm,
    /// The key of keyed digests (`Cipher::digest`), derived from the data key.
    digest_key: [u8; 32],
}

impl DataKey {
    fn new(bytes: &[u8]) -> Self {
        let mut h = Sha256::new();
        h.update(b"enrollflow data key id\0");
        h.update(bytes);
        let mut d = Sha256::new();
        d.update(b"enrollflow digest key\0");
        d.update(bytes);
        Self {
            id: hex::encode(&h.finalize()[..4]),
            aead: Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(bytes)),
            digest_key: d.finalize().into(),
        }
    }
}

#[derive(Clone)]
pub struct Cipher {
    /// The current key first, then the earlier ones (decryption only).
    keys: Arc<[DataKey]>,
    /// Whether values from before key ids (`enc:v1`, bound to nothing) and documents stored
    /// before documents were encrypted are still read: until a key rotation has re-sealed them.
    legacy: bool,
}

impl std::fmt::Debug for Cipher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Cipher(key {}, {} in all)",
            self.key_id(),
            self.keys.len()
        )
    }
}

fn key_bytes(key: &str, name: &str) -> anyhow::Result<Vec<u8>> {
    let bytes = STANDARD
        .decode(key.trim())
        .map_err(|_| anyhow::anyhow!("{name} must be base64"))?;
    anyhow::ensure!(
        bytes.len() == 32,
        "{name} must be 32 bytes (base64 of 32 random bytes)"
    );
    Ok(bytes)
}

impl Cipher {
    /// From a base64 key of 32 bytes.
    pub fn from_base64(key: &str) -> anyhow::Result<Self> {
        let bytes = key_bytes(key, "ENROLLFLOW_DATA_KEY")?;
        Ok(Self {
            legacy: true,
            keys: Arc::from(vec![DataKey::new(&bytes)]),
        })
    }

    /// The same current key, with earlier keys (base64) to read what they encrypted.
    pub fn with_older<'a>(&self, older: impl IntoIterator<Item = &'a str>) -> anyhow::Result<Self> {
        let mut keys: Vec<DataKey> = self
            .keys
            .iter()
            .map(|k| DataKey {
                id: k.id.clone(),
                aead: k.aead.clone(),
                digest_key: k.digest_key,
            })
            .collect();
        for k in older {
            let k = DataKey::new(&key_bytes(k, "ENROLLFLOW_OLD_DATA_KEYS")?);
            if !keys.iter().any(|have| have.id == k.id) {
                keys.push(k);
            }
        }
        Ok(Self {
            legacy: self.legacy,
            keys: Arc::from(keys),
        })
    }

    /// A fresh random key (tests).
    pub fn random() -> Self {
        let key = Aes256Gcm::generate_key(&mut OsRng);
        Self {
            legacy: true,
            keys: Arc::from(vec![DataKey::new(key.as_slice())]),
        }
    }

    /// The same keys, refusing what only older releases wrote: `enc:v1` values (bound to no
    /// place) and documents stored in clear. What the server serves with once `rotate-key` has
    /// finished (it re-seals both).
    pub fn refusing_legacy(&self) -> Self {
        Self {
            keys: self.keys.clone(),
            legacy: false,
        }
    }

    /// A keyed digest (HMAC-SHA-256 under a key derived from the current data key) of `value` for
    /// `purpose`: what is kept of a value only to count or match it (a link's recipient), which
    /// cannot be turned back into the value or guessed without the key. A new data key starts new
    /// digests.
    pub fn digest(&self, purpose: &str, value: &str) -> [u8; 32] {
        use hmac::{Hmac, Mac};
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.keys[0].digest_key)
            .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
        mac.update(purpose.as_bytes());
        mac.update(b"\0");
        mac.update(value.as_bytes());
        mac.finalize().into_bytes().into()
    }

    /// The current key's id (what new values carry).
    pub fn key_id(&self) -> &str {
        &self.keys[0].id
    }

    pub fn encrypt(&self, plaintext: &str) -> anyhow::Result<String> {
        self.encrypt_bound(plaintext, "")
    }

    /// Encrypts `plaintext` bound to `place` (associated data): it decrypts only with the same
    /// place.
    pub fn encrypt_bound(&self, plaintext: &str, place: &str) -> anyhow::Result<String> {
        let (id, sealed) = self.seal(plaintext.as_bytes(), place)?;
        Ok(format!("{V2}{id}:{}", STANDARD.encode(sealed)))
    }

    /// `msg` encrypted under the current key with `place` as associated data: the key's id, and
    /// the nonce followed by the ciphertext.
    fn seal(&self, msg: &[u8], place: &str) -> anyhow::Result<(&str, Vec<u8>)> {
        let key = &self.keys[0];
        let nonce = Aes256Gcm::generate_nonce(&mut OsRng);
        let ct = key
            .aead
            .encrypt(
                &nonce,
                Payload {
                    msg,
                    aad: place.as_bytes(),
                },
            )
            .map_err(|_| anyhow::anyhow!("encryption failed"))?;
        let mut out = Vec::with_capacity(nonce.len() + ct.len());
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&ct);
        Ok((&key.id, out))
    }

    pub fn decrypt(&self, stored: &str) -> anyhow::Result<String> {
        self.decrypt_bound(stored, "")
    }

    /// Decrypts a value encrypted for `place` (values from before key ids are not bound).
    pub fn decrypt_bound(&self, stored: &str, place: &str) -> anyhow::Result<String> {
        let (keys, raw, aad): (Vec<&DataKey>, &str, &str) =
            if let Some(rest) = stored.strip_prefix(V2) {
                let (id, raw) = rest
                    .split_once(':')
                    .ok_or_else(|| anyhow::anyhow!("corrupt encrypted value"))?;
                let key = self.keys.iter().find(|k| k.id == id).ok_or_else(|| {
                    anyhow::anyhow!(
                        "a stored value is encrypted with key {id}, which is not configured \
                         (ENROLLFLOW_OLD_DATA_KEYS during a rotation)"
                    )
                })?;
                (vec![key], raw, place)
            } else if let Some(raw) = stored.strip_prefix(V1) {
                anyhow::ensure!(
                    self.legacy,
                    "a value sealed before key ids (enc:v1, bound to no record) is no longer read: \
                     `enrollflow rotate-key` re-seals such values"
                );
                (self.keys.iter().collect(), raw, "")
            } else {
                anyhow::bail!("not an encrypted value");
            };
        let bytes = STANDARD
            .decode(raw)
            .map_err(|_| anyhow::anyhow!("corrupt encrypted value"))?;
        anyhow::ensure!(bytes.len() > 12, "corrupt encrypted value");
        let (nonce, ct) = bytes.split_at(12);
        let pt = keys
            .iter()
            .find_map(|k| {
                k.aead
                    .decrypt(
                        Nonce::from_slice(nonce),
                        Payload {
                            msg: ct,
                            aad: aad.as_bytes(),
                        },
                    )
                    .ok()
            })
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "cannot decrypt a stored value (wrong ENROLLFLOW_DATA_KEY, or a value moved \
                     from another record)"
                )
            })?;
        String::from_utf8(pt).map_err(|_| anyhow::anyhow!("corrupt encrypted value"))
    }

    pub fn is_encrypted(v: &str) -> bool {
        v.starts_with(V2) || v.starts_with(V1)
    }

    /// Whether a stored value is under another key than the current one (or under none named).
    pub fn needs_rotation(&self, stored: &str) -> bool {
        match stored.strip_prefix(V2) {
            Some(rest) => !rest.starts_with(&format!("{}:", self.key_id())),
            None => stored.starts_with(V1),
        }
    }

    /// A stored value re-encrypted under the current key (`place` as it was bound), or `None`
    /// when it is under the current key already.
    pub fn rotate(&self, stored: &str, place: &str) -> anyhow::Result<Option<String>> {
        if !self.needs_rotation(stored) {
            return Ok(None);
        }
        let plain = self.decrypt_bound(stored, place)?;
        Ok(Some(self.encrypt_bound(&plain, place)?))
    }
}

/// The header of an encrypted document: a magic, then the key's id (8 ASCII hex digits), the
/// nonce and the ciphertext. A stored object without it is a file from before encryption.
const DOCUMENT_MAGIC: &[u8; 4] = b"EFD2";

impl Cipher {
    /// A document's bytes encrypted under the current key, bound to `place`.
    pub fn encrypt_bytes_bound(&self, plain: &[u8], place: &str) -> anyhow::Result<Vec<u8>> {
        let (id, sealed) = self.seal(plain, place)?;
        let mut out = Vec::with_capacity(DOCUMENT_MAGIC.len() + id.len() + sealed.len());
        out.extend_from_slice(DOCUMENT_MAGIC);
        out.extend_from_slice(id.as_bytes());
        out.extend_from_slice(&sealed);
        Ok(out)
    }

    /// A stored document's bytes: decrypted, or as they are when stored before encryption.
    pub fn decrypt_bytes_bound(&self, stored: &[u8], place: &str) -> anyhow::Result<Vec<u8>> {
        let Some(rest) = stored.strip_prefix(DOCUMENT_MAGIC) else {
            anyhow::ensure!(
                self.legacy,
                "a document stored before documents were encrypted is no longer read: \
                 `enrollflow rotate-key` encrypts such documents"
            );
            return Ok(stored.to_vec());
        };
        anyhow::ensure!(rest.len() > 8 + 12, "corrupt encrypted document");
        let (id, rest) = rest.split_at(8);
        let (nonce, ct) = rest.split_at(12);
        let id =
            std::str::from_utf8(id).map_err(|_| anyhow::anyhow!("corrupt encrypted document"))?;
        let key = self.keys.iter().find(|k| k.id == id).ok_or_else(|| {
            anyhow::anyhow!(
                "a stored document is encrypted with key {id}, which is not configured \
                 (ENROLLFLOW_OLD_DATA_KEYS during a rotation)"
            )
        })?;
        key.aead
            .decrypt(
                Nonce::from_slice(nonce),
                Payload {
                    msg: ct,
                    aad: place.as_bytes(),
                },
            )
            .map_err(|_| anyhow::anyhow!("cannot decrypt a stored document"))
    }

    /// Whether stored document bytes are not under the current key (or not encrypted at all).
    pub fn bytes_need_rotation(&self, stored: &[u8]) -> bool {
        match stored.strip_prefix(DOCUMENT_MAGIC) {
            Some(rest) => !rest.starts_with(self.key_id().as_bytes()),
            None => true,
        }
    }
}

/// Makes ring the process's TLS provider (the HTTPS clients of the document bucket and of the
/// trace exporter take the process's; PostgreSQL and SMTP use ring too). Idempotent.
pub fn install_tls_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// The data keys from the environment or files, never a flag: the current key from
/// `ENROLLFLOW_DATA_KEY` or the file `ENROLLFLOW_DATA_KEY_FILE`, earlier keys from
/// `ENROLLFLOW_OLD_DATA_KEYS` (comma-separated) or the file `ENROLLFLOW_OLD_DATA_KEYS_FILE`.
/// `None` when no current key is set.
pub fn keys_from_env() -> anyhow::Result<Option<Cipher>> {
    let Some(current) = env_or_file("ENROLLFLOW_DATA_KEY")? else {
        return Ok(None);
    };
    let older = env_or_file("ENROLLFLOW_OLD_DATA_KEYS")?.unwrap_or_default();
    let cipher = Cipher::from_base64(current.trim())?.with_older(
        older
            .split([',', '\n'])
            .map(str::trim)
            .filter(|k| !k.is_empty()),
    )?;
    Ok(Some(cipher))
}

/// A secret from the environment variable `NAME`, or else from the file named by `NAME_FILE`
/// (how container secrets are mounted); `None` when neither is set. Never a command-line flag.
pub fn env_or_file(name: &str) -> anyhow::Result<Option<String>> {
    let var = |n: &str| std::env::var(n).ok().filter(|v| !v.trim().is_empty());
    if let Some(v) = var(name) {
        return Ok(Some(v));
    }
    match var(&format!("{name}_FILE")) {
        Some(path) => Ok(Some(std::fs::read_to_string(path.trim()).map_err(|e| {
            anyhow::anyhow!("{name}_FILE: cannot read {}: {e}", path.trim())
        })?)),
        None => Ok(None),
    }
}

/// How a sensitive value is shown once stored: only its last four characters.
pub fn mask(plain: &str) -> String {
    let n = plain.chars().count();
    let keep: String = plain.chars().skip(n.saturating_sub(4)).collect();
    format!("{}{keep}", "*".repeat(n.saturating_sub(4)))
}

/// Masks `value` unless it is what the agent had entered (`entered`) before a customer took the
/// application over: what the customer gave since shows only masked (More Info, the lists, the
/// exports).
pub fn mask_unless(value: &mut String, entered: Option<&str>) {
    if !value.is_empty() && Some(value.as_str()) != entered {
        *value = mask(value);
    }
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
        assert!(stored.starts_with(&format!("enc:v2:{}:", c.key_id())));
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
    fn values_and_documents_of_older_releases_are_refused_once_legacy_is() {
        let c = Cipher::random();
        // An `enc:v1` value as older releases wrote it: no key id, no place.
        let nonce = [9u8; 12];
        let ct = c.keys[0]
            .aead
            .encrypt(Nonce::from_slice(&nonce), b"123456789".as_slice())
            .expect("seal");
        let v1 = format!("{V1}{}", STANDARD.encode([&nonce[..], &ct].concat()));
        assert_eq!(c.decrypt(&v1).expect("read while legacy"), "123456789");
        assert_eq!(
            c.decrypt_bytes_bound(b"%PDF in clear", "x").expect("clear"),
            b"%PDF in clear"
        );
        let strict = c.refusing_legacy();
        assert!(strict.decrypt(&v1).is_err());
        assert!(strict.decrypt_bytes_bound(b"%PDF in clear", "x").is_err());
        // What the current releases write still reads.
        let v2 = strict.encrypt_bound("123456789", "p").expect("seal");
        assert_eq!(strict.decrypt_bound(&v2, "p").expect("v2"), "123456789");
        let doc = strict.encrypt_bytes_bound(b"%PDF", "p").expect("seal");
        assert_eq!(strict.decrypt_bytes_bound(&doc, "p").expect("doc"), b"%PDF");
    }

    #[test]
    fn a_bound_value_decrypts_only_in_its_place() {
        let c = Cipher::random();
        let stored = c
            .encrypt_bound("123456789", "app-1:subInfo:sub_ssn")
            .expect("encrypts");
        assert_eq!(
            c.decrypt_bound(&stored, "app-1:subInfo:sub_ssn")
                .expect("same place"),
            "123456789"
        );
        for other in ["app-2:subInfo:sub_ssn", "app-1:census:dependents/*/ssn", ""] {
            assert!(c.decrypt_bound(&stored, other).is_err(), "{other}");
        }
    }

    #[test]
    fn a_ring_reads_its_older_keys_and_rotation_moves_values_to_the_current_one() {
        let old = STANDARD.encode([1u8; 32]);
        let new = STANDARD.encode([2u8; 32]);
        let before = Cipher::from_base64(&old).expect("old");
        let stored = before.encrypt_bound("123456789", "p").expect("encrypts");
        let ring = Cipher::from_base64(&new)
            .expect("new")
            .with_older([old.as_str()])
            .expect("ring");
        assert_ne!(ring.key_id(), before.key_id());
        assert!(ring.needs_rotation(&stored));
        assert_eq!(
            ring.decrypt_bound(&stored, "p").expect("old key read"),
            "123456789"
        );
        let rotated = ring
            .rotate(&stored, "p")
            .expect("rotates")
            .expect("changed");
        assert!(!ring.needs_rotation(&rotated));
        assert_eq!(ring.rotate(&rotated, "p").expect("nothing to do"), None);
        let only_new = Cipher::from_base64(&new).expect("new");
        assert_eq!(
            only_new.decrypt_bound(&rotated, "p").expect("new key"),
            "123456789"
        );
        let e = only_new
            .decrypt_bound(&stored, "p")
            .expect_err("old key gone");
        assert!(e.to_string().contains(before.key_id()), "{e}");
    }

    #[test]
    fn values_from_before_key_ids_are_read_and_rotated() {
        let key = [3u8; 32];
        let legacy = {
            let aead = Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(&key));
            let nonce = Aes256Gcm::generate_nonce(&mut OsRng);
            let mut out = nonce.to_vec();
            out.extend(
                aead.encrypt(&nonce, b"123456789".as_ref())
                    .expect("encrypts"),
            );
            format!("enc:v1:{}", STANDARD.encode(out))
        };
        let c = Cipher::from_base64(&STANDARD.encode(key)).expect("key");
        assert!(Cipher::is_encrypted(&legacy));
        assert!(c.needs_rotation(&legacy));
        assert_eq!(
            c.decrypt_bound(&legacy, "any place").expect("v1"),
            "123456789"
        );
        let rotated = c
            .rotate(&legacy, "app:subInfo:sub_ssn")
            .expect("ok")
            .expect("changed");
        assert!(rotated.starts_with("enc:v2:"));
        assert!(c.decrypt_bound(&rotated, "other").is_err(), "bound now");
    }

    #[test]
    fn documents_are_encrypted_bound_and_older_files_read_as_they_are() {
        let c = Cipher::random();
        let pdf = b"%PDF-1.4 proof of a qualifying event";
        let stored = c
            .encrypt_bytes_bound(pdf, "app:document:k1")
            .expect("encrypts");
        assert!(
            !stored.windows(4).any(|w| w == b"%PDF"),
            "no plaintext at rest"
        );
        assert!(!c.bytes_need_rotation(&stored));
        assert_eq!(
            c.decrypt_bytes_bound(&stored, "app:document:k1")
                .expect("reads"),
            pdf
        );
        assert!(
            c.decrypt_bytes_bound(&stored, "app:document:k2").is_err(),
            "bound"
        );
        assert!(
            Cipher::random()
                .decrypt_bytes_bound(&stored, "app:document:k1")
                .is_err()
        );
        // A file stored before encryption is read as it is, and is due for rotation.
        assert_eq!(c.decrypt_bytes_bound(pdf, "any").expect("plain"), pdf);
        assert!(c.bytes_need_rotation(pdf));
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
