//! Keeping the data: sealed backups and their restore (`backup`), and abandoned quotes retired
//! (`retention`).

pub mod backup;
pub mod retention;
