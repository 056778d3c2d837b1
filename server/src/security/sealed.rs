//! Files sealed under the backup key, for `enrollflow backup`: AES-256-GCM over 1 MiB chunks in
//! the STREAM construction (Hoang, Reyhanitabar, Rogaway and Vizár, "Online
//! Authenticated-Encryption and its Nonce-Reuse Misuse-Resistance"): each file has a random 7-byte
//! nonce prefix, each chunk's nonce is that prefix, the chunk's number and a last-chunk flag, and
//! the file's name in the backup is the associated data. A changed, reordered, truncated, extended
//! or renamed file fails to open, and the dump streams through without being held in memory.
//!
//! The backup key is kept apart from the data key (`ENROLLFLOW_BACKUP_KEY` or
//! `ENROLLFLOW_BACKUP_KEY_FILE`, 32 random bytes in base64, never a flag): a stolen backup and a
//! stolen data key are two thefts, not one.

use std::io::{Read, Write};

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rand::RngCore;

const MAGIC: &[u8] = b"enrollflow-sealed/1\n";
const CHUNK: usize = 1 << 20;
const PREFIX: usize = 7;

/// The key backups are sealed with.
#[derive(Clone)]
pub struct BackupKey(Aes256Gcm);

impl std::fmt::Debug for BackupKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BackupKey(..)")
    }
}

impl BackupKey {
    /// From 32 bytes in base64.
    pub fn from_base64(b64: &str) -> anyhow::Result<Self> {
        let bytes = STANDARD
            .decode(b64.trim())
            .map_err(|_| anyhow::anyhow!("ENROLLFLOW_BACKUP_KEY must be base64"))?;
        anyhow::ensure!(
            bytes.len() == 32,
            "ENROLLFLOW_BACKUP_KEY must be 32 bytes (head -c32 /dev/urandom | base64)"
        );
        let cipher = Aes256Gcm::new_from_slice(&bytes)
            .map_err(|_| anyhow::anyhow!("ENROLLFLOW_BACKUP_KEY must be 32 bytes"))?;
        Ok(Self(cipher))
    }

    /// `ENROLLFLOW_BACKUP_KEY` or the file `ENROLLFLOW_BACKUP_KEY_FILE`; refused when it is the
    /// data key (`ENROLLFLOW_DATA_KEY(_FILE)`), which a backup must not depend on alone.
    pub fn from_env() -> anyhow::Result<Self> {
        let key = crate::security::crypto::env_or_file("ENROLLFLOW_BACKUP_KEY")?.ok_or_else(|| {
            anyhow::anyhow!(
                "ENROLLFLOW_BACKUP_KEY (or ENROLLFLOW_BACKUP_KEY_FILE) is not set: 32 random bytes \
                 in base64, kept apart from the data key (head -c32 /dev/urandom | base64)"
            )
        })?;
        if let Some(data) = crate::security::crypto::env_or_file("ENROLLFLOW_DATA_KEY")? {
            let same = STANDARD.decode(data.trim()).ok() == STANDARD.decode(key.trim()).ok();
            anyhow::ensure!(
                !same,
                "ENROLLFLOW_BACKUP_KEY is the data key: give backups a key of their own"
            );
        }
        Self::from_base64(&key)
    }

    /// A random key (tests).
    pub fn random() -> Self {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        Self(Aes256Gcm::new(&bytes.into()))
    }
}

fn nonce(prefix: &[u8; PREFIX], counter: u32, last: bool) -> [u8; 12] {
    let mut n = [0u8; 12];
    n[..PREFIX].copy_from_slice(prefix);
    n[PREFIX..PREFIX + 4].copy_from_slice(&counter.to_be_bytes());
    n[11] = u8::from(last);
    n
}

/// Seals what is written to it into `out`, under `name`; `finish` writes the last chunk.
pub struct Sealer<W: Write> {
    key: BackupKey,
    name: Vec<u8>,
    prefix: [u8; PREFIX],
    counter: u32,
    buf: Vec<u8>,
    out: W,
}

impl<W: Write> Sealer<W> {
    pub fn new(key: &BackupKey, name: &str, mut out: W) -> std::io::Result<Self> {
        let mut prefix = [0u8; PREFIX];
        rand::rng().fill_bytes(&mut prefix);
        out.write_all(MAGIC)?;
        out.write_all(&prefix)?;
        Ok(Self {
            key: key.clone(),
            name: name.as_bytes().to_vec(),
            prefix,
            counter: 0,
            buf: Vec::with_capacity(CHUNK),
            out,
        })
    }

    fn seal(&mut self, last: bool) -> std::io::Result<()> {
        let take = self.buf.len().min(CHUNK);
        let chunk: Vec<u8> = self.buf.drain(..take).collect();
        let n = nonce(&self.prefix, self.counter, last);
        let sealed = self
            .key
            .0
            .encrypt(
                Nonce::from_slice(&n),
                Payload {
                    msg: &chunk,
                    aad: &self.name,
                },
            )
            .map_err(|_| std::io::Error::other("sealing failed"))?;
        self.counter = self
            .counter
            .checked_add(1)
            .ok_or_else(|| std::io::Error::other("a sealed file is at most 4 PiB"))?;
        let len = u32::try_from(sealed.len()).map_err(std::io::Error::other)?;
        self.out.write_all(&len.to_be_bytes())?;
        self.out.write_all(&sealed)
    }

    /// Seals the rest as the last chunk and hands back the writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        while self.buf.len() > CHUNK {
            self.seal(false)?;
        }
        self.seal(true)?;
        self.out.flush()?;
        Ok(self.out)
    }
}

impl<W: Write> Write for Sealer<W> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        // Keep one whole chunk back: the last one is sealed as the last by `finish`.
        while self.buf.len() > CHUNK {
            self.seal(false)?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn read_chunk(input: &mut impl Read) -> std::io::Result<Option<Vec<u8>>> {
    let mut len = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        let n = input.read(&mut len[got..])?;
        if n == 0 {
            return if got == 0 {
                Ok(None)
            } else {
                Err(bad("a sealed file ends inside a chunk's length"))
            };
        }
        got += n;
    }
    let len = usize::try_from(u32::from_be_bytes(len)).map_err(std::io::Error::other)?;
    if len > CHUNK + 16 {
        return Err(bad("a sealed chunk is longer than any the sealer writes"));
    }
    let mut chunk = vec![0u8; len];
    input.read_exact(&mut chunk)?;
    Ok(Some(chunk))
}

fn bad(why: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, why.to_string())
}

/// Opens a sealed file named `name` from `input` into `out`: refused (and nothing trusted) when
/// any chunk was changed, moved, cut off or added, the name differs, or the key is another.
pub fn unseal(
    key: &BackupKey,
    name: &str,
    mut input: impl Read,
    mut out: impl Write,
) -> std::io::Result<()> {
    let mut magic = vec![0u8; MAGIC.len()];
    input
        .read_exact(&mut magic)
        .map_err(|_| bad("not a sealed backup file"))?;
    if magic != MAGIC {
        return Err(bad("not a sealed backup file"));
    }
    let mut prefix = [0u8; PREFIX];
    input.read_exact(&mut prefix)?;
    let mut counter: u32 = 0;
    let mut current = read_chunk(&mut input)?.ok_or_else(|| bad("a sealed file without chunks"))?;
    loop {
        let next = read_chunk(&mut input)?;
        let last = next.is_none();
        let n = nonce(&prefix, counter, last);
        let plain = key
            .0
            .decrypt(
                Nonce::from_slice(&n),
                Payload {
                    msg: &current,
                    aad: name.as_bytes(),
                },
            )
            .map_err(|_| {
                bad("the backup key does not open this file, or the file was changed or cut short")
            })?;
        out.write_all(&plain)?;
        match next {
            Some(c) => {
                current = c;
                counter = counter
                    .checked_add(1)
                    .ok_or_else(|| bad("too many chunks"))?;
            }
            None => return out.flush(),
        }
    }
}

/// Seals `bytes` whole.
pub fn seal_bytes(key: &BackupKey, name: &str, bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut s = Sealer::new(key, name, Vec::new())?;
    s.write_all(bytes)?;
    s.finish()
}

/// Opens a sealed file held in memory.
pub fn unseal_bytes(key: &BackupKey, name: &str, sealed: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    unseal(key, name, sealed, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_sealed_opens_with_its_key_and_name_only() {
        let key = BackupKey::random();
        for size in [0, 5, CHUNK, CHUNK + 1, 2 * CHUNK + 7] {
            let data: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
            let sealed = seal_bytes(&key, "database.dump", &data).expect("seal");
            assert!(
                !sealed
                    .windows(16)
                    .any(|w| data.len() >= 16 && w == &data[..16])
            );
            assert_eq!(
                unseal_bytes(&key, "database.dump", &sealed).expect("open"),
                data
            );
            assert!(unseal_bytes(&key, "manifest.json", &sealed).is_err());
            assert!(unseal_bytes(&BackupKey::random(), "database.dump", &sealed).is_err());
        }
    }

    #[test]
    fn a_changed_cut_or_extended_file_does_not_open() {
        let key = BackupKey::random();
        let data = vec![7u8; 2 * CHUNK + 100];
        let sealed = seal_bytes(&key, "f", &data).expect("seal");
        let mut changed = sealed.clone();
        let i = sealed.len() / 2;
        changed[i] ^= 1;
        assert!(unseal_bytes(&key, "f", &changed).is_err());
        // Cut after the first whole chunk: its flag says it is not the last.
        let first = MAGIC.len() + PREFIX + 4 + CHUNK + 16;
        assert!(unseal_bytes(&key, "f", &sealed[..first]).is_err());
        let mut longer = sealed.clone();
        longer.extend_from_slice(&sealed[MAGIC.len() + PREFIX..first]);
        assert!(unseal_bytes(&key, "f", &longer).is_err());
    }
}
