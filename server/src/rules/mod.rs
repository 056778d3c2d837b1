//! The analysts' files on disk: reading `rules/`, `forms/` and `templates/`, checking them as one
//! bundle, and hot reload. A reload swaps the bundle only when the whole set is clean; otherwise the
//! last good bundle keeps serving and the problems are logged and kept for the status endpoint.
//!
//! - `bundle_of` checks any set of files (the folder, a draft, a publication, a set read back from
//!   the database) into a `Bundle` (the `Engine` and the templates; the check itself is the tools
//!   crate's, `enrollflow_engine_tools::set`, given the server's texts); `Rules` holds the serving one
//!   in an `ArcSwap` with its status (from the folder or the database, the serving set). A reload
//!   builds a new engine and swaps the pointer; a request keeps the snapshot it took, so one
//!   request never sees two rule sets. A rule that fails at run time fails only its request (500
//!   with a generic message; the log names the rule's file and line).
//! - `watch()` and `watch_and_publish()` (local development): notify, on edits only (never a read),
//!   settled 250 ms.
//! - `publish` checks a set whole, then keeps and publishes it; publishing or rolling back switches
//!   the answering instance before it answers (`serve_newest`, one switch at a time).
//! - `serve_published` and `spawn_set_listener` (`--rules-from-database`): the newest published
//!   set, switched on `NOTIFY enrollflow_rules`, re-read after a lost connection.
//! - `templates/<code>/` holds a language's versions of the consumer's templates
//!   (`CONSUMER_TEMPLATES`, each required for every language of the set; `Bundle::template_for`).
//!
//! Beside it, the rest of the rules' services: where rules run (`evaluation`), plan snapshots
//! (`quoting`), the account mail apart from any rule set (`protected`), four eyes on each
//! publication (`governance`), a draft's impact (`impact`, `drafts`, `draft_worker`, `budget`).

pub mod budget;
pub mod draft_worker;
pub mod drafts;
pub mod evaluation;
pub mod governance;
pub mod impact;
pub mod protected;
pub mod quoting;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use arc_swap::ArcSwap;
use enrollflow_engine::{Diagnostic, Engine, Source};
use notify::event::{AccessKind, AccessMode};
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use serde::Serialize;
use time::OffsetDateTime;

use crate::db;
use crate::platform::clock::Clock;

pub use enrollflow_engine_tools::set::{
    Bundle, FOLDERS, SUITES, read_folders, read_set, read_sources, set_hash,
};

/// Loads and checks the rules, forms and templates under `root` as one bundle, with the server's
/// own texts.
pub fn load_bundle(root: &Path) -> Result<Bundle, Vec<Diagnostic>> {
    enrollflow_engine_tools::set::load_bundle(root, &crate::platform::texts::HOST_TEXTS)
}

/// Checks a set's files as one bundle (`enrollflow_engine_tools::set::bundle_of`) with the
/// server's own texts.
pub fn bundle_of(files: &[Source]) -> Result<Bundle, Vec<Diagnostic>> {
    enrollflow_engine_tools::set::bundle_of(files, &crate::platform::texts::HOST_TEXTS)
}

/// Loads the engine's part of a rule set with the server's own texts; `coverage`: for a coverage
/// run.
pub fn load_engine(sources: &[Source], coverage: bool) -> Result<Engine, Vec<Diagnostic>> {
    enrollflow_engine_tools::set::load_engine(
        sources,
        coverage,
        &crate::platform::texts::HOST_TEXTS,
    )
}

/// What the last reload found (shown to admins).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = RulesStatus)]
pub struct Status {
    /// Digest of the bundle serving now (the engine's: what applications record).
    pub serving_hash: String,
    /// Where the rules come from: `folder` (watched) or `database` (published sets).
    pub source: String,
    /// The published set serving now (database only): its hash over every file.
    pub serving_set: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub serving_since: OffsetDateTime,
    /// Problems of the newest files; empty when they are what is serving.
    #[schema(value_type = Vec<Object>)]
    pub problems: Vec<Diagnostic>,
    #[serde(with = "time::serde::rfc3339")]
    pub checked_at: OffsetDateTime,
}

/// The serving bundle and the status of the last check.
pub struct Rules {
    root: PathBuf,
    bundle: ArcSwap<Bundle>,
    status: ArcSwap<Status>,
    /// Held while the newest published set is read and loaded, so that two switches (the
    /// listener's and a publishing request's) cannot store an older set after a newer one.
    switching: tokio::sync::Mutex<()>,
}

impl Rules {
    /// Loads the bundle under `root`; fails with every problem if it is not clean.
    pub fn load(root: &Path) -> Result<Self, Vec<Diagnostic>> {
        let bundle = load_bundle(root)?;
        let now = OffsetDateTime::now_utc();
        let status = Status {
            serving_hash: bundle.engine.hash().to_string(),
            source: "folder".into(),
            serving_set: None,
            serving_since: now,
            problems: Vec::new(),
            checked_at: now,
        };
        Ok(Self {
            root: root.to_path_buf(),
            bundle: ArcSwap::from_pointee(bundle),
            status: ArcSwap::from_pointee(status),
            switching: tokio::sync::Mutex::new(()),
        })
    }

    /// The bundle serving now (cheap; requests keep the snapshot they took).
    pub fn current(&self) -> Arc<Bundle> {
        self.bundle.load_full()
    }

    pub fn status(&self) -> Arc<Status> {
        self.status.load_full()
    }

    /// Keeps the problems of the newest files for the status; the serving set does not change.
    pub fn note_problems(&self, problems: Vec<Diagnostic>) {
        let old = self.status();
        self.status.store(Arc::new(Status {
            problems,
            checked_at: OffsetDateTime::now_utc(),
            ..(*old).clone()
        }));
    }

    /// Serves a published set (its files as kept in the database).
    /// A set that does not load (published by an older release, say) is refused: the last good
    /// bundle keeps serving and the problems are kept for the status.
    pub fn serve_set(&self, set_hash: &str, files: &[Source]) -> bool {
        let now = OffsetDateTime::now_utc();
        let old = self.status();
        match bundle_of(files) {
            Ok(bundle) => {
                let hash = bundle.engine.hash().to_string();
                self.bundle.store(Arc::new(bundle));
                self.status.store(Arc::new(Status {
                    serving_hash: hash.clone(),
                    source: "database".into(),
                    serving_set: Some(set_hash.to_string()),
                    serving_since: now,
                    problems: Vec::new(),
                    checked_at: now,
                }));
                tracing::info!(set = %set_hash, hash = %hash, "published rule set serving");
                reloaded("ok");
                true
            }
            Err(problems) => {
                tracing::warn!(set = %set_hash, problems = problems.len(),
                               "published rule set not served: the last good rules keep serving");
                reloaded("failed");
                self.status.store(Arc::new(Status {
                    problems,
                    checked_at: now,
                    ..(*old).clone()
                }));
                false
            }
        }
    }

    /// Reads and checks everything again; swaps it in only when clean.
    pub fn reload(&self) -> bool {
        let now = OffsetDateTime::now_utc();
        match load_bundle(&self.root) {
            Ok(bundle) => {
                let hash = bundle.engine.hash().to_string();
                let changed = hash != self.status().serving_hash;
                self.bundle.store(Arc::new(bundle));
                let since = if changed {
                    now
                } else {
                    self.status().serving_since
                };
                self.status.store(Arc::new(Status {
                    serving_hash: hash.clone(),
                    source: "folder".into(),
                    serving_set: None,
                    serving_since: since,
                    problems: Vec::new(),
                    checked_at: now,
                }));
                if changed {
                    tracing::info!(hash = %hash, "rules reloaded");
                }
                reloaded("ok");
                true
            }
            Err(problems) => {
                for p in &problems {
                    tracing::warn!(file = %p.file, line = p.line, column = p.column, problem = %p.message,
                                   "rules not reloaded: the last good rules keep serving");
                }
                let old = self.status();
                self.status.store(Arc::new(Status {
                    problems,
                    checked_at: now,
                    ..(*old).clone()
                }));
                reloaded("failed");
                false
            }
        }
    }
}

/// Counts a reload of the rules (`enrollflow_rule_reloads_total`).
fn reloaded(outcome: &'static str) {
    metrics::counter!("enrollflow_rule_reloads_total", "outcome" => outcome).increment(1);
}

/// Watches the bundle's folders and reloads after edits settle (editors' atomic renames included).
/// Keep the returned watcher alive.
pub fn watch(rules: Arc<Rules>) -> anyhow::Result<RecommendedWatcher> {
    let root = rules.root.clone();
    on_change(&root, move || {
        rules.reload();
    })
}

/// How long the folders must be quiet before an edit is acted on (an editor's save is several
/// events: a temporary file written, renamed over the original).
const SETTLE: Duration = Duration::from_millis(250);

/// Whether a file event is an edit. Opening and reading a file is not: the watcher reacts to
/// what reloading itself does otherwise (it reads every file), and would reload for ever.
pub fn is_edit(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

/// Calls `changed` (on a thread of its own) each time edits under the bundle's folders settle.
fn on_change(
    root: &Path,
    changed: impl Fn() + Send + 'static,
) -> anyhow::Result<RecommendedWatcher> {
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<Event>| match res {
        Ok(event) if is_edit(&event.kind) => {
            let _ = tx.send(());
        }
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "watching rules failed"),
    })?;
    for folder in FOLDERS {
        let path = root.join(folder);
        if path.is_dir() {
            watcher.watch(&path, RecursiveMode::Recursive)?;
        }
    }
    // The thread ends with the watcher (its sender dropped).
    std::thread::Builder::new()
        .name("rules-watch".into())
        .spawn(move || {
            while rx.recv().is_ok() {
                while rx.recv_timeout(SETTLE).is_ok() {}
                changed();
            }
        })?;
    Ok(watcher)
}

/// Local development with published sets (`make demo`): each clean edit of the folder is
/// published (author `folder watch`), so every instance serves it as it would a set published
/// from the workbench; an edit with problems is logged and kept for the status, and publishes
/// nothing. A set published from the workbench meanwhile keeps serving until the folder is edited
/// again. Keep the returned watcher alive.
pub fn watch_and_publish(
    rules: Arc<Rules>,
    pool: crate::db::PgPool,
    clock: Arc<dyn Clock>,
) -> anyhow::Result<RecommendedWatcher> {
    let root = rules.root.clone();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<()>();
    let folder = root.clone();
    // The folder's set as last seen: what it held at start (published then, or serving already).
    let mut seen = read_set(&root).ok().map(|files| set_hash(&files));
    tokio::spawn(async move {
        while rx.recv().await.is_some() {
            while rx.try_recv().is_ok() {}
            match publish_folder(&rules, &pool, &folder, seen.as_deref(), clock.now()).await {
                Ok(Some(hash)) => seen = Some(hash),
                Ok(None) => {}
                Err(e) => tracing::warn!(error = %e, "publishing the edited rules failed"),
            }
        }
    });
    on_change(&root, move || {
        let _ = tx.send(());
    })
}

/// Publishes the folder's set when it differs from `seen` (the folder as last seen) and from the
/// set serving; returns the folder's set hash when it was read. A folder that did not change
/// publishes nothing, so a set published from the workbench is not replaced by the folder.
/// Problems are kept for the status.
pub async fn publish_folder(
    rules: &Rules,
    pool: &crate::db::PgPool,
    root: &Path,
    seen: Option<&str>,
    now: OffsetDateTime,
) -> anyhow::Result<Option<String>> {
    let files = read_set(root).map_err(|d| anyhow::anyhow!("{d}"))?;
    let hash = set_hash(&files);
    if seen == Some(hash.as_str())
        || db::rule_sets::newest(pool, now)
            .await?
            .is_some_and(|p| p.hash == hash)
    {
        return Ok(Some(hash));
    }
    match publish(pool, &files, "folder watch", None, now).await? {
        Ok(p) => tracing::info!(set = %p.hash, "edited rules published"),
        Err(problems) => {
            for p in &problems {
                tracing::warn!(file = %p.file, line = p.line, column = p.column, problem = %p.message,
                               "edited rules not published: the last good rules keep serving");
            }
            rules.note_problems(problems);
        }
    }
    Ok(Some(hash))
}

/// Publishes a set of files as the one every instance serves, after checking it whole: refused
/// with every problem when it does not load.
pub async fn publish(
    pool: &crate::db::PgPool,
    files: &[Source],
    author: &str,
    note: Option<&str>,
    now: OffsetDateTime,
) -> anyhow::Result<Result<db::rule_sets::Publication, Vec<Diagnostic>>> {
    let bundle = match bundle_of(files) {
        Ok(b) => b,
        Err(problems) => return Ok(Err(problems)),
    };
    let effect = db::rule_sets::Effect {
        effective_at: now,
        proposal: None,
        approver: None,
    };
    publish_checked(pool, &bundle, files, author, note, effect).await
}

/// Publishes a set already checked whole (`bundle` is `bundle_of(files)`).
pub async fn publish_checked(
    pool: &crate::db::PgPool,
    bundle: &Bundle,
    files: &[Source],
    author: &str,
    note: Option<&str>,
    effect: db::rule_sets::Effect<'_>,
) -> anyhow::Result<Result<db::rule_sets::Publication, Vec<Diagnostic>>> {
    let kept: Vec<db::rule_sets::File> = files
        .iter()
        .map(|f| db::rule_sets::File {
            path: f.path.clone(),
            text: f.text.clone(),
        })
        .collect();
    let p = db::rule_sets::publish(
        pool,
        &set_hash(files),
        bundle.engine.hash(),
        &kept,
        author,
        note,
        effect,
    )
    .await?;
    Ok(Ok(p))
}

/// Serves the published sets: the newest publication in effect at start, and each one as soon as
/// its notification arrives or its effective moment comes (the clock is read every second, so an
/// injected clock drives the switch as the real one does); a lost connection is re-established
/// and the newest set read again, so a publication made meanwhile is not missed. With no set
/// published yet, the folder's set is published first (a new database starts with the files it
/// was deployed with).
pub fn spawn_set_listener(
    rules: Arc<Rules>,
    pool: crate::db::PgPool,
    root: PathBuf,
    clock: Arc<dyn Clock>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            if let Err(e) = follow_sets(&rules, &pool, &root, clock.as_ref()).await {
                tracing::warn!(error = %e, "rule set listener failed; reconnecting");
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    })
}

async fn follow_sets(
    rules: &Rules,
    pool: &crate::db::PgPool,
    root: &Path,
    clock: &dyn Clock,
) -> anyhow::Result<()> {
    let mut listener = crate::db::PgListener::connect_with(pool).await?;
    listener.eager_reconnect(false);
    listener.listen(db::rule_sets::CHANNEL).await?;
    serve_published(rules, pool, root, clock.now()).await?;
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            note = listener.try_recv() => {
                if note?.is_none() {
                    return Ok(());
                }
            }
            _ = tick.tick() => {}
        }
        serve_newest(rules, pool, clock.now()).await?;
    }
}

/// Serves the newest published set in effect (publishing the folder's first when none was ever
/// published).
pub async fn serve_published(
    rules: &Rules,
    pool: &crate::db::PgPool,
    root: &Path,
    now: OffsetDateTime,
) -> anyhow::Result<()> {
    if !db::rule_sets::any(pool).await? {
        let files = read_set(root).map_err(|d| anyhow::anyhow!("{d}"))?;
        if let Err(problems) = publish(pool, &files, "first start", None, now).await? {
            anyhow::bail!("the folder's rules have {} problem(s)", problems.len());
        }
    }
    serve_newest(rules, pool, now).await
}

/// Serves the newest published set in effect at `now` when it is not the one serving: on a
/// notification, every second, and in the request that published or rolled back, so that its
/// answer means this instance serves the set.
pub async fn serve_newest(
    rules: &Rules,
    pool: &crate::db::PgPool,
    now: OffsetDateTime,
) -> anyhow::Result<()> {
    let _one_at_a_time = rules.switching.lock().await;
    // The files (a whole rule set) are read only when the newest set is not the one serving.
    let Some(p) = db::rule_sets::newest(pool, now).await? else {
        return Ok(());
    };
    if rules.status().serving_set.as_deref() == Some(p.hash.as_str()) {
        return Ok(());
    }
    if let Some(files) = db::rule_sets::files(pool, &p.hash).await? {
        rules.serve_set(&p.hash, &db::rule_sets::sources(&files));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use notify::event::{CreateKind, DataChange, ModifyKind, RemoveKind, RenameMode};

    use super::*;

    #[test]
    fn reading_a_file_is_not_an_edit_and_writing_one_is() {
        // What loading the rules does to every file: opened, read, closed unwritten.
        for read in [
            AccessKind::Open(AccessMode::Read),
            AccessKind::Open(AccessMode::Any),
            AccessKind::Read,
            AccessKind::Close(AccessMode::Read),
            AccessKind::Any,
        ] {
            assert!(!is_edit(&EventKind::Access(read)), "{read:?}");
        }
        // An editor's save: written in place, or a temporary file renamed over the original.
        for edit in [
            EventKind::Access(AccessKind::Close(AccessMode::Write)),
            EventKind::Modify(ModifyKind::Data(DataChange::Any)),
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)),
            EventKind::Create(CreateKind::File),
            EventKind::Remove(RemoveKind::File),
            EventKind::Any,
        ] {
            assert!(is_edit(&edit), "{edit:?}");
        }
    }
}
