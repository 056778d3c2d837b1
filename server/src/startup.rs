//! Running the server: the background tasks (session sweeper, reset worker, evidence PDFs, SMTP sender, cache
//! listener and announcer, rules watcher), the router and graceful shutdown.
//!
//! The sweeper also removes old failed logins and tokens; the SMTP sender starts only when
//! `ENROLLFLOW_SMTP_URL` is set.

use std::net::SocketAddr;
use std::time::Duration;

use crate::documents::evidence;
use crate::http::state::AppState;
use crate::platform::mail;
use crate::{accounts, db, http, rules};

/// Serves until SIGINT or SIGTERM, then lets requests in flight finish.
pub async fn serve(state: AppState) -> anyhow::Result<()> {
    state.config.check()?;
    let listener = tokio::net::TcpListener::bind(state.config.listen)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", state.config.listen))?;
    tracing::info!(address = %listener.local_addr()?, "serving");
    spawn_session_sweeper(state.clone());
    let _resets = accounts::spawn_reset_worker(state.reset_worker());
    let _evidence = evidence::spawn_pdf_maker(state.pdf_maker());
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
    let _sets = state.config.rules_from_database.then(|| {
        rules::spawn_set_listener(
            state.rules.clone(),
            state.pool.clone(),
            state.config.root.clone(),
            state.clock.clone(),
        )
    });
    let _watcher = match (state.config.no_watch, state.config.rules_from_database) {
        (true, _) => None,
        (false, false) => Some(rules::watch(state.rules.clone())?),
        (false, true) => Some(rules::watch_and_publish(
            state.rules.clone(),
            state.pool.clone(),
            state.clock.clone(),
        )?),
    };
    let _retention = crate::maintenance::retention::spawn(
        state.retention(),
        state.config.retention_days,
        state.config.retention_action,
    );
    let _metrics = crate::platform::telemetry::spawn_metrics_upkeep();
    let _pool_probe = http::metrics::spawn_pool_probe(state.clone());
    if let Some(address) = state.config.metrics_listen {
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {address} for metrics: {e}"))?;
        tracing::info!(address = %address, "metrics served");
        let metrics = http::metrics::private_router(state.clone());
        tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, metrics).await {
                tracing::warn!(error = %e, "the metrics listener stopped");
            }
        });
    }
    let app = http::router(state);
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown_signal())
    .await?;
    tracing::info!("stopped");
    crate::platform::telemetry::flush_traces();
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
                now - crate::accounts::second_factor::CHALLENGE_VALID_FOR,
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
