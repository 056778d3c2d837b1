//! What admins do besides messages and accounts: finding agents and their users, acting as an
//! agent's user and switching back (`acting`), and reading the outbox with its links hidden
//! (`outbox`).

pub mod acting;
pub mod agents;
pub mod outbox;
