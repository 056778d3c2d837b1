//! Accounts: what a sign-in leaves behind (`sign_in`).

pub mod sign_in;
