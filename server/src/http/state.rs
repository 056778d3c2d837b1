//! `AppState`: everything a request handler or a background task may use (the service layer's
//! handles: pool, clock, settings, rules, cipher, caches, object store, limits). Built by
//! `startup`, the CLI and the tests; imports no HTTP code.
//!
//! It is one `Arc` of `Handles`, so axum's clone per extractor is one reference count.

use std::sync::Arc;

use crate::db::PgPool;

use crate::documents::ObjectStore;
use crate::platform::cache::{self, Caches};
use crate::platform::clock::Clock;
use crate::platform::config::ServeArgs;
use crate::rules::Rules;
use crate::security::crypto::Cipher;

/// Everything a request handler may use: one shared pointer, so a clone is one reference count
/// (axum clones the state for each extractor of each request; a profile of step saves put 2 % of
/// the server's time in cloning and dropping its ten handles one by one). Its handles are
/// [`Handles`]' fields, read through it (`app.pool`).
#[derive(Clone)]
pub struct AppState(Arc<Handles>);

impl std::ops::Deref for AppState {
    type Target = Handles;

    fn deref(&self) -> &Handles {
        &self.0
    }
}

/// What [`AppState`] shares.
pub struct Handles {
    pub pool: PgPool,
    pub clock: Arc<dyn Clock>,
    pub config: Arc<ServeArgs>,
    /// The analysts' rules, forms and templates: swapped whole on a clean reload.
    pub rules: Arc<Rules>,
    pub cipher: Cipher,
    /// The key evidence packets and their PDFs are signed with, and the keys trusted.
    pub evidence_keys: crate::documents::signing::EvidenceKeys,
    /// Sessions, agents and applications in memory, kept coherent by PostgreSQL notifications.
    pub caches: Arc<Caches>,
    /// Where uploaded documents are stored.
    pub documents: ObjectStore,
    /// Wakes this instance's forgot-password worker when a request is queued here.
    pub reset_queued: Arc<tokio::sync::Notify>,
    /// Per-address limits on new applications, uploads, PDFs and exports.
    pub limits: Arc<crate::security::limits::Limits>,
    /// Wakes this instance's evidence-PDF maker when a purchase stored a packet.
    pub evidence_waiting: Arc<tokio::sync::Notify>,
    /// Where drafts are evaluated, apart from consumers' requests, and the impact's turn.
    pub drafts: crate::rules::drafts::Drafts,
}

impl AppState {
    /// The forgot-password worker's handles.
    pub fn reset_worker(&self) -> crate::accounts::ResetWorker {
        crate::accounts::ResetWorker {
            pool: self.pool.clone(),
            cipher: self.cipher.clone(),
            clock: self.clock.clone(),
            queued: self.reset_queued.clone(),
        }
    }

    /// The evidence-PDF maker's handles.
    pub fn pdf_maker(&self) -> crate::documents::evidence::PdfMaker {
        crate::documents::evidence::PdfMaker {
            pool: self.pool.clone(),
            clock: self.clock.clone(),
            keys: self.evidence_keys.clone(),
            waiting: self.evidence_waiting.clone(),
        }
    }

    /// The retention job's handles.
    pub fn retention(&self) -> crate::maintenance::retention::Retention {
        crate::maintenance::retention::Retention {
            pool: self.pool.clone(),
            clock: self.clock.clone(),
            documents: self.documents.clone(),
        }
    }
}

impl AppState {
    pub fn new(
        pool: PgPool,
        clock: Arc<dyn Clock>,
        config: ServeArgs,
        rules: Arc<Rules>,
        cipher: Cipher,
    ) -> anyhow::Result<Self> {
        let documents =
            ObjectStore::from_config(&config.documents_dir, config.document_store.as_deref())?;
        let limits = Arc::new(crate::security::limits::Limits::new(config.address_limit));
        let drafts = crate::rules::drafts::Drafts::with_worker(config.draft_worker.clone());
        let evidence_keys = config
            .evidence_keys
            .clone()
            .unwrap_or_else(|| crate::documents::signing::EvidenceKeys::derived(&cipher));
        Ok(Self(Arc::new(Handles {
            limits,
            documents,
            pool,
            clock,
            config: Arc::new(config),
            rules,
            cipher,
            evidence_keys,
            caches: Arc::new(Caches::new()),
            reset_queued: Arc::new(tokio::sync::Notify::new()),
            evidence_waiting: Arc::new(tokio::sync::Notify::new()),
            drafts,
        })))
    }

    /// Starts the task that keeps the caches coherent (they stay off until it has connected).
    pub fn spawn_cache_listener(&self) -> tokio::task::JoinHandle<()> {
        cache::spawn_listener(self.caches.clone(), self.pool.clone())
    }

    /// Starts the task that announces this instance's saves to the others.
    pub fn spawn_cache_announcer(&self) -> tokio::task::JoinHandle<()> {
        cache::spawn_announcer(self.caches.clone(), self.pool.clone())
    }
}

/// The applying use cases' handles, from the server's state.
impl<'a> crate::app::applying::Handles<'a> {
    /// The handles of a server's state.
    pub fn of(state: &'a AppState) -> Self {
        crate::app::applying::Handles {
            pool: &state.pool,
            clock: state.clock.as_ref(),
            rules: state.rules.as_ref(),
            caches: state.caches.as_ref(),
            cipher: &state.cipher,
            documents: &state.documents,
            evidence_keys: &state.evidence_keys,
            evidence_waiting: state.evidence_waiting.as_ref(),
        }
    }
}
