use reqwest::StatusCode;

use crate::helpers::spawn_app;

#[tokio::test]
async fn an_agent_offering_blue_and_priority_is_supported_with_full_branding() {
    let app = spawn_app().await;
    let site = app.browser("acme").get("/api/site").await;
    assert_eq!(site.status, StatusCode::OK);
    let s = site.json();
    assert_eq!(s["subdomain"], "acme");
    assert_eq!(s["supported"], true);
    assert_eq!(s["demo"], false);
    assert_eq!(s["product_name"], "Enrollflow");
    assert_eq!(s["tool_owner"], "Enrollflow Technologies, LLC");
    let a = &s["agent"];
    assert_eq!(a["agency_name"], "Acme Insurance Agency");
    assert_eq!(a["phone_number"], "7345550142");
    assert_eq!(a["fax_number"], "7345550143");
    assert_eq!(a["npn"], "17439021");
    assert_eq!(a["subdomains"], serde_json::json!(["acme", "acmeins"]));
    assert_eq!(a["display_bcbsm"], true);
    assert_eq!(a["display_ph"], true);
    assert_eq!(a["websiteUrl"], "https://acme-insurance.example.com");
    assert_eq!(a["logo_url"], "/api/agent_logo/acme");
    assert_eq!(
        a["address"],
        "315 E. Eisenhower Pkwy, Suite 210<br>Ann Arbor, MI 48108"
    );
}

#[tokio::test]
async fn the_second_subdomain_names_the_same_agent() {
    let app = spawn_app().await;
    let s = app.browser("acmeins").get("/api/site").await.json();
    assert_eq!(s["agent"]["agency_name"], "Acme Insurance Agency");
}

#[tokio::test]
async fn each_landing_state_follows_the_agents_carriers() {
    let app = spawn_app().await;
    let priority_only = app.browser("lakeshore").get("/api/site").await.json();
    assert_eq!(priority_only["supported"], true);
    assert_eq!(priority_only["agent"]["display_bcbsm"], false);

    let neither = app.browser("northstar").get("/api/site").await.json();
    assert_eq!(neither["supported"], false);
    assert_eq!(
        neither["agent"]["agency_name"],
        "Northstar Financial Partners"
    );

    let demo = app.browser("demo").get("/api/site").await.json();
    assert_eq!(demo["supported"], true);
    assert_eq!(demo["demo"], true);

    let unknown = app.browser("nosuch").get("/api/site").await.json();
    assert_eq!(unknown["subdomain"], "nosuch");
    assert!(unknown["agent"].is_null());
    assert_eq!(unknown["supported"], false);
    assert_eq!(unknown["demo"], false);

    let bare = app.browser("").get("/api/site").await.json();
    assert!(bare["subdomain"].is_null());
    assert!(bare["agent"].is_null());
}

#[tokio::test]
async fn branding_by_subdomain_and_its_absence() {
    let app = spawn_app().await;
    let b = app.browser("");
    let r = b.get("/api/agent_branding/lakeshore").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["agent_name"], "Daniel Okafor");
    assert!(r.json()["fax_number"].is_null());
    let r = b.get("/api/agent_branding/nosuch").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(r.json()["error"], "Failed to fetch agent branding");
}

#[tokio::test]
async fn address_lines_are_served_as_escaped_html() {
    let app = spawn_app().await;
    sqlx::query(
        "UPDATE agents SET address_lines = ARRAY['<script>x</script>', 'A & B'] WHERE npn = '17439021'",
    )
    .execute(&app.pool)
    .await
    .expect("update");
    app.settle().await;
    let a = app
        .browser("acme")
        .get("/api/agent_branding/acme")
        .await
        .json();
    assert_eq!(a["address"], "&lt;script&gt;x&lt;/script&gt;<br>A &amp; B");
}

#[tokio::test]
async fn each_agent_logo_is_served_per_subdomain_as_a_sandboxed_image() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let r = b.get("/api/agent_logo/acme").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.header("content-type"), "image/svg+xml");
    assert!(r.body.contains("Acme Insurance"));
    assert!(r.header("content-security-policy").contains("sandbox"));
    let r = b.get("/api/agent_logo/lakeshore").await;
    assert!(r.body.contains("Lakeshore"));
    assert_eq!(
        b.get("/api/agent_logo/nosuch").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn legal_texts_name_the_tool_owner_and_cover_the_required_themes() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let terms = b.get("/api/legal/terms").await.json();
    assert_eq!(terms["title"], "Terms of Use");
    let html = terms["html"].as_str().expect("html");
    for theme in [
        "Enrollflow Technologies, LLC",
        "Great Lakes General Agency, Inc.",
        "licensed insurance agents",
        "Ownership of site content",
        "No warranty",
        "Limitation of liability",
        "Indemnification",
        "one (1) year",
        "State of Michigan",
        "Electronic signatures",
    ] {
        assert!(html.contains(theme), "terms lack `{theme}`");
    }
    let privacy = b.get("/api/legal/privacy").await.json();
    assert_eq!(privacy["title"], "Privacy Policy");
    assert!(
        privacy["html"]
            .as_str()
            .expect("html")
            .contains("Social Security numbers are encrypted")
    );
    assert_eq!(
        b.get("/api/legal/cookies").await.status,
        StatusCode::NOT_FOUND
    );
}
