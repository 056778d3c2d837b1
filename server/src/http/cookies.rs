//! Reading and writing Enrollflow's cookies (the session's and the revision's): one parser of the
//! `Cookie` header and one set of attributes.

use axum::http::{HeaderMap, header};

/// The attributes of Enrollflow's cookies: `HttpOnly; SameSite=Lax; Path=/`, and `Secure` over HTTPS.
pub(crate) fn cookie_attributes(https: bool) -> &'static str {
    if https {
        "Path=/; HttpOnly; SameSite=Lax; Secure"
    } else {
        "Path=/; HttpOnly; SameSite=Lax"
    }
}

/// The values of the request's cookies named `name`, in the order sent.
pub(crate) fn cookie_values<'a>(
    headers: &'a HeaderMap,
    name: &'a str,
) -> impl DoubleEndedIterator<Item = &'a str> + 'a {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(move |(k, _)| *k == name)
        .map(|(_, v)| v)
}
