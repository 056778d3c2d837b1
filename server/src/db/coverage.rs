//! The doctors-and-drugs tables (migration 36): each issuer's plans, networks and formulary as its
//! files give them, replaced whole in one transaction; the typeahead's searches; which plans cover
//! a household's doctors and drugs.

use serde_json::Value;
use sqlx::{PgPool, Postgres, QueryBuilder, Transaction};
use time::{Date, OffsetDateTime};

/// A plan of an issuer's files.
#[derive(Debug, Clone)]
pub struct PlanRow {
    pub hios_plan_id: String,
    /// The catalog's plan id: the HIOS id's last seven digits.
    pub plan_id: i64,
    pub marketing_name: String,
    pub years: Vec<i32>,
    pub network_tiers: Vec<String>,
    pub formulary: Value,
}

/// A provider, with the issuer's plans whose networks have them and in which tiers.
#[derive(Debug, Clone)]
pub struct ProviderRow {
    pub npi: String,
    pub kind: &'static str,
    pub name: String,
    pub specialty: Option<String>,
    pub city: Option<String>,
    pub networks: Vec<(String, Vec<String>)>,
}

/// A drug, with the issuer's plans whose formularies list it.
#[derive(Debug, Clone)]
pub struct DrugRow {
    pub rxnorm_id: String,
    pub name: String,
    pub plans: Vec<DrugPlan>,
}

#[derive(Debug, Clone)]
pub struct DrugPlan {
    pub plan: String,
    pub tier: String,
    pub prior_authorization: bool,
    pub step_therapy: bool,
    pub quantity_limit: bool,
}

/// One issuer's files, read and checked.
#[derive(Debug, Clone)]
pub struct IssuerData {
    pub issuer_id: String,
    pub as_of: Date,
    pub plans: Vec<PlanRow>,
    pub providers: Vec<ProviderRow>,
    pub drugs: Vec<DrugRow>,
}

/// The issuer whose files, as last imported, have this digest.
pub async fn issuer_with_digest(pool: &PgPool, digest: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("SELECT issuer_id FROM coverage_issuers WHERE files_digest = $1")
        .bind(digest)
        .fetch_optional(pool)
        .await
}

/// Rows sent to the database per statement.
const BATCH: usize = 5_000;

fn search_text(parts: &[Option<&str>]) -> String {
    parts
        .iter()
        .flatten()
        .map(|s| s.to_lowercase())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Replaces the issuer's plans, networks and formulary with `data`, in the transaction `tx`.
pub async fn replace_issuer(
    tx: &mut Transaction<'_, Postgres>,
    data: &IssuerData,
    digest: &str,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM coverage_issuers WHERE issuer_id = $1")
        .bind(&data.issuer_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "INSERT INTO coverage_issuers (issuer_id, as_of, files_digest, imported_at)
         VALUES ($1, $2, $3, $4)",
    )
    .bind(&data.issuer_id)
    .bind(data.as_of)
    .bind(digest)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    for chunk in data.plans.chunks(BATCH) {
        let mut q = QueryBuilder::<Postgres>::new(
            "INSERT INTO coverage_plans (hios_plan_id, issuer_id, plan_id, marketing_name, years, \
             network_tiers, formulary) ",
        );
        q.push_values(chunk, |mut b, p| {
            b.push_bind(&p.hios_plan_id)
                .push_bind(&data.issuer_id)
                .push_bind(p.plan_id)
                .push_bind(&p.marketing_name)
                .push_bind(&p.years)
                .push_bind(&p.network_tiers)
                .push_bind(&p.formulary);
        });
        q.build().execute(&mut **tx).await?;
    }
    for chunk in data.providers.chunks(BATCH) {
        let npis: Vec<&str> = chunk.iter().map(|p| p.npi.as_str()).collect();
        let kinds: Vec<&str> = chunk.iter().map(|p| p.kind).collect();
        let names: Vec<&str> = chunk.iter().map(|p| p.name.as_str()).collect();
        let specialties: Vec<Option<&str>> = chunk.iter().map(|p| p.specialty.as_deref()).collect();
        let cities: Vec<Option<&str>> = chunk.iter().map(|p| p.city.as_deref()).collect();
        let searches: Vec<String> = chunk
            .iter()
            .map(|p| {
                search_text(&[
                    Some(p.npi.as_str()),
                    Some(p.name.as_str()),
                    p.specialty.as_deref(),
                    p.city.as_deref(),
                ])
            })
            .collect();
        sqlx::query(
            "INSERT INTO providers (npi, kind, name, specialty, city, search)
             SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
             ON CONFLICT (npi) DO UPDATE SET kind = EXCLUDED.kind, name = EXCLUDED.name,
               specialty = EXCLUDED.specialty, city = EXCLUDED.city, search = EXCLUDED.search",
        )
        .bind(&npis)
        .bind(&kinds)
        .bind(&names)
        .bind(&specialties)
        .bind(&cities)
        .bind(&searches)
        .execute(&mut **tx)
        .await?;
    }
    // Networks: one row per provider and plan, its tiers as a comma-joined list (arrays of arrays
    // do not travel through UNNEST).
    let rows: Vec<(&str, &str, String)> = data
        .providers
        .iter()
        .flat_map(|p| {
            p.networks
                .iter()
                .map(move |(plan, tiers)| (p.npi.as_str(), plan.as_str(), tiers.join("\u{1f}")))
        })
        .collect();
    for chunk in rows.chunks(BATCH * 4) {
        let npis: Vec<&str> = chunk.iter().map(|r| r.0).collect();
        let plans: Vec<&str> = chunk.iter().map(|r| r.1).collect();
        let tiers: Vec<&str> = chunk.iter().map(|r| r.2.as_str()).collect();
        sqlx::query(
            "INSERT INTO provider_networks (npi, hios_plan_id, network_tiers)
             SELECT n, p, string_to_array(t, E'\\x1f') FROM UNNEST($1::text[], $2::text[], $3::text[]) AS u(n, p, t)",
        )
        .bind(&npis)
        .bind(&plans)
        .bind(&tiers)
        .execute(&mut **tx)
        .await?;
    }
    for chunk in data.drugs.chunks(BATCH) {
        let ids: Vec<&str> = chunk.iter().map(|d| d.rxnorm_id.as_str()).collect();
        let names: Vec<&str> = chunk.iter().map(|d| d.name.as_str()).collect();
        let searches: Vec<String> = chunk
            .iter()
            .map(|d| search_text(&[Some(d.name.as_str())]))
            .collect();
        sqlx::query(
            "INSERT INTO drugs (rxnorm_id, name, search)
             SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[])
             ON CONFLICT (rxnorm_id) DO UPDATE SET name = EXCLUDED.name, search = EXCLUDED.search",
        )
        .bind(&ids)
        .bind(&names)
        .bind(&searches)
        .execute(&mut **tx)
        .await?;
    }
    let rows: Vec<(&str, &DrugPlan)> = data
        .drugs
        .iter()
        .flat_map(|d| d.plans.iter().map(move |p| (d.rxnorm_id.as_str(), p)))
        .collect();
    for chunk in rows.chunks(BATCH * 4) {
        let ids: Vec<&str> = chunk.iter().map(|r| r.0).collect();
        let plans: Vec<&str> = chunk.iter().map(|r| r.1.plan.as_str()).collect();
        let tiers: Vec<&str> = chunk.iter().map(|r| r.1.tier.as_str()).collect();
        let pa: Vec<bool> = chunk.iter().map(|r| r.1.prior_authorization).collect();
        let st: Vec<bool> = chunk.iter().map(|r| r.1.step_therapy).collect();
        let ql: Vec<bool> = chunk.iter().map(|r| r.1.quantity_limit).collect();
        sqlx::query(
            "INSERT INTO drug_coverage (rxnorm_id, hios_plan_id, drug_tier, prior_authorization,
               step_therapy, quantity_limit)
             SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[], $4::bool[], $5::bool[], $6::bool[])",
        )
        .bind(&ids)
        .bind(&plans)
        .bind(&tiers)
        .bind(&pa)
        .bind(&st)
        .bind(&ql)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Providers and drugs no issuer lists any more.
pub async fn drop_unlisted(tx: &mut Transaction<'_, Postgres>) -> sqlx::Result<()> {
    sqlx::query(
        "DELETE FROM providers p WHERE NOT EXISTS
           (SELECT 1 FROM provider_networks n WHERE n.npi = p.npi)",
    )
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "DELETE FROM drugs d WHERE NOT EXISTS
           (SELECT 1 FROM drug_coverage c WHERE c.rxnorm_id = d.rxnorm_id)",
    )
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A provider as the typeahead and the household's list show it.
#[derive(Debug, Clone, sqlx::FromRow, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct Provider {
    pub npi: String,
    pub name: String,
    pub specialty: Option<String>,
    pub city: Option<String>,
    pub kind: String,
}

/// A drug as the typeahead and the household's list show it.
#[derive(Debug, Clone, sqlx::FromRow, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct Drug {
    pub rxnorm_id: String,
    pub name: String,
}

/// `%word%` patterns of a search's words (LIKE's own characters escaped).
fn patterns(q: &str) -> Vec<String> {
    q.split_whitespace()
        .take(5)
        .map(|w| {
            let w = w
                .to_lowercase()
                .replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_");
            format!("%{w}%")
        })
        .collect()
}

/// A search of `table` (`providers` or `drugs`): every word of `q` in its `search` text (each
/// word its own condition, so the trigram index answers), names starting with the first word
/// first; at most `limit`.
fn search_query<'q>(
    columns: &str,
    table: &str,
    key: &str,
    q: &str,
    limit: i64,
) -> Option<QueryBuilder<'q, Postgres>> {
    let words = patterns(q);
    let first = words.first()?.trim_start_matches('%').to_string();
    let mut b = QueryBuilder::<Postgres>::new(format!("SELECT {columns} FROM {table} WHERE true"));
    for w in words {
        b.push(" AND search LIKE ").push_bind(w);
    }
    b.push(" ORDER BY (lower(name) LIKE ")
        .push_bind(first)
        .push(") DESC, name, ");
    b.push(key).push(" LIMIT ").push_bind(limit);
    Some(b)
}

/// Providers whose name, specialty, city or NPI hold every word of `q`.
pub async fn search_providers(pool: &PgPool, q: &str, limit: i64) -> sqlx::Result<Vec<Provider>> {
    let Some(mut b) = search_query(
        "npi, name, specialty, city, kind",
        "providers",
        "npi",
        q,
        limit,
    ) else {
        return Ok(Vec::new());
    };
    b.build_query_as().fetch_all(pool).await
}

/// Drugs whose name holds every word of `q`.
pub async fn search_drugs(pool: &PgPool, q: &str, limit: i64) -> sqlx::Result<Vec<Drug>> {
    let Some(mut b) = search_query("rxnorm_id, name", "drugs", "rxnorm_id", q, limit) else {
        return Ok(Vec::new());
    };
    b.build_query_as().fetch_all(pool).await
}

pub async fn providers_by_npi(pool: &PgPool, npis: &[String]) -> sqlx::Result<Vec<Provider>> {
    sqlx::query_as(
        "SELECT npi, name, specialty, city, kind FROM providers WHERE npi = ANY($1::text[])",
    )
    .bind(npis)
    .fetch_all(pool)
    .await
}

pub async fn drugs_by_id(pool: &PgPool, ids: &[String]) -> sqlx::Result<Vec<Drug>> {
    sqlx::query_as("SELECT rxnorm_id, name FROM drugs WHERE rxnorm_id = ANY($1::text[])")
        .bind(ids)
        .fetch_all(pool)
        .await
}

/// A provider in a catalog plan's network.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct InNetwork {
    pub npi: String,
    pub plan_id: i64,
}

/// Which catalog plans have these providers in their networks.
pub async fn networks_of(pool: &PgPool, npis: &[String]) -> sqlx::Result<Vec<InNetwork>> {
    sqlx::query_as(
        "SELECT n.npi, p.plan_id FROM provider_networks n
         JOIN coverage_plans p ON p.hios_plan_id = n.hios_plan_id
         WHERE n.npi = ANY($1::text[])",
    )
    .bind(npis)
    .fetch_all(pool)
    .await
}

/// A drug on a catalog plan's formulary.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OnFormulary {
    pub rxnorm_id: String,
    pub plan_id: i64,
    pub drug_tier: String,
    pub prior_authorization: bool,
    pub step_therapy: bool,
    pub quantity_limit: bool,
}

pub async fn formularies_of(pool: &PgPool, ids: &[String]) -> sqlx::Result<Vec<OnFormulary>> {
    sqlx::query_as(
        "SELECT c.rxnorm_id, p.plan_id, c.drug_tier, c.prior_authorization, c.step_therapy,
                c.quantity_limit
         FROM drug_coverage c JOIN coverage_plans p ON p.hios_plan_id = c.hios_plan_id
         WHERE c.rxnorm_id = ANY($1::text[])",
    )
    .bind(ids)
    .fetch_all(pool)
    .await
}

/// Each issuer's "as of" date, and the catalog plans it has files for.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct IssuerAsOf {
    pub issuer_id: String,
    pub as_of: Date,
    pub plan_ids: Vec<i64>,
}

pub async fn issuers(pool: &PgPool) -> sqlx::Result<Vec<IssuerAsOf>> {
    sqlx::query_as(
        "SELECT i.issuer_id, i.as_of, coalesce(array_agg(p.plan_id) FILTER (WHERE p.plan_id IS NOT NULL), '{}') AS plan_ids
         FROM coverage_issuers i LEFT JOIN coverage_plans p ON p.issuer_id = i.issuer_id
         GROUP BY i.issuer_id, i.as_of ORDER BY i.issuer_id",
    )
    .fetch_all(pool)
    .await
}
