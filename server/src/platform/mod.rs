//! What every part of the server stands on: its configuration (`config`), the clock (`clock`),
//! the services' error (`error`), hosts and subdomains (`hostname`), the caches kept by
//! PostgreSQL's notifications (`cache`), the outbox and its SMTP sender (`mail`), logs, traces and
//! metrics (`telemetry`) and the server's texts (`texts`).

pub mod cache;
pub mod clock;
pub mod config;
pub mod error;
pub mod hostname;
pub mod mail;
pub mod telemetry;
pub mod texts;
