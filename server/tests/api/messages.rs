//! Agent messages: the admin writes and targets them, HTML is
//! sanitized on save and when served, agents see their current ones, dismiss the others, and
//! find dismissed and expired ones among the recent notifications.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::helpers::{ACME_USER, ADMIN_USER, Browser, LAKESHORE_USER, spawn_app};

async fn agent_ids(b: &Browser<'_>) -> (String, String) {
    let list = b.get("/api/admin/agentList").await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.body);
    let list = list.json();
    let id = |npn: &str| {
        list.as_array()
            .expect("agents")
            .iter()
            .find(|a| a["npn"] == npn)
            .map(|a| a["id"].as_str().expect("id").to_string())
            .expect("agent")
    };
    (id("17439021"), id("18820457"))
}

async fn save(b: &Browser<'_>, token: &str, body: Value) -> crate::helpers::Reply {
    b.call(Method::PUT, "/api/admin/manageMessage", token, &body)
        .await
}

fn titles(v: &Value) -> Vec<String> {
    v["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["title"].as_str().expect("title").to_string())
        .collect()
}

#[tokio::test]
async fn an_admin_targets_messages_and_agents_see_and_dismiss_them() {
    let app = spawn_app().await;
    let admin = app.browser("acme");
    let token = admin.logged_in_as(ADMIN_USER).await;
    let (acme, lakeshore) = agent_ids(&admin).await;
    let list = admin.get("/api/admin/agentList").await.json();
    let maria = list
        .as_array()
        .expect("agents")
        .iter()
        .find(|a| a["npn"] == "17439021")
        .expect("maria")
        .clone();
    assert_eq!(
        (&maria["first_name"], &maria["last_name"]),
        (&json!("Maria"), &json!("Alvarez"))
    );
    assert_eq!(maria["email"], "maria.alvarez@acme-insurance.example.com");

    // A sticky message for Acme only, with a script in it; a plain one for both.
    let r = save(
        &admin,
        &token,
        json!({
            "title": "  Rate filing  ", "publish_date": "2024-11-18", "code": " RF1 ",
            "content": "<p>New <b>rates</b></p><script>alert('x')</script><img src=x onerror=alert(1)>",
            "is_sticky": true, "agents": [acme],
        }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let sticky = r.json()["message"].clone();
    assert_eq!(sticky["title"], "Rate filing");
    assert_eq!(sticky["code"], "RF1");
    assert_eq!(sticky["created_at_formatted"], "11/20/2024");
    assert_eq!(sticky["agents"], json!([acme]));
    let stored: String = sqlx::query_scalar("SELECT content FROM agent_messages WHERE id = $1")
        .bind(Uuid::parse_str(sticky["id"].as_str().expect("id")).expect("uuid"))
        .fetch_one(&app.pool)
        .await
        .expect("stored");
    assert!(
        !stored.contains("<script") && !stored.contains("onerror"),
        "{stored}"
    );
    assert!(stored.contains("<b>rates</b>"), "{stored}");

    let r = save(
        &admin,
        &token,
        json!({ "title": "Webinar", "publish_date": "2024-11-19", "content": "Join us",
                "is_sticky": false, "agents": [acme, lakeshore] }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let plain = r.json()["message"].clone();
    // Not yet published; and one that has expired.
    for (title, publish, expires) in [
        ("Next week", "2024-11-27", None),
        ("Old news", "2024-11-01", Some("2024-11-10")),
    ] {
        let r = save(
            &admin,
            &token,
            json!({ "title": title, "publish_date": publish, "expiration_date": expires,
                    "content": "x", "agents": [acme] }),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    }
    let all = admin.get("/api/admin/messageList").await;
    assert_eq!(all.status, StatusCode::OK, "{}", all.body);
    assert_eq!(titles(&all.json()).len(), 4);

    // Acme's agent: the two current ones, newest publish date first, no script.
    let a = app.browser("acme");
    let at = a.logged_in_as(ACME_USER).await;
    let current = a.get("/api/dashboard/getMessages").await;
    assert_eq!(current.status, StatusCode::OK, "{}", current.body);
    let current = current.json();
    assert_eq!(titles(&current), ["Webinar", "Rate filing"]);
    assert!(!current.to_string().contains("script"), "{current}");
    assert_eq!(
        titles(&a.get("/api/dashboard/getOldMessages").await.json()),
        ["Old news"]
    );

    // The sticky one cannot be dismissed; the other can, and stays dismissed.
    let dismiss =
        |id: &Value| format!("/api/dashboard/dismissMessage/{}", id.as_str().expect("id"));
    let r = a
        .call(Method::PUT, &dismiss(&sticky["id"]), &at, &json!({}))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    let r = a
        .call(Method::PUT, &dismiss(&plain["id"]), &at, &json!({}))
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.body);
    let again = app.browser("acme");
    again.logged_in_as(ACME_USER).await;
    assert_eq!(
        titles(&again.get("/api/dashboard/getMessages").await.json()),
        ["Rate filing"]
    );
    let old = again.get("/api/dashboard/getOldMessages").await.json();
    assert_eq!(titles(&old), ["Webinar", "Old news"]);
    assert_eq!(old["messages"][0]["dismissed"], true);

    // Lakeshore sees only the plain one, still not dismissed for them; Acme's sticky id is not theirs.
    let l = app.browser("lakeshore");
    let lt = l.logged_in_as(LAKESHORE_USER).await;
    assert_eq!(
        titles(&l.get("/api/dashboard/getMessages").await.json()),
        ["Webinar"]
    );
    let r = l
        .call(Method::PUT, &dismiss(&sticky["id"]), &lt, &json!({}))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);

    // The admin (not acting as an agent) has no notifications of their own.
    assert_eq!(
        admin.get("/api/dashboard/getMessages").await.status,
        StatusCode::FORBIDDEN
    );

    // Editing keeps the id and retargets; deleting removes it from every list.
    let mut edit = plain.clone();
    edit["title"] = json!("Webinar moved");
    edit["agents"] = json!([lakeshore]);
    let r = save(&admin, &token, edit).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["message"]["id"], plain["id"]);
    assert_eq!(
        titles(&l.get("/api/dashboard/getMessages").await.json()),
        ["Webinar moved"]
    );
    let del = format!(
        "/api/admin/manageMessage/{}",
        plain["id"].as_str().expect("id")
    );
    let r = admin.call(Method::POST, &del, &token, &json!({})).await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.body);
    let r = admin.call(Method::POST, &del, &token, &json!({})).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    assert!(titles(&l.get("/api/dashboard/getMessages").await.json()).is_empty());
}

#[tokio::test]
async fn the_message_form_answers_its_errors_by_field() {
    let app = spawn_app().await;
    let admin = app.browser("acme");
    let token = admin.logged_in_as(ADMIN_USER).await;
    let r = save(
        &admin,
        &token,
        json!({ "title": "   ", "content": "<script>only</script>", "agents": [] }),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    let errors = r.json()["errors"].clone();
    for key in ["title", "publish_date", "content"] {
        assert!(errors[key].is_array(), "{key}: {errors}");
    }
    let r = save(
        &admin,
        &token,
        json!({ "title": "T", "publish_date": "2024-11-20", "expiration_date": "2024-11-01",
                "content": "c", "agents": [Uuid::new_v4()] }),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.json()["errors"]["expiration_date"].is_array(),
        "{}",
        r.body
    );
    let r = save(
        &admin,
        &token,
        json!({ "title": "T", "publish_date": "2024-11-20", "content": "c",
                "agents": [Uuid::new_v4()] }),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.json()["errors"]["agents"].is_array(), "{}", r.body);
    let r = save(
        &admin,
        &token,
        json!({ "id": Uuid::new_v4(), "title": "T", "publish_date": "2024-11-20", "content": "c" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    let none: i64 = sqlx::query_scalar("SELECT count(*) FROM agent_messages")
        .fetch_one(&app.pool)
        .await
        .expect("count");
    assert_eq!(none, 0);
}
