//! The most important use cases called as a program calls them, without HTTP: saving a step,
//! the purchase, and publishing a rule set. What a test sets up beforehand may go through the
//! API; the act under test is the use case's function, and each refusal is its own error.

use serde_json::{Value, json};
use uuid::Uuid;

use enrollflow_server::app::applying::Handles;
use enrollflow_server::app::applying::open::{Caller, OpenError, StoreError};
use enrollflow_server::app::applying::save_step::{SaveError, SaveStep, StepSaved, save_step};
use enrollflow_server::app::rule_sets::publish::{self, Approver, PublishError};
use enrollflow_server::db::rule_sets::Publication;
use enrollflow_server::platform::clock::Clock;
use enrollflow_server::rules::governance::Actor;

use crate::governance::{ANALYST, APPROVER, person, propose_with, reworded, reworded_suites};
use crate::helpers::{TestApp, adult, at_medical, spawn_app, spawn_app_with};
use crate::purchase::{choose_plans, on_to_review_and_purchase, signatures};

/// A session of its own on acme, as a browser's first request makes it: its id hash.
async fn new_session(app: &TestApp) -> [u8; 32] {
    let hash: [u8; 32] = rand_hash();
    enrollflow_server::db::sessions::create(&app.pool, &hash, "csrf", app.clock.now())
        .await
        .expect("session");
    hash
}

fn rand_hash() -> [u8; 32] {
    let id = Uuid::new_v4();
    let mut hash = [0u8; 32];
    hash[..16].copy_from_slice(id.as_bytes());
    hash[16..].copy_from_slice(Uuid::new_v4().as_bytes());
    hash
}

/// The session's application, as the session's row names it.
async fn application_of(app: &TestApp, session: &[u8; 32]) -> Option<Uuid> {
    sqlx::query_scalar("SELECT application_id FROM sessions WHERE id_hash = $1")
        .bind(&session[..])
        .fetch_one(&app.pool)
        .await
        .expect("session row")
}

/// A consumer on acme, with their session's application if it has one, and a second of rule
/// time.
fn consumer(application_id: Option<Uuid>) -> Caller<'static> {
    Caller {
        subdomain: Some("acme"),
        user_id: None,
        application_id,
        seen: None,
        budget: enrollflow_server::rules::evaluation::budget(std::time::Duration::from_secs(1)),
    }
}

async fn save(
    app: &TestApp,
    session: &[u8; 32],
    step: &str,
    answers: Value,
    expected_revision: Option<i64>,
) -> Result<StepSaved, SaveError> {
    let application = application_of(app, session).await;
    save_step(
        &Handles::of(&app.state),
        SaveStep {
            caller: consumer(application),
            session,
            step,
            answers,
            expected_revision,
            languages: &[],
            address: None,
        },
    )
    .await
}

/// The application's stored document.
async fn stored(app: &TestApp, id: Uuid) -> (Value, i64) {
    sqlx::query_as::<_, (sqlx::types::Json<Value>, i64)>(
        "SELECT data, revision FROM applications WHERE id = $1",
    )
    .bind(id)
    .fetch_one(&app.pool)
    .await
    .map(|(d, r)| (d.0, r))
    .expect("application row")
}

#[tokio::test]
async fn saving_a_step_creates_the_application_then_stores_over_the_revision_it_was_read_at() {
    let app = spawn_app().await;
    let session = new_session(&app).await;

    // Not an agent's site, and a step the flow does not open yet.
    let mut nowhere = consumer(None);
    nowhere.subdomain = None;
    let r = save_step(
        &Handles::of(&app.state),
        SaveStep {
            caller: nowhere,
            session: &session,
            step: "whyApplying",
            answers: json!({ "enrollment_type": "oe" }),
            expected_revision: None,
            languages: &[],
            address: None,
        },
    )
    .await;
    assert!(
        matches!(r, Err(SaveError::Open(OpenError::NotASite))),
        "{r:?}"
    );
    let r = save(&app, &session, "census", json!({}), None).await;
    assert!(
        matches!(r, Err(SaveError::Open(OpenError::StepClosed))),
        "{r:?}"
    );
    assert_eq!(application_of(&app, &session).await, None);

    // The first save creates the application and binds the session to it.
    let first = save(
        &app,
        &session,
        "whyApplying",
        json!({ "enrollment_type": "oe" }),
        None,
    )
    .await
    .expect("saved");
    assert_eq!(first.next.id, "census");
    let id = first.application.id;
    assert_eq!(application_of(&app, &session).await, Some(id));
    let (data, revision) = stored(&app, id).await;
    assert_eq!(data["whyApplying"]["enrollment_type"], "oe", "{data}");
    assert_eq!(revision, first.application.revision);

    // Answers that are not an object, and answers the rules refuse: nothing is stored.
    let r = save(&app, &session, "census", json!([1]), Some(revision)).await;
    assert!(matches!(r, Err(SaveError::NotAnObject)), "{r:?}");
    let mut no_birth = adult("1990-01-01");
    no_birth["sub_birth_date"] = json!("");
    let r = save(&app, &session, "census", no_birth, Some(revision)).await;
    match r {
        Err(SaveError::Invalid(errors)) => {
            assert!(errors.contains_key("sub_birth_date"), "{errors:?}")
        }
        other => panic!("refused answers were answered {other:?}"),
    }
    assert_eq!(stored(&app, id).await, (data.clone(), revision));

    // Saved over the revision it was read at; a save against the older one is refused.
    let census = crate::helpers::consumer_census(adult("1990-01-01"));
    let second = save(&app, &session, "census", census.clone(), Some(revision))
        .await
        .expect("saved over its revision");
    assert_eq!(second.next.id, "medical");
    assert!(second.application.revision > revision);
    let (after, newest) = stored(&app, id).await;
    assert_eq!(after["census"]["sub_first_name"], "Ann", "{after}");
    let r = save(&app, &session, "census", census, Some(revision)).await;
    assert!(
        matches!(r, Err(SaveError::Store(StoreError::ChangedElsewhere))),
        "{r:?}"
    );
    assert_eq!(stored(&app, id).await, (after, newest));
}

#[tokio::test]
async fn the_purchase_stores_its_evidence_and_receipt_once_and_the_application_never_changes_after()
{
    let app = spawn_app().await;
    // The plans chosen through the API; the purchase itself through the use case.
    let b = app.browser("acme");
    let token = at_medical(&b, adult("1990-01-01")).await;
    choose_plans(&b, &token).await;
    on_to_review_and_purchase(&app).await;
    let session: Vec<u8> = sqlx::query_scalar("SELECT id_hash FROM sessions")
        .fetch_one(&app.pool)
        .await
        .expect("the browser's session");
    let session: [u8; 32] = session.try_into().expect("a SHA-256");

    let bought = save(&app, &session, "rap", signatures(), None)
        .await
        .expect("purchased");
    assert!(bought.application.submission_time.is_some());
    let id = bought.application.id;
    let (data, revision) = stored(&app, id).await;
    assert_eq!(data["submitted"], true, "{data}");
    let packets: i64 =
        sqlx::query_scalar("SELECT count(*) FROM evidence_packets WHERE application_id = $1")
            .bind(id)
            .fetch_one(&app.pool)
            .await
            .expect("packets");
    assert_eq!(packets, 1);
    let receipts = || async {
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM outbox")
            .fetch_one(&app.pool)
            .await
            .expect("outbox")
    };
    assert_eq!(receipts().await, 1, "the subscriber's receipt is queued");

    // Submitted: a second purchase and any other save are refused, and nothing changes.
    let again = save(&app, &session, "rap", signatures(), None).await;
    assert!(
        matches!(again, Err(SaveError::Store(StoreError::AlreadySubmitted))),
        "{again:?}"
    );
    let over_its_revision = save(
        &app,
        &session,
        "rap",
        signatures(),
        Some(bought.application.revision),
    )
    .await;
    assert!(
        matches!(
            over_its_revision,
            Err(SaveError::Store(StoreError::AlreadySubmitted))
        ),
        "{over_its_revision:?}"
    );
    assert_eq!(stored(&app, id).await, (data, revision));
    assert_eq!(receipts().await, 1);
}

/// Who approves, as the server's users table has them.
async fn approver<'a>(app: &TestApp, email: &'a str) -> Approver<'a> {
    let user = enrollflow_server::db::users::by_email(&app.pool, email)
        .await
        .expect("users")
        .expect("a seeded user");
    Approver {
        user_id: user.id,
        email,
        impersonator_id: None,
        may_approve: user.may_approve_rules(),
        actor: Actor {
            id: Some(user.id),
            address: None,
            request_id: None,
            client_request_id: None,
        },
    }
}

async fn approve(
    app: &TestApp,
    by: &Approver<'_>,
    id: i64,
    effective_from: Option<&str>,
) -> Result<Publication, PublishError> {
    let handles = publish::Handles {
        pool: &app.pool,
        now: app.clock.now(),
        rules: &app.rules,
        drafts: &app.state.drafts,
        serves_published: true,
    };
    publish::approve(&handles, by, id, effective_from).await
}

#[tokio::test]
async fn publishing_needs_another_person_with_the_permission_and_serves_the_set_at_once() {
    let app = spawn_app_with(|c| c.rules_from_database = true).await;
    let first = app
        .rules
        .status()
        .serving_set
        .clone()
        .expect("a set serves");
    let (analyst, csrf) = person(&app, ANALYST).await;
    let r = propose_with(
        &analyst,
        &csrf,
        reworded(),
        reworded_suites(),
        "Add the comma to About You's title",
    )
    .await;
    assert_eq!(r.status, reqwest::StatusCode::OK, "{}", r.body);
    let id = r.json()["proposal"]["id"].as_i64().expect("an id");

    let author = approver(&app, ANALYST).await;
    let r = approve(&app, &author, id, None).await;
    assert!(matches!(r, Err(PublishError::OwnProposal)), "{r:?}");
    let mut without = approver(&app, APPROVER).await;
    without.may_approve = false;
    let r = approve(&app, &without, id, None).await;
    assert!(matches!(r, Err(PublishError::NoPermission)), "{r:?}");
    let by = approver(&app, APPROVER).await;
    let r = approve(&app, &by, id, Some("next Tuesday")).await;
    assert!(matches!(r, Err(PublishError::NotATime)), "{r:?}");
    // An hour before the clock's 10:00 UTC (05:00 in Detroit).
    let r = approve(&app, &by, id, Some("2024-11-20T04:00")).await;
    assert!(matches!(r, Err(PublishError::TimePassed)), "{r:?}");
    assert_eq!(
        app.rules.status().serving_set.as_deref(),
        Some(first.as_str())
    );
    let r = approve(&app, &by, 999_999, None).await;
    assert!(matches!(r, Err(PublishError::NoSuchProposal)), "{r:?}");

    // Approved for now: published, audited, and serving here at once.
    let publication = approve(&app, &by, id, None).await.expect("published");
    assert_eq!(publication.approver.as_deref(), Some(APPROVER));
    assert_eq!(publication.author, ANALYST);
    assert_eq!(
        app.rules.status().serving_set.as_deref(),
        Some(publication.hash.as_str())
    );
    let actions: Vec<String> = sqlx::query_scalar(
        "SELECT action FROM audit_log WHERE action IN ('rules_approved', 'rules_published') \
         ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .expect("audit rows");
    assert_eq!(actions, ["rules_approved", "rules_published"]);

    // Decided once.
    let r = approve(&app, &by, id, None).await;
    assert!(matches!(r, Err(PublishError::Decided(_))), "{r:?}");
}
