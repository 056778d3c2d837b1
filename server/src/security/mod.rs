//! Keeping secrets and people's data safe: the data-key ring (`crypto`, `keys` and its rotation),
//! sealed backups (`sealed`), sensitive answers masked and encrypted (`sensitive`), and request
//! limits (`limits`).

pub mod crypto;
pub mod keys;
pub mod limits;
pub mod sealed;
pub mod sensitive;
