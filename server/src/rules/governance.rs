//! Four eyes on the rules: an analyst proposes a draft (its files, a note, its diff against the set
//! serving and the evidence: the impact, the suites, the coverage), someone else with the approve
//! permission approves it, effective at once or from a date and time in Michigan, or rejects it
//! with a reason. Every step is written to the audit log with the set's hash, the base's and the
//! diff's.
//!
//! A proposal keeps its diff (`similar`); approval is refused on a red suite, coverage below the
//! floor or a base that moved. A scheduled publication (`rule_set_publications.effective_at`) is
//! switched by `rules::spawn_set_listener`'s one-second tick on the injected clock, and can be
//! cancelled. `server/tests/api/governance.rs`:
//! `a_change_takes_effect_when_someone_else_approves_it…`, `a_red_suite_or_coverage_below…`,
//! `a_scheduled_set_can_be_cancelled…`.

use serde::Serialize;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use uuid::Uuid;

use enrollflow_engine::Source;

use crate::db::audit::{self, Action};

/// One file's change in a proposal, against the set serving when it was proposed.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema, PartialEq, Eq)]
pub struct FileDiff {
    pub path: String,
    /// `added`, `removed` or `changed`.
    pub change: String,
    /// The unified diff (three lines of context), `---`/`+++` headers included.
    pub diff: String,
}

/// The files that differ between `base` and `proposed`, in path order.
pub fn diff(base: &[Source], proposed: &[Source]) -> Vec<FileDiff> {
    use std::collections::BTreeMap;
    let before: BTreeMap<&str, &str> = base
        .iter()
        .map(|f| (f.path.as_str(), f.text.as_str()))
        .collect();
    let after: BTreeMap<&str, &str> = proposed
        .iter()
        .map(|f| (f.path.as_str(), f.text.as_str()))
        .collect();
    let mut paths: Vec<&str> = before.keys().chain(after.keys()).copied().collect();
    paths.sort_unstable();
    paths.dedup();
    paths
        .into_iter()
        .filter_map(|path| {
            let (b, a) = (before.get(path), after.get(path));
            let change = match (b, a) {
                (Some(b), Some(a)) if b == a => return None,
                (Some(_), Some(_)) => "changed",
                (None, Some(_)) => "added",
                (Some(_), None) => "removed",
                (None, None) => return None,
            };
            let text =
                similar::TextDiff::from_lines(b.copied().unwrap_or(""), a.copied().unwrap_or(""))
                    .unified_diff()
                    .context_radius(3)
                    .header(path, path)
                    .to_string();
            Some(FileDiff {
                path: path.to_string(),
                change: change.into(),
                diff: text,
            })
        })
        .collect()
}

/// A digest of a diff: what the audit log names a change by.
pub fn diff_hash(diffs: &[FileDiff]) -> String {
    let mut h = Sha256::new();
    for d in diffs {
        h.update(d.path.as_bytes());
        h.update([0]);
        h.update(d.change.as_bytes());
        h.update([0]);
        h.update(d.diff.as_bytes());
        h.update([0]);
    }
    hex::encode(h.finalize())
}

/// A hash as the audit log's detail names it (128 bits: every set and diff told apart).
pub fn short(hash: &str) -> &str {
    &hash[..32.min(hash.len())]
}

/// The audit detail of a step on a set: `set=… base=… diff=…`.
pub fn detail(set: &str, base: &str, diff: &str) -> String {
    format!(
        "set={} base={} diff={}",
        short(set),
        short(base),
        short(diff)
    )
}

/// Who did it, as the audit log records it.
#[derive(Debug, Clone, Default)]
pub struct Actor {
    pub id: Option<Uuid>,
    pub address: Option<std::net::IpAddr>,
    pub request_id: Option<String>,
    pub client_request_id: Option<String>,
}

/// Writes one step on the rules to the audit log.
pub async fn record(
    db: impl crate::db::PgExecutor<'_>,
    actor: &Actor,
    action: Action,
    detail: String,
    now: OffsetDateTime,
) -> crate::db::Result<()> {
    audit::record(
        db,
        now,
        &audit::Entry {
            action,
            actor: actor.id,
            subject: actor.id,
            address: actor.address,
            application: None,
            detail: Some(detail),
            request_id: actor.request_id.clone(),
            client_request_id: actor.client_request_id.clone(),
        },
    )
    .await
}

/// An operator's step from the command line (publish, rollback), in the audit log.
pub async fn audit_operator(
    pool: &crate::db::PgPool,
    action: Action,
    detail: &str,
    now: OffsetDateTime,
) -> crate::db::Result<()> {
    record(pool, &Actor::default(), action, detail.to_string(), now).await
}

/// Reads an approver's "effective from" (`YYYY-MM-DDTHH:MM`, Michigan's wall clock, as a
/// `datetime-local` field sends it; an offset or `Z` is read as written) as an instant.
pub fn michigan_instant(text: &str) -> Option<OffsetDateTime> {
    let text = text.trim();
    if let Ok(t) = OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339) {
        return Some(t);
    }
    let local: jiff::civil::DateTime = text.parse().ok()?;
    let zone = jiff::tz::TimeZone::get(crate::rules::impact::AGENT_TIME_ZONE).ok()?;
    let at = zone.to_timestamp(local).ok()?;
    OffsetDateTime::from_unix_timestamp_nanos(at.as_nanosecond()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(path: &str, text: &str) -> Source {
        Source::new(path, text)
    }

    #[test]
    fn the_diff_names_each_changed_added_and_removed_file() {
        let base = [
            src("rules/a.yaml", "x: 1\ny: 2\n"),
            src("rules/b.yaml", "b\n"),
        ];
        let proposed = [
            src("rules/a.yaml", "x: 1\ny: 3\n"),
            src("rules/c.yaml", "c\n"),
        ];
        let d = diff(&base, &proposed);
        let kinds: Vec<(&str, &str)> = d
            .iter()
            .map(|f| (f.path.as_str(), f.change.as_str()))
            .collect();
        assert_eq!(
            kinds,
            [
                ("rules/a.yaml", "changed"),
                ("rules/b.yaml", "removed"),
                ("rules/c.yaml", "added")
            ]
        );
        assert!(d[0].diff.contains("-y: 2\n+y: 3\n"), "{}", d[0].diff);
        assert!(diff(&base, &base).is_empty());
        assert_ne!(diff_hash(&d), diff_hash(&d[..1]));
    }

    #[test]
    fn an_effective_time_is_read_on_michigans_clock() {
        // 2025-01-01 00:00 in Detroit is 05:00 UTC (EST); 2025-07-01 00:00 is 04:00 UTC (EDT).
        let winter = michigan_instant("2025-01-01T00:00").expect("a time");
        assert_eq!(winter, time::macros::datetime!(2025-01-01 05:00 UTC));
        let summer = michigan_instant("2025-07-01T00:00").expect("a time");
        assert_eq!(summer, time::macros::datetime!(2025-07-01 04:00 UTC));
        assert_eq!(
            michigan_instant("2025-01-01T12:00:00Z"),
            Some(time::macros::datetime!(2025-01-01 12:00 UTC))
        );
        assert_eq!(michigan_instant("next Tuesday"), None);
    }
}
