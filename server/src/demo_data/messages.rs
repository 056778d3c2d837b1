//! The demo's agent messages (fixed ids, so loading twice adds none).

use crate::db::PgPool;
use time::{Date, Duration, Time};
use uuid::Uuid;

use crate::db::demo_data::{self as store, DemoAgent};

/// The demo messages: fixed ids, so loading twice adds nothing.
struct DemoMessage {
    id: u128,
    title: &'static str,
    content: &'static str,
    sticky: bool,
    /// Days before today.
    published: i64,
    /// Days after today.
    expires: Option<i64>,
    code: Option<&'static str>,
}

const MESSAGES: &[DemoMessage] = &[
    DemoMessage {
        id: 0x0de0_0000_0000_4000_8000_0000_0000_0001,
        title: "Welcome to your agent dashboard",
        content: "<p>Your quotes and submissions are in the <strong>Quoting</strong> and \
                  <strong>Submissions</strong> lists on the left. Questions? Write to \
                  <a href=\"mailto:support@enrollflow.example.com\">support@enrollflow.example.com</a>.</p>",
        sticky: true,
        published: 30,
        expires: None,
        code: Some("WELCOME"),
    },
    DemoMessage {
        id: 0x0de0_0000_0000_4000_8000_0000_0000_0002,
        title: "Open Enrollment is under way",
        content: "<p>Open Enrollment runs until <strong>January 15</strong>. Applications made by \
                  December 15 take effect on January 1.</p>",
        sticky: false,
        published: 19,
        expires: Some(56),
        code: Some("OEP"),
    },
    DemoMessage {
        id: 0x0de0_0000_0000_4000_8000_0000_0000_0003,
        title: "New dental and vision plans",
        content: "<p>Next year's dental and vision plans are in the catalog: quote them together \
                  with medical for a single application.</p>",
        sticky: false,
        published: 3,
        expires: None,
        code: None,
    },
];

pub(super) async fn messages(
    pool: &PgPool,
    agents: &[DemoAgent],
    today: Date,
) -> anyhow::Result<u64> {
    let admin = store::first_admin(pool).await?;
    let agent_ids: Vec<Uuid> = agents.iter().map(|a| a.id).collect();
    let mut created = 0;
    let mut tx = pool.begin().await?;
    for m in MESSAGES {
        let id = Uuid::from_u128(m.id);
        let publish = today - Duration::days(m.published);
        created += store::insert_message(
            &mut tx,
            &store::NewMessage {
                id,
                title: m.title,
                content: m.content,
                sticky: m.sticky,
                publish_date: publish,
                expires: m.expires.map(|d| today + Duration::days(d)),
                code: m.code,
                created_at: publish
                    .with_time(Time::from_hms(9, 0, 0).unwrap_or(Time::MIDNIGHT))
                    .assume_utc(),
                created_by: admin,
            },
            &agent_ids,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(created)
}
