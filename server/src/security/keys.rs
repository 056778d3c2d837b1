//! Key rotation: `enrollflow rotate-key` re-encrypts every stored secret under
//! the current data key while the service runs.
//!
//! The procedure (docs/security.md): start every instance with the new key in
//! `ENROLLFLOW_DATA_KEY` and the old one in `ENROLLFLOW_OLD_DATA_KEYS` (they then write under the
//! new key and read both); run `enrollflow rotate-key` with the same keys; when it says it is
//! done, remove the old key. The rotation works in batches of applications in id order and records
//! the last one finished (`key_rotations`), so a stopped rotation resumes where it was; each
//! application is rewritten only if no save came between its read and its write (a save writes
//! under the new key anyway), and a last pass from the start checks that nothing is left under an
//! older key. Outbox messages, authenticator secrets and uploaded documents are re-encrypted too.
//!
//! The checkpoint is `key_rotations` (migration 22, `db::key_rotations`); a rewritten application's
//! trigger evicts every instance's cached copy. `server/tests/api/key_rotation.rs`: a rotation
//! stopped after one batch resumes and leaves nothing under the old key.

use crate::db::PgPool;
use uuid::Uuid;

use enrollflow_engine::Engine;

use crate::db::key_rotations as store;
use crate::documents::{self, ObjectStore};
use crate::security::crypto::Cipher;
use crate::security::sensitive::{self, Place};

/// The keys the server serves with: once a rotation has finished, `enc:v1` values and documents
/// in clear are refused (the rotation re-sealed every one; one appearing later was put there
/// behind the server's back).
pub async fn serving_cipher(pool: &PgPool, cipher: Cipher) -> anyhow::Result<Cipher> {
    Ok(if store::any_finished(pool).await? {
        cipher.refusing_legacy()
    } else {
        cipher
    })
}

/// How a rotation runs.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Applications per batch.
    pub batch: i64,
    /// Stop after this many batches (tests stop a rotation half-way, as a crash would).
    pub stop_after: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            batch: 500,
            stop_after: None,
        }
    }
}

/// Where a rotation is: applications looked at and to look at, values rewritten.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    pub done: i64,
    pub total: i64,
    pub rotated: i64,
}

/// What a run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rotated {
    /// Applications done before this run (a resumed rotation's head start).
    pub resumed_at: i64,
    /// Applications whose values were rewritten, in all (this run and earlier ones).
    pub applications: i64,
    pub outbox: i64,
    pub users: i64,
    /// Uploaded documents re-encrypted (or encrypted: files stored before encryption).
    pub documents: i64,
    /// False when stopped early (`stop_after`): run it again to go on.
    pub finished: bool,
}

/// One application's answers re-encrypted under the current key; whether anything changed.
fn rotate_application(
    cipher: &Cipher,
    engine: &Engine,
    id: Uuid,
    data: &mut serde_json::Value,
) -> anyhow::Result<bool> {
    let mut changed = false;
    for step in engine.steps().map(|s| s.id.clone()).collect::<Vec<_>>() {
        let (Some(schema), Some(answers)) = (engine.form_schema(&step), data.get_mut(&step)) else {
            continue;
        };
        let place = Place {
            application: id,
            step: &step,
        };
        changed |= sensitive::rotate(cipher, place, schema, answers)?;
    }
    Ok(changed)
}

/// Rotates every application, then the outbox and the authenticator secrets, to the current key
/// of `cipher` (which must also hold the keys being replaced). `progress` is told after each batch.
pub async fn rotate(
    pool: &PgPool,
    cipher: &Cipher,
    engine: &Engine,
    documents: &ObjectStore,
    options: Options,
    mut progress: impl FnMut(Progress),
) -> anyhow::Result<Rotated> {
    let key = cipher.key_id().to_string();
    let start = store::checkpoint(pool, &key).await?;
    let mut after = start
        .as_ref()
        .filter(|c| c.finished_at.is_none())
        .and_then(|c| c.last_application);
    let mut rotated = start
        .as_ref()
        .filter(|c| c.finished_at.is_none())
        .map_or(0, |c| c.rotated);
    let total = store::count_after(pool, None).await?;
    let resumed_at = total - store::count_after(pool, after).await?;
    let mut done = resumed_at;
    let mut batches = 0usize;
    // The main pass from the checkpoint, then a check from the start (a save by an instance that
    // still wrote under the old key while this ran is caught there).
    let mut checking = false;
    loop {
        let rows = store::applications_after(pool, after, options.batch.max(1)).await?;
        let Some(last) = rows.last().map(|(id, _, _)| *id) else {
            if checking {
                break;
            }
            checking = true;
            after = None;
            continue;
        };
        let mut again = Vec::new();
        for (id, revision, mut data) in rows {
            if rotate_application(cipher, engine, id, &mut data)? {
                if store::replace_data(pool, id, revision, &data).await? {
                    rotated += 1;
                } else {
                    again.push(id);
                }
            }
        }
        // Saved meanwhile: read again (a few tries; the final check catches the rest).
        for id in again {
            for _ in 0..5 {
                let Some((revision, mut data)) = store::application(pool, id).await? else {
                    break;
                };
                if !rotate_application(cipher, engine, id, &mut data)? {
                    break;
                }
                if store::replace_data(pool, id, revision, &data).await? {
                    rotated += 1;
                    break;
                }
            }
        }
        after = Some(last);
        store::advance(pool, &key, last, rotated).await?;
        if !checking {
            done = total - store::count_after(pool, after).await?;
        }
        progress(Progress {
            done,
            total,
            rotated,
        });
        batches += 1;
        if options.stop_after.is_some_and(|n| batches >= n) {
            return Ok(Rotated {
                resumed_at,
                applications: rotated,
                outbox: 0,
                users: 0,
                documents: 0,
                finished: false,
            });
        }
    }
    let outbox = rotate_outbox(pool, cipher).await?;
    let users = rotate_users(pool, cipher).await?;
    let documents = rotate_documents(pool, cipher, documents).await?;
    store::finish(pool, &key, rotated).await?;
    Ok(Rotated {
        resumed_at,
        applications: rotated,
        outbox,
        users,
        documents,
        finished: true,
    })
}

fn rotated_or_same(cipher: &Cipher, v: &str) -> anyhow::Result<(String, bool)> {
    Ok(match cipher.rotate(v, "")? {
        Some(new) => (new, true),
        None => (v.to_string(), false),
    })
}

async fn rotate_outbox(pool: &PgPool, cipher: &Cipher) -> anyhow::Result<i64> {
    let mut n = 0;
    for (id, to, body, secret, private, to_hash) in store::encrypted_outbox(pool).await? {
        let (new_to, a) = if private {
            rotated_or_same(cipher, &to)?
        } else {
            (to.clone(), false)
        };
        // A private message's recipient digest is keyed by the data key: made again under the
        // current key when the address is re-encrypted, or when it is missing (messages queued
        // when the digest was an unkeyed SHA-256, dropped by the migration that keyed it).
        let digest = if private && (a || to_hash.is_none()) {
            Some(crate::platform::mail::recipient_digest(
                cipher,
                &cipher.decrypt(&new_to)?,
            ))
        } else {
            None
        };
        let (new_body, b) = if private {
            rotated_or_same(cipher, &body)?
        } else {
            (body.clone(), false)
        };
        let (new_secret, c) = match &secret {
            Some(s) => {
                let (v, c) = rotated_or_same(cipher, s)?;
                (Some(v), c)
            }
            None => (None, false),
        };
        if a || b || c || digest.is_some() {
            store::replace_outbox(
                pool,
                id,
                (&new_to, &new_body, new_secret.as_deref()),
                digest.as_ref(),
                secret.as_deref(),
            )
            .await?;
            n += 1;
        }
    }
    Ok(n)
}

async fn rotate_users(pool: &PgPool, cipher: &Cipher) -> anyhow::Result<i64> {
    let mut n = 0;
    for (id, secret, pending) in store::totp_secrets(pool).await? {
        let rotate = |v: &Option<String>| -> anyhow::Result<(Option<String>, bool)> {
            match v {
                Some(s) => {
                    let (v, c) = rotated_or_same(cipher, s)?;
                    Ok((Some(v), c))
                }
                None => Ok((None, false)),
            }
        };
        let (new_secret, a) = rotate(&secret)?;
        let (new_pending, b) = rotate(&pending)?;
        if a || b {
            store::replace_totp(
                pool,
                id,
                (new_secret.as_deref(), new_pending.as_deref()),
                (secret.as_deref(), pending.as_deref()),
            )
            .await?;
            n += 1;
        }
    }
    Ok(n)
}

/// Every stored document under the current key (files from before encryption encrypted now).
async fn rotate_documents(
    pool: &PgPool,
    cipher: &Cipher,
    store_: &ObjectStore,
) -> anyhow::Result<i64> {
    let mut n = 0;
    for (application, key) in store::documents(pool).await? {
        // Gone meanwhile (replaced, retired): nothing to do.
        let Some(stored) = store_.get(&key).await? else {
            continue;
        };
        if !cipher.bytes_need_rotation(&stored) {
            continue;
        }
        let place = documents::place(application, &key);
        let plain = cipher.decrypt_bytes_bound(&stored, &place)?;
        store_
            .put(&key, cipher.encrypt_bytes_bound(&plain, &place)?)
            .await?;
        n += 1;
    }
    Ok(n)
}
