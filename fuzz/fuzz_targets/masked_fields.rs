//! The parsers of masked and formatted fields: SSN masks (`crypto::mask`, `crypto::is_mask`, what
//! `unmask_sensitive` relies on), stored encrypted values (`Cipher::decrypt` of anything that
//! claims to be `enc:v1:…`, and the encrypt/decrypt round trip), dates (`dates::parse` and the
//! rules' `date::` helpers, which get the applicant's typed dates), US phone numbers
//! (`pdf::format_phone`), e-mail addresses (`accounts::normalize_email`) and the plan list's
//! filter tokens (`rating::Filter::parse`).
//!
//! Input: lossy UTF-8, split at the first two NUL characters into `a`, `b`, `c`; `n` is `b` read
//! as an integer (or its bytes folded into one). Every parser gets `a`; the two-argument date
//! helpers get `a` and `b` (or `n`); `date::make` gets `n` and two numbers from `c`.
//!
//! Invariants besides "no panic": a mask keeps the length and only the last four characters and
//! is recognized as a mask; encryption round-trips; a parsed date formats back to itself; a
//! formatted phone is `(ddd) ddd-dddd` or the input trimmed; an accepted e-mail is the input
//! trimmed.
#![no_main]

use std::sync::LazyLock;

use base64::Engine as _;
use enrollflow_engine::{dates, rating, script};
use enrollflow_server::accounts::normalize_email;
use enrollflow_server::crypto::{self, Cipher};
use enrollflow_server::pdf::format_phone;
use libfuzzer_sys::fuzz_target;
use rhai::{AST, Dynamic, Scope};

static CIPHER: LazyLock<Cipher> = LazyLock::new(Cipher::random);

/// The rules' sandbox and one call of each `date::` helper.
static RHAI: LazyLock<(rhai::Engine, Vec<AST>)> = LazyLock::new(|| {
    let engine = script::sandbox();
    let calls = [
        "date::valid(a)",
        "date::age_at(a, b)",
        "date::add_days(a, n)",
        "date::days_between(a, b)",
        "date::first_of_next_month(a)",
        "date::year(a) + date::month(a) + date::day(a)",
        "date::make(n, m, d)",
    ];
    let asts = calls
        .iter()
        .map(|c| engine.compile_expression(c).expect("helper call compiles"))
        .collect();
    (engine, asts)
});

fn number(s: &str) -> i64 {
    s.trim().parse::<i64>().unwrap_or_else(|_| {
        s.bytes()
            .fold(0i64, |acc, b| acc.rotate_left(8) ^ i64::from(b))
    })
}

fn masks(a: &str) {
    let m = crypto::mask(a);
    let n = a.chars().count();
    assert_eq!(m.chars().count(), n, "mask changes the length");
    let keep = n.min(4);
    let tail: String = a.chars().skip(n - keep).collect();
    assert!(m.ends_with(&tail), "mask does not keep the last four");
    assert!(
        m.chars().take(n - keep).all(|c| c == '*'),
        "mask shows more than the last four"
    );
    if n > 4 {
        assert!(crypto::is_mask(&m), "a mask is not recognized: {m:?}");
    }
    let _ = crypto::is_mask(a);
}

fn encrypted(a: &str, raw: &[u8]) {
    let _ = CIPHER.decrypt(a);
    let _ = Cipher::is_encrypted(a);
    let forged = format!(
        "enc:v1:{}",
        base64::engine::general_purpose::STANDARD.encode(raw)
    );
    assert!(CIPHER.decrypt(&forged).is_err(), "a forged value decrypts");
    let stored = CIPHER.encrypt(a).expect("encrypts");
    assert!(Cipher::is_encrypted(&stored));
    assert_eq!(CIPHER.decrypt(&stored).expect("decrypts"), a);
}

fn date_parsers(a: &str, b: &str, c: &str, n: i64) {
    if let Some(d) = dates::parse(a) {
        assert_eq!(
            dates::parse(&dates::format(d)),
            Some(d),
            "{a:?} does not round-trip"
        );
        let _ = dates::first_of_next_month(d);
        if let Some(on) = dates::parse(b) {
            let _ = dates::age_at(d, on);
        }
    }
    let (engine, asts) = &*RHAI;
    let mut parts = c.splitn(2, ',');
    let m = parts.next().map_or(0, number);
    let d = parts.next().map_or(0, number);
    for ast in asts {
        let mut scope = Scope::new();
        scope.push("a", a.to_string());
        scope.push("b", b.to_string());
        scope.push("n", n);
        scope.push("m", m);
        scope.push("d", d);
        let _ = engine.eval_ast_with_scope::<Dynamic>(&mut scope, ast);
    }
}

fn phone(a: &str) {
    let f = format_phone(a);
    if f != a.trim() {
        let b = f.as_bytes();
        assert!(
            b.len() == 14
                && b[0] == b'('
                && b[4] == b')'
                && b[5] == b' '
                && b[9] == b'-'
                && [1, 2, 3, 6, 7, 8, 10, 11, 12, 13]
                    .iter()
                    .all(|&i| b[i].is_ascii_digit()),
            "format_phone({a:?}) = {f:?}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(3, '\0');
    let a = parts.next().unwrap_or("");
    let b = parts.next().unwrap_or("");
    let c = parts.next().unwrap_or("");
    let n = number(b);

    masks(a);
    encrypted(a, data);
    date_parsers(a, b, c, n);
    phone(a);
    if let Some(e) = normalize_email(a) {
        assert_eq!(e, a.trim());
        assert!((3..=254).contains(&e.len()));
    }
    let _ = rating::Filter::parse(a);
});
