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
//! The relay is expected on the host or the private network (`smtp://relay:25`, credentials in the
//! URL if it wants them): there is no TLS stack in the build, the relay does the onward delivery.
//! Logs name outbox ids only, never an address.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use sqlx::{PgExecutor, PgPool};
use time::OffsetDateTime;

use crate::clock::Clock;
use crate::crypto::Cipher;
use crate::db::outbox;

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
) -> sqlx::Result<i64> {
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
    Ok(outbox::insert_private(db, &to_encrypted, to, &email.subject, &body, now).await?)
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

/// A relay URL taken apart.
#[derive(Debug, PartialEq, Eq)]
struct Relay {
    host: String,
    port: u16,
    credentials: Option<(String, String)>,
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// `smtp://[user:password@]host[:port]` (port 25 by default). Anything else (`smtps://`, a TLS
/// parameter) is refused: there is no TLS stack in the build.
fn parse_relay(url: &str) -> Option<Relay> {
    let rest = url.trim().strip_prefix("smtp://")?;
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.contains(['/', '?', '#']) {
        return None;
    }
    let (userinfo, hostport) = match rest.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, rest),
    };
    let (host, port) = match hostport.strip_prefix('[') {
        // [IPv6]:port
        Some(v6) => {
            let (host, after) = v6.split_once(']')?;
            match after.strip_prefix(':') {
                Some(p) => (host, p.parse().ok()?),
                None if after.is_empty() => (host, 25),
                None => return None,
            }
        }
        None => match hostport.rsplit_once(':') {
            Some((h, p)) => (h, p.parse().ok()?),
            None => (hostport, 25),
        },
    };
    if host.is_empty() {
        return None;
    }
    let credentials = match userinfo {
        Some(u) => {
            let (user, password) = u.split_once(':')?;
            Some((percent_decode(user)?, percent_decode(password)?))
        }
        None => None,
    };
    Some(Relay {
        host: host.to_string(),
        port,
        credentials,
    })
}

impl Mailer {
    /// `url`: `smtp://host[:port]` (port 25 by default), optionally `smtp://user:password@host`.
    pub fn new(url: &str, from: &str, cipher: Cipher) -> anyhow::Result<Self> {
        let relay = parse_relay(url).ok_or_else(|| {
            anyhow::anyhow!(
                "ENROLLFLOW_SMTP_URL must look like smtp://host:port or smtp://user:password@host:port \
                 (no TLS: use a local or private relay)"
            )
        })?;
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(relay.host)
            .port(relay.port)
            .timeout(Some(Duration::from_secs(20)));
        if let Some((user, password)) = relay.credentials {
            builder = builder.credentials(Credentials::new(user, password));
        }
        let transport = builder.build();
        let from = Mailbox::from_str(from)
            .map_err(|e| anyhow::anyhow!("ENROLLFLOW_MAIL_FROM is not an address: {e}"))?;
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
    fn relay_urls_name_host_port_and_credentials() {
        assert_eq!(
            parse_relay("smtp://127.0.0.1:2525"),
            Some(Relay {
                host: "127.0.0.1".into(),
                port: 2525,
                credentials: None
            })
        );
        assert_eq!(
            parse_relay("smtp://mailer:p%40ss@relay.internal/"),
            Some(Relay {
                host: "relay.internal".into(),
                port: 25,
                credentials: Some(("mailer".into(), "p@ss".into()))
            })
        );
        assert_eq!(
            parse_relay("smtp://[::1]:2525").map(|r| r.host),
            Some("::1".into())
        );
        assert_eq!(parse_relay("smtp://[::1]").map(|r| r.port), Some(25));
        assert_eq!(parse_relay("smtp://relay?tls=required"), None);
        assert_eq!(parse_relay("smtp://relay:notaport"), None);
        assert_eq!(parse_relay("smtp://"), None);
    }

    #[test]
    fn only_plain_smtp_urls_are_accepted() {
        let key = Cipher::random;
        assert!(
            Mailer::new(
                "smtp://127.0.0.1:2525",
                "Enrollflow <no-reply@example.com>",
                key()
            )
            .is_ok()
        );
        assert!(Mailer::new("smtps://relay.example.com", "no-reply@example.com", key()).is_err());
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
