use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use enrollflow_server::http::state::AppState;
use enrollflow_server::platform::cache::Caches;
use enrollflow_server::platform::clock::{Clock, ManualClock};
use enrollflow_server::platform::config::ServeArgs;
use enrollflow_server::rules::Rules;
use enrollflow_server::security::crypto::Cipher;
use enrollflow_server::{db, http, seed};
use reqwest::header::{HOST, HeaderMap, SET_COOKIE};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use sqlx::PgPool;

pub const MINUTE: Duration = Duration::from_secs(60);

// Demo users (demo/agents.json), all with the demo password.
pub const DEMO_PASSWORD: &str = enrollflow_server::seed::DEMO_PASSWORD;
/// Maria Alvarez, the user of the acme agent (NPN 17439021).
pub const ACME_USER: &str = "maria.alvarez@acme-insurance.example.com";
pub const ACME_NPN: &str = "17439021";
/// Daniel Okafor, the user of the lakeshore agent.
pub const LAKESHORE_USER: &str = "dokafor@lakeshore-benefits.example.com";
/// Ada Admin, whose own site is the demo agent's.
pub const ADMIN_USER: &str = "admin@enrollflow.example.com";
pub const ADMIN_TOKEN: &str = "test-operator-token-of-at-least-32-bytes";

pub struct TestApp {
    pub addr: SocketAddr,
    pub pool: PgPool,
    pub clock: Arc<ManualClock>,
    pub rules: Arc<Rules>,
    pub caches: Arc<Caches>,
    /// The server's state (for a second router on the same state, e.g. the metrics port).
    pub state: AppState,
    client: reqwest::Client,
}

fn repo_path(p: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(p)
}

/// A fresh, migrated and seeded database on the server of `DATABASE_URL`: a copy of this test
/// binary's template ([`template_database`]). Copying is a file copy on the server; migrating and
/// seeding each test's database took most of a test's time (26 migrations, each its own commit).
pub async fn fresh_database() -> PgPool {
    let template = template_database().await;
    let name = format!("enrollflow_test_{}", uuid::Uuid::new_v4().simple());
    create_database(&name, Some(template)).await
}

/// Creates database `name` on the server of `DATABASE_URL`, a copy of `template` or empty, and
/// connects to it.
async fn create_database(name: &str, template: Option<&str>) -> PgPool {
    let server = database_server();
    let admin = db::connect_as_owner(&format!("{server}/postgres"))
        .await
        .expect("connect to postgres");
    let copy = template
        .map(|t| format!(" TEMPLATE {t}"))
        .unwrap_or_default();
    sqlx::query(&format!("CREATE DATABASE {name}{copy}"))
        .execute(&admin)
        .await
        .expect("create the database");
    admin.close().await;
    db::connect(&format!("{server}/{name}"))
        .await
        .expect("connect")
}

/// The server part of `DATABASE_URL` (without the database).
pub fn database_server() -> String {
    let url = std::env::var("DATABASE_URL")
        .expect("DATABASE_URL must name a PostgreSQL server: run the tests with `make test`");
    url.rsplit_once('/')
        .map(|(s, _)| s.to_string())
        .expect("url has a database")
}

/// The database every test's database is copied from, made once per test binary: migrated and
/// seeded with the demo agents, then closed (PostgreSQL copies a database nobody is connected to).
/// Its name starts `enrollflow_test_`, so `make test` drops it with the others at the next run.
async fn template_database() -> &'static str {
    static TEMPLATE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    TEMPLATE
        .get_or_init(|| async {
            let name = format!("enrollflow_test_template_{}", uuid::Uuid::new_v4().simple());
            let pool = create_database(&name, None).await;
            db::migrate(&pool).await.expect("migrate");
            seed::load_file(&pool, &repo_path("demo/agents.json"), Some(&test_cipher()))
                .await
                .expect("seed");
            pool.close().await;
            name
        })
        .await
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

pub async fn spawn_app_with(configure: impl FnOnce(&mut ServeArgs)) -> TestApp {
    let pool = fresh_database().await;
    let clock = Arc::new(ManualClock::new(
        time::macros::datetime!(2024-11-20 10:00 UTC),
    ));
    spawn_on(pool, clock, configure, true).await
}

/// A server on an existing database and clock (a second instance shares both with the first);
/// `announce`: whether its saves are announced to the other instances.
async fn spawn_on(
    pool: PgPool,
    clock: Arc<ManualClock>,
    configure: impl FnOnce(&mut ServeArgs),
    announce: bool,
) -> TestApp {
    let static_dir =
        std::env::temp_dir().join(format!("enrollflow-static-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(static_dir.join("assets")).expect("static dir");
    std::fs::write(
        static_dir.join("index.html"),
        "<!doctype html><title>Enrollflow</title>",
    )
    .expect("index.html");
    std::fs::write(static_dir.join("assets/app-abc123.js"), "console.log(1)").expect("asset");

    let mut config = ServeArgs::defaults();
    config.static_dir = static_dir;
    config.root = repo_path("");
    config.admin_token = Some(ADMIN_TOKEN.into());
    config.documents_dir =
        std::env::temp_dir().join(format!("enrollflow-documents-{}", uuid::Uuid::new_v4()));
    // Impacts run in the draft worker, as `serve` starts it: the package's own `enrollflow`.
    config.draft_worker = Some(PathBuf::from(env!("CARGO_BIN_EXE_enrollflow")));
    configure(&mut config);
    let rules = if config.root == repo_path("") && !config.rules_from_database {
        // Loading the repository's rules and catalog once per test binary keeps tests quick.
        static REPO_RULES: std::sync::OnceLock<Arc<Rules>> = std::sync::OnceLock::new();
        REPO_RULES
            .get_or_init(|| {
                Arc::new(Rules::load(&config.root).unwrap_or_else(|p| panic!("rules: {p:?}")))
            })
            .clone()
    } else {
        Arc::new(Rules::load(&config.root).unwrap_or_else(|p| panic!("rules: {p:?}")))
    };
    let state = AppState::new(
        pool.clone(),
        clock.clone(),
        config,
        rules.clone(),
        test_cipher(),
    )
    .expect("state");
    if state.config.rules_from_database {
        // As `serve` does: the newest published set before the first request, then each new one.
        enrollflow_server::rules::serve_published(&rules, &pool, &state.config.root, clock.now())
            .await
            .expect("a published rule set");
        enrollflow_server::rules::spawn_set_listener(
            rules.clone(),
            pool.clone(),
            state.config.root.clone(),
            clock.clone(),
        );
    }
    enrollflow_server::accounts::spawn_reset_worker(state.reset_worker());
    enrollflow_server::documents::evidence::spawn_pdf_maker(state.pdf_maker());
    // The caches serve requests as in production once their invalidation listener is connected.
    let caches = state.caches.clone();
    state.spawn_cache_listener();
    if announce {
        state.spawn_cache_announcer();
    }
    tokio::time::timeout(Duration::from_secs(10), async {
        while !caches.is_live() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the cache listener connects");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let kept = state.clone();
    tokio::spawn(async move {
        // As in production (startup.rs): handlers see the client's address.
        axum::serve(
            listener,
            http::router(state).into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .expect("serve");
    });
    TestApp {
        addr,
        pool,
        clock,
        rules,
        caches,
        state: kept,
        client: reqwest::Client::new(),
    }
}

impl TestApp {
    /// Another server on the same database and clock, with its own caches (a second instance
    /// behind a load balancer).
    pub async fn another_instance(&self) -> TestApp {
        spawn_on(self.pool.clone(), self.clock.clone(), |_| {}, true).await
    }

    /// Another instance, configured like `spawn_app_with` configures one.
    pub async fn another_instance_with(&self, configure: impl FnOnce(&mut ServeArgs)) -> TestApp {
        spawn_on(self.pool.clone(), self.clock.clone(), configure, true).await
    }

    /// Another instance whose saves are never announced: as if every announcement were still on
    /// its way, so the others can learn of its writes only from the browser's `ef_rev` cookie.
    pub async fn an_unannounced_instance(&self) -> TestApp {
        spawn_on(self.pool.clone(), self.clock.clone(), |_| {}, false).await
    }

    /// What a save would store as the application's summary (the flow's `summary:`), for rows a
    /// test writes behind the server's back.
    pub fn summary_of(&self, data: &serde_json::Value) -> serde_json::Value {
        let summary = self
            .rules
            .current()
            .engine
            .summary(data)
            .expect("the flow's summary");
        serde_json::to_value(summary).expect("a summary is JSON")
    }

    /// After writing to the database behind the server's back: waits until the server's caches
    /// have applied every change committed so far.
    pub async fn settle(&self) {
        self.caches
            .settle()
            .await
            .expect("cache invalidations arrive");
    }
}

/// A browser on one host: remembers the session cookie the server sets.
pub struct Browser<'a> {
    app: &'a TestApp,
    pub host: String,
    /// The session cookie (`name=value`).
    pub cookie: Mutex<Option<String>>,
    /// The `ef_rev` cookie (`name=value`): the revision of its application this browser last saw.
    pub rev: Mutex<Option<String>>,
    /// The `ef_device` cookie (`name=value`): the device this browser is to the accounts it
    /// signed in to.
    pub device: Mutex<Option<String>>,
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .map(|v| v.to_str().expect("ascii header"))
            .unwrap_or("")
    }
}

impl TestApp {
    /// `/metrics` as the operator asks for it (with the operator token).
    pub async fn metrics_reply(&self) -> Reply {
        self.browser("")
            .send(
                Method::GET,
                "/metrics",
                &[("authorization", format!("Bearer {ADMIN_TOKEN}"))],
                None,
            )
            .await
    }

    /// The Prometheus text of `/metrics`, as the operator reads it.
    pub async fn metrics(&self) -> String {
        let r = self.metrics_reply().await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        r.body
    }

    pub fn browser(&self, subdomain: &str) -> Browser<'_> {
        let host = if subdomain.is_empty() {
            format!("localhost:{}", self.addr.port())
        } else {
            format!("{subdomain}.localhost:{}", self.addr.port())
        };
        Browser {
            app: self,
            host,
            cookie: Mutex::new(None),
            rev: Mutex::new(None),
            device: Mutex::new(None),
        }
    }
}

impl Browser<'_> {
    pub fn origin(&self) -> String {
        format!("http://{}", self.host)
    }

    /// A GET whose body is kept as bytes (a PDF, a download).
    pub async fn get_bytes(&self, path: &str) -> (StatusCode, Vec<u8>) {
        let res = self
            .app
            .client
            .get(format!("http://{}{path}", self.app.addr))
            .header(reqwest::header::HOST, &self.host)
            .header("cookie", self.cookie())
            .send()
            .await
            .expect("request");
        let status = res.status();
        (status, res.bytes().await.expect("body").to_vec())
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.send(Method::GET, path, &[], None).await
    }

    /// A same-origin JSON call with the session's CSRF token, as the web app makes it.
    pub async fn call(&self, method: Method, path: &str, token: &str, body: &Value) -> Reply {
        let headers = [
            ("x-csrf-token", token.to_string()),
            ("origin", self.origin()),
            ("content-type", "application/json".to_string()),
        ];
        self.send(method, path, &headers, Some(body.to_string().into_bytes()))
            .await
    }

    /// [`Self::call`] with one more header (a client's own `x-request-id`, say).
    pub async fn call_with_header(
        &self,
        method: Method,
        path: &str,
        token: &str,
        body: &Value,
        extra: (&str, &str),
    ) -> Reply {
        let headers = [
            ("x-csrf-token", token.to_string()),
            ("origin", self.origin()),
            ("content-type", "application/json".to_string()),
            (extra.0, extra.1.to_string()),
        ];
        self.send(method, path, &headers, Some(body.to_string().into_bytes()))
            .await
    }

    /// Starts the session the way the web app does and returns its CSRF token.
    pub async fn start_session(&self) -> String {
        let r = self.get("/api/get-auth-state").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        r.json()["csrf_token"]
            .as_str()
            .expect("csrf token")
            .to_string()
    }

    /// The session cookie (`name=value`) the browser holds now.
    pub fn cookie(&self) -> String {
        self.cookie
            .lock()
            .expect("lock")
            .clone()
            .expect("a session cookie")
    }

    /// Logs in through the API as the web app does; returns the reply.
    pub async fn login(&self, email: &str, password: &str) -> Reply {
        let token = self.start_session().await;
        self.call(
            Method::POST,
            "/api/login",
            &token,
            &json!({ "email": email, "password": password }),
        )
        .await
    }

    /// Logs in (the demo password; for an admin, also a code of the demo authenticator secret,
    /// as the person would type it from their phone) and returns the new session's CSRF token.
    pub async fn logged_in_as(&self, email: &str) -> String {
        let mut r = self.login(email, DEMO_PASSWORD).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        if r.json()["second_factor"] == "code" {
            let token = r.json()["csrf_token"].as_str().expect("csrf").to_string();
            let code = next_code(self.app, email).await;
            r = self
                .call(
                    Method::POST,
                    "/api/login/second-factor",
                    &token,
                    &json!({ "code": code }),
                )
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        }
        r.json()["csrf_token"]
            .as_str()
            .expect("csrf token")
            .to_string()
    }

    /// Asks for a password-reset link for `email`, as the Forgot Password modal does.
    pub async fn forgot_password(&self, token: &str, email: &str) -> Reply {
        self.call(
            Method::POST,
            "/api/forgot-password",
            token,
            &json!({ "email": email }),
        )
        .await
    }

    /// An agent's Enroll on one of their applications from the dashboard (the session then works
    /// on it); the answer.
    pub async fn enroll(&self, csrf: &str, id: uuid::Uuid) -> Reply {
        self.call(
            Method::POST,
            &format!("/api/dashboard/enroll/{id}"),
            csrf,
            &json!({}),
        )
        .await
    }

    /// A POST without a body, with the session's CSRF token (impersonating, switching back,
    /// restarting, the timeout).
    pub async fn post(&self, path: &str, token: &str) -> Reply {
        self.call(Method::POST, path, token, &json!({})).await
    }

    /// A GET that sends the session's CSRF token (the impersonation calls want it).
    pub async fn get_with_token(&self, path: &str, token: &str) -> Reply {
        self.send(
            Method::GET,
            path,
            &[("x-csrf-token", token.to_string())],
            None,
        )
        .await
    }

    pub async fn send(
        &self,
        method: Method,
        path: &str,
        headers: &[(&str, String)],
        body: Option<Vec<u8>>,
    ) -> Reply {
        let url = format!("http://{}{path}", self.app.addr);
        let mut req = self
            .app
            .client
            .request(method, url)
            .header(HOST, &self.host);
        let cookies: Vec<String> = [&self.cookie, &self.rev, &self.device]
            .iter()
            .filter_map(|c| c.lock().expect("lock").clone())
            .collect();
        if !cookies.is_empty() {
            req = req.header("cookie", cookies.join("; "));
        }
        for (k, v) in headers {
            req = req.header(*k, v);
        }
        if let Some(b) = body {
            req = req.body(b);
        }
        let res = req.send().await.expect("request");
        let status = res.status();
        let headers = res.headers().clone();
        for set in headers.get_all(SET_COOKIE) {
            let set = set.to_str().expect("cookie ascii");
            let pair = set.split(';').next().unwrap_or("");
            let cleared = set.contains("Max-Age=0");
            let jar = if pair.contains("ef_rev=") {
                &self.rev
            } else if pair.contains("ef_device=") {
                &self.device
            } else {
                &self.cookie
            };
            *jar.lock().expect("lock") = if cleared {
                None
            } else {
                Some(pair.to_string())
            };
        }
        let body = res.text().await.expect("body");
        Reply {
            status,
            headers,
            body,
        }
    }
}

// Journeys shared by the step, plan and print tests.

/// Saves a wizard step as the web app does.
pub async fn save_step(b: &Browser<'_>, token: &str, step: &str, body: Value) -> Reply {
    put(b, token, &format!("/api/application/step/{step}"), body).await
}

pub async fn put(b: &Browser<'_>, token: &str, path: &str, body: Value) -> Reply {
    b.call(Method::PUT, path, token, &body).await
}

/// Selects a plan (1 medical, 2 dental, 3 vision; `null` for none) as the plan pages do.
pub async fn select_plan(b: &Browser<'_>, token: &str, plan_type: u8, id: Value) -> Reply {
    let body = json!({ "selected_plan_id": id });
    put(b, token, &format!("/api/plans/{plan_type}"), body).await
}

/// Saves Why Are You Applying: open enrollment; the server's reply.
pub async fn save_open_enrollment(b: &Browser<'_>, token: &str) -> Reply {
    save_step(b, token, "whyApplying", json!({ "enrollment_type": "oe" })).await
}

/// Saves Why Are You Applying: open enrollment, which must succeed.
pub async fn in_open_enrollment(b: &Browser<'_>, token: &str) {
    let r = save_open_enrollment(b, token).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}

/// A consumer's census answers for this household: not eligible for Medicare, no subsidy.
pub fn consumer_census(mut census: Value) -> Value {
    census["medicare_eligible"] = json!(0);
    census["wants_subsidy"] = json!(0);
    census
}

/// A browser whose application has reached the medical plans for this household.
pub async fn at_medical(b: &Browser<'_>, census: Value) -> String {
    let token = b.start_session().await;
    in_open_enrollment(b, &token).await;
    let r = put(
        b,
        &token,
        "/api/application/step/census",
        consumer_census(census),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["next"]["id"], "medical", "{}", r.body);
    token
}

pub fn adult(birth: &str) -> Value {
    json!({
        "sub_first_name": "Ann", "sub_last_name": "Lee", "email": "ann@example.com",
        "sub_gender": "F", "sub_birth_date": birth, "sub_tobacco": 0,
        "residential_zip": "48104", "residential_county_id": 161
    })
}

pub fn family() -> Value {
    let mut f = adult("1984-06-15");
    f["spouse"] = json!({ "gender": "M", "birth_date": "1986-03-01", "tobacco": 1 });
    f["dependents"] = json!([
        { "gender": "M", "birth_date": "2016-05-05" },
        { "gender": "F", "birth_date": "2009-09-09" },
        { "gender": "M", "birth_date": "2019-02-02" },
        { "gender": "F", "birth_date": "2012-04-04" },
        { "gender": "M", "birth_date": "2014-07-07" }
    ]);
    f
}

/// The plans of a catalog file (`rules/catalog/2025/medical.yaml` under `root`) read straight
/// from its text: each plan's one-line `key: value` fields, comments and quotes dropped. A test's
/// expected values come from here rather than from the API (or the loader) under test.
pub fn catalog_plans(
    root: &std::path::Path,
    file: &str,
) -> Vec<std::collections::BTreeMap<String, String>> {
    let text = std::fs::read_to_string(root.join(file)).expect("catalog file");
    let mut plans = Vec::new();
    for line in text.lines() {
        let line = line.split(" #").next().unwrap_or("").trim_end();
        let field = if let Some(rest) = line.strip_prefix("  - ") {
            plans.push(std::collections::BTreeMap::new());
            rest
        } else if let Some(rest) = line.strip_prefix("    ") {
            rest
        } else {
            continue;
        };
        let Some((k, v)) = field.split_once(": ") else {
            continue;
        };
        if k.starts_with(' ') || k.is_empty() {
            continue;
        }
        if let Some(plan) = plans.last_mut() {
            plan.insert(k.to_string(), v.trim().trim_matches('"').to_string());
        }
    }
    plans
}

/// One plan's fields from a catalog file (see `catalog_plans`).
pub fn catalog_plan(
    root: &std::path::Path,
    file: &str,
    id: i64,
) -> std::collections::BTreeMap<String, String> {
    catalog_plans(root, file)
        .into_iter()
        .find(|p| p.get("id").is_some_and(|v| *v == id.to_string()))
        .unwrap_or_else(|| panic!("plan {id} is not in {file}"))
}

/// The federal age curve's factor for an age, read from `rules/catalog/age_curves.yaml`.
pub fn federal_factor(root: &std::path::Path, age: i64) -> f64 {
    let text =
        std::fs::read_to_string(root.join("rules/catalog/age_curves.yaml")).expect("age curves");
    let band = format!("{{ from: {age}, to: {age}, factor: ");
    let at = text.find(&band).expect("a one-year band") + band.len();
    text[at..]
        .split([' ', '}'])
        .next()
        .and_then(|f| f.parse().ok())
        .expect("factor")
}

// Mail written after a request has been answered (forgot-password) is waited for, never assumed:
// these poll the outbox until it is there, up to a deadline that only a failure reaches.

/// How long a test waits for work done after a request was answered before it fails.
pub const BACKGROUND_DEADLINE: Duration = Duration::from_secs(30);

/// The data key of every test server of this process (instances of one test share a database, so
/// they share its key too).
pub fn test_cipher() -> Cipher {
    use base64::Engine as _;
    static KEY: std::sync::OnceLock<Cipher> = std::sync::OnceLock::new();
    KEY.get_or_init(|| {
        Cipher::from_base64(&base64::engine::general_purpose::STANDARD.encode(TEST_KEY))
            .expect("key")
    })
    .clone()
}

/// The test servers' data key.
pub const TEST_KEY: [u8; 32] = *b"enrollflow-test-data-key-32bytes";

/// The mails to this address in the outbox, oldest first, as (subject, body) with their links
/// whole (as `enrollflow mail` prints them), once there are at least `n` of them.
pub async fn wait_for_mails(pool: &PgPool, to: &str, n: usize) -> Vec<(String, String)> {
    let deadline = tokio::time::Instant::now() + BACKGROUND_DEADLINE;
    loop {
        let digest = enrollflow_server::platform::mail::recipient_digest(&test_cipher(), to);
        let mails: Vec<(String, String)> = db::outbox::newest_to(pool, Some((to, digest)), 1000)
            .await
            .expect("outbox")
            .iter()
            .rev()
            .map(|m| {
                let body =
                    enrollflow_server::platform::mail::reveal(&test_cipher(), m).expect("reveal");
                (m.subject.clone(), body)
            })
            .collect();
        if mails.len() >= n {
            return mails;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{} of {n} mails to {to} after {BACKGROUND_DEADLINE:?}",
            mails.len()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The first `n` mails to `to` whose subject contains `about`, oldest first (other mails, such as
/// the account notices a sign-in or a password change sends, are passed over).
pub async fn wait_for_mails_about(
    pool: &PgPool,
    to: &str,
    about: &str,
    n: usize,
) -> Vec<(String, String)> {
    let deadline = tokio::time::Instant::now() + BACKGROUND_DEADLINE;
    loop {
        let mails: Vec<(String, String)> = wait_for_mails(pool, to, 0)
            .await
            .into_iter()
            .filter(|(subject, _)| subject.contains(about))
            .collect();
        if mails.len() >= n {
            return mails;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{} of {n} mails about {about:?} to {to} after {BACKGROUND_DEADLINE:?}",
            mails.len()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A user's id by e-mail address.
pub async fn user_id(pool: &PgPool, email: &str) -> uuid::Uuid {
    sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(pool)
        .await
        .expect("user")
}

/// The token at the end of the link in a mail body (`…/token/{token}` or `…/token/{token}/`).
pub fn token_in(body: &str) -> String {
    let at = body.find("/token/").expect("a link with a token") + "/token/".len();
    body[at..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect()
}

/// A code of the demo authenticator secret that `email` has not used yet: the current step's, or
/// the next one's (the server accepts one step either side). When both were used, the test clock
/// moves on 30 seconds, as a person would wait for the next code.
pub async fn next_code(app: &TestApp, email: &str) -> String {
    use enrollflow_server::platform::clock::Clock;
    let last: Option<i64> =
        sqlx::query_scalar("SELECT totp_last_step FROM users WHERE lower(email) = lower($1)")
            .bind(email)
            .fetch_one(&app.pool)
            .await
            .expect("user");
    loop {
        let now = app.clock.real_now();
        let step = now.unix_timestamp() / 30;
        let candidate = last.map_or(step, |l| (l + 1).max(step - 1));
        if candidate <= step + 1 {
            let at = time::OffsetDateTime::from_unix_timestamp(candidate * 30).expect("time");
            return enrollflow_server::accounts::second_factor::code_at(
                enrollflow_server::seed::DEMO_TOTP_SECRET,
                at,
            )
            .expect("code");
        }
        app.clock.advance(Duration::from_secs(30));
    }
}

/// A set published by an operator (`enrollflow publish`): kept and published at the app's clock,
/// and served at once by `app` (the others switch on the notification). The workbench's way, a
/// proposal approved by someone else, is `governance.rs`'s.
pub async fn operator_publish(
    app: &TestApp,
    files: &[Value],
    note: Option<&str>,
) -> Result<enrollflow_server::db::rule_sets::Publication, Vec<enrollflow_engine::Diagnostic>> {
    let sources: Vec<enrollflow_engine::Source> = files
        .iter()
        .map(|f| {
            enrollflow_engine::Source::new(
                f["path"].as_str().expect("path"),
                f["text"].as_str().expect("text"),
            )
        })
        .collect();
    let now = app.clock.now();
    let published = enrollflow_server::rules::publish(&app.pool, &sources, "operator", note, now)
        .await
        .expect("the database");
    if published.is_ok() {
        enrollflow_server::rules::serve_newest(&app.rules, &app.pool, now)
            .await
            .expect("served");
    }
    published
}
