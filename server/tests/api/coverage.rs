//! Doctors and drugs: the issuers' files in the CMS format loaded by the import (the CMS sample
//! files; demo files made by tools/coverage-demo), a malformed file refused with its line and
//! nothing loaded, an unchanged issuer skipped; the household's list stored with the application;
//! and each plan's answers equal to a reading of the files themselves.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use reqwest::StatusCode;
use serde_json::{Value, json};

use enrollflow_server::coverage::{self, Imported};

use crate::helpers::{adult, at_medical, put, spawn_app};

fn repo(p: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(p)
}

fn sample() -> PathBuf {
    repo("server/tests/fixtures/coverage/cms-sample")
}

async fn import(pool: &sqlx::PgPool, inputs: &[PathBuf]) -> Result<Vec<Imported>, String> {
    let issuers = coverage::gather(inputs).map_err(|e| e.to_string())?;
    coverage::import(pool, &issuers, time::OffsetDateTime::now_utc())
        .await
        .map_err(|e| e.to_string())
}

async fn count(pool: &sqlx::PgPool, table: &str) -> i64 {
    sqlx::query_scalar(&format!("SELECT count(*) FROM {table}"))
        .fetch_one(pool)
        .await
        .expect("a count")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for e in std::fs::read_dir(from).expect("the samples").flatten() {
        std::fs::copy(e.path(), to.join(e.file_name())).expect("a copy");
    }
}

#[tokio::test]
async fn the_cms_samples_load_once_and_a_malformed_file_is_refused_with_its_line_and_nothing_loaded()
 {
    let app = spawn_app().await;
    let loaded = import(&app.pool, &[sample()])
        .await
        .expect("the samples load");
    assert_eq!(
        loaded,
        vec![Imported::Loaded {
            issuer_id: "12345".into(),
            plans: 3,
            providers: 3,
            drugs: 2,
        }]
    );
    // Idempotent: the same files again change nothing.
    let again = import(&app.pool, &[sample()]).await.expect("again");
    assert_eq!(
        again,
        vec![Imported::Unchanged {
            issuer_id: "12345".into()
        }]
    );
    let providers = count(&app.pool, "providers").await;
    let networks = count(&app.pool, "provider_networks").await;
    let as_of: time::Date =
        sqlx::query_scalar("SELECT as_of FROM coverage_issuers WHERE issuer_id = '12345'")
            .fetch_one(&app.pool)
            .await
            .expect("an as-of date");

    // A copy whose plans changed (so it would load again) and whose provider file has an NPI of
    // nine digits on its line 3: refused, naming the file and the line; the database keeps
    // what it had.
    let dir = tempfile::tempdir().expect("a folder");
    let copy = dir.path().join("issuer");
    copy_dir(&sample(), &copy);
    let plans = std::fs::read_to_string(copy.join("plans.json")).expect("plans");
    std::fs::write(copy.join("plans.json"), plans.replacen("2019-", "2024-", 1)).expect("write");
    let providers_json = std::fs::read_to_string(copy.join("providers.json")).expect("providers");
    let broken = providers_json.replacen("\"1234567893\"", "\"123456789\"", 1);
    std::fs::write(copy.join("providers.json"), &broken).expect("write");
    let line = broken
        .lines()
        .position(|l| l.contains("\"123456789\""))
        .expect("the broken line")
        + 1;
    let err = import(&app.pool, std::slice::from_ref(&copy))
        .await
        .expect_err("refused");
    assert!(
        err.contains(&format!("providers.json:{}", line - 1))
            || err.contains(&format!("providers.json:{line}")),
        "{err}"
    );
    assert!(err.contains("123456789"), "{err}");
    assert_eq!(count(&app.pool, "providers").await, providers);
    assert_eq!(count(&app.pool, "provider_networks").await, networks);
    let still: time::Date =
        sqlx::query_scalar("SELECT as_of FROM coverage_issuers WHERE issuer_id = '12345'")
            .fetch_one(&app.pool)
            .await
            .expect("an as-of date");
    assert_eq!(still, as_of);

    // Not JSON at all: the line of the mistake.
    std::fs::write(
        copy.join("providers.json"),
        "[\n  {\"npi\": \"1234567893\",\n  oops\n]",
    )
    .expect("write");
    let err = import(&app.pool, &[copy]).await.expect_err("refused");
    assert!(err.contains("providers.json:3"), "{err}");
}

/// What the files say: by NPI the catalog plans whose networks have the provider, by RxNorm id
/// and catalog plan the drug's tier and limits.
struct Reading {
    networks: BTreeMap<String, BTreeSet<i64>>,
    formularies: BTreeMap<String, BTreeMap<i64, Listing>>,
}

/// A drug's tier, prior authorization, step therapy and quantity limit on a plan.
type Listing = (String, bool, bool, bool);

fn read_files(root: &Path) -> Reading {
    let mut r = Reading {
        networks: BTreeMap::new(),
        formularies: BTreeMap::new(),
    };
    let catalog_id = |hios: &str| hios[7..].parse::<i64>().expect("a plan id");
    for issuer in std::fs::read_dir(root).expect("issuers").flatten() {
        for f in std::fs::read_dir(issuer.path()).expect("files").flatten() {
            let name = f.file_name().to_string_lossy().to_string();
            let text = std::fs::read_to_string(f.path()).expect("a file");
            if name.starts_with("providers") {
                let list: Vec<Value> = serde_json::from_str(&text).expect("providers");
                for p in list {
                    let npi = p["npi"].as_str().expect("an npi").to_string();
                    for plan in p["plans"].as_array().expect("plans") {
                        r.networks
                            .entry(npi.clone())
                            .or_default()
                            .insert(catalog_id(plan["plan_id"].as_str().expect("id")));
                    }
                }
            } else if name.starts_with("drugs") {
                let list: Vec<Value> = serde_json::from_str(&text).expect("drugs");
                for d in list {
                    let id = d["rxnorm_id"].as_str().expect("an id").to_string();
                    for plan in d["plans"].as_array().expect("plans") {
                        let flag = |k: &str| plan[k].as_bool().unwrap_or(false);
                        r.formularies.entry(id.clone()).or_default().insert(
                            catalog_id(plan["plan_id"].as_str().expect("id")),
                            (
                                plan["drug_tier"].as_str().expect("a tier").to_string(),
                                flag("prior_authorization"),
                                flag("step_therapy"),
                                flag("quantity_limit"),
                            ),
                        );
                    }
                }
            }
        }
    }
    r
}

#[tokio::test]
async fn each_plans_doctors_and_drugs_equal_a_reading_of_the_files() {
    let app = spawn_app().await;
    let dir = tempfile::tempdir().expect("a folder");
    let out = dir.path().join("demo");
    let status = Command::new("python3")
        .arg(repo("tools/coverage-demo/generate.py"))
        .arg(&out)
        .args(["--providers", "600"])
        .status()
        .expect("python3 runs the generator");
    assert!(status.success());
    let loaded = import(&app.pool, std::slice::from_ref(&out))
        .await
        .expect("the demo files load");
    assert_eq!(loaded.len(), 4);
    let files = read_files(&out);

    let b = app.browser("acme");
    let token = at_medical(&b, adult("1984-06-15")).await;
    let quoted: Vec<i64> = b.get("/api/plans/1/allPlans").await.json()["plans"]
        .as_array()
        .expect("plans")
        .iter()
        .map(|p| p["id"].as_i64().expect("id"))
        .collect();

    // Doctors in many networks, in few and in none of the quoted plans; drugs likewise.
    let in_quoted = |plans: &BTreeSet<i64>| quoted.iter().filter(|p| plans.contains(p)).count();
    let mut npis: Vec<(&String, usize)> = files
        .networks
        .iter()
        .map(|(n, p)| (n, in_quoted(p)))
        .collect();
    npis.sort_by_key(|(n, c)| (*c, (*n).clone()));
    let doctors: Vec<String> = [0, npis.len() / 3, npis.len() / 2, npis.len() - 1]
        .iter()
        .map(|&i| npis[i].0.clone())
        .collect();
    let mut ids: Vec<(&String, usize)> = files
        .formularies
        .iter()
        .map(|(d, p)| (d, quoted.iter().filter(|q| p.contains_key(q)).count()))
        .collect();
    ids.sort_by_key(|(d, c)| (*c, (*d).clone()));
    let drugs: Vec<String> = [0, ids.len() / 2, ids.len() - 1]
        .iter()
        .map(|&i| ids[i].0.clone())
        .collect();

    let r = put(
        &b,
        &token,
        "/api/care",
        json!({ "uses": ["medium"], "doctors": doctors, "drugs": drugs }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    // The list is stored with the application, names and all.
    let care = b.get("/api/care").await.json();
    let listed: Vec<&str> = care["doctors"]
        .as_array()
        .expect("doctors")
        .iter()
        .map(|d| d["npi"].as_str().expect("npi"))
        .collect();
    assert_eq!(
        listed,
        doctors.iter().map(String::as_str).collect::<Vec<_>>()
    );
    assert!(
        care["drugs"][0]["name"]
            .as_str()
            .is_some_and(|n| !n.is_empty())
    );

    let cov = b.get("/api/plans/1/coverage").await;
    assert_eq!(cov.status, StatusCode::OK, "{}", cov.body);
    let cov = cov.json();
    let (mut doctor_pairs, mut drug_pairs) = (0, 0);
    for p in cov["plans"].as_array().expect("plans") {
        let plan = p["plan_id"].as_i64().expect("id");
        let mut all = true;
        for d in p["doctors"].as_array().expect("doctors") {
            let npi = d["npi"].as_str().expect("npi");
            let want = files.networks.get(npi).is_some_and(|s| s.contains(&plan));
            assert_eq!(d["covered"], want, "doctor {npi} in plan {plan}");
            all &= want;
            doctor_pairs += 1;
        }
        for d in p["drugs"].as_array().expect("drugs") {
            let id = d["rxnorm_id"].as_str().expect("id");
            match files.formularies.get(id).and_then(|f| f.get(&plan)) {
                Some((tier, pa, st, ql)) => {
                    assert_eq!(d["covered"], true, "drug {id} on plan {plan}");
                    assert_eq!(d["tier"], tier.as_str());
                    assert_eq!(d["prior_authorization"], *pa);
                    assert_eq!(d["step_therapy"], *st);
                    assert_eq!(d["quantity_limit"], *ql);
                }
                None => {
                    assert_eq!(d["covered"], false, "drug {id} on plan {plan}");
                    all = false;
                }
            }
            drug_pairs += 1;
        }
        // "Covers all" is every doctor and every drug, as the files say.
        assert_eq!(p["covers_all"], all, "plan {plan}");
    }
    assert!(
        doctor_pairs >= 50 && drug_pairs >= 50,
        "{doctor_pairs} and {drug_pairs} pairs"
    );
    assert!(
        !cov["as_of"].as_array().expect("as of").is_empty(),
        "each carrier's files' date is shown"
    );

    // The typeahead finds a provider by NPI and by a word of the name, a drug by a word.
    let first = &care["doctors"][0];
    let by_npi = b
        .get(&format!(
            "/api/coverage/providers?q={}",
            first["npi"].as_str().expect("npi")
        ))
        .await
        .json();
    assert_eq!(by_npi[0]["npi"], first["npi"]);
    let word = first["name"]
        .as_str()
        .expect("a name")
        .split_whitespace()
        .last()
        .expect("a word")
        .to_string();
    let by_name = b
        .get(&format!("/api/coverage/providers?q={word}"))
        .await
        .json();
    assert!(
        by_name
            .as_array()
            .is_some_and(|l| !l.is_empty() && l.len() <= 10)
    );
    assert!(by_name.as_array().expect("a list").iter().all(|p| {
        p["name"]
            .as_str()
            .unwrap_or("")
            .to_lowercase()
            .contains(&word.to_lowercase())
            || p["specialty"]
                .as_str()
                .unwrap_or("")
                .to_lowercase()
                .contains(&word.to_lowercase())
            || p["city"]
                .as_str()
                .unwrap_or("")
                .to_lowercase()
                .contains(&word.to_lowercase())
    }));
    let drug_word = care["drugs"][0]["name"]
        .as_str()
        .expect("a name")
        .split_whitespace()
        .next()
        .expect("a word")
        .to_string();
    let found = b
        .get(&format!("/api/coverage/drugs?q={drug_word}"))
        .await
        .json();
    assert!(found.as_array().is_some_and(|l| !l.is_empty()));

    // An NPI nobody lists is refused, and nothing changes.
    let r = put(
        &b,
        &token,
        "/api/care",
        json!({ "uses": ["medium"], "doctors": ["1000000004"], "drugs": [] }),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert_eq!(b.get("/api/care").await.json()["doctors"], care["doctors"]);
}

#[tokio::test]
async fn the_agents_more_info_shows_the_households_doctors_drugs_and_the_chosen_plans_yearly_estimate()
 {
    let app = spawn_app().await;
    import(&app.pool, &[sample()])
        .await
        .expect("the samples load");
    let b = app.browser("acme");
    let token = at_medical(&b, adult("1984-06-15")).await;
    let r = put(
        &b,
        &token,
        "/api/care",
        json!({ "uses": ["high"], "doctors": ["1234567893"], "drugs": ["209459"] }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let list = b.get("/api/plans/1/allPlans").await.json();
    let first = &list["plans"][0];
    let r = crate::helpers::select_plan(&b, &token, 1, first["id"].clone()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let id = b.get("/api/application/active").await.json()["application"]["applicationId"]
        .as_str()
        .expect("an application")
        .to_string();

    let agent = app.browser("acme");
    agent.logged_in_as(crate::helpers::ACME_USER).await;
    let info = agent
        .get(&format!("/api/dashboard/getAppInfo/{id}"))
        .await
        .json();
    let care = &info["care"];
    assert_eq!(care["uses"], json!(["high"]));
    assert_eq!(
        care["doctors"],
        json!(["Martin Van Nostrand (Dermatology, Oncology, New York)"])
    );
    // The name the files give the drug last (the samples name 209459 twice).
    let name: String = sqlx::query_scalar("SELECT name FROM drugs WHERE rxnorm_id = '209459'")
        .fetch_one(&app.pool)
        .await
        .expect("the drug");
    assert_eq!(care["drugs"], json!([name]));
    assert_eq!(care["medical_plan"], first["name"]);
    // The estimate as the household saw it when it chose the plan.
    assert_eq!(care["yearly_cost"], first["yearly_cost"]["total"]);
}
