//! The PDF upload check of `POST /api/whyapplying/fileupload`: `http::documents::read_upload`
//! (multipart parsing, the `enrollment_type` field, the 3 MB limit, empty files, the `%PDF-` magic)
//! and `documents::clean_file_name`, with fuzzed request bodies.
//!
//! Input: byte 0 picks the mode.
//! - even: the rest is the raw multipart body (boundary `fuzzbound`), fed to axum's `Multipart`.
//! - odd: the rest is `file name \0 file bytes`, wrapped in a well-formed body (with
//!   `enrollment_type=qle` when bit 1 of byte 0 is set, `oe` when bit 2 is set as well), so the
//!   content checks are reached every time.
//!
//! Invariants besides "no panic": an accepted upload is a PDF (`%PDF-`), at most `MAX_BYTES`, and
//! its name is clean (non-empty, at most 120 characters, no path separators or control characters,
//! trimmed, cleaning it again changes nothing); a well-formed body is accepted exactly when its
//! bytes are a PDF and the enrollment type (if any) is `qle`, and the stored bytes are the sent ones.
#![no_main]

use std::sync::LazyLock;

use axum::body::Body;
use axum::extract::{FromRequest, Multipart};
use axum::http::Request;
use enrollflow_server::documents::{MAX_BYTES, clean_file_name};
use enrollflow_server::http::documents::read_upload;
use enrollflow_server::http::error::ApiError;
use libfuzzer_sys::fuzz_target;

const BOUNDARY: &str = "fuzzbound";

static RT: LazyLock<tokio::runtime::Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("tokio runtime")
});

fn check(body: Vec<u8>) -> Result<(String, Vec<u8>), ApiError> {
    RT.block_on(async {
        let req = Request::builder()
            .method("POST")
            .uri("/api/whyapplying/fileupload")
            .header(
                "content-type",
                format!("multipart/form-data; boundary={BOUNDARY}"),
            )
            .body(Body::from(body))
            .expect("request");
        let multipart = Multipart::from_request(req, &())
            .await
            .map_err(|_| ApiError::BadRequest("not multipart".into()))?;
        read_upload(multipart).await
    })
}

fn assert_clean(name: &str) {
    assert!(!name.is_empty(), "empty file name");
    assert!(name.chars().count() <= 120, "file name over 120: {name:?}");
    assert!(
        !name
            .chars()
            .any(|c| c == '/' || c == '\\' || c.is_control()),
        "file name not clean: {name:?}"
    );
    assert_eq!(name, name.trim(), "file name not trimmed");
    assert_ne!(name, "..");
    assert_ne!(name, ".");
    assert_eq!(clean_file_name(name), name, "cleaning is not idempotent");
}

fn well_formed(name: &str, content: &[u8], enrollment_type: Option<&str>) -> Vec<u8> {
    let mut b = Vec::new();
    if let Some(t) = enrollment_type {
        b.extend(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"enrollment_type\"\r\n\r\n{t}\r\n"
            )
            .as_bytes(),
        );
    }
    b.extend(
        format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\nContent-Type: application/pdf\r\n\r\n"
        )
        .as_bytes(),
    );
    b.extend_from_slice(content);
    b.extend(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    b
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    // The file-name cleaner on its own, with any text.
    assert_clean(&clean_file_name(&String::from_utf8_lossy(rest)));

    if mode & 1 == 0 {
        if let Ok((name, bytes)) = check(rest.to_vec()) {
            assert!(bytes.starts_with(b"%PDF-"), "accepted a non-PDF");
            assert!(bytes.len() <= MAX_BYTES);
            assert_clean(&name);
        }
        return;
    }

    let (raw_name, content) = match rest.iter().position(|&b| b == 0) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (&b""[..], rest),
    };
    // A name that keeps the header well-formed (no quotes, line breaks or escapes).
    let name: String = String::from_utf8_lossy(raw_name)
        .chars()
        .filter(|c| !matches!(c, '"' | '\\' | '\r' | '\n' | '%') && !c.is_control())
        .collect();
    // The part ends at the first "\r\n--fuzzbound": content holding it is not this test's case.
    if content
        .windows(BOUNDARY.len() + 4)
        .any(|w| w == format!("\r\n--{BOUNDARY}").as_bytes())
    {
        return;
    }
    let enrollment_type = match mode & 6 {
        2 => Some("qle"),
        6 => Some("oe"),
        _ => None,
    };
    let body = well_formed(&name, content, enrollment_type);
    let got = check(body);
    let is_pdf = content.starts_with(b"%PDF-");
    match (&got, enrollment_type) {
        (Err(ApiError::BadRequest(_)), Some("oe")) => {}
        (Ok(_), Some("oe")) => panic!("accepted an upload for enrollment type `oe`"),
        (Ok((n, bytes)), _) => {
            assert!(is_pdf, "accepted a non-PDF");
            assert_eq!(
                bytes.as_slice(),
                content,
                "stored bytes differ from the sent ones"
            );
            assert_clean(n);
        }
        (Err(ApiError::UnsupportedMediaType), _) => assert!(!is_pdf, "refused a PDF as not a PDF"),
        (Err(ApiError::BadRequest(_)), _) => assert!(content.is_empty(), "refused {got:?}"),
        (Err(e), _) => panic!("unexpected refusal of a well-formed upload: {e:?}"),
    }
});
