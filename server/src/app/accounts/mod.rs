//! Accounts: checking a login's credentials (`log_in`), resetting a forgotten password
//! (`reset_password`), what a sign-in leaves behind (`sign_in`), an admin disabling or enabling an
//! account (`disable`).

pub mod disable;
pub mod log_in;
pub mod reset_password;
pub mod sign_in;
