//! The server's texts a consumer may meet and the product's name: kept in their own crate
//! (`texts/`) so that the analysts' binary checks the same lists; here under the server's name.

pub use enrollflow_texts::{HOST_TEXTS, MESSAGES, PRODUCT_NAME, SHEETS};
