//! Applying for coverage: opening an application and storing it (`open`), saving a step
//! (`save_step`), the household and its quotes (`quotes`), its care needs (`care`), the purchase with its evidence and
//! receipt (`purchase`), "Save and finish later" links (`resume`), the agent's hand-off to the
//! customer (`handoff`), the agent enrolling an application from the dashboard (`enroll`) and a
//! qualifying-event document attached (`upload`).

use crate::db::PgPool;

use crate::documents::ObjectStore;
use crate::documents::signing::EvidenceKeys;
use crate::platform::cache::Caches;
use crate::platform::clock::Clock;
use crate::rules::Rules;
use crate::security::crypto::Cipher;

pub mod care;
pub mod enroll;
pub mod handoff;
pub mod open;
pub mod purchase;
pub mod quotes;
pub mod resume;
pub mod save_step;
pub mod upload;

/// What the applying use cases read and write: the database, the clock, the serving rules, the
/// caches of agents and applications, the answers' cipher, and, for the purchase, the uploaded
/// documents it proves and the evidence keys it signs with.
#[derive(Clone, Copy)]
pub struct Handles<'a> {
    pub pool: &'a PgPool,
    pub clock: &'a dyn Clock,
    pub rules: &'a Rules,
    pub caches: &'a Caches,
    pub cipher: &'a Cipher,
    pub documents: &'a ObjectStore,
    pub evidence_keys: &'a EvidenceKeys,
    /// Wakes the evidence-PDF maker when a purchase stored a packet.
    pub evidence_waiting: &'a tokio::sync::Notify,
}
