//! Proposing a draft, and reading proposals. A proposal is kept with its note, its diff against
//! the set serving and its evidence: the impact, the suites' result and the coverage. It is
//! refused whole when the draft does not load, changes nothing or has no note. Another person
//! with the approve permission decides it (`publish`, `decide`).

use std::path::Path;
use std::time::Duration;

use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use super::draft::{Draft, server_suites, suite_diffs};
use super::impact::ImpactRun;
use super::{File, Handles, Proposal, RuleSetError};
use crate::db::audit::Action;
use crate::db::{rule_proposals, rule_sets};
use crate::rules;
use crate::rules::governance::{self, Actor, FileDiff};

/// How many proposals the list shows.
const LISTED: i64 = 50;

/// A proposal with its diff, file by file, against the set it was proposed over.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProposalDetail {
    pub proposal: Proposal,
    pub files: Vec<FileDiff>,
    /// The set serving now is not the one it was proposed over: it must be proposed again.
    pub serving_moved: bool,
}

/// The newest proposals, newest first.
pub async fn list(h: &Handles<'_>) -> Result<Vec<Proposal>, RuleSetError> {
    Ok(rule_proposals::list(h.pool, LISTED).await?)
}

/// The proposal `id`.
pub async fn proposal(h: &Handles<'_>, id: i64) -> Result<Proposal, RuleSetError> {
    rule_proposals::by_id(h.pool, id)
        .await?
        .ok_or_else(|| RuleSetError::NotFound("No such proposal.".into()))
}

/// The proposal `id` with its diff (the suites it changes against the server's under `root`).
pub async fn detail(h: &Handles<'_>, root: &Path, id: i64) -> Result<ProposalDetail, RuleSetError> {
    let proposal = proposal(h, id).await?;
    let proposed = rule_proposals::files(h.pool, proposal.id)
        .await?
        .unwrap_or_default();
    let base = rule_sets::files(h.pool, &proposal.base_hash)
        .await?
        .unwrap_or_default();
    let mut files = governance::diff(&rule_sets::sources(&base), &rule_sets::sources(&proposed));
    let suites = rule_proposals::suites(h.pool, proposal.id).await?;
    if !suites.is_empty() {
        files.extend(suite_diffs(&server_suites(root)?, &suites));
    }
    let serving = rule_sets::newest(h.pool, h.now).await?.map(|p| p.hash);
    Ok(ProposalDetail {
        serving_moved: serving.as_deref() != Some(proposal.base_hash.as_str()),
        proposal,
        files,
    })
}

/// Proposes `draft` as `author` (see the module's comment): the suites under `root`, the impact
/// within `budget`.
pub async fn propose(
    h: &Handles<'_>,
    root: &Path,
    budget: Duration,
    draft: &Draft,
    (author, actor): (uuid::Uuid, &Actor),
) -> Result<ProposalDetail, RuleSetError> {
    let note = draft
        .note
        .as_deref()
        .map(str::trim)
        .unwrap_or_default()
        .to_string();
    if note.is_empty() || note.chars().count() > 2000 {
        return Err(RuleSetError::Invalid {
            field: "note",
            problems: vec![
                "Say what the change is and why, in at most 2,000 characters.".to_string(),
            ],
        });
    }
    let files = draft.files(root)?;
    let base_set = rule_sets::newest(h.pool, h.now)
        .await?
        .map(|p| p.hash)
        .ok_or_else(|| {
            RuleSetError::Conflict(
                "No rule set is published yet: there is nothing to change.".into(),
            )
        })?;
    let run = ImpactRun::prepare(h, root, budget, draft).await?;
    let changes_of_suites = suite_diffs(&server_suites(root)?, &draft.suites);
    let changed_suites: Vec<File> = draft
        .suites
        .iter()
        .filter(|s| changes_of_suites.iter().any(|d| d.path == s.path))
        .cloned()
        .collect();
    let mut diffs = governance::diff(&run.base.files, &files);
    if diffs.is_empty() {
        return Err(RuleSetError::files(vec![
            "The draft is the set serving now: there is nothing to propose.".to_string(),
        ]));
    }
    let suites = run.suites.clone();
    // The impact in the draft worker (it also finds a draft that does not load), then the
    // proposed set's suites and coverage on the draft thread.
    let impact = run.compare(h, files.clone()).await?;
    let made = h
        .drafts
        .run(move || {
            let proposed = rules::bundle_of(&files)
                .map_err(|p| p.iter().map(ToString::to_string).collect::<Vec<_>>())?;
            let report =
                super::report::make(&proposed, &suites).map_err(|e| vec![e.to_string()])?;
            let failed: Vec<_> = report
                .scenarios
                .iter()
                .filter(|s| !s.passed)
                .map(|s| json!({ "at": s.at, "name": s.name, "failures": s.failures }))
                .collect();
            let evidence = json!({
                "impact": impact,
                "scenarios": { "run": report.scenarios.len(), "failed": failed },
                "coverage": { "totals": report.coverage.totals, "below_floor": report.below_floor },
            });
            // The suites it changes are part of what the approver reads.
            diffs.extend(changes_of_suites);
            Ok((
                rules::set_hash(&files),
                proposed.engine.hash().to_string(),
                files,
                diffs,
                evidence,
            ))
        })
        .await?;
    let (hash, engine_hash, files, diffs, evidence) = made.map_err(RuleSetError::files)?;
    let diff_hash = governance::diff_hash(&diffs);
    let kept: Vec<File> = files
        .iter()
        .map(|f| File {
            path: f.path.clone(),
            text: f.text.clone(),
        })
        .collect();
    let mut tx = h.pool.begin().await?;
    let id = rule_proposals::insert(
        &mut *tx,
        &rule_proposals::New {
            hash: &hash,
            engine_hash: &engine_hash,
            base_hash: &base_set,
            files: &kept,
            suites: &changed_suites,
            note: &note,
            diff_hash: &diff_hash,
            evidence: &evidence,
            author,
        },
        h.now,
    )
    .await?;
    let detail = governance::detail(&hash, &base_set, &diff_hash);
    governance::record(&mut *tx, actor, Action::RulesProposed, detail, h.now).await?;
    tx.commit().await?;
    let proposal = rule_proposals::by_id(h.pool, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("the proposal just made is not there"))?;
    Ok(ProposalDetail {
        proposal,
        files: diffs,
        serving_moved: false,
    })
}
