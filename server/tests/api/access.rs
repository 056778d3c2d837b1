//! The access matrix. Agent B (lakeshore) has a customer whose application is
//! full of personal data (with a document), a submitted application and a message. Every API route
//! that takes an id or reaches application or dashboard data is called with agent A's (acme)
//! session, on A's site and on B's, and with another consumer's session on B's site:
//!
//! - a route that names B's application, message, agent or user refuses (403 or 404; a dashboard
//!   filter naming B's site is a 400);
//! - a route of the session's own application, or of the agent's own dashboard, answers from
//!   those only;
//! - no answer (PDFs and workbooks read back as text) carries any of B's customer's personal data
//!   or B's ids, and B's applications, document, page views, message and the session bound to B's
//!   application are unchanged in the database afterwards.
//!
//! The routes are checked against the OpenAPI document: a new route must get a row in the matrix
//! or an exemption with its reason. Also here: fields a role may not set are ignored in a step's
//! answers.

use std::collections::BTreeSet;
use std::io::Cursor;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use calamine::{Reader, Xlsx, open_workbook_from_rs};
use reqwest::header::HOST;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::{
    ACME_USER, ADMIN_USER, Browser, LAKESHORE_USER, TestApp, adult, at_medical, save_step,
    spawn_app,
};

// Agent B's customer: none of this may reach another caller.
const FIRST: &str = "Zelda";
const LAST: &str = "Quixwell";
const EMAIL: &str = "zelda.quixwell@example.com";
const PHONE: &str = "3135550179";
const STREET: &str = "42 Wisteria Lane";
const SSN: &str = "501238317";
const SSN_LAST4: &str = "8317";
/// Agent B's NPN (lakeshore).
const B_NPN: &str = "18820457";

const PDF: &[u8] = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n";

/// Routes that neither take an id nor reach application or dashboard data, and why.
const EXEMPT: &[(&str, &str, &str)] = &[
    (
        "get",
        "/.well-known/enrollflow-evidence-keys.json",
        "public keys, the same for everyone (signing.rs)",
    ),
    (
        "post",
        "/api/login",
        "the caller's own account (accounts.rs)",
    ),
    ("post", "/api/logout", "ends the caller's own session"),
    (
        "get",
        "/api/coverage/providers",
        "the loaded provider directories, the same for everyone (care.rs)",
    ),
    (
        "get",
        "/api/coverage/drugs",
        "the loaded formularies' drug names, the same for everyone (care.rs)",
    ),
    (
        "post",
        "/api/forgot-password",
        "answers the same for every address (accounts.rs)",
    ),
    (
        "post",
        "/api/reset-password",
        "needs the e-mailed token (accounts.rs)",
    ),
    (
        "get",
        "/api/get-user/{token}",
        "needs the e-mailed invitation token (accounts.rs)",
    ),
    (
        "post",
        "/api/register",
        "needs the e-mailed invitation token (accounts.rs)",
    ),
    ("put", "/api/user/password", "the caller's own account"),
    (
        "get",
        "/api/user/sessions",
        "the caller's own sessions (session_control.rs)",
    ),
    (
        "delete",
        "/api/user/sessions",
        "the caller's own sessions (session_control.rs)",
    ),
    (
        "delete",
        "/api/user/sessions/{id}",
        "the caller's own sessions; another's answers 404 (session_control.rs)",
    ),
    ("get", "/api/get-auth-state", "the caller's own session"),
    (
        "get",
        "/api/application/saveForLater",
        "the address of the session's own application (resume.rs)",
    ),
    (
        "post",
        "/api/application/saveForLater",
        "the session's own application, e-mailed to the address it holds (resume.rs)",
    ),
    (
        "post",
        "/api/application/resume",
        "needs the e-mailed token; refused on another agent's site (resume.rs)",
    ),
    (
        "get",
        "/api/start",
        "the caller's own session: its auth state, active application and flow (start.rs)",
    ),
    (
        "post",
        "/api/login/second-factor",
        "the login this session's password step began (second_factor.rs)",
    ),
    (
        "post",
        "/api/login/second-factor/setup",
        "the login this session's password step began (second_factor.rs)",
    ),
    (
        "get",
        "/api/user/second-factor",
        "the caller's own second factor",
    ),
    (
        "put",
        "/api/user/second-factor",
        "the caller's own second factor",
    ),
    (
        "delete",
        "/api/user/second-factor",
        "the caller's own second factor",
    ),
    (
        "post",
        "/api/user/second-factor/setup",
        "the caller's own second factor",
    ),
    (
        "post",
        "/api/user/second-factor/recovery-codes",
        "the caller's own second factor",
    ),
    (
        "post",
        "/api/user/second-factor/verify",
        "the caller's own session's proof",
    ),
    (
        "post",
        "/api/application/timeout",
        "ends the caller's session",
    ),
    (
        "post",
        "/api/application/active/reset",
        "lets go of the caller's own application",
    ),
    ("get", "/api/site", "the public branding of the site"),
    (
        "get",
        "/api/flow",
        "the wizard's steps for the caller's own application (no id in the path): routes, labels and which open, no answers (steps.rs)",
    ),
    (
        "get",
        "/api/agent_branding/{subdomain}",
        "the public branding of a site",
    ),
    (
        "get",
        "/api/agent_logo/{subdomain}",
        "the public logo of a site",
    ),
    ("get", "/api/legal/{kind}", "public texts"),
];

/// What a row must answer.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Scope {
    /// An admin-only call: 403 for agents and consumers.
    Admin,
    /// Names B's data by id: 403 or 404.
    ById,
    /// A dashboard list or export filtered by B's site: refused (400 for an agent, whose sites
    /// are checked; 403 for a consumer).
    Filter,
    /// The agent's own dashboard: 200 for an agent, 403 for a consumer.
    Dashboard,
    /// The session's own application: never a server error; with the status given when the
    /// session has an application of its own on this site.
    Own(Option<u16>),
}

enum Body {
    Empty,
    Json(Value),
    /// A PDF for the qualifying-event upload.
    Upload,
}

struct Row {
    /// The route's method and template as the OpenAPI document names them.
    route: (String, &'static str),
    method: Method,
    path: String,
    body: Body,
    scope: Scope,
}

fn row(method: Method, template: &'static str, path: &str, body: Body, scope: Scope) -> Row {
    Row {
        route: (method.as_str().to_lowercase(), template),
        method,
        path: path.to_string(),
        body,
        scope,
    }
}

/// B's ids the rows name.
struct BIds {
    agent: Uuid,
    user: Uuid,
    application: Uuid,
    submitted: Uuid,
    message: Uuid,
}

fn matrix(b: &BIds) -> Vec<Row> {
    use Body::{Empty, Json, Upload};
    use Method as M;
    use Scope::{Admin, ById, Dashboard, Filter, Own};
    let (app, sub, msg) = (b.application, b.submitted, b.message);
    let search = format!("searchName={LAST}&daysToShow=365");
    let mut rows = vec![
        // Admin-only calls, with B's ids where they take one.
        row(
            M::GET,
            "/api/admin/rules/status",
            "/api/admin/rules/status",
            Empty,
            Admin,
        ),
        row(
            M::GET,
            "/api/admin/rules/sets",
            "/api/admin/rules/sets",
            Empty,
            Admin,
        ),
        row(
            M::POST,
            "/api/admin/rules/proposals",
            "/api/admin/rules/proposals",
            Json(json!({ "files": [], "note": "x" })),
            Admin,
        ),
        row(
            M::GET,
            "/api/admin/rules/proposals",
            "/api/admin/rules/proposals",
            Empty,
            Admin,
        ),
        row(
            M::GET,
            "/api/admin/rules/proposals/{id}",
            "/api/admin/rules/proposals/999999",
            Empty,
            Admin,
        ),
        row(
            M::POST,
            "/api/admin/rules/proposals/{id}/approve",
            "/api/admin/rules/proposals/999999/approve",
            Json(json!({})),
            Admin,
        ),
        row(
            M::POST,
            "/api/admin/rules/proposals/{id}/reject",
            "/api/admin/rules/proposals/999999/reject",
            Json(json!({ "reason": "no" })),
            Admin,
        ),
        row(
            M::POST,
            "/api/admin/rules/proposals/{id}/withdraw",
            "/api/admin/rules/proposals/999999/withdraw",
            Json(json!({})),
            Admin,
        ),
        row(
            M::GET,
            "/api/admin/rules/scheduled",
            "/api/admin/rules/scheduled",
            Empty,
            Admin,
        ),
        row(
            M::POST,
            "/api/admin/rules/scheduled/{id}/cancel",
            "/api/admin/rules/scheduled/999999/cancel",
            Json(json!({})),
            Admin,
        ),
        row(
            M::POST,
            "/api/admin/rules/impact",
            "/api/admin/rules/impact",
            Json(json!({ "files": [] })),
            Admin,
        ),
        row(
            M::POST,
            "/api/admin/rules/rollback",
            "/api/admin/rules/rollback",
            Json(json!({ "hash": "abcdef" })),
            Admin,
        ),
        row(
            M::GET,
            "/api/admin/rules/preview",
            "/api/admin/rules/preview",
            Empty,
            Admin,
        ),
        row(
            M::POST,
            "/api/admin/rules/preview",
            "/api/admin/rules/preview",
            Json(json!({ "step": "census" })),
            Admin,
        ),
        row(
            M::GET,
            "/api/admin/rules/files",
            "/api/admin/rules/files",
            Empty,
            Admin,
        ),
        row(
            M::GET,
            "/api/admin/rules/report",
            "/api/admin/rules/report",
            Empty,
            Admin,
        ),
        row(M::GET, "/api/admin/audit", "/api/admin/audit", Empty, Admin),
        row(
            M::GET,
            "/api/admin/security-settings",
            "/api/admin/security-settings",
            Empty,
            Admin,
        ),
        row(
            M::PUT,
            "/api/admin/security-settings",
            "/api/admin/security-settings",
            Json(json!({ "second_factor_required_for_agents": true })),
            Admin,
        ),
        row(
            M::DELETE,
            "/api/admin/users/{userId}/second-factor",
            &format!("/api/admin/users/{}/second-factor", b.user),
            Json(json!({})),
            Admin,
        ),
        row(
            M::GET,
            "/api/admin/getUsersByNPN/{npn}",
            &format!("/api/admin/getUsersByNPN/{B_NPN}"),
            Empty,
            Admin,
        ),
        row(
            M::POST,
            "/api/admin/fabricateAgent/{userId}",
            &format!("/api/admin/fabricateAgent/{}", b.user),
            Empty,
            Admin,
        ),
        row(
            M::POST,
            "/api/unFabricateAgent",
            "/api/unFabricateAgent",
            Empty,
            Admin,
        ),
        row(
            M::GET,
            "/api/admin/agentList",
            "/api/admin/agentList",
            Empty,
            Admin,
        ),
        row(
            M::GET,
            "/api/admin/outbox",
            "/api/admin/outbox",
            Empty,
            Admin,
        ),
        row(
            M::GET,
            "/api/admin/messageList",
            "/api/admin/messageList",
            Empty,
            Admin,
        ),
        row(
            M::PUT,
            "/api/admin/manageMessage",
            "/api/admin/manageMessage",
            Json(
                json!({ "id": msg, "title": "Taken over", "publish_date": "2024-11-20",
                         "content": "x", "agents": [b.agent] }),
            ),
            Admin,
        ),
        row(
            M::POST,
            "/api/admin/manageMessage/{id}",
            &format!("/api/admin/manageMessage/{msg}"),
            Json(json!({})),
            Admin,
        ),
        row(
            M::PUT,
            "/api/admin/users/{userId}/disabled",
            &format!("/api/admin/users/{}/disabled", b.user),
            Json(json!({ "disabled": true })),
            Admin,
        ),
        // B's data by id.
        row(
            M::GET,
            "/api/agent_branding_number/{npn}",
            &format!("/api/agent_branding_number/{B_NPN}"),
            Empty,
            ById,
        ),
        row(
            M::PUT,
            "/api/dashboard/dismissMessage/{id}",
            &format!("/api/dashboard/dismissMessage/{msg}"),
            Json(json!({})),
            ById,
        ),
    ];
    for id in [app, sub] {
        rows.extend([
            row(
                M::GET,
                "/api/application/{application_id}/step",
                &format!("/api/application/{id}/step"),
                Empty,
                ById,
            ),
            row(
                M::GET,
                "/api/application/{application_id}/countyList/{zip}",
                &format!("/api/application/{id}/countyList/48104"),
                Empty,
                ById,
            ),
            row(
                M::GET,
                "/api/application/{application_id}/billingStateZip/{state}/{zip}",
                &format!("/api/application/{id}/billingStateZip/OH/43604"),
                Empty,
                ById,
            ),
            row(
                M::GET,
                "/api/dashboard/getAppInfo/{id}",
                &format!("/api/dashboard/getAppInfo/{id}"),
                Empty,
                ById,
            ),
            row(
                M::GET,
                "/api/dashboard/handoff/{id}",
                &format!("/api/dashboard/handoff/{id}"),
                Empty,
                ById,
            ),
            row(
                M::POST,
                "/api/dashboard/handoff/{id}",
                &format!("/api/dashboard/handoff/{id}"),
                Json(json!({ "email": "someone@example.com" })),
                ById,
            ),
            row(
                M::DELETE,
                "/api/dashboard/handoff/{id}",
                &format!("/api/dashboard/handoff/{id}"),
                Json(json!({})),
                ById,
            ),
            row(
                M::GET,
                "/api/dashboard/renewals/{id}",
                &format!("/api/dashboard/renewals/{id}"),
                Empty,
                ById,
            ),
            row(
                M::POST,
                "/api/dashboard/renewals/{id}/send",
                &format!("/api/dashboard/renewals/{id}/send"),
                Json(json!({ "language": "es" })),
                ById,
            ),
            row(
                M::GET,
                "/api/dashboard/evidence/{id}",
                &format!("/api/dashboard/evidence/{id}"),
                Empty,
                ById,
            ),
            row(
                M::GET,
                "/api/dashboard/evidencePdf/{id}",
                &format!("/api/dashboard/evidencePdf/{id}"),
                Empty,
                ById,
            ),
            row(
                M::GET,
                "/api/dashboard/evidenceJson/{id}",
                &format!("/api/dashboard/evidenceJson/{id}"),
                Empty,
                ById,
            ),
            row(
                M::GET,
                "/api/dashboard/scenario/{id}",
                &format!("/api/dashboard/scenario/{id}"),
                Empty,
                ById,
            ),
            row(
                M::POST,
                "/api/dashboard/enroll/{id}",
                &format!("/api/dashboard/enroll/{id}"),
                Json(json!({})),
                ById,
            ),
        ]);
        for step in ["whyApplying", "census", "subInfo", "rap"] {
            rows.push(row(
                M::GET,
                "/api/application/{application_id}/step/{step}/validStep",
                &format!("/api/application/{id}/step/{step}/validStep"),
                Empty,
                ById,
            ));
        }
    }
    // The dashboard lists and exports with B's filters, and the agent's own dashboard.
    for (template, list) in [
        ("/api/dashboard/quotes", "/api/dashboard/quotes"),
        ("/api/dashboard/enrollees", "/api/dashboard/enrollees"),
        ("/api/dashboard/quotesExport", "/api/dashboard/quotesExport"),
        (
            "/api/dashboard/enrolleesExport",
            "/api/dashboard/enrolleesExport",
        ),
    ] {
        rows.extend([
            row(
                M::GET,
                template,
                &format!("{list}?filterSubdomain=lakeshore&daysToShow=365"),
                Empty,
                Filter,
            ),
            row(M::GET, template, list, Empty, Dashboard),
            row(
                M::GET,
                template,
                &format!("{list}?{search}"),
                Empty,
                Dashboard,
            ),
        ]);
    }
    for path in [
        "/api/dashboard/quotes?filterStartedBy=consumer&daysToShow=365",
        "/api/dashboard/quotes?filterStartedBy=agent&daysToShow=365",
    ] {
        rows.push(row(M::GET, "/api/dashboard/quotes", path, Empty, Dashboard));
    }
    for path in [
        "/api/dashboard/shell",
        "/api/dashboard/countdownIndividual",
        "/api/dashboard/countdownMedicare",
        "/api/dashboard/enrollmentsYtd",
        "/api/dashboard/carrierShare",
        "/api/dashboard/getMessages",
        "/api/dashboard/getOldMessages",
        "/api/dashboard/renewals",
        "/api/dashboard/renewalsExport",
        "/api/dashboard/renewalCounts",
    ] {
        rows.push(row(M::GET, path, path, Empty, Dashboard));
    }
    // The renewal worklist's view names no other agent's data: only the caller's book is read.
    rows.push(row(
        M::GET,
        "/api/dashboard/renewals",
        "/api/dashboard/renewals?status=same_plan&follow=to_do&q=Lee",
        Empty,
        Dashboard,
    ));
    // The session's own application: reads first, then writes.
    let own = |method: Method, template: &'static str, path: &str, body: Body, ok: Option<u16>| {
        row(method, template, path, body, Own(ok))
    };
    rows.push(own(
        M::GET,
        "/api/application/active",
        "/api/application/active",
        Empty,
        Some(200),
    ));
    // A renewal's page: the session's application was not started from a renewal.
    rows.push(own(
        M::GET,
        "/api/renewal",
        "/api/renewal",
        Empty,
        Some(404),
    ));
    rows.push(own(
        M::POST,
        "/api/renewal/choose",
        "/api/renewal/choose",
        Json(json!({ "medical": null, "dental": null, "vision": null })),
        Some(404),
    ));
    for (step, ok) in [
        ("whyApplying", 200),
        ("census", 200),
        ("subInfo", 403),
        ("rap", 403),
    ] {
        rows.push(own(
            M::GET,
            "/api/application/step/{step}",
            &format!("/api/application/step/{step}"),
            Empty,
            Some(ok),
        ));
    }
    rows.extend([
        own(
            M::POST,
            "/api/application/step/{step}/preview",
            "/api/application/step/census/preview",
            Json(json!({})),
            Some(200),
        ),
        own(
            M::GET,
            "/api/plans/{plan_type}/allPlans",
            "/api/plans/1/allPlans",
            Empty,
            Some(200),
        ),
        own(
            M::GET,
            "/api/plans/{plan_type}/{list}",
            "/api/plans/1/carriers",
            Empty,
            Some(200),
        ),
        own(M::GET, "/api/care", "/api/care", Empty, Some(200)),
        own(
            M::GET,
            "/api/plans/{plan_type}/coverage",
            "/api/plans/1/coverage",
            Empty,
            Some(200),
        ),
        own(
            M::PUT,
            "/api/care",
            "/api/care",
            Json(json!({ "uses": ["medium"] })),
            None,
        ),
        own(
            M::GET,
            "/api/plans/planInfo",
            "/api/plans/planInfo",
            Empty,
            None,
        ),
        own(
            M::GET,
            "/api/plans/{plan_type}",
            "/api/plans/1",
            Empty,
            Some(200),
        ),
        own(
            M::GET,
            "/api/printPdf/{plan_type}/{flag}",
            "/api/printPdf/1/false",
            Empty,
            Some(200),
        ),
        own(
            M::GET,
            "/api/printPdf/{plan_type}/{flag}/{filters}",
            "/api/printPdf/1/true/car_3",
            Empty,
            Some(200),
        ),
        own(
            M::GET,
            "/api/printSelectionPdf",
            "/api/printSelectionPdf",
            Empty,
            Some(403),
        ),
        own(
            M::POST,
            "/api/events/pageView",
            "/api/events/pageView",
            Json(json!({ "route": "/census" })),
            Some(204),
        ),
        own(
            M::POST,
            "/api/whyapplying/fileupload",
            "/api/whyapplying/fileupload",
            Upload,
            Some(200),
        ),
        own(
            M::POST,
            "/api/application/step/{step}/continue",
            "/api/application/step/review/continue",
            Json(json!({})),
            Some(403),
        ),
        own(
            M::POST,
            "/api/application/step/{step}/reopen",
            "/api/application/step/dental/reopen",
            Json(json!({})),
            None,
        ),
        own(
            M::PUT,
            "/api/plans/{plan_type}",
            "/api/plans/1",
            Json(json!({ "selected_plan_id": null })),
            None,
        ),
        own(
            M::PUT,
            "/api/application/step/{step}",
            "/api/application/step/whyApplying",
            Json(json!({ "enrollment_type": "oe" })),
            Some(200),
        ),
    ]);
    rows
}

/// Who calls the matrix.
struct Caller<'a> {
    name: &'static str,
    b: Browser<'a>,
    token: String,
    agent: bool,
    /// The session's own application on this site, when it has one.
    own: Option<Uuid>,
}

/// A reply, its body read as text (PDFs through `pdftotext`, workbooks cell by cell).
struct Answer {
    status: StatusCode,
    text: String,
}

async fn send(app: &TestApp, c: &Caller<'_>, r: &Row) -> Answer {
    let mut req = reqwest::Client::new()
        .request(r.method.clone(), format!("http://{}{}", app.addr, r.path))
        .header(HOST, &c.b.host)
        .header("origin", c.b.origin())
        .header("x-csrf-token", &c.token);
    let cookies: Vec<String> = [&c.b.cookie, &c.b.rev]
        .iter()
        .filter_map(|j| j.lock().expect("lock").clone())
        .collect();
    if !cookies.is_empty() {
        req = req.header("cookie", cookies.join("; "));
    }
    req = match &r.body {
        Body::Empty => req,
        Body::Json(v) => req
            .header("content-type", "application/json")
            .body(v.to_string()),
        Body::Upload => {
            let boundary = "----enrollflow-access-boundary";
            let mut body = format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"enrollment_type\"\r\n\r\nqle\r\n\
                 --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"proof.pdf\"\r\n\
                 Content-Type: application/pdf\r\n\r\n"
            )
            .into_bytes();
            body.extend_from_slice(PDF);
            body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
            req.header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(body)
        }
    };
    let res = req.send().await.expect("request");
    let status = res.status();
    let content_type = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let bytes = res.bytes().await.expect("body").to_vec();
    let text = if content_type.starts_with("application/pdf") {
        pdf_text(&bytes)
    } else if content_type.contains("spreadsheetml") {
        workbook_text(&bytes)
    } else {
        String::from_utf8_lossy(&bytes).into_owned()
    };
    Answer { status, text }
}

/// The text of a PDF as poppler's `pdftotext` reads it.
fn pdf_text(bytes: &[u8]) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let path = std::env::temp_dir().join(format!(
        "enrollflow-access-{}-{}.pdf",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, bytes).expect("write pdf");
    let out = Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
        .unwrap_or_else(|e| panic!("pdftotext is needed (Debian poppler-utils): {e}"));
    let _ = std::fs::remove_file(&path);
    assert!(out.status.success(), "not a readable PDF");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every cell of a workbook, tab-separated.
fn workbook_text(bytes: &[u8]) -> String {
    let mut wb: Xlsx<_> = open_workbook_from_rs(Cursor::new(bytes.to_vec())).expect("a workbook");
    let mut out = String::new();
    for (_, range) in wb.worksheets() {
        for cells in range.rows() {
            for cell in cells {
                out.push_str(&cell.to_string());
                out.push('\t');
            }
            out.push('\n');
        }
    }
    out
}

/// The text without random hex tokens (ids, CSRF tokens), in which four given digits could
/// appear by chance.
fn without_hex_tokens(text: &str) -> String {
    fn flush(run: &mut String, out: &mut String) {
        let digits = run.chars().filter(char::is_ascii_hexdigit).count();
        if digits < 8 || !run.chars().any(|c| c.is_ascii_alphabetic()) {
            out.push_str(run);
        }
        run.clear();
    }
    let (mut out, mut run) = (String::new(), String::new());
    for c in text.chars() {
        if c.is_ascii_hexdigit() || c == '-' {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// B's values found in a text: the customer's personal data and B's ids.
fn leaks(text: &str, ids: &[Uuid]) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut found: Vec<String> = [
        FIRST, LAST, EMAIL, PHONE, "555-0179", STREET, "Wisteria", SSN,
    ]
    .iter()
    .filter(|v| lower.contains(&v.to_lowercase()))
    .map(|v| v.to_string())
    .collect();
    if without_hex_tokens(text).contains(SSN_LAST4) {
        found.push(format!("the SSN's last four ({SSN_LAST4})"));
    }
    for id in ids {
        if lower.contains(&id.to_string()) || lower.contains(&id.simple().to_string()) {
            found.push(id.to_string());
        }
    }
    found
}

/// The statuses a row may answer this caller; `None`: any but a server error.
fn expected(scope: Scope, c: &Caller<'_>) -> Option<Vec<u16>> {
    Some(match scope {
        Scope::Admin => vec![403],
        Scope::ById => vec![403, 404],
        Scope::Filter | Scope::Dashboard if !c.agent => vec![403],
        Scope::Filter => vec![400],
        Scope::Dashboard => vec![200],
        Scope::Own(Some(status)) if c.own.is_some() => vec![status],
        Scope::Own(_) => return None,
    })
}

/// Everything stored about B's applications and message, to compare before and after.
async fn b_state(pool: &PgPool, b: &BIds) -> Vec<String> {
    let ids = [b.application, b.submitted];
    let mut state: Vec<String> = sqlx::query_scalar(
        "SELECT row_to_json(a)::text FROM applications a WHERE id = ANY($1) ORDER BY id",
    )
    .bind(&ids[..])
    .fetch_all(pool)
    .await
    .expect("B's applications");
    assert_eq!(state.len(), 2);
    for q in [
        "SELECT coalesce(json_agg(d ORDER BY d.id)::text, '[]') FROM documents d WHERE application_id = ANY($1)",
        "SELECT count(*)::text FROM page_views WHERE application_id = ANY($1)",
        "SELECT coalesce(json_agg(s.application_id ORDER BY s.application_id)::text, '[]') FROM sessions s
         WHERE application_id = ANY($1)",
    ] {
        state.push(
            sqlx::query_scalar(q)
                .bind(&ids[..])
                .fetch_one(pool)
                .await
                .expect("state"),
        );
    }
    for q in [
        "SELECT coalesce(json_agg(m)::text, '[]') FROM agent_messages m WHERE id = $1",
        "SELECT coalesce(json_agg(t)::text, '[]') FROM agent_message_targets t WHERE message_id = $1",
        "SELECT count(*)::text FROM agent_message_dismissals WHERE message_id = $1",
    ] {
        state.push(
            sqlx::query_scalar(q)
                .bind(b.message)
                .fetch_one(pool)
                .await
                .expect("state"),
        );
    }
    state
}

async fn id_of(pool: &PgPool, query: &str, key: &str) -> Uuid {
    sqlx::query_scalar(query)
        .bind(key)
        .fetch_one(pool)
        .await
        .expect("an id")
}

/// Agent B's customer on B's site, with Subscriber Information and a document; the browser
/// stays bound to the application.
async fn b_customer(app: &TestApp) -> (Caller<'_>, Uuid) {
    let c = app.browser("lakeshore");
    let token = c.start_session().await;
    let r = save_step(
        &c,
        &token,
        "whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let id: Uuid = r.json()["application"]["applicationId"]
        .as_str()
        .expect("id")
        .parse()
        .expect("uuid");
    let mut census = adult("1979-05-05");
    census["sub_first_name"] = json!(FIRST);
    census["sub_last_name"] = json!(LAST);
    census["email"] = json!(EMAIL);
    census["medicare_eligible"] = json!(0);
    census["wants_subsidy"] = json!(0);
    let r = save_step(&c, &token, "census", census).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    // On to Subscriber Information (choosing plans is the plan tests' business).
    sqlx::query("UPDATE applications SET data = data || $2::jsonb WHERE id = $1")
        .bind(id)
        .bind(json!({ "last_step": 7, "medical_carrier_id": 3, "medical_network_type_id": 1 }))
        .execute(&app.pool)
        .await
        .expect("advance");
    app.settle().await;
    let r = save_step(
        &c,
        &token,
        "subInfo",
        json!({
            "sub_first_name": FIRST, "sub_last_name": LAST, "sub_ssn": SSN, "sub_us_citizen": 1,
            "email": EMAIL, "primary_phone": PHONE, "primary_phone_type_id": 4,
            "residential_street": STREET, "residential_city": "Ann Arbor", "residential_state": "MI"
        }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let caller = Caller {
        name: "B's customer",
        b: c,
        token,
        agent: false,
        own: Some(id),
    };
    let r = send(
        app,
        &caller,
        &row(
            Method::POST,
            "",
            "/api/whyapplying/fileupload",
            Body::Upload,
            Scope::Own(None),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    (caller, id)
}

/// B's submitted application (agent-started by B's user), as the dashboard's tests build them.
async fn b_submitted(app: &TestApp, agent: Uuid, user: Uuid) -> Uuid {
    use enrollflow_server::platform::clock::Clock;
    let id = Uuid::new_v4();
    let now = app.clock.now();
    let person = json!({ "sub_first_name": FIRST, "sub_last_name": LAST, "email": EMAIL });
    let mut sub_info = person.clone();
    sub_info["primary_phone"] = json!(PHONE);
    sub_info["residential_street"] = json!(STREET);
    sub_info["sub_ssn"] = json!(SSN);
    let data = json!({
        "census": person, "subInfo": sub_info, "last_step": 10, "submitted": true,
        "medical_carrier_id": 3,
        "medical_plan": { "id": 100, "name": format!("Plan of {FIRST} {LAST}") },
    });
    sqlx::query(
        "INSERT INTO applications (id, agent_id, data, created_at, updated_at, submission_time,
             effective_date, enrollment_period_type_id, last_step, medical_carrier_id,
             agent_started, started_by_user_id, subdomain, summary)
         VALUES ($1, $2, $3, $4, $4, $5, '2025-01-01', 1, 10, 3, true, $6, 'lakeshore', $7)",
    )
    .bind(id)
    .bind(agent)
    .bind(&data)
    .bind(now - time::Duration::days(10))
    .bind(now - time::Duration::days(2))
    .bind(user)
    .bind(app.summary_of(&data))
    .execute(&app.pool)
    .await
    .expect("insert");
    app.settle().await;
    id
}

/// A non-sticky message for agent B only, written by the admin.
async fn b_message(app: &TestApp, agent: Uuid) -> Uuid {
    let admin = app.browser("demo");
    let token = admin.logged_in_as(ADMIN_USER).await;
    let r = admin
        .call(
            Method::PUT,
            "/api/admin/manageMessage",
            &token,
            &json!({ "title": "For Lakeshore", "publish_date": "2024-11-19",
                     "content": "Only for agent B", "is_sticky": false, "agents": [agent] }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    r.json()["message"]["id"]
        .as_str()
        .expect("id")
        .parse()
        .expect("uuid")
}

async fn active_id(b: &Browser<'_>) -> Option<Uuid> {
    b.get("/api/application/active").await.json()["application"]["applicationId"]
        .as_str()
        .map(|s| s.parse().expect("uuid"))
}

#[tokio::test]
async fn the_access_matrix_refuses_bs_data_to_a_and_to_other_consumers_and_leaks_nothing() {
    let app = spawn_app().await;
    let pool = &app.pool;
    let b_agent = id_of(pool, "SELECT id FROM agents WHERE npn = $1", B_NPN).await;
    let b_user = id_of(
        pool,
        "SELECT id FROM users WHERE email = $1",
        LAKESHORE_USER,
    )
    .await;
    let (customer, b_app) = b_customer(&app).await;
    let b = BIds {
        agent: b_agent,
        user: b_user,
        application: b_app,
        submitted: b_submitted(&app, b_agent, b_user).await,
        message: b_message(&app, b_agent).await,
    };
    let b_ids = [b.application, b.submitted, b.message, b.user, b.agent];
    let before = b_state(pool, &b).await;

    // The checks find B's data where it belongs: in B's customer's own answers and sheet, and on
    // agent B's dashboard (the workbook read back included).
    let customers_own = |path: &str| row(Method::GET, "", path, Body::Empty, Scope::Own(None));
    let seen = send(
        &app,
        &customer,
        &customers_own("/api/application/step/subInfo"),
    )
    .await;
    assert_eq!(seen.status, StatusCode::OK, "{}", seen.text);
    let found = leaks(&seen.text, &[]);
    let last_four = format!("the SSN's last four ({SSN_LAST4})");
    for value in [FIRST, LAST, EMAIL, PHONE, STREET, &last_four] {
        assert!(found.iter().any(|f| f == value), "{value} in {}", seen.text);
    }
    assert!(!found.contains(&SSN.to_string()), "the SSN is masked");
    let seen = send(&app, &customer, &customers_own("/api/printPdf/1/false")).await;
    assert_eq!(seen.status, StatusCode::OK, "{}", seen.text);
    assert!(
        leaks(&seen.text, &[]).contains(&LAST.to_string()),
        "{}",
        seen.text
    );
    let agent_b = app.browser("lakeshore");
    let agent_b = Caller {
        name: "agent B",
        token: agent_b.logged_in_as(LAKESHORE_USER).await,
        b: agent_b,
        agent: true,
        own: None,
    };
    for path in [
        format!("/api/dashboard/getAppInfo/{b_app}"),
        "/api/dashboard/enrolleesExport".to_string(),
        format!("/api/dashboard/quotes?searchName={LAST}"),
    ] {
        let seen = send(&app, &agent_b, &customers_own(&path)).await;
        assert_eq!(seen.status, StatusCode::OK, "{path}: {}", seen.text);
        let found = leaks(&seen.text, &[b.application, b.submitted]);
        assert!(
            found.contains(&LAST.to_string()) && found.contains(&EMAIL.to_string()),
            "{path}: {found:?} in {}",
            seen.text
        );
    }
    let ytd = agent_b.b.get("/api/dashboard/enrollmentsYtd").await.json();
    assert_eq!(ytd["2024-11"], 1, "B's submission counts for B: {ytd}");
    assert!(
        before.iter().any(|s| s.contains("proof.pdf")),
        "B's document is there"
    );

    // Every route of the API is in the matrix or exempted with its reason.
    let rows = matrix(&b);
    let doc = app.browser("").get("/api/openapi.json").await.json();
    let mut documented = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("methods").keys() {
            documented.insert((method.clone(), path.clone()));
        }
    }
    let covered: BTreeSet<(String, String)> = rows
        .iter()
        .map(|r| (r.route.0.clone(), r.route.1.to_string()))
        .collect();
    let exempt: BTreeSet<(String, String)> = EXEMPT
        .iter()
        .map(|(m, p, _)| (m.to_string(), p.to_string()))
        .collect();
    assert!(covered.is_disjoint(&exempt), "{covered:?} / {exempt:?}");
    let listed: BTreeSet<_> = covered.union(&exempt).cloned().collect();
    assert_eq!(
        documented.difference(&listed).collect::<Vec<_>>(),
        Vec::<&(String, String)>::new(),
        "routes in neither the matrix nor the exemptions"
    );
    assert_eq!(
        listed.difference(&documented).collect::<Vec<_>>(),
        Vec::<&(String, String)>::new(),
        "rows for routes that do not exist"
    );

    // Agent A with an application of A's own on A's site; A on B's site; and a consumer with an
    // application of her own on B's site.
    let a = app.browser("acme");
    let a_token = a.logged_in_as(ACME_USER).await;
    let r = save_step(
        &a,
        &a_token,
        "whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let mut census = adult("1980-02-02");
    census["sub_first_name"] = json!("Otto");
    census["sub_last_name"] = json!("Ownby");
    census["email"] = json!("otto@example.com");
    census["medicare_eligible"] = json!(0);
    census["wants_subsidy"] = json!(0);
    let r = save_step(&a, &a_token, "census", census).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let a_own = active_id(&a).await;
    let a_on_b = app.browser("lakeshore");
    let a_on_b_token = a_on_b.logged_in_as(ACME_USER).await;
    let consumer = app.browser("lakeshore");
    let mut census = adult("1988-08-08");
    census["sub_first_name"] = json!("Carla");
    census["sub_last_name"] = json!("Conway");
    census["email"] = json!("carla@example.com");
    let consumer_token = at_medical(&consumer, census).await;
    let consumer_own = active_id(&consumer).await;
    let callers = [
        Caller {
            name: "agent A on A's site",
            b: a,
            token: a_token,
            agent: true,
            own: a_own,
        },
        Caller {
            name: "agent A on B's site",
            b: a_on_b,
            token: a_on_b_token,
            agent: true,
            own: None,
        },
        Caller {
            name: "another consumer on B's site",
            b: consumer,
            token: consumer_token,
            agent: false,
            own: consumer_own,
        },
    ];
    assert!(callers[0].own.is_some() && callers[2].own.is_some());

    let mut failures = Vec::new();
    for c in &callers {
        for r in &rows {
            let answer = send(&app, c, r).await;
            let what = format!("{}: {} {}", c.name, r.method, r.path);
            if let Some(allowed) = expected(r.scope, c)
                && !allowed.contains(&answer.status.as_u16())
            {
                failures.push(format!(
                    "{what}: {} (expected {allowed:?}): {}",
                    answer.status, answer.text
                ));
            }
            if answer.status.is_server_error() {
                failures.push(format!("{what}: {}: {}", answer.status, answer.text));
            }
            let leaked = leaks(&answer.text, &b_ids);
            if !leaked.is_empty() {
                failures.push(format!("{what} leaked {leaked:?}: {}", answer.text));
            }
        }
        // The session is bound to its own application only.
        let active = active_id(&c.b).await;
        if active.is_some_and(|id| id == b.application || id == b.submitted) {
            failures.push(format!("{}: the session took B's application", c.name));
        }
        if c.agent {
            // A's figures count A's submissions only (A has none; B has one this year).
            let ytd = c.b.get("/api/dashboard/enrollmentsYtd").await.json();
            let total: i64 = ytd
                .as_object()
                .expect("months")
                .values()
                .map(|n| n.as_i64().expect("count"))
                .sum();
            let share = c.b.get("/api/dashboard/carrierShare").await.json();
            if total != 0 || share["carrierCounts"] != json!({}) {
                failures.push(format!("{}: B's submission counted: {ytd} {share}", c.name));
            }
            // A's lists hold A's applications only.
            for list in ["quotes", "enrollees"] {
                let page =
                    c.b.get(&format!("/api/dashboard/{list}?daysToShow=365"))
                        .await
                        .json();
                for listed in page["rows"].as_array().expect("rows") {
                    let id: Uuid = listed["application_id"]
                        .as_str()
                        .expect("id")
                        .parse()
                        .expect("uuid");
                    let agent: Uuid = id_of(
                        pool,
                        "SELECT agent_id FROM applications WHERE id = $1::uuid",
                        &id.to_string(),
                    )
                    .await;
                    if agent == b.agent {
                        failures.push(format!("{}: {list} lists B's {id}", c.name));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // B's applications, document, page views, message and session binding are as they were.
    assert_eq!(b_state(pool, &b).await, before);
    assert_eq!(active_id(&customer.b).await, Some(b.application));
    let impersonating: i64 =
        sqlx::query_scalar("SELECT count(*) FROM sessions WHERE impersonator_id IS NOT NULL")
            .fetch_one(pool)
            .await
            .expect("count");
    assert_eq!(impersonating, 0);
}

/// A step's answers with every field a caller may not set, naming another application, agent
/// and user.
fn with_fields_not_ours(mut answers: Value, app: Uuid, agent: Uuid, user: Uuid) -> Value {
    for (key, value) in [
        ("id", json!(app)),
        ("application_id", json!(app)),
        ("applicationId", json!(app)),
        ("owner", json!(user)),
        ("owner_id", json!(user)),
        ("user_id", json!(user)),
        ("agent_id", json!(agent)),
        ("agentId", json!(agent)),
        ("agent_started", json!(false)),
        ("started_by", json!(user)),
        ("started_by_user_id", json!(user)),
        ("role", json!("admin")),
        ("is_admin", json!(true)),
        ("submission_time", json!("2024-11-20T10:00:00Z")),
        ("submissionTime", json!("2024-11-20T10:00:00Z")),
        ("submitted", json!(true)),
        ("revision", json!(999)),
        ("last_step", json!(10)),
        ("subdomain", json!("acme")),
    ] {
        answers[key] = value;
    }
    answers
}

/// What a role may not set of an application: who owns it, who started it, whether it is
/// submitted and how far it is; and its data.
async fn owned(pool: &PgPool, id: Uuid) -> (Value, Value) {
    let (row, data): (Value, Value) = sqlx::query_as(
        "SELECT json_build_object('agent_id', agent_id, 'agent_started', agent_started,
                    'started_by_user_id', started_by_user_id, 'submission_time', submission_time,
                    'last_step', last_step, 'subdomain', subdomain), data
         FROM applications WHERE id = $1",
    )
    .bind(id)
    .fetch_one(pool)
    .await
    .expect("application");
    (row, data)
}

#[tokio::test]
async fn fields_a_role_may_not_set_are_ignored_in_a_steps_answers() {
    let app = spawn_app().await;
    let pool = &app.pool;
    let acme = id_of(
        pool,
        "SELECT agent_id FROM users WHERE email = $1",
        ACME_USER,
    )
    .await;
    let maria = id_of(pool, "SELECT id FROM users WHERE email = $1", ACME_USER).await;
    let lakeshore = id_of(
        pool,
        "SELECT agent_id FROM users WHERE email = $1",
        LAKESHORE_USER,
    )
    .await;
    let daniel = id_of(
        pool,
        "SELECT id FROM users WHERE email = $1",
        LAKESHORE_USER,
    )
    .await;

    // Someone else's application, which the fields name.
    let victim = app.browser("acme");
    let token = victim.start_session().await;
    let r = save_step(
        &victim,
        &token,
        "whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let victim_id = active_id(&victim).await.expect("the victim's application");
    let victim_before: String =
        sqlx::query_scalar("SELECT row_to_json(a)::text FROM applications a WHERE id = $1")
            .bind(victim_id)
            .fetch_one(pool)
            .await
            .expect("row");

    let mut census = adult("1984-06-15");
    census["medicare_eligible"] = json!(0);
    census["wants_subsidy"] = json!(0);
    let steps = [
        ("whyApplying", json!({ "enrollment_type": "oe" })),
        ("census", census),
    ];
    // The same answers saved plainly and with the fields, by a consumer on lakeshore's site and
    // by acme's agent on acme's site (the first save creates the application, the second
    // changes it).
    for (site, user, agent_fields, user_fields) in [
        ("lakeshore", None, acme, maria),
        ("acme", Some(ACME_USER), lakeshore, daniel),
    ] {
        let mut ids = Vec::new();
        for extra in [false, true] {
            let b = app.browser(site);
            let token = match user {
                Some(u) => b.logged_in_as(u).await,
                None => b.start_session().await,
            };
            for (step, answers) in &steps {
                let answers = if extra {
                    with_fields_not_ours(answers.clone(), victim_id, agent_fields, user_fields)
                } else {
                    answers.clone()
                };
                let r = save_step(&b, &token, step, answers).await;
                assert_eq!(r.status, StatusCode::OK, "{site} {step}: {}", r.body);
            }
            ids.push(active_id(&b).await.expect("an application"));
        }
        let (plain, with_fields) = (owned(pool, ids[0]).await, owned(pool, ids[1]).await);
        assert_ne!(ids[1], victim_id);
        assert_eq!(with_fields, plain, "{site}: the fields changed nothing");
        let (row, data) = with_fields;
        let (agent, started_by) = match user {
            Some(_) => (acme, json!(maria)),
            None => (lakeshore, Value::Null),
        };
        assert_eq!(row["agent_id"], json!(agent), "{site}: {row}");
        assert_eq!(row["agent_started"], json!(user.is_some()), "{site}: {row}");
        assert_eq!(row["started_by_user_id"], started_by, "{site}: {row}");
        assert_eq!(row["submission_time"], Value::Null, "{site}: {row}");
        assert!(row["last_step"].as_i64().expect("step") < 10, "{row}");
        assert_eq!(data.get("submitted"), None, "{data}");
        for (step, _) in &steps {
            for key in [
                "id",
                "application_id",
                "agent_id",
                "role",
                "started_by",
                "owner",
            ] {
                assert_eq!(data[step].get(key), None, "{site} {step}.{key}: {data}");
            }
        }
    }

    // The application the fields named, and the users' roles, are untouched.
    let victim_after: String =
        sqlx::query_scalar("SELECT row_to_json(a)::text FROM applications a WHERE id = $1")
            .bind(victim_id)
            .fetch_one(pool)
            .await
            .expect("row");
    assert_eq!(victim_after, victim_before);
    let roles: Vec<String> =
        sqlx::query_scalar("SELECT role FROM users WHERE id = ANY($1) ORDER BY email")
            .bind(&[maria, daniel][..])
            .fetch_all(pool)
            .await
            .expect("roles");
    assert_eq!(roles, ["agent", "agent"]);
}
