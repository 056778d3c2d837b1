//! Enrollflow's server: HTTP API, sessions, PostgreSQL, static web app, and the CLI's commands.

pub mod accounts;
pub mod app;
pub mod coverage;
pub mod db;
pub mod demo_data;
pub mod documents;
pub mod http;
pub mod maintenance;
pub mod npn;
pub mod platform;
pub mod rules;
pub mod security;
pub mod seed;
pub mod startup;
