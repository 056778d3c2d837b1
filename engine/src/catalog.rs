//! The plan catalog (`rules/catalog/`): carriers, counties and ZIPs, age curves, and each plan
//! year's medical, dental and vision plans. Checked at load; see `rules/README.md` for the formats.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::money::Money;
use crate::zip::Zip;
use crate::{Source, yaml};

/// Plan kinds as the API numbers them (spec: medical 1, dental 2, vision 3 — annual vision is 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PlanKind {
    Medical,
    Dental,
    Vision,
}

impl PlanKind {
    pub fn from_type(t: u8) -> Option<Self> {
        match t {
            1 => Some(Self::Medical),
            2 => Some(Self::Dental),
            3 | 4 => Some(Self::Vision),
            _ => None,
        }
    }
    pub fn type_id(self) -> u8 {
        match self {
            Self::Medical => 1,
            Self::Dental => 2,
            Self::Vision => 3,
        }
    }
    /// Every kind, in the wizard's order.
    pub const ALL: [PlanKind; 3] = [Self::Medical, Self::Dental, Self::Vision];

    /// The kind's one name: the catalog's file names, the application's `{key}_plan` snapshots,
    /// the agents' product filter (`filterProduct=dental`).
    pub fn key(self) -> &'static str {
        match self {
            Self::Medical => "medical",
            Self::Dental => "dental",
            Self::Vision => "vision",
        }
    }
}

impl std::fmt::Display for PlanKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

impl std::str::FromStr for PlanKind {
    type Err = String;

    /// `medical`, `dental` or `vision`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|k| k.key() == s)
            .ok_or_else(|| format!("`{s}` is not medical, dental or vision"))
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct DrugList {
    pub older: String,
    pub newer: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Carrier {
    pub id: u8,
    pub name: String,
    #[serde(default)]
    pub short_name: Option<String>,
    #[serde(default)]
    pub color: Option<String>,
    #[serde(default)]
    pub drug_list: Option<DrugList>,
    #[serde(default)]
    pub provider_directory: Option<String>,
    /// The agent flag that makes the carrier quoted (`display_bcbsm`, `display_ph`); none: always.
    #[serde(default)]
    pub agent_flag: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct Choice {
    pub id: Value,
    pub name: String,
    /// Metals only: plans of this metal are quoted only when every member is this age or
    /// younger at the effective date (catastrophic plans: under 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_age: Option<i64>,
    /// Networks only: the network pays for care outside it (a PPO). Where it does not (an HMO, an
    /// EPO), out-of-network deductibles of 0 are shown as "Not covered".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub out_of_network: bool,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct County {
    pub id: u16,
    #[serde(default)]
    pub fips: Option<String>,
    pub name: String,
    #[serde(default)]
    pub rating_area: Option<u8>,
}

#[derive(Debug, Clone, Deserialize)]
struct Band {
    from: i64,
    #[serde(default)]
    to: Option<i64>,
    factor: f64,
}

/// Factors in thousandths by age band.
#[derive(Debug, Clone)]
pub struct AgeCurve(Vec<(i64, i64, i64)>);

impl AgeCurve {
    /// The factor (thousandths) for an age.
    pub fn factor(&self, age: i64) -> Option<i64> {
        self.0
            .iter()
            .find(|(from, to, _)| age >= *from && age <= *to)
            .map(|b| b.2)
    }
}

fn to_milli(f: f64) -> i64 {
    (f * 1000.0).round() as i64
}

#[derive(Debug, Clone, Deserialize)]
struct PlanFile {
    plan_year: i32,
    plans: Vec<PlanEntry>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum Counties {
    All(String),
    List(Vec<u16>),
}

#[derive(Debug, Clone, Deserialize)]
struct PlanEntry {
    id: i64,
    name: String,
    carrier: u8,
    #[serde(default)]
    network: Option<u8>,
    #[serde(default)]
    metal: Option<u8>,
    #[serde(default)]
    hsa: bool,
    #[serde(default)]
    includes_vision: bool,
    #[serde(default)]
    plan_type: Option<u8>,
    #[serde(default)]
    ded_ind: Option<Money>,
    #[serde(default)]
    ded_fam: Option<Money>,
    #[serde(default)]
    ded_out_ind: Option<Money>,
    #[serde(default)]
    ded_out_fam: Option<Money>,
    #[serde(default)]
    coins: Option<f64>,
    #[serde(default)]
    max_ind_oop: Option<Money>,
    #[serde(default)]
    max_2p_oop: Option<Money>,
    #[serde(default)]
    max_fam_oop: Option<Money>,
    #[serde(default)]
    annual_max: Option<Money>,
    #[serde(default)]
    eye_exam_copay: Option<Money>,
    #[serde(default)]
    frames_contact_allowance: Option<Money>,
    #[serde(default)]
    eye_exam_frequency: Option<String>,
    #[serde(default)]
    sbc: Option<String>,
    #[serde(default)]
    baag: Option<String>,
    #[serde(default = "one")]
    tobacco_factor: f64,
    #[serde(default)]
    age_curve: Option<String>,
    #[serde(default)]
    counties: Option<Counties>,
    rates: BTreeMap<u8, Money>,
}

fn one() -> f64 {
    1.0
}

/// A plan as quoting uses it.
#[derive(Debug, Clone)]
pub struct Plan {
    pub id: i64,
    pub kind: PlanKind,
    pub plan_year: i32,
    pub name: String,
    pub carrier: u8,
    pub network: Option<u8>,
    pub metal: Option<u8>,
    pub hsa: bool,
    pub includes_vision: bool,
    pub plan_type: u8,
    pub ded_ind: Option<Money>,
    pub ded_fam: Option<Money>,
    pub ded_out_ind: Option<Money>,
    pub ded_out_fam: Option<Money>,
    pub coins: Option<f64>,
    pub max_ind_oop: Option<Money>,
    pub max_2p_oop: Option<Money>,
    pub max_fam_oop: Option<Money>,
    pub annual_max: Option<Money>,
    pub eye_exam_copay: Option<Money>,
    pub frames_contact_allowance: Option<Money>,
    pub eye_exam_frequency: Option<String>,
    pub sbc: Option<String>,
    pub baag: Option<String>,
    /// Thousandths.
    pub tobacco_factor: i64,
    pub age_curve: String,
    /// None: sold in every county.
    pub counties: Option<BTreeSet<u16>>,
    /// Age-21 rate by rating area (1-16), in cents.
    pub rates: BTreeMap<u8, Money>,
}

impl Plan {
    pub fn sold_in(&self, county: u16) -> bool {
        self.counties.as_ref().is_none_or(|c| c.contains(&county))
    }
}

#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub carriers: Vec<Carrier>,
    pub drug_list_newer_from: i64,
    pub metals: Vec<Choice>,
    pub networks: Vec<Choice>,
    pub medical_attributes: Vec<Choice>,
    pub dental_attributes: Vec<Choice>,
    /// Price-slider step by plan type (medical 10, dental 5, vision 1).
    pub price_steps: BTreeMap<u8, i64>,
    pub curves: BTreeMap<String, AgeCurve>,
    pub counties: BTreeMap<u16, County>,
    pub out_of_state: Option<County>,
    pub zips: HashMap<Zip, Vec<u16>>,
    /// By plan year, by kind: plans in id order.
    pub plans: BTreeMap<i32, BTreeMap<PlanKind, Vec<Plan>>>,
    /// The legal limits by plan year (`<year>/limits.yaml`).
    pub limits: BTreeMap<i32, Limits>,
}

#[derive(Debug, Deserialize)]
struct CarriersFile {
    #[serde(default = "default_split")]
    drug_list_newer_from_plan_id: i64,
    carriers: Vec<Carrier>,
}

fn default_split() -> i64 {
    520
}

#[derive(Debug, Deserialize)]
struct ListsFile {
    metals: Vec<Choice>,
    networks: Vec<Choice>,
    #[serde(default)]
    medical_attributes: Vec<Choice>,
    #[serde(default)]
    dental_attributes: Vec<Choice>,
    #[serde(default)]
    price_steps: BTreeMap<u8, i64>,
}

#[derive(Debug, Deserialize)]
struct CurvesFile {
    curves: BTreeMap<String, Vec<Band>>,
}

#[derive(Debug, Deserialize)]
struct CountiesFile {
    counties: Vec<County>,
    #[serde(default)]
    out_of_state: Option<County>,
}

#[derive(Debug, Deserialize)]
struct ZipsFile {
    zips: BTreeMap<String, Vec<u16>>,
}

/// The legal limits of a plan year (`rules/catalog/<year>/limits.yaml`): yearly amounts in
/// dollars. Every plan of the year is checked against them at load.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    pub plan_year: i32,
    /// The ACA annual limit on cost sharing, for every medical plan.
    pub medical: MedicalLimits,
    /// HSA-qualifying high-deductible plans (`hsa: true`); needed when the year has one.
    #[serde(default)]
    pub hsa: Option<HsaLimits>,
    /// Stand-alone dental plans' pediatric out-of-pocket cap; checked when given.
    #[serde(default)]
    pub dental: Option<DentalLimits>,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MedicalLimits {
    pub max_oop: SelfFamily,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HsaLimits {
    pub min_deductible: SelfFamily,
    pub max_oop: SelfFamily,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DentalLimits {
    pub max_oop: Children,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SelfFamily {
    pub self_only: Money,
    pub family: Money,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Children {
    pub one_child: Money,
    pub two_or_more: Money,
}

const DIR: &str = "rules/catalog/";

fn find<'a>(sources: &[&'a Source], name: &str) -> Option<&'a Source> {
    sources
        .iter()
        .copied()
        .find(|s| s.path == format!("{DIR}{name}"))
}

/// Loads the catalog from the sources under `rules/catalog/`. An absent catalog is empty (the
/// wizard's rules work without it); a present one must be complete and consistent.
pub fn load(sources: &[&Source]) -> Result<Catalog, Vec<Diagnostic>> {
    let files: Vec<&Source> = sources
        .iter()
        .copied()
        .filter(|s| s.path.starts_with(DIR))
        .collect();
    if files.is_empty() {
        return Ok(Catalog::default());
    }
    let mut problems = Vec::new();
    let mut cat = Catalog::default();
    let need = |name: &str, problems: &mut Vec<Diagnostic>| {
        let s = find(&files, name);
        if s.is_none() {
            problems.push(Diagnostic::file(
                &format!("{DIR}{name}"),
                "missing catalog file",
            ));
        }
        s
    };

    if let Some(s) = need("carriers.yaml", &mut problems) {
        match yaml::parse::<CarriersFile>(&s.path, &s.text) {
            Ok(f) => {
                cat.drug_list_newer_from = f.drug_list_newer_from_plan_id;
                cat.carriers = f.carriers;
            }
            Err(d) => problems.push(d),
        }
    }
    if let Some(s) = need("lists.yaml", &mut problems) {
        match yaml::parse::<ListsFile>(&s.path, &s.text) {
            Ok(f) => {
                cat.metals = f.metals;
                cat.networks = f.networks;
                cat.medical_attributes = f.medical_attributes;
                cat.dental_attributes = f.dental_attributes;
                cat.price_steps = f.price_steps;
            }
            Err(d) => problems.push(d),
        }
    }
    if let Some(s) = need("age_curves.yaml", &mut problems) {
        match yaml::parse::<CurvesFile>(&s.path, &s.text) {
            Ok(f) => {
                for (name, bands) in f.curves {
                    let mut out = Vec::new();
                    for (i, b) in bands.iter().enumerate() {
                        let to = b.to.unwrap_or(if i + 1 == bands.len() {
                            i64::MAX
                        } else {
                            b.from
                        });
                        out.push((b.from, to, to_milli(b.factor)));
                    }
                    let covered =
                        (0..=120).all(|age| out.iter().any(|(f, t, _)| age >= *f && age <= *t));
                    if !covered {
                        problems.push(Diagnostic::file(
                            &s.path,
                            format!("age curve `{name}` must cover every age from 0"),
                        ));
                    }
                    cat.curves.insert(name, AgeCurve(out));
                }
                if !cat.curves.contains_key("federal") {
                    problems.push(Diagnostic::file(
                        &s.path,
                        "the `federal` age curve is missing",
                    ));
                }
            }
            Err(d) => problems.push(d),
        }
    }
    if let Some(s) = need("counties.yaml", &mut problems) {
        match yaml::parse::<CountiesFile>(&s.path, &s.text) {
            Ok(f) => {
                for c in f.counties {
                    if c.rating_area.is_none_or(|a| !(1..=16).contains(&a)) {
                        problems.push(Diagnostic::file(
                            &s.path,
                            format!("county `{}` needs a rating area from 1 to 16", c.name),
                        ));
                    }
                    if cat.counties.insert(c.id, c.clone()).is_some() {
                        problems.push(Diagnostic::file(
                            &s.path,
                            format!("county id `{}` is listed twice", c.id),
                        ));
                    }
                }
                cat.out_of_state = f.out_of_state;
            }
            Err(d) => problems.push(d),
        }
    }
    if let Some(s) = need("zips.yaml", &mut problems) {
        match yaml::parse::<ZipsFile>(&s.path, &s.text) {
            Ok(f) => {
                let oos = cat.out_of_state.as_ref().map(|c| c.id);
                for (text, counties) in f.zips {
                    let zip = match text.parse::<Zip>() {
                        Ok(z) => z,
                        Err(e) => {
                            problems.push(Diagnostic::file(&s.path, e.to_string()));
                            continue;
                        }
                    };
                    for c in &counties {
                        if !cat.counties.contains_key(c) && Some(*c) != oos {
                            problems.push(Diagnostic::file(
                                &s.path,
                                format!(
                                    "ZIP `{zip}` names county `{c}`, which is not in counties.yaml"
                                ),
                            ));
                        }
                    }
                    cat.zips.insert(zip, counties);
                }
            }
            Err(d) => problems.push(d),
        }
    }

    // Each plan year's legal limits first: its plans are checked against them.
    let mut limit_files = BTreeSet::new();
    for s in &files {
        let Some((Ok(year), LIMITS_FILE)) = year_file(&s.path).map(|(y, f)| (y.parse::<i32>(), f))
        else {
            continue;
        };
        limit_files.insert(year);
        match yaml::parse::<Limits>(&s.path, &s.text) {
            Ok(l) => {
                if l.plan_year != year {
                    problems.push(Diagnostic::file(
                        &s.path,
                        format!(
                            "plan_year `{}` does not match the folder `{year}`",
                            l.plan_year
                        ),
                    ));
                }
                cat.limits.insert(year, l);
            }
            Err(d) => problems.push(d),
        }
    }

    for s in &files {
        let Some((year_dir, file)) = year_file(&s.path) else {
            continue;
        };
        let Ok(year) = year_dir.parse::<i32>() else {
            problems.push(Diagnostic::file(
                &s.path,
                format!("`{year_dir}` is not a plan year folder"),
            ));
            continue;
        };
        let kind = match file {
            "medical.yaml" => PlanKind::Medical,
            "dental.yaml" => PlanKind::Dental,
            "vision.yaml" => PlanKind::Vision,
            LIMITS_FILE => continue,
            _ => {
                problems.push(Diagnostic::file(
                    &s.path,
                    "a plan year folder holds medical.yaml, dental.yaml, vision.yaml and limits.yaml",
                ));
                continue;
            }
        };
        match yaml::parse::<PlanFile>(&s.path, &s.text) {
            Ok(f) => {
                if f.plan_year != year {
                    problems.push(Diagnostic::file(
                        &s.path,
                        format!(
                            "plan_year `{}` does not match the folder `{year}`",
                            f.plan_year
                        ),
                    ));
                }
                let mut plans = Vec::new();
                for p in f.plans {
                    match check_plan(&cat, &s.path, year, kind, p) {
                        Ok(plan) => {
                            if let Some(l) = cat.limits.get(&year) {
                                problems.extend(check_limits(&s.path, &plan, l));
                            }
                            plans.push(plan);
                        }
                        Err(d) => problems.push(d),
                    }
                }
                plans.sort_by_key(|p| p.id);
                cat.plans.entry(year).or_default().insert(kind, plans);
            }
            Err(d) => problems.push(d),
        }
    }
    for (year, kinds) in &cat.plans {
        if kinds.values().any(|p| !p.is_empty()) && !limit_files.contains(year) {
            problems.push(Diagnostic::file(
                &format!("{DIR}{year}/{LIMITS_FILE}"),
                format!(
                    "plan year {year} has plans but no legal limits: add {LIMITS_FILE} to its folder \
                     (out-of-pocket maximum, HSA deductible and out-of-pocket limits; see rules/README.md)"
                ),
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for plans in cat.plans.values().flat_map(|k| k.values()) {
        for p in plans {
            if !seen.insert(p.id) {
                problems.push(Diagnostic::file(
                    &format!("{DIR}{}/{}.yaml", p.plan_year, p.kind.key()),
                    format!("plan id `{}` is used twice", p.id),
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(cat)
    } else {
        Err(problems)
    }
}

/// The file of a plan year's legal limits, next to its plan files.
const LIMITS_FILE: &str = "limits.yaml";

/// `rules/catalog/<year dir>/<file>` split into its folder and file name.
fn year_file(path: &str) -> Option<(&str, &str)> {
    path.strip_prefix(DIR)?.split_once('/')
}

/// Every way a plan exceeds its plan year's legal limits, each naming the plan, the field, the
/// value and the limit. Medical plans must state their out-of-pocket maxima (individual and
/// family); HSA-eligible plans also their deductibles.
fn check_limits(file: &str, plan: &Plan, l: &Limits) -> Vec<Diagnostic> {
    let year = plan.plan_year;
    // Amounts are named as the files write them (dollars, `9300`), not as the screens show them.
    let above = |field: &str, value: Option<Money>, limit: Money, what: &str, key: &str| {
        value.filter(|v| *v > limit).map(|v| {
            let (v, limit) = (v.dollars(), limit.dollars());
            format!("{field} {v} is above the {year} {what}, {limit} ({LIMITS_FILE} {key})")
        })
    };
    // The individual, two-person and family out-of-pocket maxima against a one-person limit and a
    // limit for more people (`one_key`, `more_key` name them in the limits file).
    let oop = |one: Money, more: Money, what: &str, one_key: &str, more_key: &str| {
        [
            above("max_ind_oop", plan.max_ind_oop, one, what, one_key),
            above("max_2p_oop", plan.max_2p_oop, more, what, more_key),
            above("max_fam_oop", plan.max_fam_oop, more, what, more_key),
        ]
    };
    let mut found: Vec<String> = Vec::new();
    match plan.kind {
        PlanKind::Medical => {
            for (field, value) in [
                ("max_ind_oop", plan.max_ind_oop),
                ("max_fam_oop", plan.max_fam_oop),
            ] {
                if value.is_none() {
                    found.push(format!(
                        "needs {field} (checked against the {year} out-of-pocket maximum)"
                    ));
                }
            }
            let aca = l.medical.max_oop;
            let what = "ACA out-of-pocket maximum";
            let (ind, fam) = ("medical.max_oop.self_only", "medical.max_oop.family");
            found.extend(
                oop(aca.self_only, aca.family, what, ind, fam)
                    .into_iter()
                    .flatten(),
            );
            // In-network deductibles count toward the out-of-pocket maximum.
            found.extend(above("ded_ind", plan.ded_ind, aca.self_only, what, ind));
            found.extend(above("ded_fam", plan.ded_fam, aca.family, what, fam));
            match (&l.hsa, plan.hsa) {
                (_, false) => {}
                (None, true) => found.push(format!(
                    "is HSA-eligible but the {year} {LIMITS_FILE} has no `hsa` limits"
                )),
                (Some(h), true) => {
                    let (ind, fam) = ("hsa.max_oop.self_only", "hsa.max_oop.family");
                    let (one, more) = (h.max_oop.self_only, h.max_oop.family);
                    found.extend(
                        oop(one, more, "HSA out-of-pocket maximum", ind, fam)
                            .into_iter()
                            .flatten(),
                    );
                    let min = h.min_deductible;
                    for (field, value, limit, key) in [
                        ("ded_ind", plan.ded_ind, min.self_only, "self_only"),
                        ("ded_fam", plan.ded_fam, min.family, "family"),
                    ] {
                        match value {
                            None => found.push(format!("is HSA-eligible and needs {field}")),
                            Some(v) if v < limit => found.push(format!(
                                "{field} {} is below the {year} HSA minimum deductible, {} \
                                 ({LIMITS_FILE} hsa.min_deductible.{key})",
                                v.dollars(),
                                limit.dollars()
                            )),
                            Some(_) => {}
                        }
                    }
                }
            }
        }
        PlanKind::Dental => {
            if let Some(d) = &l.dental {
                let (one, more) = (d.max_oop.one_child, d.max_oop.two_or_more);
                let (k1, k2) = ("dental.max_oop.one_child", "dental.max_oop.two_or_more");
                let what = "pediatric dental out-of-pocket cap";
                found.extend(oop(one, more, what, k1, k2).into_iter().flatten());
            }
        }
        PlanKind::Vision => {}
    }
    found
        .into_iter()
        .map(|m| Diagnostic::file(file, format!("plan `{}` ({}): {m}", plan.id, plan.name)))
        .collect()
}

fn check_plan(
    cat: &Catalog,
    file: &str,
    year: i32,
    kind: PlanKind,
    p: PlanEntry,
) -> Result<Plan, Diagnostic> {
    let bad = |m: String| Diagnostic::file(file, format!("plan `{}`: {m}", p.id));
    if !cat.carriers.iter().any(|c| c.id == p.carrier) {
        return Err(bad(format!(
            "carrier `{}` is not in carriers.yaml",
            p.carrier
        )));
    }
    if kind == PlanKind::Medical {
        if !p
            .network
            .is_some_and(|n| cat.networks.iter().any(|c| c.id == n))
        {
            return Err(bad("needs a network from lists.yaml".into()));
        }
        if !p
            .metal
            .is_some_and(|m| cat.metals.iter().any(|c| c.id == m))
        {
            return Err(bad("needs a metal from lists.yaml".into()));
        }
    }
    if !(1.0..=1.5).contains(&p.tobacco_factor) {
        return Err(bad(format!(
            "tobacco_factor `{}` must be between 1 and 1.5",
            p.tobacco_factor
        )));
    }
    let curve = p.age_curve.clone().unwrap_or_else(|| "federal".into());
    if !cat.curves.contains_key(&curve) {
        return Err(bad(format!(
            "age curve `{curve}` is not in age_curves.yaml"
        )));
    }
    let areas: BTreeSet<u8> = cat
        .counties
        .values()
        .filter_map(|c| c.rating_area)
        .collect();
    for a in &areas {
        if !p.rates.contains_key(a) {
            return Err(bad(format!("has no rate for rating area {a}")));
        }
    }
    if p.rates.values().any(|r| *r <= Money::ZERO) {
        return Err(bad("rates must be above zero".into()));
    }
    let counties = match p.counties {
        None => None,
        Some(Counties::All(s)) if s == "all" => None,
        Some(Counties::All(s)) => {
            return Err(bad(format!(
                "counties must be `all` or a list of county ids, not `{s}`"
            )));
        }
        Some(Counties::List(list)) => {
            if let Some(c) = list.iter().find(|c| !cat.counties.contains_key(c)) {
                return Err(bad(format!("county `{c}` is not in counties.yaml")));
            }
            Some(list.into_iter().collect())
        }
    };
    let plan_type = match (kind, p.plan_type) {
        (PlanKind::Vision, Some(t @ (3 | 4))) => t,
        (PlanKind::Vision, None) => 3,
        (PlanKind::Vision, Some(t)) => {
            return Err(bad(format!(
                "vision plan_type `{t}` must be 3 (monthly) or 4 (annual)"
            )));
        }
        (k, _) => k.type_id(),
    };
    Ok(Plan {
        id: p.id,
        kind,
        plan_year: year,
        name: p.name,
        carrier: p.carrier,
        network: p.network,
        metal: p.metal,
        hsa: p.hsa,
        includes_vision: p.includes_vision,
        plan_type,
        ded_ind: p.ded_ind,
        ded_fam: p.ded_fam,
        ded_out_ind: p.ded_out_ind,
        ded_out_fam: p.ded_out_fam,
        coins: p.coins,
        max_ind_oop: p.max_ind_oop,
        max_2p_oop: p.max_2p_oop,
        max_fam_oop: p.max_fam_oop,
        annual_max: p.annual_max,
        eye_exam_copay: p.eye_exam_copay,
        frames_contact_allowance: p.frames_contact_allowance,
        eye_exam_frequency: p.eye_exam_frequency,
        sbc: p.sbc,
        baag: p.baag,
        tobacco_factor: to_milli(p.tobacco_factor),
        age_curve: curve,
        counties,
        rates: p.rates,
    })
}

/// What [`Catalog::names`] gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanNames<'c> {
    pub carrier: Option<&'c str>,
    pub network: Option<&'c str>,
    pub metal: Option<&'c str>,
}

impl Catalog {
    pub fn is_empty(&self) -> bool {
        self.plans.is_empty()
    }

    pub fn carrier(&self, id: u8) -> Option<&Carrier> {
        self.carriers.iter().find(|c| c.id == id)
    }

    /// A plan's carrier, network and metal names (None where the plan has none or the catalog
    /// does not name it).
    pub fn names(&self, plan: &Plan) -> PlanNames<'_> {
        fn name(list: &[Choice], id: Option<u8>) -> Option<&str> {
            id.and_then(|id| list.iter().find(|c| c.id == id))
                .map(|c| c.name.as_str())
        }
        PlanNames {
            carrier: self.carrier(plan.carrier).map(|c| c.name.as_str()),
            network: name(&self.networks, plan.network),
            metal: name(&self.metals, plan.metal),
        }
    }

    /// The counties of a ZIP, in the catalog's order (out of state last).
    pub fn counties_for_zip(&self, zip: Zip) -> Vec<&County> {
        let Some(ids) = self.zips.get(&zip) else {
            return Vec::new();
        };
        ids.iter()
            .filter_map(|id| {
                self.counties
                    .get(id)
                    .or_else(|| self.out_of_state.as_ref().filter(|o| o.id == *id))
            })
            .collect()
    }

    pub fn rating_area(&self, county: u16) -> Option<u8> {
        self.counties.get(&county).and_then(|c| c.rating_area)
    }

    /// The oldest age a plan's metal allows, if it limits ages.
    pub fn max_age(&self, plan: &Plan) -> Option<i64> {
        let metal = plan.metal?;
        self.metals
            .iter()
            .find(|m| m.id == metal)
            .and_then(|m| m.max_age)
    }

    pub fn plan(&self, id: i64) -> Option<&Plan> {
        self.plans
            .values()
            .flat_map(|k| k.values())
            .flatten()
            .find(|p| p.id == id)
    }

    pub fn plans(&self, year: i32, kind: PlanKind) -> &[Plan] {
        self.plans
            .get(&year)
            .and_then(|k| k.get(&kind))
            .map_or(&[], Vec::as_slice)
    }

    /// The drug-list link of a plan (older lists below the split id).
    pub fn drug_list(&self, plan: &Plan) -> Option<&str> {
        let c = self.carrier(plan.carrier)?.drug_list.as_ref()?;
        Some(if plan.id < self.drug_list_newer_from {
            &c.older
        } else {
            &c.newer
        })
    }
}
