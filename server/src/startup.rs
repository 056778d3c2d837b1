//! Building the application state and running the server.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::PgPool;

use crate::cache::{self, Caches};
use crate::clock::Clock;
use crate::config::ServeArgs;
use crate::crypto::Cipher;
use crate::documents::ObjectStore;
use crate::rules::Rules;
use crate::{accounts, db, http, mail, rules};

/// Everything a request handler may use; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub clock: Arc<dyn Clock>,
    pub config: Arc<ServeArgs>,
    /// The analysts' rules, forms and templates: swapped whole on a clean reload.
    pub rules: Arc<Rules>,
    pub cipher: Cipher,
    /// Sessions, agents and applications in memory, kept coherent by PostgreSQL notifications.
    pub caches: Arc<Caches>,
    /// Where uploaded documents are stored.
    pub documents: ObjectStore,
    /// Wakes this instance's forgot-password worker when a request is queued here.
    pub reset_queued: Arc<tokio::sync::Notify>,
    /// Per-address limits on new applications, uploads, PDFs and exports.
    pub limits: Arc<crate::limits::Limits>,
}

impl AppState {
    pub fn new(
        pool: PgPool,
        clock: Arc<dyn Clock>,
        config: ServeArgs,
        rules: Arc<Rules>,
        cipher: Cipher,
    ) -> Self {
        let documents = ObjectStore::LocalDisk(config.documents_dir.clone());
        let limits = Arc::new(crate::limits::Limits::new(config.address_limit));
        Self {
            limits,
            documents,
            pool,
            clock,
            config: Arc::new(config),
            rules,
            cipher,
            caches: Arc::new(Caches::new()),
            reset_queued: Arc::new(tokio::sync::Notify::new()),
        }
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

/// Serves until SIGINT or SIGTERM, then lets requests in flight finish.
pub async fn serve(state: AppState) -> anyhow::Result<()> {
    state.config.check()?;
    let listener = tokio::net::TcpListener::bind(state.config.listen)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", state.config.listen))?;
    tracing::info!(address = %listener.local_addr()?, "serving");
    spawn_session_sweeper(state.clone());
    let _resets = accounts::spawn_reset_worker(state.clone());
    match &state.config.smtp_url {
        Some(url) if !url.trim().is_empty() => {
            let mailer =
                mail::Mailer::new(url.trim(), &state.config.mail_from, state.cipher.clone())?;
            mail::spawn_sender(state.pool.clone(), state.clock.clone(), mailer);
            tracing::info!("e-mail goes through the configured SMTP relay");
        }
        _ => tracing::info!("no SMTP relay configured: e-mail stays in the outbox"),
    }
    let _listener = state.spawn_cache_listener();
    let _announcer = state.spawn_cache_announcer();
    let _watcher = if state.config.no_watch {
        None
    } else {
        Some(rules::watch(state.rules.clone())?)
    };
    let app = http::router(state);
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown_signal())
    .await?;
    tracing::info!("stopped");
    Ok(())
}

/// Deletes idle sessions every few minutes (expiry itself is enforced per request), and failed
/// logins and account tokens nothing reads any more.
fn spawn_session_sweeper(state: AppState) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(300));
        loop {
            tick.tick().await;
            let now = state.clock.now();
            let cutoff = now - state.config.idle_timeout();
            let created_cutoff = now - state.config.session_lifetime();
            match db::sessions::delete_idle(&state.pool, cutoff, created_cutoff).await {
                Ok(n) if n > 0 => tracing::info!(deleted = n, "idle sessions removed"),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "idle-session sweep failed"),
            }
            if let Err(e) = db::sessions::sweep_replaced(&state.pool, now).await {
                tracing::warn!(error = %e, "replaced-session sweep failed");
            }
            if let Err(e) = db::outbox::drop_expired_secrets(&state.pool, now).await {
                tracing::warn!(error = %e, "outbox secret sweep failed");
            }
            if let Err(e) =
                db::reset_requests::sweep_log(&state.pool, now - time::Duration::hours(1)).await
            {
                tracing::warn!(error = %e, "reset request log sweep failed");
            }
            if let Err(e) = db::second_factor::delete_challenges_before(
                &state.pool,
                now - crate::second_factor::CHALLENGE_VALID_FOR,
            )
            .await
            {
                tracing::warn!(error = %e, "login challenge sweep failed");
            }
            state.limits.forget_idle();
            let old_failures = now - accounts::FAILURE_WINDOW * 2;
            if let Err(e) = db::login_failures::delete_before(&state.pool, old_failures).await {
                tracing::warn!(error = %e, "failed-login sweep failed");
            }
            // Expired tokens are kept a day (an expired link still reads "no longer valid").
            let old_tokens = now - time::Duration::days(1);
            if let Err(e) = db::users::delete_expired_tokens(&state.pool, old_tokens).await {
                tracing::warn!(error = %e, "token sweep failed");
            }
        }
    });
}

async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!(error = %e, "cannot listen for ctrl-c");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
