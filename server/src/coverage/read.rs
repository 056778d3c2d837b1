//! Reading one issuer's files in the CMS format (`CMSgov/QHP-provider-formulary-APIs`): plans,
//! providers and drugs, checked whole. A malformed file is refused with its line; nothing of an
//! issuer is kept unless every file of it reads.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};
use time::Date;

use crate::db::coverage::{DrugRow, IssuerData, PlanRow, ProviderRow};

/// A file that could not be read, with where.
#[derive(Debug, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct FileError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

fn error(file: &Path, line: usize, message: impl Into<String>) -> FileError {
    FileError {
        file: file.display().to_string(),
        line,
        message: message.into(),
    }
}

/// An issuer's files: found through its `cms-data-index.json`, or named one by one.
#[derive(Debug, Default, Clone)]
pub struct IssuerFiles {
    pub plans: Vec<PathBuf>,
    pub providers: Vec<PathBuf>,
    pub drugs: Vec<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Index {
    provider_urls: Vec<String>,
    #[serde(default)]
    formulary_urls: Vec<String>,
    plan_urls: Vec<String>,
}

/// The files an index lists, each resolved to the file of the same name beside the index (the
/// import never downloads: fetch an issuer's files into one folder first).
pub fn from_index(index: &Path) -> Result<IssuerFiles, FileError> {
    let text = std::fs::read_to_string(index).map_err(|e| error(index, 1, e.to_string()))?;
    let i: Index =
        serde_json::from_str(&text).map_err(|e| error(index, e.line(), e.to_string()))?;
    let dir = index.parent().unwrap_or(Path::new("."));
    let local = |url: &String| -> Result<PathBuf, FileError> {
        let name = url.rsplit('/').next().unwrap_or(url);
        let path = dir.join(name);
        if path.is_file() {
            Ok(path)
        } else {
            Err(error(
                index,
                1,
                format!(
                    "{url}: no file {name} beside the index (the import reads files, it does not download)"
                ),
            ))
        }
    };
    if i.plan_urls.is_empty() || i.provider_urls.is_empty() {
        return Err(error(
            index,
            1,
            "an index lists at least one plan file and one provider file",
        ));
    }
    Ok(IssuerFiles {
        plans: i.plan_urls.iter().map(local).collect::<Result<_, _>>()?,
        providers: i
            .provider_urls
            .iter()
            .map(local)
            .collect::<Result<_, _>>()?,
        drugs: i
            .formulary_urls
            .iter()
            .map(local)
            .collect::<Result<_, _>>()?,
    })
}

/// Each entry of a file's top-level array, read as `T`, with its line; the first that does not
/// read is the file's error.
fn entries<T: for<'de> Deserialize<'de>>(
    path: &Path,
    text: &str,
) -> Result<Vec<(usize, T)>, FileError> {
    let raw: Vec<&RawValue> =
        serde_json::from_str(text).map_err(|e| error(path, e.line(), e.to_string()))?;
    // Lines are counted as the entries go (each entry's start from the previous one's), so a
    // file of thousands of entries is read once.
    let (mut line, mut at) = (1usize, 0usize);
    raw.into_iter()
        .map(|r| {
            let start = (r.get().as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
            line += text
                .get(at..start)
                .map_or(0, |gap| gap.bytes().filter(|&b| b == b'\n').count());
            at = start.max(at);
            serde_json::from_str::<T>(r.get())
                .map(|t| (line, t))
                .map_err(|e| error(path, line + e.line().saturating_sub(1), e.to_string()))
        })
        .collect()
}

#[derive(Deserialize)]
struct PlanEntry {
    plan_id_type: String,
    plan_id: String,
    marketing_name: String,
    #[serde(default)]
    network: Vec<NetworkTier>,
    #[serde(default)]
    formulary: Option<OneOrMany<serde_json::Value>>,
    last_updated_on: String,
    #[serde(default)]
    years: Vec<i32>,
}

#[derive(Deserialize)]
struct NetworkTier {
    network_tier: String,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany<T> {
    // A list first: a list is also one JSON value.
    Many(Vec<T>),
    One(T),
}

impl<T> OneOrMany<T> {
    fn into_vec(self) -> Vec<T> {
        match self {
            OneOrMany::One(t) => vec![t],
            OneOrMany::Many(v) => v,
        }
    }
}

#[derive(Deserialize)]
struct PlanRef {
    plan_id: String,
    #[serde(default)]
    network_tier: Option<String>,
    #[serde(default)]
    drug_tier: Option<String>,
    #[serde(default)]
    prior_authorization: Option<bool>,
    #[serde(default)]
    step_therapy: Option<bool>,
    #[serde(default)]
    quantity_limit: Option<bool>,
}

#[derive(Deserialize)]
struct Name {
    #[serde(default)]
    prefix: Option<String>,
    first: String,
    #[serde(default)]
    middle: Option<String>,
    last: String,
    #[serde(default)]
    suffix: Option<String>,
}

#[derive(Deserialize)]
struct Address {
    #[serde(default)]
    city: Option<String>,
}

#[derive(Deserialize)]
struct ProviderEntry {
    npi: Option<String>,
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    name: Option<Name>,
    #[serde(default)]
    facility_name: Option<String>,
    #[serde(default)]
    group_name: Option<String>,
    #[serde(default)]
    addresses: Vec<Address>,
    #[serde(default, alias = "speciality")]
    specialty: Option<OneOrMany<String>>,
    #[serde(default)]
    plans: Vec<PlanRef>,
    last_updated_on: String,
}

#[derive(Deserialize)]
struct DrugEntry {
    rxnorm_id: String,
    drug_name: String,
    #[serde(default)]
    plans: Vec<PlanRef>,
}

fn is_plan_id(id: &str) -> bool {
    let b = id.as_bytes();
    b.len() == 14
        && b[..5].iter().all(u8::is_ascii_digit)
        && b[5..7].iter().all(u8::is_ascii_uppercase)
        && b[7..].iter().all(u8::is_ascii_digit)
}

fn date(path: &Path, line: usize, s: &str) -> Result<Date, FileError> {
    let f = time::macros::format_description!("[year]-[month]-[day]");
    Date::parse(s, &f).map_err(|_| error(path, line, format!("`{s}` is not a date (YYYY-MM-DD)")))
}

fn read(path: &Path) -> Result<String, FileError> {
    std::fs::read_to_string(path).map_err(|e| error(path, 1, e.to_string()))
}

/// The digest of an issuer's files (what an incremental import compares).
pub fn digest(files: &IssuerFiles) -> Result<String, FileError> {
    let mut h = Sha256::new();
    for p in files
        .plans
        .iter()
        .chain(&files.providers)
        .chain(&files.drugs)
    {
        let bytes = std::fs::read(p).map_err(|e| error(p, 1, e.to_string()))?;
        h.update(
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
        h.update(Sha256::digest(&bytes));
    }
    Ok(hex::encode(h.finalize()))
}

/// An issuer's files read and checked whole: its plans (one issuer id for all), its providers'
/// networks (every plan and network tier named is the issuer's) and its drugs.
pub fn issuer(files: &IssuerFiles) -> Result<IssuerData, FileError> {
    let mut plans: BTreeMap<String, PlanRow> = BTreeMap::new();
    let mut issuer_id: Option<String> = None;
    let mut as_of: Option<Date> = None;
    let mut newer = |d: Date| as_of = Some(as_of.map_or(d, |a| a.max(d)));
    for path in &files.plans {
        let text = read(path)?;
        for (line, p) in entries::<PlanEntry>(path, &text)? {
            if p.plan_id_type != "HIOS-PLAN-ID" || !is_plan_id(&p.plan_id) {
                return Err(error(
                    path,
                    line,
                    format!(
                        "`{}` is not a HIOS plan id (5 digits, 2 letters, 7 digits)",
                        p.plan_id
                    ),
                ));
            }
            let this = p.plan_id[..5].to_string();
            match &issuer_id {
                Some(i) if *i != this => {
                    return Err(error(
                        path,
                        line,
                        format!(
                            "plan {} is not issuer {i}'s: an issuer's files name its own plans",
                            p.plan_id
                        ),
                    ));
                }
                _ => issuer_id = Some(this),
            }
            newer(date(path, line, &p.last_updated_on)?);
            let plan_id: i64 = p.plan_id[7..].parse().unwrap_or_default();
            let formulary = p.formulary.map(OneOrMany::into_vec).unwrap_or_default();
            for f in &formulary {
                if f.get("drug_tier")
                    .and_then(serde_json::Value::as_str)
                    .is_none()
                {
                    return Err(error(
                        path,
                        line,
                        format!("plan {}: a formulary entry without a drug_tier", p.plan_id),
                    ));
                }
            }
            if plans.contains_key(&p.plan_id) {
                return Err(error(
                    path,
                    line,
                    format!("plan {} is listed twice", p.plan_id),
                ));
            }
            plans.insert(
                p.plan_id.clone(),
                PlanRow {
                    hios_plan_id: p.plan_id,
                    plan_id,
                    marketing_name: p.marketing_name,
                    years: p.years,
                    network_tiers: p.network.into_iter().map(|n| n.network_tier).collect(),
                    formulary: serde_json::Value::Array(formulary),
                },
            );
        }
    }
    let Some(issuer_id) = issuer_id else {
        let at = files
            .plans
            .first()
            .map_or(PathBuf::from("plans.json"), Clone::clone);
        return Err(error(
            &at,
            1,
            "no plans: an issuer's plan file lists its plans",
        ));
    };

    let mut providers = BTreeMap::new();
    for path in &files.providers {
        let text = read(path)?;
        for (line, p) in entries::<ProviderEntry>(path, &text)? {
            newer(date(path, line, &p.last_updated_on)?);
            // A provider without an NPI cannot be looked up by one: it is left out.
            let Some(npi) = p.npi else { continue };
            if npi.len() != 10 || !npi.bytes().all(|b| b.is_ascii_digit()) {
                return Err(error(
                    path,
                    line,
                    format!("`{npi}` is not an NPI (10 digits)"),
                ));
            }
            let kind = match p.kind.as_str() {
                "INDIVIDUAL" => "individual",
                "FACILITY" => "facility",
                "GROUP" => "group",
                other => {
                    return Err(error(
                        path,
                        line,
                        format!("type `{other}` is not INDIVIDUAL, FACILITY or GROUP"),
                    ));
                }
            };
            let name = match (kind, &p.name, &p.facility_name, &p.group_name) {
                ("individual", Some(n), _, _) => [
                    n.prefix.as_deref(),
                    Some(n.first.as_str()),
                    n.middle.as_deref(),
                    Some(n.last.as_str()),
                    n.suffix.as_deref(),
                ]
                .into_iter()
                .flatten()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" "),
                ("facility", _, Some(f), _) | ("group", _, _, Some(f)) => f.clone(),
                _ => {
                    return Err(error(
                        path,
                        line,
                        format!("provider {npi} has no name for its type"),
                    ));
                }
            };
            let mut networks: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            for r in &p.plans {
                let Some(plan) = plans.get(&r.plan_id) else {
                    return Err(error(
                        path,
                        line,
                        format!(
                            "provider {npi}: plan {} is not in the issuer's plan files",
                            r.plan_id
                        ),
                    ));
                };
                let tier = r.network_tier.clone().unwrap_or_default();
                if !plan.network_tiers.is_empty() && !plan.network_tiers.contains(&tier) {
                    return Err(error(
                        path,
                        line,
                        format!(
                            "provider {npi}: plan {} has no network tier `{tier}`",
                            r.plan_id
                        ),
                    ));
                }
                networks.entry(r.plan_id.clone()).or_default().insert(tier);
            }
            let specialty = p
                .specialty
                .map(|s| s.into_vec().join(", "))
                .filter(|s| !s.is_empty());
            let city = p.addresses.into_iter().find_map(|a| a.city);
            // Listed twice in an issuer's files: the networks of both.
            let row = providers.entry(npi.clone()).or_insert_with(|| ProviderRow {
                npi,
                kind,
                name,
                specialty,
                city,
                networks: Vec::new(),
            });
            for (plan, tiers) in networks {
                match row.networks.iter_mut().find(|(p, _)| *p == plan) {
                    Some((_, t)) => {
                        t.extend(tiers);
                        t.sort();
                        t.dedup();
                    }
                    None => row.networks.push((plan, tiers.into_iter().collect())),
                }
            }
        }
    }

    let mut drugs: BTreeMap<String, DrugRow> = BTreeMap::new();
    for path in &files.drugs {
        let text = read(path)?;
        for (line, d) in entries::<DrugEntry>(path, &text)? {
            if d.rxnorm_id.is_empty()
                || d.rxnorm_id.len() > 10
                || !d.rxnorm_id.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(error(
                    path,
                    line,
                    format!("`{}` is not an RxNorm id", d.rxnorm_id),
                ));
            }
            let row = drugs.entry(d.rxnorm_id.clone()).or_insert_with(|| DrugRow {
                rxnorm_id: d.rxnorm_id.clone(),
                name: d.drug_name.clone(),
                plans: Vec::new(),
            });
            // The same id in several files (as the CMS samples have it): the last name, every plan.
            row.name = d.drug_name;
            for r in d.plans {
                if !plans.contains_key(&r.plan_id) {
                    return Err(error(
                        path,
                        line,
                        format!(
                            "drug {}: plan {} is not in the issuer's plan files",
                            row.rxnorm_id, r.plan_id
                        ),
                    ));
                }
                let Some(tier) = r.drug_tier else {
                    return Err(error(
                        path,
                        line,
                        format!(
                            "drug {}: plan {} gives no drug_tier",
                            row.rxnorm_id, r.plan_id
                        ),
                    ));
                };
                row.plans.retain(|c| c.plan != r.plan_id);
                row.plans.push(crate::db::coverage::DrugPlan {
                    plan: r.plan_id,
                    tier,
                    prior_authorization: r.prior_authorization.unwrap_or(false),
                    step_therapy: r.step_therapy.unwrap_or(false),
                    quantity_limit: r.quantity_limit.unwrap_or(false),
                });
            }
        }
    }
    let Some(as_of) = as_of else {
        return Err(error(&files.plans[0], 1, "no last_updated_on"));
    };
    Ok(IssuerData {
        issuer_id,
        as_of,
        plans: plans.into_values().collect(),
        providers: providers.into_values().collect(),
        drugs: drugs.into_values().collect(),
    })
}
