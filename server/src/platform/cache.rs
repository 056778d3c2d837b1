//! In-process caches of what nearly every `/api` request reads: the session row, the site's agent and
//! the session's application (with its prepared quotes), so the hot paths need no PostgreSQL round
//! trip. PostgreSQL stays the truth:
//!
//! - Every change of a session's application, a deleted session, and any change of agents or
//!   subdomains is announced by a trigger (migration 4) on `NOTIFY enrollflow_cache`, whichever
//!   instance or tool made it. A listener task evicts what the notifications name.
//! - Application saves are announced by the instance that made them, after the commit
//!   (`a:{id}:{revision}`, batched off the request path by the announcer task): a NOTIFY inside the
//!   saving transaction would hold PostgreSQL's notify lock through the WAL flush and serialize
//!   every save. Any other change of an application (an UPDATE that does not bump `revision`, a
//!   DELETE) is still announced by its trigger (migration 11).
//! - The saving instance keeps the saved version (write-through); a copy is only ever replaced by a
//!   newer revision, and an announcement evicts only older copies.
//! - A browser's own writes are read back on any instance at once: the `ef_rev` cookie
//!   (server/src/http/revision.rs) names its session's application and the revision it last wrote, and
//!   an older cached copy is not served to it.
//! - The caches are used only while that listener is connected: until it is, and from the moment it
//!   fails until it has reconnected (and cleared everything), every lookup goes to PostgreSQL.
//! - A value read from PostgreSQL is inserted only if no eviction happened while it was being read
//!   (a global generation counter), so a slow reader never re-inserts what a writer just replaced.
//! - Cached applications live at most `APPLICATION_TTL`: the backstop for an announcement lost
//!   when an instance dies between its commit and the announcement.
//! - Idle expiry is never decided from the cache: a session is served from it only while its
//!   recorded activity is recent (under the 15-second write interval); otherwise PostgreSQL decides.
//!
//! The caches are bounded (moka). The application's entry also holds what is prepared from it (the
//! quote's JSON, the step checks of `valid_step`), keyed by the rules' hash, today and the agent's
//! offer, so it goes when the application changes. `settle()` is the tests' barrier.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::db::PgListener;
use crate::db::PgPool;
use moka::sync::Cache;
use serde_json::Value;
use time::OffsetDateTime;
use tokio::sync::{mpsc, watch};
use uuid::Uuid;

use crate::db::agents::AgentRow;

/// The notification channel the triggers of migration 4 write to.
pub const CHANNEL: &str = "enrollflow_cache";

/// A session as the cache holds it.
#[derive(Debug, Clone)]
pub struct CachedSession {
    pub csrf_token: String,
    pub application_id: Option<Uuid>,
    pub user_id: Option<Uuid>,
    pub impersonator_id: Option<Uuid>,
    /// The activity time last written to PostgreSQL.
    pub last_seen_at: OffsetDateTime,
}

/// How long a cached application is kept at most (see the module's notes).
const APPLICATION_TTL: Duration = Duration::from_secs(300);

/// An application's data document, and what has been prepared from it.
pub struct CachedApplication {
    pub agent_id: Uuid,
    pub data: Arc<Value>,
    /// The application's `revision` this document is.
    pub revision: i64,
    /// Prepared answers keyed by whatever else they depend on (rules, day, agent's offer); they
    /// go away with the entry when the application changes.
    prepared: Mutex<HashMap<String, Arc<dyn std::any::Any + Send + Sync>>>,
}

impl CachedApplication {
    pub fn new(agent_id: Uuid, data: Arc<Value>, revision: i64) -> Self {
        Self {
            agent_id,
            data,
            revision,
            prepared: Mutex::new(HashMap::new()),
        }
    }

    /// The value prepared for `key`, if there is one yet.
    pub fn cached<T>(&self, key: &str) -> Option<Arc<T>>
    where
        T: Send + Sync + 'static,
    {
        let found = self.lock().get(key).cloned()?.downcast::<T>().ok();
        metrics::counter!("enrollflow_cache_requests_total", "cache" => "prepared",
                          "result" => if found.is_some() { "hit" } else { "miss" })
        .increment(1);
        found
    }

    /// A prepared value for `key`, made by `make` on first use (an error is not kept).
    pub fn prepared<T, E>(
        &self,
        key: String,
        make: impl FnOnce() -> Result<T, E>,
    ) -> Result<Arc<T>, E>
    where
        T: Send + Sync + 'static,
    {
        if let Some(found) = self.lock().get(&key).cloned()
            && let Ok(found) = found.downcast::<T>()
        {
            return Ok(found);
        }
        let made = Arc::new(make()?);
        let mut map = self.lock();
        // A few dozen keys at most (step views and checks, plan types; × rules versions): bounded anyway.
        if map.len() >= 64 {
            map.clear();
        }
        map.insert(key, made.clone());
        Ok(made)
    }

    fn lock(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<String, Arc<dyn std::any::Any + Send + Sync>>> {
        self.prepared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A lookup, counted as a hit or a miss (`enrollflow_cache_requests_total`).
fn counted<T>(cache: &'static str, found: Option<T>) -> Option<T> {
    let result = if found.is_some() { "hit" } else { "miss" };
    metrics::counter!("enrollflow_cache_requests_total", "cache" => cache, "result" => result)
        .increment(1);
    found
}

pub struct Caches {
    sessions: Cache<[u8; 32], Arc<CachedSession>>,
    agents: Cache<String, Arc<AgentRow>>,
    applications: Cache<Uuid, Arc<CachedApplication>>,
    live: AtomicBool,
    generation: AtomicU64,
    barrier: watch::Sender<u64>,
    /// Notification payloads for the announcer task (`spawn_announcer`) to send.
    outbox: mpsc::UnboundedSender<String>,
    outbox_rx: Mutex<Option<mpsc::UnboundedReceiver<String>>>,
}

impl Default for Caches {
    fn default() -> Self {
        Self::new()
    }
}

impl Caches {
    pub fn new() -> Self {
        let idle = Duration::from_secs(30 * 60);
        let (outbox, outbox_rx) = mpsc::unbounded_channel();
        Self {
            sessions: Cache::builder()
                .max_capacity(200_000)
                .time_to_idle(idle)
                .build(),
            agents: Cache::builder().max_capacity(10_000).build(),
            applications: Cache::builder()
                .max_capacity(50_000)
                .time_to_idle(idle)
                .time_to_live(APPLICATION_TTL)
                .build(),
            live: AtomicBool::new(false),
            generation: AtomicU64::new(0),
            barrier: watch::channel(0).0,
            outbox,
            outbox_rx: Mutex::new(Some(outbox_rx)),
        }
    }

    /// Whether lookups may be served from memory (the invalidation listener is connected).
    pub fn is_live(&self) -> bool {
        self.live.load(Ordering::Acquire)
    }

    /// The eviction generation; read it before a database read and pass it to an insert.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    pub fn session(&self, id_hash: &[u8; 32]) -> Option<Arc<CachedSession>> {
        counted(
            "session",
            self.is_live().then(|| self.sessions.get(id_hash)).flatten(),
        )
    }

    pub fn agent(&self, subdomain: &str) -> Option<Arc<AgentRow>> {
        counted(
            "agent",
            self.is_live().then(|| self.agents.get(subdomain)).flatten(),
        )
    }

    pub fn application(&self, id: &Uuid) -> Option<Arc<CachedApplication>> {
        counted(
            "application",
            self.is_live().then(|| self.applications.get(id)).flatten(),
        )
    }

    /// Inserts unless caching is off or something was evicted since `generation` was read.
    fn insert_if<K, V>(&self, cache: &Cache<K, V>, generation: u64, key: K, value: V)
    where
        K: std::hash::Hash + Eq + Send + Sync + 'static,
        V: Clone + Send + Sync + 'static,
    {
        if self.is_live() && self.generation() == generation {
            cache.insert(key, value);
        }
    }

    pub fn put_session(&self, generation: u64, id_hash: [u8; 32], s: CachedSession) {
        self.insert_if(&self.sessions, generation, id_hash, Arc::new(s));
    }

    pub fn put_agent(&self, generation: u64, subdomain: &str, agent: Arc<AgentRow>) {
        self.insert_if(&self.agents, generation, subdomain.to_string(), agent);
    }

    pub fn put_application(&self, generation: u64, id: Uuid, a: Arc<CachedApplication>) {
        self.insert_if(&self.applications, generation, id, a);
    }

    fn bump(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    pub fn evict_session(&self, id_hash: &[u8; 32]) {
        self.bump();
        self.sessions.invalidate(id_hash);
    }

    pub fn evict_application(&self, id: &Uuid) {
        self.bump();
        self.applications.invalidate(id);
    }

    /// Evicts a cached copy older than `revision` (an announced save); a copy at least as new stays.
    fn evict_application_before(&self, id: &Uuid, revision: i64) {
        if self
            .applications
            .get(id)
            .is_some_and(|c| c.revision >= revision)
        {
            return;
        }
        self.evict_application(id);
    }

    /// After this instance saved an application: keeps the saved version unless a newer one is
    /// already held, and announces the save to the other instances.
    pub fn saved_application(&self, id: Uuid, saved: Arc<CachedApplication>) {
        let revision = saved.revision;
        // A reader that loaded an older version meanwhile must not insert it after this.
        self.bump();
        if self.is_live()
            && self
                .applications
                .get(&id)
                .is_none_or(|c| c.revision < revision)
        {
            self.applications.insert(id, saved);
        }
        self.announce(format!("a:{id}:{revision}"));
    }

    /// After this instance changed an application in PostgreSQL without holding the new document
    /// (an upload's attachment): evicts it here and announces the change.
    pub fn changed_application(&self, id: Uuid, revision: i64) {
        self.evict_application(&id);
        self.announce(format!("a:{id}:{revision}"));
    }

    fn announce(&self, payload: String) {
        // Fails only once the announcer has stopped (shutdown); nothing is left to tell then.
        let _ = self.outbox.send(payload);
    }

    pub fn evict_agents(&self) {
        self.bump();
        self.agents.invalidate_all();
    }

    fn clear(&self) {
        self.bump();
        self.sessions.invalidate_all();
        self.agents.invalidate_all();
        self.applications.invalidate_all();
    }

    /// Applies one notification payload: `s:{hex hash}`, `a:{uuid}` (any change), `a:{uuid}:{revision}`
    /// (a save), `g:` (agents) or `b:{n}`.
    fn apply(&self, payload: &str) {
        match payload.split_once(':') {
            Some(("s", hash)) => {
                let mut id = [0u8; 32];
                if hex::decode_to_slice(hash, &mut id).is_ok() {
                    self.evict_session(&id);
                }
            }
            Some(("a", rest)) => match rest.split_once(':') {
                Some((id, revision)) => {
                    if let (Ok(id), Ok(revision)) = (id.parse(), revision.parse()) {
                        self.evict_application_before(&id, revision);
                    }
                }
                None => {
                    if let Ok(id) = rest.parse() {
                        self.evict_application(&id);
                    }
                }
            },
            Some(("g", _)) => self.evict_agents(),
            Some(("b", n)) => {
                if let Ok(n) = n.parse() {
                    self.barrier.send_replace(n);
                }
            }
            _ => self.clear(),
        }
    }

    /// Waits until every change committed before this call, and every save this instance has
    /// announced, has been applied here (tests, tools). The barrier goes through the announcer,
    /// after what it was asked to send before.
    pub async fn settle(&self) -> anyhow::Result<()> {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        if !self.is_live() {
            return Ok(());
        }
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let mut seen = self.barrier.subscribe();
        self.announce(format!("b:{n}"));
        tokio::time::timeout(Duration::from_secs(10), seen.wait_for(|&v| v >= n))
            .await
            .map_err(|_| anyhow::anyhow!("cache invalidations did not arrive"))??;
        Ok(())
    }
}

/// Sends the saves this instance announces (`Caches::saved_application`), in batches, each in a
/// transaction that does not wait for the WAL flush (losing one in a crash is what
/// `APPLICATION_TTL` covers; the saves themselves are durable).
pub fn spawn_announcer(caches: Arc<Caches>, pool: PgPool) -> tokio::task::JoinHandle<()> {
    let rx = caches
        .outbox_rx
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    tokio::spawn(async move {
        let Some(mut rx) = rx else {
            tracing::error!("the cache announcer was started twice");
            return;
        };
        let mut batch: Vec<String> = Vec::new();
        let mut failures = 0;
        loop {
            if batch.is_empty() {
                match rx.recv().await {
                    Some(p) => batch.push(p),
                    None => return,
                }
            }
            while batch.len() < 1000 {
                match rx.try_recv() {
                    Ok(p) => batch.push(p),
                    Err(_) => break,
                }
            }
            match crate::db::notices::announce(&pool, CHANNEL, &batch).await {
                Ok(()) => {
                    batch.clear();
                    failures = 0;
                }
                Err(e) => {
                    failures += 1;
                    // PostgreSQL unreachable for long: every instance's listener has lost its
                    // connection too and clears its caches when it is back, so nothing is owed.
                    if failures >= 10 {
                        tracing::warn!(error = %e, dropped = batch.len(), "cache announcements dropped");
                        batch.clear();
                        failures = 0;
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    })
}

/// Keeps the caches coherent with PostgreSQL: listens for the triggers' notifications, and turns
/// the caches off (and clears them) whenever the listener is not connected.
pub fn spawn_listener(caches: Arc<Caches>, pool: PgPool) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            match listen(&caches, &pool).await {
                Ok(()) => tracing::warn!("cache listener lost its connection; caches off"),
                Err(e) => tracing::warn!(error = %e, "cache listener failed; caches off"),
            }
            caches.live.store(false, Ordering::Release);
            caches.clear();
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    })
}

async fn listen(caches: &Caches, pool: &PgPool) -> crate::db::Result<()> {
    let mut listener = PgListener::connect_with(pool).await?;
    // By default `try_recv` reconnects before reporting a lost connection, and waits for the pool
    // (up to its acquire timeout) to do so: the caches would stay on, unwatched, all that time.
    // Report the loss at once instead; the loop above turns the caches off and reconnects.
    listener.eager_reconnect(false);
    listener.listen(CHANNEL).await?;
    // Anything cached before this point may have missed its notification.
    caches.clear();
    caches.live.store(true, Ordering::Release);
    // `try_recv` answers `None` when the connection was lost (notifications sent meanwhile are
    // lost too): start over with a fresh listener and empty caches.
    while let Some(n) = listener.try_recv().await? {
        caches.apply(n.payload());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn session() -> CachedSession {
        CachedSession {
            csrf_token: "t".into(),
            application_id: None,
            user_id: None,
            impersonator_id: None,
            last_seen_at: OffsetDateTime::UNIX_EPOCH,
        }
    }

    #[test]
    fn nothing_is_served_or_kept_while_the_listener_is_down() {
        let c = Caches::new();
        c.put_session(c.generation(), [1; 32], session());
        assert!(c.session(&[1; 32]).is_none());
        c.live.store(true, Ordering::Release);
        assert!(
            c.session(&[1; 32]).is_none(),
            "the earlier insert was refused"
        );
        c.put_session(c.generation(), [1; 32], session());
        assert!(c.session(&[1; 32]).is_some());
    }

    #[test]
    fn a_read_that_raced_an_eviction_is_not_inserted() {
        let c = Caches::new();
        c.live.store(true, Ordering::Release);
        let before = c.generation();
        c.apply(&format!("s:{}", hex::encode([2u8; 32])));
        c.put_session(before, [2; 32], session());
        assert!(c.session(&[2; 32]).is_none());
    }

    #[test]
    fn notifications_evict_what_they_name() {
        let c = Caches::new();
        c.live.store(true, Ordering::Release);
        let id = Uuid::new_v4();
        let app = Arc::new(CachedApplication::new(
            Uuid::nil(),
            Arc::new(Value::Null),
            0,
        ));
        c.put_application(c.generation(), id, app);
        c.put_session(c.generation(), [3; 32], session());
        c.apply(&format!("a:{id}"));
        assert!(c.application(&id).is_none());
        assert!(c.session(&[3; 32]).is_some());
        c.apply(&format!("s:{}", hex::encode([3u8; 32])));
        assert!(c.session(&[3; 32]).is_none());
    }

    #[test]
    fn an_announced_save_evicts_only_older_copies() {
        let c = Caches::new();
        c.live.store(true, Ordering::Release);
        let id = Uuid::new_v4();
        let at = |revision| {
            Arc::new(CachedApplication::new(
                Uuid::nil(),
                Arc::new(Value::Null),
                revision,
            ))
        };
        c.saved_application(id, at(5));
        c.apply(&format!("a:{id}:5"));
        assert_eq!(
            c.application(&id).map(|a| a.revision),
            Some(5),
            "its own save stays"
        );
        c.saved_application(id, at(4));
        assert_eq!(
            c.application(&id).map(|a| a.revision),
            Some(5),
            "never replaced by an older one"
        );
        c.apply(&format!("a:{id}:6"));
        assert!(
            c.application(&id).is_none(),
            "a newer save elsewhere evicts it"
        );
        c.saved_application(id, at(7));
        c.apply(&format!("a:{id}"));
        assert!(
            c.application(&id).is_none(),
            "a change without a revision evicts any copy"
        );
    }

    #[test]
    fn a_read_that_raced_a_save_is_not_inserted() {
        let c = Caches::new();
        c.live.store(true, Ordering::Release);
        let id = Uuid::new_v4();
        let before = c.generation();
        c.saved_application(
            id,
            Arc::new(CachedApplication::new(Uuid::nil(), Arc::new(json!(2)), 2)),
        );
        c.put_application(
            before,
            id,
            Arc::new(CachedApplication::new(Uuid::nil(), Arc::new(json!(1)), 1)),
        );
        assert_eq!(c.application(&id).map(|a| a.revision), Some(2));
    }

    #[test]
    fn prepared_values_are_made_once_per_key() {
        let a = CachedApplication::new(Uuid::nil(), Arc::new(Value::Null), 0);
        let mut made = 0;
        for _ in 0..3 {
            let v = a
                .prepared("k".into(), || {
                    made += 1;
                    Ok::<_, ()>(7)
                })
                .expect("made");
            assert_eq!(*v, 7);
        }
        assert_eq!(made, 1);
        assert!(a.prepared::<i32, &str>("e".into(), || Err("no")).is_err());
    }
}
