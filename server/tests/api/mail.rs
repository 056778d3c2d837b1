//! E-mail delivery from the outbox through an SMTP relay (a tiny one in this test), with retries.

use std::sync::{Arc, Mutex};

use enrollflow_server::platform::mail::{Delivered, Mailer, deliver_due};
use reqwest::StatusCode;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

use crate::helpers::{ACME_USER, MINUTE, spawn_app};

/// A minimal SMTP relay on a free local port that accepts everything; returns its port and the
/// messages (DATA) it received.
async fn fake_relay() -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let received = Arc::new(Mutex::new(Vec::new()));
    let keep = received.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let keep = keep.clone();
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut lines = BufReader::new(read).lines();
                let _ = write.write_all(b"220 relay.test ESMTP\r\n").await;
                let mut in_data = false;
                let mut data = String::new();
                while let Ok(Some(line)) = lines.next_line().await {
                    let reply: &[u8] = if in_data {
                        if line == "." {
                            in_data = false;
                            keep.lock().expect("lock").push(std::mem::take(&mut data));
                            b"250 queued\r\n"
                        } else {
                            data.push_str(&line);
                            data.push('\n');
                            continue;
                        }
                    } else {
                        let verb = line.split(' ').next().unwrap_or("").to_ascii_uppercase();
                        match verb.as_str() {
                            "EHLO" | "HELO" => b"250 relay.test\r\n",
                            "DATA" => {
                                in_data = true;
                                b"354 go ahead\r\n"
                            }
                            "QUIT" => {
                                let _ = write.write_all(b"221 bye\r\n").await;
                                break;
                            }
                            _ => b"250 ok\r\n",
                        }
                    };
                    if write.write_all(reply).await.is_err() {
                        break;
                    }
                }
            });
        }
    });
    (port, received)
}

/// A local port nothing listens on.
async fn closed_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    l.local_addr().expect("addr").port()
}

/// The token of the reset link in a relayed message (quoted-printable may fold long lines).
fn regex_link(message: &str) -> String {
    let unfolded = message.replace("=\r\n", "").replace("=\n", "");
    assert!(
        unfolded.contains("/reset-password/token/"),
        "no reset link in {message}"
    );
    crate::helpers::token_in(&unfolded)
}

#[tokio::test]
async fn outbox_mail_goes_to_the_relay_and_a_failure_is_retried_later() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    let r = b.forgot_password(&token, ACME_USER).await;
    assert_eq!(r.status, StatusCode::OK);
    // The mail is written after the answer.
    crate::helpers::wait_for_mails(&app.pool, ACME_USER, 1).await;

    // The relay is down: the message stays, with the attempt counted and a later retry time.
    let down = Mailer::new(
        &format!("smtp://127.0.0.1:{}", closed_port().await),
        "Enrollflow <no-reply@enrollflow.example.com>",
        crate::helpers::test_cipher(),
    )
    .expect("mailer");
    let d = deliver_due(&app.pool, app.clock.as_ref(), &down)
        .await
        .expect("pass");
    assert_eq!(d, Delivered { sent: 0, failed: 1 });
    let (attempts, sent): (i32, bool) =
        sqlx::query_as("SELECT attempts, sent_at IS NOT NULL FROM outbox")
            .fetch_one(&app.pool)
            .await
            .expect("row");
    assert_eq!((attempts, sent), (1, false));

    let (port, received) = fake_relay().await;
    let up = Mailer::new(
        &format!("smtp://127.0.0.1:{port}"),
        "Enrollflow <no-reply@enrollflow.example.com>",
        crate::helpers::test_cipher(),
    )
    .expect("mailer");
    // Not due yet.
    let d = deliver_due(&app.pool, app.clock.as_ref(), &up)
        .await
        .expect("pass");
    assert_eq!(d, Delivered::default());
    app.clock.advance(MINUTE);
    let d = deliver_due(&app.pool, app.clock.as_ref(), &up)
        .await
        .expect("pass");
    assert_eq!(d, Delivered { sent: 1, failed: 0 });

    let got = received.lock().expect("lock").clone();
    assert_eq!(got.len(), 1);
    assert!(got[0].contains(&format!("To: {ACME_USER}")), "{}", got[0]);
    assert!(
        got[0].contains("Subject: Reset your Enrollflow password"),
        "{}",
        got[0]
    );
    // The recipient's copy has the whole link (put back at send time); the stored row never did.
    let link = regex_link(&got[0]);
    assert_eq!(link.len(), 64, "{}", got[0]);
    let (sent, body, secret): (bool, String, Option<String>) =
        sqlx::query_as("SELECT sent_at IS NOT NULL, body, secret FROM outbox")
            .fetch_one(&app.pool)
            .await
            .expect("row");
    assert!(sent);
    assert_eq!(body, "", "the single-use link is not kept once sent");
    assert_eq!(secret, None, "nor its token");

    // Sent once only.
    app.clock.advance(60 * MINUTE);
    let d = deliver_due(&app.pool, app.clock.as_ref(), &up)
        .await
        .expect("pass");
    assert_eq!(d, Delivered::default());
}
