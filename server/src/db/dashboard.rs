//! The agent dashboard's Quoting and Submissions lists (spec part 2, sections 2 to 4): one agent's
//! applications, filtered, sorted and paged in SQL. The names, e-mail and household come from the
//! application's summary (the flow's `summary:`, stored at each save), the plan names from its plan
//! snapshots (`medical_plan`, …). Every value from the request is a bind parameter; the
//! only text put into the SQL is the chosen list's fixed fragments, the active filters' fixed
//! fragments and a whitelisted sort.
//!
//! Filtering and sorting read stored generated columns (`list_*_name`, `list_email`, `sort_*_name`,
//! `dependents`, `has_spouse` over `summary`, migration 15; `has_*` over `data`), served by
//! per-list, per-order covering indexes (a search: the search table of migration 27 and its
//! trigram index): a page first takes its ids from an index in order (an index-only scan, however
//! deep the page), then reads only those rows (docs/performance.md, "Dashboard").
//!
//! How a page stays fast at an agency's scale:
//! - A search reads `application_search` (migration 27: one narrow row per application with the
//!   columns the lists filter and sort on, and `terms`, the lower-case "first last" and e-mail
//!   separated by a line break a term never holds), kept equal to the applications by triggers on
//!   every insert, delete and change of those columns, with one trigram index per list; it joins
//!   `applications` for the page's rows only (`source`, `push_search`; API test
//!   `searches_follow_each_change_…`).
//! - A page reads its ids from an index first, then only those rows; the count and the page run
//!   concurrently, and a search's page counts its matches in the same scan (`count(*) OVER ()`).
//! - A total without a search adds up `application_day_counts` (per agent, list, UTC day, site,
//!   started by and products; kept by migration 24's trigger on every insert, delete and change of
//!   those columns) for the days after the period's first, and counts that first, partial day's
//!   rows (API test `totals_equal_the_rows_…`).
//! - A deep page sorted by the period's column starts at the day those counts put it in
//!   (`page_start`; API test `pages_by_date_…`).
//! - A deep page by name starts in the name bucket (the last name's place among the boundaries `b`
//!   to `z`) that `application_name_counts` (migration 28: per agent, list, UTC day and bucket,
//!   kept by triggers like the per-day counts) puts it in, and walks that bucket from its nearer
//!   end (`name_bucket`, `rows_in_bucket`; API test `pages_by_name_through_the_name_counts_…`).
//! - With a site, started-by or product filter, which those counts do not hold, a page in the
//!   second half of its list is read from the list's end and turned round (`page`; API test
//!   `pages_by_name_from_either_end_…`).

use sqlx::{PgPool, Postgres, QueryBuilder};
use time::{Date, OffsetDateTime};
use uuid::Uuid;

use enrollflow_engine::catalog::PlanKind;

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
        // Each order is one of migration 10's indexes (agent, keys, id), read forwards or
        // backwards, so a page is read from the index without a sort. The sort names are never
        // NULL (an absent name is ''), so their NULLS LAST needs no words.
        let keys: &[&str] = match self {
            SortCol::LastName => &["a.sort_last_name {dir}", "a.sort_first_name {dir}"],
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
    pub products: Vec<PlanKind>,
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

impl ListRow {
    /// First and last name of the subscriber.
    pub fn primary_name(&self) -> String {
        format!("{} {}", self.first_name, self.last_name)
            .trim()
            .to_string()
    }

    /// `OEP` when the enrollment period type is 1, else `SEP` (spec part 2, Submissions list).
    pub fn period_badge(&self) -> &'static str {
        if self.enrollment_period_type_id == Some(1) {
            "OEP"
        } else {
            "SEP"
        }
    }

    /// 1 + dependents + 1 with a spouse.
    pub fn contract_count(&self) -> i32 {
        1 + self.dependents + i32::from(self.has_spouse)
    }
}

const COLUMNS: &str = "
    a.id, a.list_first_name AS first_name, a.list_last_name AS last_name, a.list_email AS email,
    a.created_at, a.updated_at, a.submission_time,
    a.effective_date, a.enrollment_period_type_id,
    a.dependents::int AS dependents, a.has_spouse,
    a.last_step, a.agent_started,
    CASE WHEN u.id IS NOT NULL THEN u.first_name || ' ' || u.last_name END AS started_by,
    p.medical_plan->>'id' AS medical_product_id,
    p.medical_plan->>'name' AS medical_plan_name,
    p.dental_plan->>'id' AS dental_product_id,
    p.dental_plan->>'name' AS dental_plan_name,
    p.vision_plan->>'id' AS vision_product_id,
    p.vision_plan->>'name' AS vision_plan_name,
    a.subdomain, p.medical_plan->>'sbc' AS sbc_url";

/// What [`COLUMNS`] reads besides `applications a`: the plan snapshots taken out of the document
/// once a row (`jsonb_to_record`; each `a.data->…` decompressed the whole document again: the
/// export of 800,000 quotes spent 2.7 of its 5.2 s in PostgreSQL doing it six times a row) and
/// the user who started the application.
const JOINS: &str = " CROSS JOIN LATERAL jsonb_to_record(a.data) \
    AS p(medical_plan jsonb, dental_plan jsonb, vision_plan jsonb) \
    LEFT JOIN users u ON u.id = a.started_by_user_id";

/// A search term as a LIKE pattern matching it anywhere (its `%`, `_` and `\` taken literally).
/// A control character (a line break: the search table's separator between the name and the
/// e-mail) becomes U+FFFD, which no name or e-mail holds, so a term never matches across them.
fn pattern(search: &Option<String>) -> Option<String> {
    let s = search.as_deref().map(str::trim).filter(|s| !s.is_empty())?;
    let mut p = String::with_capacity(s.len() + 2);
    p.push('%');
    for c in s.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(if c.is_control() {
            char::REPLACEMENT_CHARACTER
        } else {
            c
        });
    }
    p.push('%');
    Some(p)
}

/// Appends the list's filters but the search (a WHERE clause's body over `applications a`, or
/// over the search table named `a`, see [`source`]): the list, the agent and the period
/// always; the site, started-by and product filters when asked for, so that each query names only
/// what it filters on and the planner sees it whole.
fn push_where(q: &mut QueryBuilder<'_, Postgres>, list: List, f: &Filter) {
    let (scope, period) = list.scope();
    q.push(scope)
        .push(" AND a.agent_id = ")
        .push_bind(f.agent_id)
        .push(format_args!(" AND {period} >= "))
        .push_bind(f.since);
    if let Some(site) = &f.subdomain {
        q.push(" AND a.subdomain = ").push_bind(site.clone());
    }
    if let Some(agent) = f.started_by() {
        q.push(" AND a.agent_started = ").push_bind(agent);
    }
    if !f.products.is_empty() {
        // Any of the products.
        q.push(" AND (false");
        for p in &f.products {
            q.push(format_args!(" OR a.{}", product_column(*p)));
        }
        q.push(")");
    }
}

/// The table a list's rows are read from, as `a`: every application, or with a search the
/// search table (migration 27), which holds every column [`push_where`] and the sorts read beside
/// the terms a search matches, about 130 bytes a row. A search's candidates come from its trigram
/// index and are checked there, not in `applications` (a few kilobytes a row: for `smith` at an
/// agency's scale, 14,424 candidates on as many pages, 50–70 ms; docs/performance.md).
fn source(f: &Filter) -> &'static str {
    if pattern(&f.search).is_some() {
        "application_search"
    } else {
        "applications"
    }
}

/// Appends the search's condition on the search table `alias` (nothing without a search): the
/// term anywhere in the lower-case "first last" or e-mail.
fn push_search(q: &mut QueryBuilder<'_, Postgres>, f: &Filter, alias: &str) {
    if let Some(p) = pattern(&f.search) {
        q.push(format_args!(" AND {alias}.terms LIKE lower("))
            .push_bind(p)
            .push(") ESCAPE '\\'");
    }
}

/// The column saying whether an application has a plan of this kind.
fn product_column(kind: PlanKind) -> &'static str {
    match kind {
        PlanKind::Medical => "has_medical",
        PlanKind::Dental => "has_dental",
        PlanKind::Vision => "has_vision",
    }
}

/// Whether the statement may be kept prepared (PostgreSQL then plans it once for any values
/// after a few runs). Not for a search: only a plan for the actual term sees how few rows its
/// trigrams select (a plan for any term intersects them with the whole period: 38 ms instead of
/// 5 for 100,000 quotes).
fn plan_once(f: &Filter) -> bool {
    pattern(&f.search).is_none()
}

/// How many rows match. Without a search, the days after the period's first are added up from
/// the per-day counts (migration 24) and only the first, partial day's rows are counted.
async fn count(pool: &PgPool, list: List, f: &Filter) -> sqlx::Result<i64> {
    if pattern(&f.search).is_some() {
        let mut q = QueryBuilder::new("SELECT count(*) FROM application_search a WHERE ");
        push_where(&mut q, list, f);
        push_search(&mut q, f, "a");
        return q
            .build_query_scalar()
            .persistent(false)
            .fetch_one(pool)
            .await;
    }
    let mut q = QueryBuilder::new(
        "SELECT (SELECT COALESCE(sum(c.n), 0)::bigint FROM application_day_counts c WHERE ",
    );
    push_counts_where(&mut q, list, f);
    q.push(") + (");
    push_first_day(&mut q, list, f, "count(*)");
    q.push(")");
    q.build_query_scalar()
        .persistent(true)
        .fetch_one(pool)
        .await
}

/// The UTC day the period starts in: its rows are counted one by one, the later days' from
/// `application_day_counts`.
fn first_day(f: &Filter) -> Date {
    f.since.to_offset(time::UtcOffset::UTC).date()
}

/// The end of the period's first day (midnight UTC after it).
fn first_day_end(f: &Filter) -> OffsetDateTime {
    let day = first_day(f);
    day.next_day().unwrap_or(day).midnight().assume_utc()
}

/// Appends a SELECT of `what` over the matching rows of the period's first, partial day.
fn push_first_day(q: &mut QueryBuilder<'_, Postgres>, list: List, f: &Filter, what: &str) {
    let (_, period) = list.scope();
    q.push(format_args!("SELECT {what} FROM applications a WHERE "));
    push_where(q, list, f);
    q.push(format_args!(" AND {period} < "))
        .push_bind(first_day_end(f));
}

/// Where `offset` falls among groups of rows in the order given (their sizes): the group's place
/// and how many rows come before it; past the last, how many there are in all.
fn locate(sizes: impl IntoIterator<Item = i64>, offset: i64) -> Result<(usize, i64), i64> {
    let mut before = 0;
    for (i, n) in sizes.into_iter().enumerate() {
        if offset < before + n {
            return Ok((i, before));
        }
        before += n;
    }
    Err(before)
}

/// Appends the conditions on the counts `c` matching the list's filters (not a search) for the
/// days after the period's first: `application_day_counts`, or `application_name_counts` when no
/// filter it does not hold is on (site, started by, products: [`name_bucket`]).
fn push_counts_where(q: &mut QueryBuilder<'_, Postgres>, list: List, f: &Filter) {
    q.push("c.agent_id = ")
        .push_bind(f.agent_id)
        .push(" AND c.submitted = ")
        .push_bind(list == List::Enrollees)
        .push(" AND c.day > ")
        .push_bind(first_day(f));
    if let Some(site) = &f.subdomain {
        q.push(" AND c.subdomain = ").push_bind(site.clone());
    }
    if let Some(agent) = f.started_by() {
        q.push(" AND c.agent_started = ").push_bind(agent);
    }
    if !f.products.is_empty() {
        q.push(" AND (false");
        for p in &f.products {
            q.push(format_args!(" OR c.{}", product_column(*p)));
        }
        q.push(")");
    }
}

/// Where a page of a list sorted by its period's own column (quotes by creation, submissions by
/// submission) starts, found through the per-day counts instead of walking `offset` index
/// entries: a bound on the period column at the day the page's first row falls in, and the
/// offset left from there. None for the other sorts, a search, the first page, and a page within
/// the period's first day when that day comes first.
async fn page_start(
    pool: &PgPool,
    list: List,
    f: &Filter,
    sort: SortCol,
    asc: bool,
    offset: i64,
) -> sqlx::Result<Option<(&'static str, OffsetDateTime, i64)>> {
    let by_period = matches!(
        (list, sort),
        (List::Quotes, SortCol::CreatedAt) | (List::Enrollees, SortCol::SubmissionTime)
    );
    if !by_period || offset == 0 || pattern(&f.search).is_some() {
        return Ok(None);
    }
    let mut q =
        QueryBuilder::new("SELECT c.day, sum(c.n)::bigint FROM application_day_counts c WHERE ");
    push_counts_where(&mut q, list, f);
    q.push(" GROUP BY c.day ORDER BY c.day");
    let days: Vec<(Date, i64)> = q.build_query_as().persistent(true).fetch_all(pool).await?;
    let midnight = |d: Date| d.midnight().assume_utc();
    if asc {
        // The first, partial day comes first: its rows are counted.
        let mut q = QueryBuilder::new("");
        push_first_day(&mut q, list, f, "count(*)");
        let first: i64 = q
            .build_query_scalar()
            .persistent(true)
            .fetch_one(pool)
            .await?;
        let sizes = std::iter::once(first).chain(days.iter().map(|(_, n)| *n));
        Ok(match locate(sizes, offset) {
            // In the first day, or past the last row.
            Ok((0, _)) | Err(_) => None,
            Ok((i, before)) => Some((">=", midnight(days[i - 1].0), offset - before)),
        })
    } else {
        Ok(Some(
            match locate(days.iter().rev().map(|(_, n)| *n), offset) {
                Ok((i, before)) => {
                    let day = days[days.len() - 1 - i].0;
                    (
                        "<",
                        day.next_day().map_or(midnight(day), midnight),
                        offset - before,
                    )
                }
                // In the first, partial day, which comes last.
                Err(before) => ("<", first_day_end(f), offset - before),
            },
        ))
    }
}

/// How many rows match, and one page of them in order. A deep page by name starts in the name
/// bucket the per-day name counts put it in (migration 28, [`name_bucket`]) and walks that bucket
/// only, from whichever of its ends is nearer; with a filter those counts do not hold (site,
/// started by, products), a page in the list's second half is read from the list's end instead.
/// Either way a walk from an end goes backwards and the page is turned round: names are never NULL
/// and every order ends with the id, so the backward order is exactly the forward one reversed.
/// The count runs beside the page's first query; a search's page counts its matches itself.
pub async fn page(
    pool: &PgPool,
    list: List,
    f: &Filter,
    s: Slice,
) -> sqlx::Result<(i64, Vec<ListRow>)> {
    if pattern(&f.search).is_some() {
        // One scan of the matches counts them and orders the page's; a page past the last
        // counts them alone.
        let page = counted_rows(pool, list, f, s, None).await?;
        let total = match page.first() {
            Some(first) => first.total,
            None => count(pool, list, f).await?,
        };
        return Ok((total, page.into_iter().map(|c| c.row).collect()));
    }
    if s.sort != SortCol::LastName || s.offset == 0 {
        return tokio::try_join!(count(pool, list, f), rows(pool, list, f, s, None));
    }
    let (total, bucket) = tokio::try_join!(
        count(pool, list, f),
        name_bucket(pool, list, f, s.asc, s.offset)
    )?;
    if s.offset >= total {
        return Ok((total, Vec::new()));
    }
    if let Some(b) = bucket {
        return Ok((total, rows_in_bucket(pool, list, f, s, &b).await?));
    }
    let after = (total - s.offset - s.limit).max(0);
    if after >= s.offset {
        return Ok((total, rows(pool, list, f, s, None).await?));
    }
    // The page's rows, counted from the end: `after` rows come after it.
    let from_end = Slice {
        asc: !s.asc,
        limit: s.limit.min(total - s.offset),
        offset: after,
        ..s
    };
    let mut page = rows(pool, list, f, from_end, None).await?;
    page.reverse();
    Ok((total, page))
}

/// The name bucket a page by name starts in (migration 28): its bounds on the last name and how
/// many of the list's rows come before it (in the page's order) and are in it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Bucket {
    /// Its first name (`''`: from the first).
    low: String,
    /// The next bucket's first name (None: to the last).
    high: Option<String>,
    before: i64,
    rows: i64,
}

/// The bucket of the page starting at `offset`, from the per-day name counts of the period's days
/// after its first and the first, partial day's rows counted one by one. None when a filter the
/// counts do not hold is on (site, started by, products).
async fn name_bucket(
    pool: &PgPool,
    list: List,
    f: &Filter,
    asc: bool,
    offset: i64,
) -> sqlx::Result<Option<Bucket>> {
    if f.subdomain.is_some() || f.started_by().is_some() || !f.products.is_empty() {
        return Ok(None);
    }
    let mut q = QueryBuilder::new(
        "SELECT bucket, sum(n)::bigint FROM (SELECT c.bucket, c.n FROM application_name_counts c \
         WHERE ",
    );
    push_counts_where(&mut q, list, f);
    q.push(" UNION ALL ");
    push_first_day(
        &mut q,
        list,
        f,
        "application_name_bucket(a.sort_last_name), 1::bigint",
    );
    q.push(") counted GROUP BY bucket ORDER BY bucket");
    let buckets: Vec<(String, i64)> = q.build_query_as().persistent(true).fetch_all(pool).await?;
    Ok(find_bucket(&buckets, asc, offset))
}

/// [`name_bucket`]'s choice among the buckets (in ascending order, with their rows).
fn find_bucket(buckets: &[(String, i64)], asc: bool, offset: i64) -> Option<Bucket> {
    let sizes = buckets.iter().map(|(_, n)| *n);
    let (i, before) = if asc {
        locate(sizes, offset).ok()?
    } else {
        let (i, before) = locate(sizes.rev(), offset).ok()?;
        (buckets.len() - 1 - i, before)
    };
    Some(Bucket {
        low: buckets[i].0.clone(),
        high: buckets.get(i + 1).map(|(b, _)| b.clone()),
        before,
        rows: buckets[i].1,
    })
}

/// A page of a list by name inside its bucket: walked from the bucket's start in the page's
/// order, or, for a page in the bucket's second half that ends in it, from the bucket's end
/// backwards and turned round.
async fn rows_in_bucket(
    pool: &PgPool,
    list: List,
    f: &Filter,
    s: Slice,
    b: &Bucket,
) -> sqlx::Result<Vec<ListRow>> {
    let from_start = s.offset - b.before;
    // The bucket's two ends, as bounds on the last name in the page's order.
    let low = (!b.low.is_empty()).then(|| (">=", b.low.clone()));
    let high = b.high.clone().map(|h| ("<", h));
    let (start, end) = if s.asc { (low, high) } else { (high, low) };
    let from_end = b.rows - from_start - s.limit;
    if from_end >= 0 && from_end < from_start {
        let back = Slice {
            asc: !s.asc,
            offset: from_end,
            ..s
        };
        let mut page = rows(pool, list, f, back, end).await?;
        page.reverse();
        return Ok(page);
    }
    let forward = Slice {
        offset: from_start,
        ..s
    };
    rows(pool, list, f, forward, start).await
}

/// Which of a list's rows a page holds: their order, how many, and how many come before them.
#[derive(Debug, Clone, Copy)]
pub struct Slice {
    pub sort: SortCol,
    pub asc: bool,
    pub limit: i64,
    pub offset: i64,
}

/// One page of the matching rows, in order; `names`, a bound on the last name the page's rows
/// are after (`>=` or `<` a bucket's end, [`rows_in_bucket`]).
async fn rows(
    pool: &PgPool,
    list: List,
    f: &Filter,
    s: Slice,
    names: Option<(&'static str, String)>,
) -> sqlx::Result<Vec<ListRow>> {
    let page = counted_rows(pool, list, f, s, names).await?;
    Ok(page.into_iter().map(|c| c.row).collect())
}

/// [`rows`], each with, for a search, how many rows match.
async fn counted_rows(
    pool: &PgPool,
    list: List,
    f: &Filter,
    s: Slice,
    names: Option<(&'static str, String)>,
) -> sqlx::Result<Vec<Counted>> {
    let Slice {
        sort,
        asc,
        limit,
        offset,
    } = s;
    let order = sort.order_by(asc);
    let start = page_start(pool, list, f, sort, asc, offset).await?;
    let offset = start.map_or(offset, |(_, _, rest)| rest);
    // The page's ids in order from an index (skipping `offset` index entries, not documents),
    // then only their rows. A search orders its matches in the search table, which has no
    // index but its trigrams' (walking a sort's index for matches would be a planner's bet that
    // matches are spread evenly, and names that match a term are not).
    let mut q = QueryBuilder::new("SELECT ");
    // A search counts its matches in the same scan (`total`; 0 without a search, whose total
    // comes from the per-day counts).
    let total = if pattern(&f.search).is_some() {
        "count(*) OVER ()"
    } else {
        "0::bigint"
    };
    q.push(COLUMNS).push(format_args!(
        ", page.total FROM (SELECT a.id, {total} AS total FROM {} a WHERE ",
        source(f)
    ));
    push_where(&mut q, list, f);
    push_search(&mut q, f, "a");
    if let Some((op, bound, _)) = start {
        let (_, period) = list.scope();
        q.push(format_args!(" AND {period} {op} ")).push_bind(bound);
    }
    if let Some((op, bound)) = names {
        q.push(format_args!(" AND a.sort_last_name {op} "))
            .push_bind(bound);
    }
    q.push(format_args!(" ORDER BY {order} LIMIT "))
        .push_bind(limit)
        .push(" OFFSET ")
        .push_bind(offset)
        .push(") page JOIN applications a ON a.id = page.id")
        .push(JOINS)
        .push(format_args!(" ORDER BY {order}"));
    q.build_query_as::<Counted>()
        .persistent(plan_once(f))
        .fetch_all(pool)
        .await
}

/// A row of a page and, for a search, how many rows match ([`rows`]).
#[derive(Debug, sqlx::FromRow)]
struct Counted {
    #[sqlx(flatten)]
    row: ListRow,
    total: i64,
}

/// Rows handed over at a time by [`each_batch`].
const BATCH: usize = 256;

/// Every matching row, in order, in batches of up to [`BATCH`] rows as `each` takes them (the
/// export: rows are never all held); `each` answers false to stop.
pub async fn each_batch<F, Fut>(
    pool: &PgPool,
    list: List,
    f: &Filter,
    sort: SortCol,
    asc: bool,
    mut each: F,
) -> sqlx::Result<()>
where
    F: FnMut(Vec<ListRow>) -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    use futures_util::TryStreamExt;
    let mut q = QueryBuilder::new("SELECT ");
    q.push(COLUMNS)
        .push(" FROM applications a")
        .push(JOINS)
        .push(" WHERE ");
    if pattern(&f.search).is_some() {
        // The matches, with the list's filters so that the list's trigram index serves them (the
        // subquery's `a` is the search table's row).
        q.push("a.id IN (SELECT a.id FROM application_search a WHERE ");
        push_where(&mut q, list, f);
        push_search(&mut q, f, "a");
        q.push(") AND ");
    }
    push_where(&mut q, list, f);
    q.push(format_args!(" ORDER BY {}", sort.order_by(asc)));
    let mut rows = q
        .build_query_as::<ListRow>()
        .persistent(plan_once(f))
        .fetch(pool)
        .try_chunks(BATCH);
    while let Some(batch) = rows.try_next().await.map_err(|e| e.1)? {
        if !each(batch).await {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_by_name_starts_in_the_bucket_its_offset_falls_in_from_either_end() {
        let buckets = [
            ("".to_string(), 3),
            ("b".to_string(), 5),
            ("m".to_string(), 2),
        ];
        let b = |low: &str, high: Option<&str>, before, rows| Bucket {
            low: low.into(),
            high: high.map(Into::into),
            before,
            rows,
        };
        assert_eq!(find_bucket(&buckets, true, 0), Some(b("", Some("b"), 0, 3)));
        assert_eq!(find_bucket(&buckets, true, 2), Some(b("", Some("b"), 0, 3)));
        assert_eq!(
            find_bucket(&buckets, true, 3),
            Some(b("b", Some("m"), 3, 5))
        );
        assert_eq!(find_bucket(&buckets, true, 9), Some(b("m", None, 8, 2)));
        assert_eq!(find_bucket(&buckets, true, 10), None);
        // Descending, the last bucket comes first.
        assert_eq!(find_bucket(&buckets, false, 0), Some(b("m", None, 0, 2)));
        assert_eq!(
            find_bucket(&buckets, false, 2),
            Some(b("b", Some("m"), 2, 5))
        );
        assert_eq!(
            find_bucket(&buckets, false, 7),
            Some(b("", Some("b"), 7, 3))
        );
        assert_eq!(find_bucket(&buckets, false, 10), None);
        assert_eq!(find_bucket(&[], true, 0), None);
    }

    #[test]
    fn search_patterns_take_wildcards_literally() {
        assert_eq!(pattern(&Some(" ann ".into())).as_deref(), Some("%ann%"));
        assert_eq!(
            pattern(&Some("50%_\\".into())).as_deref(),
            Some("%50\\%\\_\\\\%")
        );
        assert_eq!(
            pattern(&Some("smith\njo".into())).as_deref(),
            Some("%smith\u{fffd}jo%")
        );
        assert_eq!(pattern(&Some("  ".into())), None);
        assert_eq!(pattern(&None), None);
    }
}
