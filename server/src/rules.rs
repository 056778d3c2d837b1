//! The analysts' files on disk: reading `rules/`, `forms/` and `templates/`, checking them as one
//! bundle, and hot reload. A reload swaps the bundle only when the whole set is clean; otherwise the
//! last good bundle keeps serving and the problems are logged and kept for the status endpoint.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use arc_swap::ArcSwap;
use enrollflow_engine::{Diagnostic, Engine, Source};
use notify_debouncer_mini::notify::RecursiveMode;
use notify_debouncer_mini::{DebounceEventResult, Debouncer, new_debouncer};
use serde::Serialize;
use time::OffsetDateTime;

/// The folders a bundle is made of, relative to the root.
pub const FOLDERS: [&str; 3] = ["rules", "forms", "templates"];

/// Everything read from the analysts' folders, checked.
pub struct Bundle {
    pub engine: Engine,
    pub templates: minijinja::Environment<'static>,
}

/// What the last reload found (shown to admins).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = RulesStatus)]
pub struct Status {
    /// Digest of the bundle serving now.
    pub serving_hash: String,
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
}

impl Rules {
    /// Loads the bundle under `root`; fails with every problem if it is not clean.
    pub fn load(root: &Path) -> Result<Self, Vec<Diagnostic>> {
        let bundle = load_bundle(root)?;
        let now = OffsetDateTime::now_utc();
        let status = Status {
            serving_hash: bundle.engine.hash().to_string(),
            serving_since: now,
            problems: Vec::new(),
            checked_at: now,
        };
        Ok(Self {
            root: root.to_path_buf(),
            bundle: ArcSwap::from_pointee(bundle),
            status: ArcSwap::from_pointee(status),
        })
    }

    /// The bundle serving now (cheap; requests keep the snapshot they took).
    pub fn current(&self) -> Arc<Bundle> {
        self.bundle.load_full()
    }

    pub fn status(&self) -> Arc<Status> {
        self.status.load_full()
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
                    serving_since: since,
                    problems: Vec::new(),
                    checked_at: now,
                }));
                if changed {
                    tracing::info!(hash = %hash, "rules reloaded");
                }
                true
            }
            Err(problems) => {
                for p in &problems {
                    tracing::warn!(file = %p.file, line = p.line, column = p.column, problem = %p.message,
                                   "rules not reloaded: the last good rules keep serving");
                }
                let old = self.status();
                self.status.store(Arc::new(Status {
                    serving_hash: old.serving_hash.clone(),
                    serving_since: old.serving_since,
                    problems,
                    checked_at: now,
                }));
                false
            }
        }
    }
}

/// Watches the bundle's folders and reloads after edits settle (editors' atomic renames included).
/// Keep the returned watcher alive.
pub fn watch(
    rules: Arc<Rules>,
) -> anyhow::Result<Debouncer<notify_debouncer_mini::notify::RecommendedWatcher>> {
    let root = rules.root.clone();
    let mut debouncer = new_debouncer(
        Duration::from_millis(250),
        move |res: DebounceEventResult| match res {
            Ok(events) if !events.is_empty() => {
                rules.reload();
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "watching rules failed"),
        },
    )?;
    for folder in FOLDERS {
        let path = root.join(folder);
        if path.is_dir() {
            debouncer.watcher().watch(&path, RecursiveMode::Recursive)?;
        }
    }
    Ok(debouncer)
}

/// Every rule and form file under `root` (paths relative to it, `/`-separated).
pub fn read_sources(root: &Path) -> Result<Vec<Source>, Diagnostic> {
    read_folders(root, &["rules", "forms"])
}

/// The YAML and Rhai files under these folders of `root`, in path order (also the scenario
/// suites, for tools that replay them).
pub fn read_folders(root: &Path, folders: &[&str]) -> Result<Vec<Source>, Diagnostic> {
    let mut out = Vec::new();
    for folder in folders {
        read_dir(root, folder, &mut out, &|name| {
            name.ends_with(".yaml") || name.ends_with(".rhai")
        })?;
    }
    Ok(out)
}

fn read_dir(
    root: &Path,
    rel: &str,
    out: &mut Vec<Source>,
    keep: &dyn Fn(&str) -> bool,
) -> Result<(), Diagnostic> {
    let dir = root.join(rel);
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(Diagnostic::file(
                rel,
                format!("cannot read the folder: {e}"),
            ));
        }
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with('.') || name.ends_with('~') {
            continue; // editor swap and backup files
        }
        let path = format!("{rel}/{name}");
        let file_type = e
            .file_type()
            .map_err(|err| Diagnostic::file(&path, err.to_string()))?;
        if file_type.is_dir() {
            read_dir(root, &path, out, keep)?;
        } else if keep(&name) {
            let text = std::fs::read_to_string(e.path())
                .map_err(|err| Diagnostic::file(&path, format!("cannot read the file: {err}")))?;
            out.push(Source::new(path, text));
        }
    }
    Ok(())
}

/// Loads and checks the rules, forms and templates under `root` as one bundle.
pub fn load_bundle(root: &Path) -> Result<Bundle, Vec<Diagnostic>> {
    let mut problems = Vec::new();
    let sources = read_sources(root).map_err(|d| vec![d])?;
    let engine = match enrollflow_engine::load(&sources) {
        Ok(e) => Some(e),
        Err(mut p) => {
            problems.append(&mut p);
            None
        }
    };
    let mut templates = minijinja::Environment::new();
    templates.add_global("product_name", crate::config::PRODUCT_NAME);
    let mut files = Vec::new();
    if let Err(d) = read_dir(root, "templates", &mut files, &|_| true) {
        problems.push(d);
    }
    for f in files {
        let name = f
            .path
            .strip_prefix("templates/")
            .unwrap_or(&f.path)
            .to_string();
        if let Err(e) = templates.add_template_owned(name, f.text) {
            problems.push(Diagnostic::new(
                &f.path,
                e.line().unwrap_or(1),
                1,
                format!("template: {}", e.detail().unwrap_or("invalid template")),
            ));
        }
    }
    match engine {
        Some(engine) if problems.is_empty() => Ok(Bundle { engine, templates }),
        _ => Err(problems),
    }
}
