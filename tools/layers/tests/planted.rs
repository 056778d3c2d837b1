//! The layer check fails on each trick planted in a copy of the server's code, and passes on the
//! repository as it is.

use std::path::{Path, PathBuf};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from).expect("the sources") {
        let path = entry.expect("an entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("a copy");
        }
    }
}

/// A copy of `server/src` (or another crate's sources) to plant tricks in.
struct Planted {
    dir: tempfile::TempDir,
}

impl Planted {
    fn of(crate_src: &str) -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder");
        copy(&repository().join(crate_src), dir.path());
        Planted { dir }
    }

    /// Adds `code` at the end of `file` (a file begins with its `//!` comment).
    fn plant(&self, file: &str, code: &str) -> &Self {
        let path = self.dir.path().join(file);
        let text = std::fs::read_to_string(&path).expect("the file");
        let text = format!("{text}\n{code}\n");
        std::fs::write(&path, text).expect("written");
        self
    }

    fn problems(&self, circles_only: bool) -> Vec<String> {
        enrollflow_layers::check(self.dir.path(), circles_only)
            .expect("the check runs")
            .problems
    }

    fn fails_with(&self, said: &str) {
        let problems = self.problems(false);
        assert!(
            problems.iter().any(|p| p.contains(said)),
            "no {said:?} in {problems:#?}"
        );
    }

    fn passes(&self) {
        assert_eq!(self.problems(false), Vec::<String>::new());
    }
}

#[test]
fn the_repository_passes() {
    let report = enrollflow_layers::check(&repository().join("server/src"), false).expect("runs");
    assert_eq!(report.problems, Vec::<String>::new());
    assert!(report.modules > 100, "{} modules", report.modules);
    let engine = enrollflow_layers::check(&repository().join("engine/src"), true).expect("runs");
    assert_eq!(engine.problems, Vec::<String>::new());
}

#[test]
fn an_import_after_a_quote_in_a_character_literal_is_read() {
    Planted::of("server/src")
        .plant(
            "security/crypto.rs",
            "fn quote() -> char { '\"' }\nuse crate::http::site;",
        )
        .fails_with("security::crypto (services) -> http::site (http): against the layer order");
}

#[test]
fn an_import_after_a_string_that_looks_like_a_comment_is_read() {
    Planted::of("server/src")
        .plant(
            "platform/mail.rs",
            "const S: &str = \"// /*\";\nuse crate::http::session::Session;",
        )
        .fails_with("platform::mail (services) -> http::session (http)");
}

#[test]
fn raw_sql_outside_db_fails() {
    Planted::of("server/src")
        .plant(
            "rules/quoting.rs",
            "pub async fn f(p: &crate::db::PgPool) { let _ = sqlx::raw_sql(\"DELETE FROM users\").execute(p).await; }")
        .fails_with("rules::quoting: sqlx outside db/ (`sqlx::raw_sql`)");
}

#[test]
fn a_sqlx_type_outside_db_fails_too() {
    Planted::of("server/src")
        .plant("security/keys.rs", "pub type Pool = sqlx::PgPool;")
        .fails_with("security::keys: sqlx outside db/ (`sqlx::PgPool`)");
}

#[test]
fn a_query_macro_outside_db_fails() {
    Planted::of("server/src")
        .plant(
            "app/applying/quotes.rs",
            "fn f() { let _ = sqlx::query_scalar!(\"SELECT 1\"); }",
        )
        .fails_with("app::applying::quotes: sqlx outside db/");
}

#[test]
fn a_circle_between_two_services_fails() {
    Planted::of("server/src")
        .plant("security/crypto.rs", "use crate::platform::mail;")
        .fails_with("import circle of 2 modules: platform::mail -> security::crypto; security::crypto -> platform::mail");
}

#[test]
fn an_arrow_up_the_layers_fails_even_in_a_group_or_a_macro() {
    Planted::of("server/src")
        .plant("db/agents.rs", "use crate::{app::{self, applying::open}};")
        .fails_with("db::agents (db) -> app::applying::open (app): against the layer order");
    Planted::of("server/src")
        .plant(
            "rules/quoting.rs",
            "fn f() -> String { format!(\"{:?}\", crate::http::host::SiteHost(None)) }",
        )
        .fails_with("rules::quoting (services) -> http::host (http)");
    Planted::of("server/src")
        .plant(
            "app/applying/quotes.rs",
            "fn f() { let _ = super::super::super::http::site::router; }",
        )
        .fails_with("app::applying::quotes (app) -> http::site (http)");
}

#[test]
fn http_types_outside_http_fail() {
    Planted::of("server/src")
        .plant("platform/mail.rs", "fn f(_: axum::http::HeaderMap) {}")
        .fails_with("platform::mail: HTTP types outside http/ (`axum::http::HeaderMap`)");
    Planted::of("server/src")
        .plant(
            "app/rule_sets/publish.rs",
            "type Layer = tower_http::timeout::TimeoutLayer;",
        )
        .fails_with("app::rule_sets::publish: HTTP types outside http/");
}

#[test]
fn a_handler_that_reaches_a_query_fails() {
    Planted::of("server/src")
        .plant("http/legal.rs", "use crate::db::users;")
        .fails_with("http::legal -> db::users: a handler reaches a query");
}

#[test]
fn a_module_in_no_layer_fails() {
    let p = Planted::of("server/src");
    std::fs::write(p.dir.path().join("stray.rs"), "pub fn f() {}\n").expect("written");
    p.fails_with("stray: not in any layer");
}

#[test]
fn test_modules_strings_and_comments_may_name_anything() {
    Planted::of("server/src")
        .plant(
            "security/crypto.rs",
            "#[cfg(test)]\nmod planted { use crate::http::site; }\n\
             // use crate::http::site;\n\
             const S: &str = r#\"use crate::http::site; sqlx::query(\"x\")\"#;\n\
             fn f<'a>(x: &'a str) -> &'a str { x }",
        )
        .passes();
}

#[test]
fn an_engine_circle_fails_and_layers_are_not_asked_of_it() {
    let p = Planted::of("engine/src");
    assert_eq!(p.problems(true), Vec::<String>::new());
    p.plant("dates.rs", "use crate::rating;");
    let problems = p.problems(true);
    assert!(
        problems
            .iter()
            .any(|s| s.starts_with("import circle") && s.contains("dates -> rating")),
        "{problems:#?}"
    );
}
