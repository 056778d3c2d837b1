//! Evidence that proves itself: every evidence packet and its PDF carry an Ed25519 signature made
//! with a key held outside the database, named by a key id, so a copy is checked offline
//! (`enrollflow verify-packet FILE`) against the published public keys
//! (`/.well-known/enrollflow-evidence-keys.json`), and a packet edited where it is stored, its
//! hash recomputed, no longer verifies.
//!
//! The signing key comes from the environment or a file, never a flag: `ENROLLFLOW_EVIDENCE_KEY`
//! or `ENROLLFLOW_EVIDENCE_KEY_FILE`, written `KEY_ID:SEED` (the seed is 32 random bytes in
//! base64; `enrollflow evidence-key --id KEY_ID` makes one). Retired keys stay trusted by their
//! public halves, in `ENROLLFLOW_EVIDENCE_PUBLIC_KEYS` or `ENROLLFLOW_EVIDENCE_PUBLIC_KEYS_FILE`
//! (`KEY_ID:PUBLIC`, comma- or line-separated): packets signed before a rotation verify under
//! their key id. Without a configured key the server signs with a key derived from the data key
//! (also kept outside the database), whose id begins `derived-`.
//!
//! Where the signature is: a packet's JSON ends with a last member
//! `"signature":{"alg":"Ed25519","key_id":…,"value":…}` over the packet's bytes without that
//! member; a PDF ends, after its `%%EOF`, with one comment line
//! `%EnrollflowSignature Ed25519 KEY_ID VALUE` over the bytes before that line. Each message is
//! prefixed with what it is, so a signature over one kind of file proves nothing of the other.
//!
//! `server/tests/api/evidence.rs`.

use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ring::signature::{ED25519, Ed25519KeyPair, KeyPair, UnparsedPublicKey};
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::Digest as _;

use crate::security::crypto::Cipher;

const JSON_CONTEXT: &[u8] = b"enrollflow-evidence-packet-signature/1\n";
const PDF_CONTEXT: &[u8] = b"enrollflow-evidence-pdf-signature/1\n";
const JSON_MEMBER: &[u8] = b",\"signature\":";
const PDF_LINE: &[u8] = b"%EnrollflowSignature Ed25519 ";

/// A key id: letters, digits, `.`, `_` and `-`, up to 64 (it is written into PDFs and mail).
fn checked_id(id: &str) -> anyhow::Result<String> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    anyhow::ensure!(
        ok,
        "an evidence key id is 1 to 64 letters, digits, '.', '_' or '-' (got {id:?})"
    );
    Ok(id.to_string())
}

fn decode_32(what: &str, b64: &str) -> anyhow::Result<[u8; 32]> {
    let bytes = STANDARD
        .decode(b64.trim())
        .or_else(|_| URL_SAFE_NO_PAD.decode(b64.trim()))
        .map_err(|_| anyhow::anyhow!("{what} must be base64"))?;
    bytes
        .try_into()
        .map_err(|_| anyhow::anyhow!("{what} must be 32 bytes"))
}

/// A trusted public key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey {
    pub id: String,
    pub bytes: [u8; 32],
}

struct Signer {
    id: String,
    pair: Ed25519KeyPair,
}

/// The key that signs new evidence and every key whose signatures are trusted.
#[derive(Clone)]
pub struct EvidenceKeys {
    signer: Option<Arc<Signer>>,
    trusted: Arc<[PublicKey]>,
}

impl std::fmt::Debug for EvidenceKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "EvidenceKeys(signing with {:?}, {} trusted)",
            self.signing_key_id(),
            self.trusted.len()
        )
    }
}

/// What a signature check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signature {
    /// Signed by this trusted key, and the content is what it signed.
    Valid { key_id: String },
    /// Signed (by this key id), but the content is not what was signed, or the signature is
    /// not the key's.
    Altered { key_id: String },
    /// Signed by a key id nobody trusts here.
    UnknownKey { key_id: String },
    /// No signature (packets stored before evidence was signed, or not a packet).
    Unsigned,
}

impl EvidenceKeys {
    /// Signs with `KEY_ID:SEED` (seed in base64), trusting its public half.
    pub fn from_secret(line: &str) -> anyhow::Result<Self> {
        let (id, seed) = line.trim().split_once(':').ok_or_else(|| {
            anyhow::anyhow!("an evidence key is written KEY_ID:SEED (base64 of 32 random bytes)")
        })?;
        let seed = decode_32("an evidence key's seed", seed)?;
        Self::from_seed(checked_id(id.trim())?, &seed)
    }

    fn from_seed(id: String, seed: &[u8; 32]) -> anyhow::Result<Self> {
        let pair = Ed25519KeyPair::from_seed_unchecked(seed)
            .map_err(|e| anyhow::anyhow!("not an Ed25519 seed: {e}"))?;
        let public = PublicKey {
            id: id.clone(),
            bytes: pair
                .public_key()
                .as_ref()
                .try_into()
                .map_err(|_| anyhow::anyhow!("an Ed25519 public key is 32 bytes"))?,
        };
        Ok(Self {
            signer: Some(Arc::new(Signer { id, pair })),
            trusted: Arc::from(vec![public]),
        })
    }

    /// The key derived from the data key, for a server started without an evidence key of its
    /// own: its id names a digest of its public half, so a new data key is a new key id.
    pub fn derived(cipher: &Cipher) -> Self {
        let seed = cipher.digest("evidence signing key", "ed25519 seed");
        let id = Ed25519KeyPair::from_seed_unchecked(&seed)
            .map(|p| {
                let digest: [u8; 32] = sha2::Sha256::digest(p.public_key().as_ref()).into();
                format!("derived-{}", &hex::encode(digest)[..12])
            })
            .unwrap_or_else(|_| "derived".into());
        Self::from_seed(id, &seed).unwrap_or_else(|_| Self::trusting(Vec::new()))
    }

    /// Trusts these public keys and signs nothing (a verifier's keys).
    pub fn trusting(keys: Vec<PublicKey>) -> Self {
        Self {
            signer: None,
            trusted: Arc::from(keys),
        }
    }

    /// The same signer, trusting these retired keys too.
    pub fn with_trusted(&self, more: impl IntoIterator<Item = PublicKey>) -> Self {
        let mut trusted = self.trusted.to_vec();
        for k in more {
            if !trusted.iter().any(|t| t.id == k.id) {
                trusted.push(k);
            }
        }
        Self {
            signer: self.signer.clone(),
            trusted: Arc::from(trusted),
        }
    }

    /// The configured keys: the signing key from `ENROLLFLOW_EVIDENCE_KEY(_FILE)` (derived from
    /// the data key when there is none and a data key is given), and the retired public keys
    /// from `ENROLLFLOW_EVIDENCE_PUBLIC_KEYS(_FILE)`. `None` when nothing is configured.
    pub fn from_env(cipher: Option<&Cipher>) -> anyhow::Result<Option<Self>> {
        let secret = crate::security::crypto::env_or_file("ENROLLFLOW_EVIDENCE_KEY")?;
        let retired = crate::security::crypto::env_or_file("ENROLLFLOW_EVIDENCE_PUBLIC_KEYS")?;
        let base = match (secret, cipher) {
            (Some(line), _) => Some(Self::from_secret(&line)?),
            (None, Some(c)) => Some(Self::derived(c)),
            (None, None) => None,
        };
        let retired = match retired {
            Some(list) => public_keys_list(&list)?,
            None => Vec::new(),
        };
        Ok(match base {
            Some(b) => Some(b.with_trusted(retired)),
            None if !retired.is_empty() => Some(Self::trusting(retired)),
            None => None,
        })
    }

    /// Keys from a published key set (`/.well-known/enrollflow-evidence-keys.json`, JWK format).
    pub fn from_jwks(json: &[u8]) -> anyhow::Result<Self> {
        #[derive(Deserialize)]
        struct Jwk {
            kid: String,
            kty: String,
            crv: String,
            x: String,
        }
        #[derive(Deserialize)]
        struct Jwks {
            keys: Vec<Jwk>,
        }
        let set: Jwks = serde_json::from_slice(json)
            .map_err(|e| anyhow::anyhow!("not a JSON Web Key Set: {e}"))?;
        let mut keys = Vec::new();
        for k in set.keys {
            anyhow::ensure!(
                k.kty == "OKP" && k.crv == "Ed25519",
                "key {} is not an Ed25519 key",
                k.kid
            );
            keys.push(PublicKey {
                id: checked_id(&k.kid)?,
                bytes: decode_32("a public key", &k.x)?,
            });
        }
        Ok(Self::trusting(keys))
    }

    /// The id of the key new evidence is signed with.
    pub fn signing_key_id(&self) -> Option<&str> {
        self.signer.as_ref().map(|s| s.id.as_str())
    }

    /// The trusted public keys, the signing key's first.
    pub fn trusted(&self) -> &[PublicKey] {
        &self.trusted
    }

    /// The trusted keys as a JSON Web Key Set (RFC 8037's OKP keys).
    pub fn jwks(&self) -> Value {
        json!({
            "keys": self.trusted.iter().map(|k| json!({
                "kty": "OKP",
                "crv": "Ed25519",
                "alg": "EdDSA",
                "use": "sig",
                "kid": k.id,
                "x": URL_SAFE_NO_PAD.encode(k.bytes),
            })).collect::<Vec<_>>(),
        })
    }

    fn sign(&self, context: &[u8], bytes: &[u8]) -> anyhow::Result<(String, String)> {
        let signer = self
            .signer
            .as_ref()
            .ok_or_else(|| anyhow::anyhow!("no evidence signing key is configured"))?;
        let mut message = Vec::with_capacity(context.len() + bytes.len());
        message.extend_from_slice(context);
        message.extend_from_slice(bytes);
        let signature = signer.pair.sign(&message);
        Ok((signer.id.clone(), STANDARD.encode(signature.as_ref())))
    }

    fn check(&self, context: &[u8], bytes: &[u8], key_id: &str, value: &str) -> Signature {
        let key_id = key_id.to_string();
        let Some(key) = self.trusted.iter().find(|k| k.id == key_id) else {
            return Signature::UnknownKey { key_id };
        };
        let Ok(signature) = STANDARD.decode(value) else {
            return Signature::Altered { key_id };
        };
        let mut message = Vec::with_capacity(context.len() + bytes.len());
        message.extend_from_slice(context);
        message.extend_from_slice(bytes);
        match UnparsedPublicKey::new(&ED25519, key.bytes).verify(&message, &signature) {
            Ok(()) => Signature::Valid { key_id },
            Err(_) => Signature::Altered { key_id },
        }
    }

    /// A packet's JSON (an object) with its signature as the last member.
    pub fn sign_json(&self, packet: &[u8]) -> anyhow::Result<Vec<u8>> {
        anyhow::ensure!(
            packet.last() == Some(&b'}') && packet.len() > 2,
            "a packet is a JSON object with members"
        );
        let (key_id, value) = self.sign(JSON_CONTEXT, packet)?;
        let member = json!({ "alg": "Ed25519", "key_id": key_id, "value": value });
        let mut out = packet[..packet.len() - 1].to_vec();
        out.extend_from_slice(JSON_MEMBER);
        out.extend_from_slice(&serde_json::to_vec(&member)?);
        out.push(b'}');
        Ok(out)
    }

    /// A PDF with its signature line after its end.
    pub fn sign_pdf(&self, pdf: &[u8]) -> anyhow::Result<Vec<u8>> {
        let mut out = pdf.to_vec();
        if out.last() != Some(&b'\n') {
            out.push(b'\n');
        }
        let (key_id, value) = self.sign(PDF_CONTEXT, &out)?;
        out.extend_from_slice(PDF_LINE);
        out.extend_from_slice(format!("{key_id} {value}\n").as_bytes());
        Ok(out)
    }

    /// Checks a file's signature: a packet's JSON or its PDF.
    pub fn verify(&self, file: &[u8]) -> Signature {
        if file.starts_with(b"%PDF") {
            return self.verify_pdf(file);
        }
        self.verify_json(file)
    }

    fn verify_json(&self, file: &[u8]) -> Signature {
        let Some(at) = rfind(file, JSON_MEMBER) else {
            return Signature::Unsigned;
        };
        let Ok(Value::Object(whole)) = serde_json::from_slice::<Value>(file) else {
            return Signature::Unsigned;
        };
        let Some(member) = whole.get("signature") else {
            return Signature::Unsigned;
        };
        let key_id = member["key_id"].as_str().unwrap_or_default();
        let value = member["value"].as_str().unwrap_or_default();
        if member["alg"] != "Ed25519" {
            return Signature::Altered {
                key_id: key_id.to_string(),
            };
        }
        // The bytes the signature was made over: everything before the member, then the close.
        let mut signed = file[..at].to_vec();
        signed.push(b'}');
        // The member must be the object's last: nothing but its value and the closing brace.
        let rest = &file[at + JSON_MEMBER.len()..];
        let expected = serde_json::to_vec(member).unwrap_or_default();
        if rest.strip_suffix(b"}") != Some(&expected[..]) {
            return Signature::Altered {
                key_id: key_id.to_string(),
            };
        }
        self.check(JSON_CONTEXT, &signed, key_id, value)
    }

    fn verify_pdf(&self, file: &[u8]) -> Signature {
        let body = file.strip_suffix(b"\n").unwrap_or(file);
        let Some(at) = rfind(body, PDF_LINE) else {
            return Signature::Unsigned;
        };
        if at > 0 && body[at - 1] != b'\n' {
            return Signature::Unsigned;
        }
        let line = String::from_utf8_lossy(&body[at + PDF_LINE.len()..]).to_string();
        let mut parts = line.split(' ');
        let (Some(key_id), Some(value), None) = (parts.next(), parts.next(), parts.next()) else {
            return Signature::Altered {
                key_id: String::new(),
            };
        };
        self.check(PDF_CONTEXT, &file[..at], key_id, value.trim_end())
    }
}

/// `KEY_ID:PUBLIC` pairs, comma- or line-separated.
pub fn public_keys_list(list: &str) -> anyhow::Result<Vec<PublicKey>> {
    list.split([',', '\n'])
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (id, key) = l
                .split_once(':')
                .ok_or_else(|| anyhow::anyhow!("a public evidence key is written KEY_ID:PUBLIC"))?;
            Ok(PublicKey {
                id: checked_id(id.trim())?,
                bytes: decode_32("a public evidence key", key)?,
            })
        })
        .collect()
}

/// A new key: its secret line (`KEY_ID:SEED`) and its public line (`KEY_ID:PUBLIC`).
pub fn new_key(id: &str) -> anyhow::Result<(String, String)> {
    use rand::RngCore;
    let id = checked_id(id)?;
    let mut seed = [0u8; 32];
    rand::rng().fill_bytes(&mut seed);
    let keys = EvidenceKeys::from_seed(id.clone(), &seed)?;
    let public = STANDARD.encode(keys.trusted[0].bytes);
    Ok((
        format!("{id}:{}", STANDARD.encode(seed)),
        format!("{id}:{public}"),
    ))
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(id: &str) -> EvidenceKeys {
        let (secret, _) = new_key(id).expect("key");
        EvidenceKeys::from_secret(&secret).expect("keys")
    }

    #[test]
    fn a_signed_packet_verifies_and_a_changed_one_is_altered() {
        let k = keys("2026-a");
        let signed = k
            .sign_json(br#"{"format":"x","plans":{"total":"$10.00"}}"#)
            .expect("sign");
        let v: Value = serde_json::from_slice(&signed).expect("still JSON");
        assert_eq!(v["signature"]["key_id"], "2026-a");
        assert_eq!(
            k.verify(&signed),
            Signature::Valid {
                key_id: "2026-a".into()
            }
        );
        let changed = String::from_utf8(signed.clone())
            .expect("utf-8")
            .replace("$10.00", "$1.00");
        assert_eq!(
            k.verify(changed.as_bytes()),
            Signature::Altered {
                key_id: "2026-a".into()
            }
        );
        // A member added after the signature is a change too.
        let mut appended = signed[..signed.len() - 1].to_vec();
        appended.extend_from_slice(br#","extra":1}"#);
        assert!(matches!(k.verify(&appended), Signature::Altered { .. }));
        assert_eq!(k.verify(br#"{"format":"x"}"#), Signature::Unsigned);
    }

    #[test]
    fn a_signed_pdf_verifies_and_one_changed_byte_is_altered() {
        let k = keys("k1");
        let pdf = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n";
        let signed = k.sign_pdf(pdf).expect("sign");
        assert!(signed.starts_with(pdf));
        assert_eq!(
            k.verify(&signed),
            Signature::Valid {
                key_id: "k1".into()
            }
        );
        let mut bad = signed.clone();
        bad[12] ^= 1;
        assert_eq!(
            k.verify(&bad),
            Signature::Altered {
                key_id: "k1".into()
            }
        );
        assert_eq!(k.verify(pdf), Signature::Unsigned);
        // A JSON signature does not vouch for a PDF with the same bytes, nor the reverse.
        assert!(signed.ends_with(b"\n"));
    }

    #[test]
    fn after_a_rotation_old_evidence_verifies_under_its_key_id() {
        let old = keys("2025");
        let packet = old.sign_json(br#"{"a":1}"#).expect("sign");
        let public = old.trusted()[0].clone();
        let new = keys("2026").with_trusted([public]);
        let fresh = new.sign_json(br#"{"a":2}"#).expect("sign");
        assert_eq!(
            new.verify(&packet),
            Signature::Valid {
                key_id: "2025".into()
            }
        );
        assert_eq!(
            new.verify(&fresh),
            Signature::Valid {
                key_id: "2026".into()
            }
        );
        // Published and read back as a key set, offline.
        let set = serde_json::to_vec(&new.jwks()).expect("json");
        let verifier = EvidenceKeys::from_jwks(&set).expect("jwks");
        assert_eq!(verifier.signing_key_id(), None);
        assert_eq!(
            verifier.verify(&packet),
            Signature::Valid {
                key_id: "2025".into()
            }
        );
        // Without the retired key, its packets are signed by a key nobody trusts.
        assert_eq!(
            keys("2026").verify(&packet),
            Signature::UnknownKey {
                key_id: "2025".into()
            }
        );
    }

    #[test]
    fn a_signature_made_with_another_key_of_the_same_id_is_altered() {
        let real = keys("same");
        let forged = keys("same").sign_json(br#"{"a":1}"#).expect("sign");
        assert!(matches!(real.verify(&forged), Signature::Altered { .. }));
    }

    #[test]
    fn key_ids_and_lines_are_checked() {
        assert!(EvidenceKeys::from_secret("no-colon").is_err());
        assert!(EvidenceKeys::from_secret("bad id:AAAA").is_err());
        let (_, public) = new_key("ok").expect("key");
        assert_eq!(public_keys_list(&public).expect("list")[0].id, "ok");
        let derived = EvidenceKeys::derived(&Cipher::random());
        assert!(
            derived
                .signing_key_id()
                .is_some_and(|id| id.starts_with("derived-"))
        );
    }
}
