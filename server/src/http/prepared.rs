//! JSON answers written once per version of an application and kept with it (the step views, the
//! unfiltered quote), with their gzip copy made on first demand: a request then costs a copy of
//! a pointer, not a serialization and a compression (the response compression layer leaves an
//! answer that already has a `Content-Encoding` alone).
//!
//! A prepared answer is sent gzip-compressed to a browser that accepts gzip; the compression layer
//! (gzip only) compresses what is made per request.

use std::io::Write;
use std::sync::OnceLock;

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};

use super::error::ApiResult;

/// A JSON body and, once a browser asked for it, its gzip-compressed copy.
pub struct PreparedBody {
    json: Bytes,
    gzip: OnceLock<Bytes>,
}

impl PreparedBody {
    pub fn new(json: impl Into<Bytes>) -> Self {
        Self {
            json: json.into(),
            gzip: OnceLock::new(),
        }
    }

    /// The body for a request with these headers: gzip-compressed when it accepts gzip.
    pub fn respond(&self, headers: &HeaderMap) -> ApiResult<Response> {
        let gzip = accepts_gzip(headers);
        let body = if gzip {
            self.gzipped()?
        } else {
            self.json.clone()
        };
        let mut response = ([(header::CONTENT_TYPE, "application/json")], body).into_response();
        let h = response.headers_mut();
        h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        if gzip {
            h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        }
        Ok(response)
    }

    fn gzipped(&self) -> ApiResult<Bytes> {
        once(&self.gzip, || {
            let mut z = flate2::write::GzEncoder::new(
                Vec::with_capacity(self.json.len() / 6),
                flate2::Compression::default(),
            );
            z.write_all(&self.json).map_err(anyhow::Error::new)?;
            Ok(Bytes::from(z.finish().map_err(anyhow::Error::new)?))
        })
    }
}

/// The value of `cell`, made by `make` the first time (an error is not kept).
pub fn once<T: Clone>(cell: &OnceLock<T>, make: impl FnOnce() -> ApiResult<T>) -> ApiResult<T> {
    if let Some(v) = cell.get() {
        return Ok(v.clone());
    }
    let made = make()?;
    Ok(cell.get_or_init(|| made).clone())
}

/// Whether the request's `Accept-Encoding` admits gzip (`gzip`, not with `q=0`).
pub fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let coding = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            coding.eq_ignore_ascii_case("gzip") && !refused
        })
}
