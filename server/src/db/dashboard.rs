//! The agent dashboard's Quoting and Submissions lists (spec part 2, sections 2 to 4): one agent's
//! applications, filtered, sorted and paged in SQL. The names, e-mail and household come from the
//! application document (`data`: the subInfo answers over the census answers), the plan names from
//! its plan snapshots (`medical_plan`, …). Every value from the request is a bind parameter; the
//! only text put into the SQL is the chosen list's fixed fragments and a whitelisted sort.

use sqlx::PgPool;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

/// Which list: quotes are not submitted, enrollees (submissions) are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum List {
    Quotes,
    Enrollees,
}

impl List {
    /// The rows of the list and the column its period counts from.
    fn scope(self) -> (&'static str, &'static str) {
        match self {
            List::Quotes => ("a.submission_time IS NULL", "a.created_at"),
            List::Enrollees => ("a.submission_time IS NOT NULL", "a.submission_time"),
        }
    }
}

/// The sortable columns (spec part 2, section 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortCol {
    LastName,
    CreatedAt,
    SubmissionTime,
    EffectiveDate,
}

impl SortCol {
    fn order_by(self, asc: bool) -> String {
        let dir = if asc { "ASC" } else { "DESC" };
        // The list's own time column is never NULL in its list: ordered exactly as its index
        // (migration 8: agent, time, id), a page is read from the index without a sort.
        let keys: &[&str] = match self {
            SortCol::LastName => &[
                "lower(l.last_name) {dir} NULLS LAST",
                "lower(l.first_name) {dir} NULLS LAST",
            ],
            SortCol::CreatedAt => &["a.created_at {dir}"],
            SortCol::SubmissionTime => &["a.submission_time {dir}"],
            SortCol::EffectiveDate => &["a.effective_date {dir} NULLS LAST"],
        };
        let mut parts: Vec<String> = keys.iter().map(|k| k.replace("{dir}", dir)).collect();
        // A total order, so that pages never repeat or skip a row.
        parts.push(format!("a.id {dir}"));
        parts.join(", ")
    }
}

/// Who started a quote (the Quoting list's Started-by filter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartedBy {
    Agent,
    Consumer,
}

/// What the caller asked for; `products` holds `medical`, `dental`, `vision` (a row matches when
/// it has any of them; empty means all rows); `subdomain` keeps one site's rows.
#[derive(Debug, Clone)]
pub struct Filter {
    pub agent_id: Uuid,
    pub since: OffsetDateTime,
    pub search: Option<String>,
    pub products: Vec<String>,
    pub subdomain: Option<String>,
    pub started_by: Option<StartedBy>,
}

impl Filter {
    fn started_by(&self) -> Option<bool> {
        self.started_by.map(|s| s == StartedBy::Agent)
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ListRow {
    pub id: Uuid,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    pub submission_time: Option<OffsetDateTime>,
    pub effective_date: Option<Date>,
    pub enrollment_period_type_id: Option<i16>,
    pub dependents: i32,
    pub has_spouse: bool,
    pub last_step: i16,
    pub agent_started: bool,
    pub started_by: Option<String>,
    pub medical_product_id: Option<String>,
    pub medical_plan_name: Option<String>,
    pub dental_product_id: Option<String>,
    pub dental_plan_name: Option<String>,
    pub vision_product_id: Option<String>,
    pub vision_plan_name: Option<String>,
    pub subdomain: Option<String>,
    /// The medical plan's benefits summary link.
    pub sbc_url: Option<String>,
}

/// The document's fields as columns (`l.*`), computed once per row.
const LATERAL: &str = "
    CROSS JOIN LATERAL (SELECT
        coalesce(nullif(a.data->'subInfo'->>'sub_first_name', ''),
                 a.data->'census'->>'sub_first_name', '') AS first_name,
        coalesce(nullif(a.data->'subInfo'->>'sub_last_name', ''),
                 a.data->'census'->>'sub_last_name', '') AS last_name,
        coalesce(nullif(a.data->'subInfo'->>'email', ''),
                 a.data->'census'->>'email', '') AS email) l";

/// The filters; $1 agent, $2 period start, $3 search pattern (or NULL), $4 products, $5 site
/// (or NULL), $6 agent-started (or NULL).
const WHERE: &str = "
    a.agent_id = $1 AND {period} >= $2
    AND ($5::text IS NULL OR a.subdomain = $5)
    AND ($6::boolean IS NULL OR a.agent_started = $6)
    AND ($3::text IS NULL
         OR (l.first_name || ' ' || l.last_name) ILIKE $3 ESCAPE '\\'
         OR l.email ILIKE $3 ESCAPE '\\')
    AND (cardinality($4::text[]) = 0
         OR ('medical' = ANY($4) AND a.data->'medical_plan'->>'id' IS NOT NULL)
         OR ('dental' = ANY($4) AND a.data->'dental_plan'->>'id' IS NOT NULL)
         OR ('vision' = ANY($4) AND a.data->'vision_plan'->>'id' IS NOT NULL))";

const COLUMNS: &str = "
    a.id, l.first_name, l.last_name, l.email, a.created_at, a.updated_at, a.submission_time,
    a.effective_date, a.enrollment_period_type_id,
    CASE WHEN jsonb_typeof(a.data->'census'->'dependents') = 'array'
         THEN jsonb_array_length(a.data->'census'->'dependents') ELSE 0 END AS dependents,
    coalesce(jsonb_typeof(a.data->'census'->'spouse') = 'object', false) AS has_spouse,
    a.last_step, a.agent_started,
    CASE WHEN u.id IS NOT NULL THEN u.first_name || ' ' || u.last_name END AS started_by,
    a.data->'medical_plan'->>'id' AS medical_product_id,
    a.data->'medical_plan'->>'name' AS medical_plan_name,
    a.data->'dental_plan'->>'id' AS dental_product_id,
    a.data->'dental_plan'->>'name' AS dental_plan_name,
    a.data->'vision_plan'->>'id' AS vision_product_id,
    a.data->'vision_plan'->>'name' AS vision_plan_name,
    a.subdomain, a.data->'medical_plan'->>'sbc' AS sbc_url";

/// A search term as an ILIKE pattern matching it anywhere (its `%`, `_` and `\` taken literally).
fn pattern(search: &Option<String>) -> Option<String> {
    let s = search.as_deref().map(str::trim).filter(|s| !s.is_empty())?;
    let mut p = String::with_capacity(s.len() + 2);
    p.push('%');
    for c in s.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    Some(p)
}

fn where_clause(list: List) -> String {
    let (scope, period) = list.scope();
    format!("{scope} AND {}", WHERE.replace("{period}", period))
}

/// How many rows match.
pub async fn count(pool: &PgPool, list: List, f: &Filter) -> sqlx::Result<i64> {
    let sql = format!(
        "SELECT count(*) FROM applications a {LATERAL} WHERE {}",
        where_clause(list)
    );
    sqlx::query_scalar(&sql)
        .bind(f.agent_id)
        .bind(f.since)
        .bind(pattern(&f.search))
        .bind(&f.products)
        .bind(&f.subdomain)
        .bind(f.started_by())
        .fetch_one(pool)
        .await
}

fn select(list: List, sort: SortCol, asc: bool) -> String {
    format!(
        "SELECT {COLUMNS} FROM applications a {LATERAL}
         LEFT JOIN users u ON u.id = a.started_by_user_id
         WHERE {} ORDER BY {} LIMIT $7 OFFSET $8",
        where_clause(list),
        sort.order_by(asc)
    )
}

/// One page of the matching rows, in order.
pub async fn rows(
    pool: &PgPool,
    list: List,
    f: &Filter,
    sort: SortCol,
    asc: bool,
    limit: i64,
    offset: i64,
) -> sqlx::Result<Vec<ListRow>> {
    let sql = select(list, sort, asc);
    sqlx::query_as::<_, ListRow>(&sql)
        .bind(f.agent_id)
        .bind(f.since)
        .bind(pattern(&f.search))
        .bind(&f.products)
        .bind(&f.subdomain)
        .bind(f.started_by())
        .bind(limit)
        .bind(offset)
        .fetch_all(pool)
        .await
}

/// Every matching row, in order, as `each` takes them (the export: rows are never all held).
pub async fn each_row<F, Fut>(
    pool: &PgPool,
    list: List,
    f: &Filter,
    sort: SortCol,
    asc: bool,
    mut each: F,
) -> sqlx::Result<()>
where
    F: FnMut(ListRow) -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    use futures_util::TryStreamExt;
    let sql = select(list, sort, asc);
    let mut rows = sqlx::query_as::<_, ListRow>(&sql)
        .bind(f.agent_id)
        .bind(f.since)
        .bind(pattern(&f.search))
        .bind(&f.products)
        .bind(&f.subdomain)
        .bind(f.started_by())
        .bind(None::<i64>)
        .bind(0_i64)
        .fetch(pool);
    while let Some(row) = rows.try_next().await? {
        if !each(row).await {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_patterns_take_wildcards_literally() {
        assert_eq!(pattern(&Some(" ann ".into())).as_deref(), Some("%ann%"));
        assert_eq!(
            pattern(&Some("50%_\\".into())).as_deref(),
            Some("%50\\%\\_\\\\%")
        );
        assert_eq!(pattern(&Some("  ".into())), None);
        assert_eq!(pattern(&None), None);
    }
}
