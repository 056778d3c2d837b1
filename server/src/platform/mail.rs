//! Outgoing e-mail. Texts come from `templates/email/*.txt` (first line `Subject: …`, then a blank
//! line, then the body). Every message is first written to the `outbox` table, in the transaction
//! of whatever caused it; with `ENROLLFLOW_SMTP_URL` set, a background task hands the due messages to
//! that relay and marks them sent. A failed send is tried again later (backing off up to an hour),
//! so a message is never lost. Without SMTP the messages stay in the outbox: admins see them with
//! their links hidden (`GET /api/admin/outbox`), and the operator reads them whole with
//! `enrollflow mail` (it needs the database and the data key, not a web login).
//!
//! A message carrying a single-use link (a password reset, an invitation) is stored with
//! [`LINK_SECRET`] in place of the link's token, and the token apart, encrypted under the data key;
//! the token is put back only when the message is sent (or printed by `enrollflow mail`), and
//! dropped once sent or when the link expires. Neither a database reader nor an admin can use it.
//!
//! The relay is named by a URL (credentials in it if it wants them): `smtps://host:465` (TLS from
//! the first byte) or `smtp://host:587?tls=required` (STARTTLS), the server's certificate checked
//! against the system's trusted roots; plain `smtp://` only to a relay on this host (loopback).
//! Logs name outbox ids only, never an address.
//!
//! The sender (`lettre`) claims due messages by lease. Tests: `server/tests/api/mail.rs`,
//! `accounts.rs`, `operator.rs`.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use crate::db::{PgExecutor, PgPool};
use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use time::OffsetDateTime;

use crate::db::outbox;
use crate::platform::clock::Clock;
use crate::security::crypto::Cipher;

/// A rendered message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email {
    pub subject: String,
    pub body: String,
}

/// Renders `templates/{name}`: its first line is `Subject: …`, the rest is the body.
pub fn render(
    templates: &minijinja::Environment<'_>,
    name: &str,
    context: minijinja::Value,
) -> anyhow::Result<Email> {
    let text = templates
        .get_template(name)
        .and_then(|t| t.render(context))
        .map_err(|e| anyhow::anyhow!("template {name}: {e}"))?;
    let (first, rest) = text.split_once('\n').unwrap_or((text.as_str(), ""));
    let subject = first
        .strip_prefix("Subject:")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| anyhow::anyhow!("template {name}: the first line must be `Subject: …`"))?;
    Ok(Email {
        subject: subject.to_string(),
        body: format!("{}\n", rest.trim()),
    })
}

/// Writes a message to the outbox (use the caller's transaction when it has one).
pub async fn enqueue(
    db: impl PgExecutor<'_>,
    to: &str,
    email: &Email,
    now: OffsetDateTime,
) -> crate::db::Result<i64> {
    outbox::insert(db, to, &email.subject, &email.body, None, now).await
}

/// Where a link's token goes in a stored body: a pair of Unicode noncharacters around a word, which
/// no template text or name carries.
pub const LINK_SECRET: &str = "\u{FDD0}token\u{FDD1}";

/// What an admin sees in place of a link's token.
pub const HIDDEN_SECRET: &str = "[hidden: only the recipient's copy has the link]";

/// Writes a message whose body holds one secret (at [`LINK_SECRET`]): the body as it is, the secret
/// encrypted, dropped at `expires_at`.
pub async fn enqueue_with_secret(
    db: impl PgExecutor<'_>,
    cipher: &Cipher,
    to: &str,
    email: &Email,
    secret: &str,
    expires_at: OffsetDateTime,
    now: OffsetDateTime,
) -> anyhow::Result<i64> {
    anyhow::ensure!(
        email.body.matches(LINK_SECRET).count() == 1 && !email.subject.contains(LINK_SECRET),
        "the message must hold its secret's place exactly once, in the body"
    );
    let encrypted = cipher.encrypt(secret)?;
    Ok(outbox::insert(
        db,
        to,
        &email.subject,
        &email.body,
        Some(&outbox::Secret {
            encrypted: &encrypted,
            expires_at,
        }),
        now,
    )
    .await?)
}

/// Writes a private message (a consumer's receipt): its recipient and body encrypted under the
/// data key, so neither a database reader nor an admin reading the outbox sees them; only the
/// sender and the operator's `enrollflow mail` open them. The subject stays readable: it must name
/// no one.
pub async fn enqueue_private(
    db: impl PgExecutor<'_>,
    cipher: &Cipher,
    to: &str,
    email: &Email,
    now: OffsetDateTime,
) -> anyhow::Result<i64> {
    let to_encrypted = cipher.encrypt(to)?;
    let body = cipher.encrypt(&email.body)?;
    let digest = recipient_digest(cipher, to);
    Ok(outbox::insert_private(db, &to_encrypted, &digest, &email.subject, &body, now).await?)
}

/// What the outbox keeps of a private message's recipient to find it by address: a keyed digest
/// (HMAC under the data key) of the address in lower case, which cannot be reversed by hashing
/// guessed addresses.
pub fn recipient_digest(cipher: &Cipher, to: &str) -> [u8; 32] {
    cipher.digest("outbox recipient", &to.trim().to_lowercase())
}

/// What an admin sees in place of a private message's recipient and body.
pub const PRIVATE_RECIPIENT: &str = "[hidden: a consumer's address]";
pub const PRIVATE_BODY: &str =
    "[hidden: a message to a consumer; only the recipient's copy has it]";

/// Who a message goes to (a private message's address decrypted).
pub fn recipient(cipher: &Cipher, m: &outbox::OutboxRow) -> anyhow::Result<String> {
    if m.private {
        cipher.decrypt(&m.to_address)
    } else {
        Ok(m.to_address.clone())
    }
}

/// The body as the recipient gets it: the secret in its place (or, once it expired, a note); a
/// private message's body decrypted (empty once sent).
pub fn reveal(cipher: &Cipher, m: &outbox::OutboxRow) -> anyhow::Result<String> {
    if m.private {
        return if m.body.is_empty() {
            Ok(String::new())
        } else {
            cipher.decrypt(&m.body)
        };
    }
    if !m.body.contains(LINK_SECRET) {
        return Ok(m.body.clone());
    }
    let secret = match &m.secret {
        Some(s) => cipher.decrypt(s)?,
        None => return Ok(m.body.replace(LINK_SECRET, "[expired]")),
    };
    Ok(m.body.replace(LINK_SECRET, &secret))
}

/// The body as an admin sees it: no secret.
pub fn redacted(body: &str) -> String {
    body.replace(LINK_SECRET, HIDDEN_SECRET)
}

/// The SMTP relay, the sender address, and the key that opens the links' tokens.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    cipher: Cipher,
}

/// How a relay URL connects.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Security {
    /// `smtps://`: TLS from the first byte.
    Tls,
    /// `smtp://…?tls=required`: STARTTLS, refused without it.
    StartTls,
    /// `smtp://` (or `tls=opportunistic`, which a network attacker can strip): loopback only.
    Plain,
}

/// What a relay URL asks for: its security and its host, or why it is refused.
fn relay_security(url: &str) -> Result<(Security, String), String> {
    let url = url.trim();
    let (scheme, rest) = url
        .split_once("://")
        .ok_or("ENROLLFLOW_SMTP_URL must be smtps://host:465 or smtp://host:587?tls=required")?;
    let (authority, query) = match rest.split_once('?') {
        Some((a, q)) => (a, Some(q)),
        None => (rest, None),
    };
    let authority = authority.split('/').next().unwrap_or("");
    let hostport = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match hostport.strip_prefix('[') {
        Some(v6) => v6.split_once(']').map(|(h, _)| h).unwrap_or(""),
        None => hostport.rsplit_once(':').map_or(hostport, |(h, _)| h),
    };
    if host.is_empty() {
        return Err("ENROLLFLOW_SMTP_URL names no host".into());
    }
    let tls = query
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|kv| kv.strip_prefix("tls="));
    let security = match (scheme, tls) {
        ("smtps", None) => Security::Tls,
        ("smtp", Some("required")) => Security::StartTls,
        ("smtp", None | Some("opportunistic")) => Security::Plain,
        _ => {
            return Err(
                "ENROLLFLOW_SMTP_URL must be smtps://… or smtp://… with tls=required (or plain \
                 smtp:// to a relay on this host)"
                    .into(),
            );
        }
    };
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if security == Security::Plain && !loopback {
        return Err(format!(
            "plain SMTP is only for a relay on this host: use smtps://{host}:465 or \
             smtp://{host}:587?tls=required"
        ));
    }
    Ok((security, host.to_string()))
}

impl Mailer {
    /// `url`: `smtps://[user:password@]host[:port]`, `smtp://…?tls=required`, or plain
    /// `smtp://` to a loopback relay (port 25 by default).
    pub fn new(url: &str, from: &str, cipher: Cipher) -> anyhow::Result<Self> {
        let (security, _) = relay_security(url).map_err(|e| anyhow::anyhow!(e))?;
        let builder = AsyncSmtpTransport::<Tokio1Executor>::from_url(url.trim())
            .map_err(|_| anyhow::anyhow!("ENROLLFLOW_SMTP_URL cannot be read as an SMTP URL"))?;
        let transport = builder.timeout(Some(Duration::from_secs(20))).build();
        let from = Mailbox::from_str(from)
            .map_err(|e| anyhow::anyhow!("ENROLLFLOW_MAIL_FROM is not an address: {e}"))?;
        tracing::info!(tls = security != Security::Plain, "e-mail relay configured");
        Ok(Self {
            transport,
            from,
            cipher,
        })
    }
}

/// How long a claimed message is left to its sender before another attempt may take it.
const LEASE: time::Duration = time::Duration::minutes(5);
/// At most this many messages per pass.
const BATCH: i64 = 20;

/// When to try again after `attempts` failed attempts: 1, 2, 4 … minutes, at most an hour.
pub fn backoff(attempts: i32) -> time::Duration {
    let exponent = u32::try_from(attempts.saturating_sub(1).clamp(0, 6)).unwrap_or(6);
    time::Duration::minutes(2i64.pow(exponent).min(60))
}

/// What one pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Delivered {
    pub sent: usize,
    pub failed: usize,
}

/// Sends the messages that are due (one pass). Safe with several instances: each message is
/// claimed with a lease first.
pub async fn deliver_due(
    pool: &PgPool,
    clock: &dyn Clock,
    mailer: &Mailer,
) -> anyhow::Result<Delivered> {
    let now = clock.now();
    let due = outbox::claim_due(pool, now, now + LEASE, BATCH).await?;
    let mut done = Delivered::default();
    for m in due {
        match send(mailer, &m, clock.now()).await {
            Ok(()) => {
                outbox::mark_sent(pool, m.id, clock.now()).await?;
                done.sent += 1;
            }
            Err(problem) => {
                let next = clock.now() + backoff(m.attempts);
                outbox::retry_at(pool, m.id, next).await?;
                tracing::warn!(outbox_id = m.id, attempts = m.attempts, problem = %problem,
                               "e-mail not sent; it stays in the outbox and is tried again");
                done.failed += 1;
            }
        }
    }
    Ok(done)
}

/// Sends one message. The error names only what kind of failure it was (a relay's reply may quote
/// the address).
async fn send(mailer: &Mailer, m: &outbox::OutboxRow, now: OffsetDateTime) -> Result<(), String> {
    let to = recipient(&mailer.cipher, m)
        .map_err(|_| "recipient unreadable".to_string())
        .and_then(|to| Mailbox::from_str(&to).map_err(|_| "invalid recipient".to_string()))?;
    let body = reveal(&mailer.cipher, m).map_err(|_| "secret unreadable".to_string())?;
    let message = Message::builder()
        .from(mailer.from.clone())
        .to(to)
        .subject(m.subject.clone())
        .date(std::time::SystemTime::from(now))
        .header(ContentType::TEXT_PLAIN)
        .body(body)
        .map_err(|_| "message could not be built".to_string())?;
    mailer
        .transport
        .send(message)
        .await
        .map(|_| ())
        .map_err(|e| {
            let code = e.status().map(|c| c.to_string()).unwrap_or_default();
            let kind = if e.is_permanent() {
                "permanent"
            } else if e.is_transient() {
                "transient"
            } else if e.is_timeout() {
                "timeout"
            } else {
                "connection"
            };
            format!("{kind} {code}").trim().to_string()
        })
}

/// Sends due messages every few seconds, for as long as the server runs.
pub fn spawn_sender(pool: PgPool, clock: Arc<dyn Clock>, mailer: Mailer) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(5));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match deliver_due(&pool, clock.as_ref(), &mailer).await {
                Ok(d) if d.sent > 0 => tracing::info!(sent = d.sent, "e-mail sent"),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "e-mail delivery pass failed"),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_is_the_subject() {
        let mut env = minijinja::Environment::new();
        env.add_template(
            "m.txt",
            "Subject: Hi {{ name }}\n\nHello {{ name }},\nbye\n",
        )
        .expect("template");
        let m = render(&env, "m.txt", minijinja::context! { name => "Ann" }).expect("render");
        assert_eq!(m.subject, "Hi Ann");
        assert_eq!(m.body, "Hello Ann,\nbye\n");
        env.add_template("bad.txt", "Hello").expect("template");
        assert!(render(&env, "bad.txt", minijinja::context! {}).is_err());
    }

    #[test]
    fn retries_back_off_to_an_hour() {
        assert_eq!(backoff(1), time::Duration::minutes(1));
        assert_eq!(backoff(2), time::Duration::minutes(2));
        assert_eq!(backoff(4), time::Duration::minutes(8));
        assert_eq!(backoff(30), time::Duration::minutes(60));
    }

    #[test]
    fn relays_are_reached_over_tls_unless_they_are_on_this_host() {
        use Security::*;
        let ok = |url: &str| relay_security(url).map(|(s, _)| s);
        assert_eq!(ok("smtps://mailer:p%40ss@smtp.example.com:465"), Ok(Tls));
        assert_eq!(ok("smtps://smtp.example.com"), Ok(Tls));
        assert_eq!(ok("smtp://smtp.example.com:587?tls=required"), Ok(StartTls));
        assert_eq!(ok("smtp://127.0.0.1:2525"), Ok(Plain));
        assert_eq!(ok("smtp://localhost"), Ok(Plain));
        assert_eq!(ok("smtp://[::1]:2525"), Ok(Plain));
        assert_eq!(
            relay_security("smtp://[::1]:2525").map(|(_, h)| h),
            Ok("::1".to_string())
        );
        // Plain text over a network, or STARTTLS an attacker can strip, is refused.
        for refused in [
            "smtp://relay.internal:25",
            "smtp://10.0.0.5",
            "smtp://smtp.example.com:587?tls=opportunistic",
            "smtp://smtp.example.com?tls=bogus",
            "http://smtp.example.com",
            "smtp://",
            "relay:25",
        ] {
            assert!(relay_security(refused).is_err(), "{refused}");
        }
        let e = relay_security("smtp://relay.internal:25").expect_err("refused");
        assert!(e.contains("smtps://relay.internal:465"), "{e}");
    }

    #[test]
    fn mailers_are_built_for_tls_starttls_and_a_local_relay() {
        let key = Cipher::random;
        let from = "Enrollflow <no-reply@example.com>";
        for url in [
            "smtp://127.0.0.1:2525",
            "smtps://user:secret@smtp.example.com:465",
            "smtp://smtp.example.com:587?tls=required",
        ] {
            assert!(Mailer::new(url, from, key()).is_ok(), "{url}");
        }
        assert!(Mailer::new("smtp://relay.example.com", from, key()).is_err());
        assert!(Mailer::new("smtp://127.0.0.1:2525", "not an address", key()).is_err());
    }

    fn row(body: &str, secret: Option<String>) -> outbox::OutboxRow {
        outbox::OutboxRow {
            id: 1,
            to_address: "ann@example.com".into(),
            subject: "Reset".into(),
            body: body.into(),
            created_at: OffsetDateTime::UNIX_EPOCH,
            sent_at: None,
            attempts: 0,
            secret,
            private: false,
        }
    }

    #[test]
    fn a_private_message_opens_only_with_the_key() {
        let cipher = Cipher::random();
        let m = outbox::OutboxRow {
            to_address: cipher.encrypt("ann@example.com").expect("encrypt"),
            body: cipher.encrypt("Dear Ann\n").expect("encrypt"),
            private: true,
            ..row("", None)
        };
        assert_eq!(recipient(&cipher, &m).expect("to"), "ann@example.com");
        assert_eq!(reveal(&cipher, &m).expect("body"), "Dear Ann\n");
        assert!(!m.to_address.contains("ann") && !m.body.contains("Ann"));
        assert!(reveal(&Cipher::random(), &m).is_err());
        let sent = outbox::OutboxRow {
            body: String::new(),
            ..m
        };
        assert_eq!(reveal(&cipher, &sent).expect("sent"), "");
    }

    #[test]
    fn a_link_token_is_put_back_only_for_the_recipient() {
        let cipher = Cipher::random();
        let body = format!("Open http://acme.localhost/register/token/{LINK_SECRET}/ today.\n");
        let m = row(&body, Some(cipher.encrypt("abc123").expect("encrypt")));
        assert_eq!(
            reveal(&cipher, &m).expect("reveal"),
            "Open http://acme.localhost/register/token/abc123/ today.\n"
        );
        let shown = redacted(&m.body);
        assert!(
            !shown.contains("abc123") && shown.contains(HIDDEN_SECRET),
            "{shown}"
        );
        // Another key opens nothing; an expired secret leaves a note, never the placeholder.
        assert!(reveal(&Cipher::random(), &m).is_err());
        let expired = reveal(&cipher, &row(&body, None)).expect("reveal");
        assert!(expired.contains("[expired]") && !expired.contains(LINK_SECRET));
        assert_eq!(
            reveal(&cipher, &row("plain\n", None)).expect("plain"),
            "plain\n"
        );
    }
}
