//! Passwords: argon2id hashes (m=19456 KiB, t=2, p=1) computed and verified on the blocking pool,
//! never on the async threads; the rules a new password must meet (at least 8 characters, no
//! composition rules, not a common password, not on the bundled list of breached passwords).
//!
//! At most one hash runs per core at once (`argon2_turns`); a login for an unknown address verifies
//! against a dummy hash (the same answer in the same time). The common-password check is zxcvbn's,
//! which also refuses a password made of the person's own address.

use argon2::{Algorithm, Argon2, Params, PasswordHasher, PasswordVerifier, Version};

pub const MIN_LENGTH: usize = 8;
/// Long enough for any passphrase; bounds the strength check's work.
pub const MAX_LENGTH: usize = 128;

/// The hash of a password nobody knows, with the same parameters as real hashes: verifying
/// against it takes as long as a real verification, so a login for an unknown address (or an
/// account without a password yet) answers in the same time as a wrong password.
const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$h2v8a4l4bq8ZN0c1yGRpnw$\
                          ix3S+Y/uDSmHOGhCAyyq6KyawcBiKsQgX3R7hJMt5fA";

fn argon2() -> Result<Argon2<'static>, argon2::Error> {
    let params = Params::new(19_456, 2, 1, None)?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

fn hash_now(password: &str) -> anyhow::Result<String> {
    let hash = argon2()
        .map_err(|e| anyhow::anyhow!("argon2 parameters: {e}"))?
        .hash_password(password.as_bytes())
        .map_err(|e| anyhow::anyhow!("argon2 hash: {e}"))?;
    Ok(hash.to_string())
}

fn verify_now(password: &str, hash: Option<&str>) -> bool {
    let Ok(argon2) = argon2() else {
        return false;
    };
    match hash {
        // The stored hash's own parameters are used (older hashes keep verifying).
        Some(hash) => argon2.verify_password(password.as_bytes(), hash).is_ok(),
        None => {
            let _ = argon2.verify_password(password.as_bytes(), DUMMY_HASH);
            false
        }
    }
}

/// At most one argon2 computation per core at once (19 MiB each): the rest wait their turn, so a
/// burst of logins cannot take the memory of hundreds of blocking threads.
fn argon2_turns() -> &'static tokio::sync::Semaphore {
    static TURNS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    TURNS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        tokio::sync::Semaphore::new(cores)
    })
}

/// How many argon2 computations run now, and the most that ever ran at once (what the limit
/// above bounds; read by the test that checks it).
static RUNNING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static MOST_AT_ONCE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Runs one argon2 computation on the blocking pool once a turn is free.
async fn with_turn<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> anyhow::Result<T> {
    use std::sync::atomic::Ordering::SeqCst;
    let _turn = argon2_turns().acquire().await?;
    Ok(tokio::task::spawn_blocking(move || {
        let now = RUNNING.fetch_add(1, SeqCst) + 1;
        MOST_AT_ONCE.fetch_max(now, SeqCst);
        let out = work();
        RUNNING.fetch_sub(1, SeqCst);
        out
    })
    .await?)
}

/// Hashes a password (a PHC string starting `$argon2id$v=19$m=19456,t=2,p=1$`).
pub async fn hash(password: String) -> anyhow::Result<String> {
    with_turn(move || hash_now(&password)).await?
}

/// Whether `password` matches `hash`; with no hash it verifies against a dummy (same time) and
/// answers `false`.
pub async fn verify(password: String, hash: Option<String>) -> anyhow::Result<bool> {
    with_turn(move || verify_now(&password, hash.as_deref())).await
}

/// What is wrong with a new password, in the words shown under the field; `None` when it is fine.
/// `personal` holds the account's own words (e-mail address, names): a password that is only one
/// of them is refused too.
pub fn problem(password: &str, personal: &[&str]) -> Option<&'static str> {
    let length = password.chars().count();
    if length < MIN_LENGTH {
        return Some("The password must be at least 8 characters.");
    }
    if length > MAX_LENGTH {
        return Some("The password may not be greater than 128 characters.");
    }
    // zxcvbn finds the cheapest way to guess the password. When that is one dictionary word
    // covering all of it, the password is on a list attackers try first: its ranked common
    // passwords (any case, l33t spellings such as `p@ssw0rd` and reversals included), or the
    // account's own words.
    let entropy = zxcvbn::zxcvbn(password, personal);
    if let [only] = entropy.sequence()
        && let zxcvbn::matching::patterns::MatchPattern::Dictionary(word) = &only.pattern
        && only.i == 0
        && only.j + 1 == length
    {
        match format!("{:?}", word.dictionary_name).as_str() {
            "Passwords" => return Some("This password is too common. Please choose another."),
            "UserInputs" => {
                return Some("The password must not be your e-mail address or your name.");
            }
            _ => {}
        }
    }
    if breached(password) {
        return Some(BREACHED);
    }
    None
}

/// What a new password found in breaches is told.
pub const BREACHED: &str =
    "This password appears in lists of passwords stolen in data breaches. Please choose another.";

/// Whether `password` is on the bundled list of breached passwords (`server/data/README.md`),
/// compared without regard to case. The list is read on first use, from the binary.
pub fn breached(password: &str) -> bool {
    static LIST: std::sync::OnceLock<std::collections::HashSet<String>> =
        std::sync::OnceLock::new();
    let list = LIST.get_or_init(|| {
        use std::io::Read;
        const GZIPPED: &[u8] = include_bytes!("../../data/breached-passwords.txt.gz");
        let mut text = String::new();
        match flate2::read::GzDecoder::new(GZIPPED).read_to_string(&mut text) {
            Ok(_) => text.lines().map(str::to_lowercase).collect(),
            Err(e) => {
                tracing::error!(error = %e, "the bundled breached-password list is unreadable");
                std::collections::HashSet::new()
            }
        }
    });
    list.contains(&password.to_lowercase())
}

/// [`problem`] on the blocking pool (the strength check builds its dictionaries on first use).
pub async fn check(
    password: String,
    personal: Vec<String>,
) -> anyhow::Result<Option<&'static str>> {
    Ok(tokio::task::spawn_blocking(move || {
        let personal: Vec<&str> = personal.iter().map(String::as_str).collect();
        problem(&password, &personal)
    })
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_argon2id_with_the_owasp_parameters_and_verify() {
        let h = hash_now("correct horse battery").expect("hash");
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_now("correct horse battery", Some(&h)));
        assert!(!verify_now("correct horse batter", Some(&h)));
        assert!(!verify_now("anything", None));
        assert!(!verify_now("anything", Some("not a hash")));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_burst_of_verifications_runs_at_most_one_per_core_at_once() {
        use std::sync::atomic::Ordering::SeqCst;
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        let burst: Vec<_> = (0..cores * 3)
            .map(|i| tokio::spawn(verify(format!("guess {i}"), None)))
            .collect();
        for one in burst {
            assert!(!one.await.expect("joined").expect("verified"));
        }
        let most = MOST_AT_ONCE.load(SeqCst);
        assert!(
            (1..=cores).contains(&most),
            "{most} ran at once on {cores} cores"
        );
    }

    #[test]
    fn the_dummy_hash_is_a_real_hash_with_the_same_parameters() {
        assert!(DUMMY_HASH.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        let parsed = argon2::PasswordHash::new(DUMMY_HASH).expect("valid PHC string");
        assert_eq!(parsed.algorithm.as_str(), "argon2id");
    }

    #[test]
    fn length_is_the_only_composition_rule() {
        assert!(problem("7chars!", &[]).is_some());
        assert!(problem("abcdefgh-unusual-words", &[]).is_none());
        assert!(problem("correct horse battery staple", &[]).is_none());
        assert!(problem("émigré-kümmel", &[]).is_none());
        assert!(problem(&"x7".repeat(65), &[]).is_some());
    }

    #[test]
    fn passwords_stolen_in_breaches_are_refused_offline() {
        // On the bundled list, though no single dictionary word: the breach list decides.
        assert_eq!(problem("troop4life", &[]), Some(BREACHED));
        assert_eq!(problem("Troop4Life", &[]), Some(BREACHED));
        assert!(breached("tromboni"));
        assert!(!breached("correct horse battery staple"));
        assert!(problem("a-phrase-nobody-has-leaked-yet-2026", &[]).is_none());
    }

    #[test]
    fn common_passwords_are_refused_in_any_disguise() {
        for p in [
            "password123",
            "Password123",
            "p@ssw0rd",
            "P@SSW0RD",
            "123456789",
            "qwertyuiop",
            "321drowssap",
            "iloveyou",
        ] {
            assert_eq!(
                problem(p, &[]),
                Some("This password is too common. Please choose another."),
                "{p}"
            );
        }
        // A common word inside a longer password is fine.
        assert!(problem("password123-tangerine-lamp", &[]).is_none());
    }

    #[test]
    fn the_accounts_own_address_is_refused() {
        let email = "maria.alvarez@acme.example.com";
        assert!(problem(email, &[email]).is_some());
        assert!(problem(email, &[]).is_none());
    }
}
