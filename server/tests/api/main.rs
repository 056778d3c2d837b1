//! Black-box tests of the HTTP API on a real PostgreSQL: each test gets a fresh database
//! (`enrollflow_test_*`) from the server named by `DATABASE_URL`, the demo agents, a real listening
//! server and a manual clock.

mod access;
mod accounts;
mod agent_assisted;
mod application;
mod audit;
mod backup;
mod cache;
mod compression;
mod dashboard;
mod demo_data;
mod documents;
mod evidence;
mod governance;
mod handoff;
mod helpers;
mod home;
mod impersonation;
mod key_rotation;
mod languages;
mod limits;
mod lost_update;
mod mail;
mod messages;
mod observability;
mod operator;
mod plans;
mod print;
mod purchase;
mod reload;
mod renewals;
mod replay;
mod resume;
mod retention;
mod rule_sets;
mod second_factor;
mod security;
mod session_control;
mod sessions;
mod site;
mod start;
mod steps;
mod use_cases;
mod wire;
mod workbench;
