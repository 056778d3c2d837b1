//! The consumer's language: the server answers the forms' and rules' texts in the
//! language the browser asks for (the `enrollflow_lang` cookie, else `Accept-Language`), from the
//! rule set's catalogs (`forms/locales/es.yaml`, `rules/locales/es.yaml`), and English otherwise.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{Browser, at_medical, consumer_census, family, in_open_enrollment, spawn_app};

const SPANISH: (&str, &str) = ("accept-language", "es-MX,es;q=0.9,en;q=0.5");

/// A change as the web app sends it (JSON, the CSRF token), asked in Spanish.
async fn send_in_spanish(
    b: &Browser<'_>,
    method: Method,
    path: &str,
    token: &str,
    body: &Value,
) -> crate::helpers::Reply {
    let headers = [
        ("x-csrf-token", token.to_string()),
        ("origin", b.origin()),
        ("content-type", "application/json".to_string()),
        (SPANISH.0, SPANISH.1.to_string()),
    ];
    b.send(method, path, &headers, Some(body.to_string().into_bytes()))
        .await
}

async fn get_in(b: &Browser<'_>, path: &str, header: (&str, &str)) -> Value {
    let r = b
        .send(Method::GET, path, &[(header.0, header.1.to_string())], None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{path}: {}", r.body);
    r.json()
}

#[tokio::test]
async fn a_step_its_flow_and_its_errors_come_in_the_language_the_browser_asks_for() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;

    // Accept-Language: the step's title, its fields' titles and the flow's labels in Spanish.
    let view = get_in(&b, "/api/application/step/whyApplying", SPANISH).await;
    assert_eq!(
        view["step"]["title"], "¿Por qué presenta la solicitud?",
        "{view}"
    );
    let flow = get_in(&b, "/api/flow", SPANISH).await;
    let census = flow["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .find(|s| s["id"] == "census")
        .expect("census")
        .clone();
    assert_ne!(census["nav"], "About You", "{census}");
    // The same call in English, for a language the rules do not speak, and with the cookie the
    // web app writes (it wins over the header).
    for header in [
        ("accept-language", "en-US"),
        ("accept-language", "fr-FR"),
        ("cookie", "enrollflow_lang=en"),
    ] {
        let view = get_in(&b, "/api/application/step/whyApplying", header).await;
        assert_eq!(view["step"]["title"], "Why Are You Applying?", "{header:?}");
    }

    // A refused save: the engine's messages with the field's title, both in Spanish.
    in_open_enrollment(&b, &token).await;
    let mut census = consumer_census(family());
    census["sub_first_name"] = Value::Null;
    let r = send_in_spanish(
        &b,
        Method::PUT,
        "/api/application/step/census",
        &token,
        &census,
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert_eq!(
        r.json()["errors"]["sub_first_name"],
        json!(["El campo Nombre es obligatorio."]),
        "{}",
        r.body
    );
}

#[tokio::test]
async fn plan_lists_name_members_and_metal_levels_in_spanish_and_keep_plan_names() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    at_medical(&b, family()).await;
    let english = get_in(&b, "/api/plans/1/allPlans", ("accept-language", "en")).await;
    let spanish = get_in(&b, "/api/plans/1/allPlans", SPANISH).await;
    let (en, es) = (&english["plans"][0], &spanish["plans"][0]);
    assert_eq!(en["name"], es["name"], "plan names stay as published");
    assert_eq!(en["carrier_name"], es["carrier_name"]);
    let members = |p: &Value| -> Vec<String> {
        p["rates"]["members"]
            .as_array()
            .expect("members")
            .iter()
            .map(|m| m["member"].as_str().expect("member").to_string())
            .collect()
    };
    assert_eq!(members(en)[..3], ["Subscriber", "Spouse", "Dependent 1"]);
    assert_eq!(members(es)[..3], ["Suscriptor", "Cónyuge", "Dependiente 1"]);
    // The figures are the same whatever the language.
    assert_eq!(en["rates"]["total"], es["rates"]["total"]);

    let metals = get_in(&b, "/api/plans/1/metals", SPANISH).await;
    let names: Vec<&str> = metals
        .as_array()
        .expect("metals")
        .iter()
        .filter_map(|m| m["name"].as_str())
        .collect();
    assert!(names.contains(&"Plata"), "{metals}");
    assert!(!names.contains(&"Silver"), "{metals}");
}

#[tokio::test]
async fn the_legal_texts_come_in_the_language_asked_for() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let spanish = get_in(&b, "/api/legal/terms", SPANISH).await;
    assert_eq!(spanish["title"], "Términos de uso");
    assert!(
        spanish["html"]
            .as_str()
            .expect("html")
            .contains("Estos Términos de uso rigen"),
        "{spanish}"
    );
    let english = get_in(&b, "/api/legal/privacy", ("accept-language", "en")).await;
    assert_eq!(english["title"], "Privacy Policy");
}

#[tokio::test]
async fn the_resume_link_and_the_receipt_are_written_in_the_consumers_language() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = crate::purchase::at_subscriber_information(&b).await;
    let r = send_in_spanish(
        &b,
        Method::POST,
        "/api/application/saveForLater",
        &token,
        &json!({ "email": "ann@example.com" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let mails = crate::helpers::wait_for_mails(&app.pool, "ann@example.com", 1).await;
    let (subject, body) = &mails[0];
    assert_eq!(subject, "Termine su solicitud de cobertura médica");
    // The link's last day in Spanish words (today is 2024-11-20 on the test clock; 14 days).
    assert!(body.contains("de diciembre de 2024"), "{body}");

    // The purchase in Spanish: the receipt is Spanish, plan kinds and the start date included.
    crate::purchase::give_subscriber_information(&b, &token).await;
    sqlx::query("UPDATE applications SET data = data || '{\"last_step\": 10}'::jsonb")
        .execute(&app.pool)
        .await
        .expect("advance");
    app.settle().await;
    let signatures = crate::purchase::signatures();
    let r = send_in_spanish(
        &b,
        Method::PUT,
        "/api/application/step/rap",
        &token,
        &signatures,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let mails = crate::helpers::wait_for_mails(&app.pool, "ann@example.com", 2).await;
    let (subject, body) = &mails[1];
    assert!(
        !subject.is_empty() && subject != "Your application has been submitted",
        "{subject}"
    );
    assert!(body.contains("1 de enero de 2025"), "{body}");
    assert!(body.contains("- Médico:"), "{body}");
    assert!(!body.contains("Medical"), "{body}");
}

#[tokio::test]
async fn the_servers_refusals_come_in_the_consumers_language() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    // A link that is no link: the resume page's refusal.
    let r = send_in_spanish(
        &b,
        Method::POST,
        "/api/application/resume",
        &token,
        &json!({ "token": "not-a-token" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    assert_eq!(
        r.json()["error"],
        "Este enlace no es válido. Compruebe que lo copió completo del correo electrónico o vuelva a guardar su solicitud."
    );
    // The plans before About You: the step guard's refusal.
    in_open_enrollment(&b, &token).await;
    let r = b
        .send(
            Method::GET,
            "/api/plans/1/allPlans",
            &[(SPANISH.0, SPANISH.1.to_string())],
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert_eq!(r.json()["error"], "No tiene permiso para hacer eso.");
    // The same refusal in English for an English browser.
    let r = b.get("/api/plans/1/allPlans").await;
    assert_eq!(r.json()["error"], "You are not allowed to do that.");
}

#[tokio::test]
async fn what_changed_since_a_resume_link_was_sent_is_said_in_spanish() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = crate::purchase::at_subscriber_information(&b).await;
    let link = crate::resume::saved_link(&app, &b, &token, 1).await;
    let dental = crate::resume::plans_changed_since_the_link(&app).await;
    let name = dental["name"].as_str().expect("dental").to_string();

    let other = app.browser("acme");
    let csrf = other.start_session().await;
    let r = send_in_spanish(
        &other,
        Method::POST,
        "/api/application/resume",
        &csrf,
        &json!({ "token": link }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let changes: Vec<String> = serde_json::from_value(r.json()["changes"].clone()).expect("list");
    assert!(
        changes.iter().any(
            |c| c.starts_with(&format!("La prima mensual de {name} ahora es"))
                && c.ends_with("(antes era $1.00).")
        ),
        "{changes:?}"
    );
    assert!(
        changes
            .iter()
            .any(|c| c.ends_with("ya no se ofrece para su hogar: elija otro plan (visión).")),
        "{changes:?}"
    );
}
