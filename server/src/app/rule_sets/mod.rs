//! The analysts' rule sets: publishing an approved one (`publish`).

pub mod publish;
