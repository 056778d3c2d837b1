//! Accounts: checking a login's credentials (`log_in`), accepting an invitation (`register`),
//! changing one's password (`change_password`), resetting a forgotten one (`reset_password`), what
//! a sign-in leaves behind (`sign_in`), the session store and a person's signed-in devices
//! (`sessions`), two-step verification (`two_step`), an admin disabling or enabling an account
//! (`disable`).

pub mod change_password;
pub mod disable;
pub mod log_in;
pub mod register;
pub mod reset_password;
pub mod sessions;
pub mod sign_in;
pub mod two_step;

/// An account, as the use cases hand it out.
pub use crate::db::users::UserRow;
