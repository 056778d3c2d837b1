//! Enrollflow's server: HTTP API, sessions, PostgreSQL, static web app, and the CLI's commands.

pub mod accounts;
pub mod applications;
pub mod cache;
pub mod clock;
pub mod config;
pub mod crypto;
pub mod db;
pub mod demo_data;
pub mod documents;
pub mod error;
pub mod hostname;
pub mod http;
pub mod limits;
pub mod mail;
pub mod npn;
pub mod password;
pub mod pdf;
pub mod quoting;
pub mod rules;
pub mod second_factor;
pub mod seed;
pub mod sensitive;
pub mod sheets;
pub mod startup;
pub mod state;
pub mod telemetry;
