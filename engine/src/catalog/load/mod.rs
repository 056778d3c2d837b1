//! Reading `rules/catalog/`: each file's format, the checks that make a catalog complete and
//! consistent (every problem with its file), and the plan years' legal limits.
//!
//! A `Loader` takes one step per file (carriers, lists, age curves, counties, ZIPs, each year's
//! limits and plans), then checks the whole catalog (every plan within its year's `limits.yaml`,
//! plan ids unique) and reads each year's crosswalk and cost sharing against it (`crosswalk`,
//! `cost_sharing`); every problem names its file.

mod checks;
mod cost_sharing;
mod crosswalk;

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use super::{AgeCurve, Carrier, Catalog, Choice, County, Limits, PlanKind, RatingRule};
use crate::diagnostic::Diagnostic;
use crate::money::Money;
use crate::zip::Zip;
use crate::{Source, yaml};
use checks::{check_limits, check_plan};
use cost_sharing::COST_SHARING_FILE;
use crosswalk::CROSSWALK_FILE;

#[derive(Debug, Clone, Deserialize)]
struct Band {
    from: i64,
    #[serde(default)]
    to: Option<i64>,
    factor: f64,
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
    let mut l = Loader {
        files: &files,
        cat: Catalog::default(),
        problems: Vec::new(),
    };
    l.carriers();
    l.rating();
    l.lists();
    l.curves();
    l.counties();
    l.zips();
    // Each plan year's legal limits first: its plans are checked against them.
    let limit_years = l.limits();
    l.plans();
    l.every_plan_year_has_limits(&limit_years);
    l.plan_ids_are_unique();
    l.crosswalks();
    l.cost_sharing();
    if l.problems.is_empty() {
        Ok(l.cat)
    } else {
        Err(l.problems)
    }
}

/// A catalog being read: what is read so far and every problem found so far.
struct Loader<'a> {
    files: &'a [&'a Source],
    cat: Catalog,
    problems: Vec<Diagnostic>,
}

impl<'a> Loader<'a> {
    fn problem(&mut self, path: &str, message: impl Into<String>) {
        self.problems.push(Diagnostic::file(path, message));
    }

    /// A top-level catalog file, parsed; None (and a problem) when it is missing or malformed.
    fn file<T: serde::de::DeserializeOwned>(&mut self, name: &str) -> Option<(&'a Source, T)> {
        let Some(s) = find(self.files, name) else {
            self.problem(&format!("{DIR}{name}"), "missing catalog file");
            return None;
        };
        match yaml::parse::<T>(&s.path, &s.text) {
            Ok(f) => Some((s, f)),
            Err(d) => {
                self.problems.push(d);
                None
            }
        }
    }

    fn carriers(&mut self) {
        if let Some((_, f)) = self.file::<CarriersFile>("carriers.yaml") {
            self.cat.drug_list_newer_from = f.drug_list_newer_from_plan_id;
            self.cat.carriers = f.carriers;
        }
    }

    fn rating(&mut self) {
        if let Some((_, f)) = self.file::<RatingRule>("rating.yaml") {
            self.cat.rating = f;
        }
    }

    fn lists(&mut self) {
        if let Some((_, f)) = self.file::<ListsFile>("lists.yaml") {
            self.cat.metals = f.metals;
            self.cat.networks = f.networks;
            self.cat.medical_attributes = f.medical_attributes;
            self.cat.dental_attributes = f.dental_attributes;
            self.cat.price_steps = f.price_steps;
        }
    }

    /// Age curves: bands in order, the last open-ended; every age from 0 covered; `federal` there.
    fn curves(&mut self) {
        let Some((s, f)) = self.file::<CurvesFile>("age_curves.yaml") else {
            return;
        };
        for (name, bands) in f.curves {
            let mut out = Vec::new();
            for (i, b) in bands.iter().enumerate() {
                let last = i + 1 == bands.len();
                let to = b.to.unwrap_or(if last { i64::MAX } else { b.from });
                out.push((b.from, to, to_milli(b.factor)));
            }
            let covered = (0..=120).all(|age| out.iter().any(|(f, t, _)| age >= *f && age <= *t));
            if !covered {
                self.problem(
                    &s.path,
                    format!("age curve `{name}` must cover every age from 0"),
                );
            }
            self.cat.curves.insert(name, AgeCurve(out));
        }
        if !self.cat.curves.contains_key("federal") {
            self.problem(&s.path, "the `federal` age curve is missing");
        }
    }

    fn counties(&mut self) {
        let Some((s, f)) = self.file::<CountiesFile>("counties.yaml") else {
            return;
        };
        for c in f.counties {
            if c.rating_area.is_none_or(|a| !(1..=16).contains(&a)) {
                self.problem(
                    &s.path,
                    format!("county `{}` needs a rating area from 1 to 16", c.name),
                );
            }
            if self.cat.counties.insert(c.id, c.clone()).is_some() {
                self.problem(&s.path, format!("county id `{}` is listed twice", c.id));
            }
        }
        self.cat.out_of_state = f.out_of_state;
    }

    /// ZIPs: five digits each, naming counties of counties.yaml (or the out-of-state county).
    fn zips(&mut self) {
        let Some((s, f)) = self.file::<ZipsFile>("zips.yaml") else {
            return;
        };
        let oos = self.cat.out_of_state.as_ref().map(|c| c.id);
        for (text, counties) in f.zips {
            let zip = match text.parse::<Zip>() {
                Ok(z) => z,
                Err(e) => {
                    self.problem(&s.path, e.to_string());
                    continue;
                }
            };
            for c in &counties {
                if !self.cat.counties.contains_key(c) && Some(*c) != oos {
                    self.problem(
                        &s.path,
                        format!("ZIP `{zip}` names county `{c}`, which is not in counties.yaml"),
                    );
                }
            }
            self.cat.zips.insert(zip, counties);
        }
    }

    /// Every `<year>/limits.yaml`; the years that have one.
    fn limits(&mut self) -> BTreeSet<i32> {
        let mut years = BTreeSet::new();
        for s in self.files {
            let Some((Ok(year), LIMITS_FILE)) =
                year_file(&s.path).map(|(y, f)| (y.parse::<i32>(), f))
            else {
                continue;
            };
            years.insert(year);
            match yaml::parse::<Limits>(&s.path, &s.text) {
                Ok(l) => {
                    if l.plan_year != year {
                        self.problem(&s.path, folder_mismatch(l.plan_year, year));
                    }
                    self.cat.limits.insert(year, l);
                }
                Err(d) => self.problems.push(d),
            }
        }
        years
    }

    /// Every `<year>/{medical,dental,vision}.yaml`: each plan checked, then against its year's
    /// limits.
    fn plans(&mut self) {
        for s in self.files {
            let Some((year_dir, file)) = year_file(&s.path) else {
                continue;
            };
            let Ok(year) = year_dir.parse::<i32>() else {
                self.problem(&s.path, format!("`{year_dir}` is not a plan year folder"));
                continue;
            };
            let kind = match file {
                LIMITS_FILE | CROSSWALK_FILE | COST_SHARING_FILE => continue,
                _ => match PlanKind::ALL
                    .into_iter()
                    .find(|k| file == format!("{}.yaml", k.key()))
                {
                    Some(k) => k,
                    None => {
                        self.problem(
                            &s.path,
                            "a plan year folder holds medical.yaml, dental.yaml, vision.yaml, \
                             limits.yaml, crosswalk.yaml and cost_sharing.yaml",
                        );
                        continue;
                    }
                },
            };
            let f = match yaml::parse::<PlanFile>(&s.path, &s.text) {
                Ok(f) => f,
                Err(d) => {
                    self.problems.push(d);
                    continue;
                }
            };
            if f.plan_year != year {
                self.problem(&s.path, folder_mismatch(f.plan_year, year));
            }
            let mut plans = Vec::new();
            for p in f.plans {
                match check_plan(&self.cat, &s.path, year, kind, p) {
                    Ok(plan) => {
                        if let Some(l) = self.cat.limits.get(&year) {
                            let found = check_limits(&s.path, &plan, l);
                            self.problems.extend(found);
                        }
                        plans.push(plan);
                    }
                    Err(d) => self.problems.push(d),
                }
            }
            plans.sort_by_key(|p| p.id);
            self.cat.plans.entry(year).or_default().insert(kind, plans);
        }
    }

    fn every_plan_year_has_limits(&mut self, limit_years: &BTreeSet<i32>) {
        let missing: Vec<i32> = self
            .cat
            .plans
            .iter()
            .filter(|(y, kinds)| kinds.values().any(|p| !p.is_empty()) && !limit_years.contains(y))
            .map(|(y, _)| *y)
            .collect();
        for year in missing {
            self.problem(
                &format!("{DIR}{year}/{LIMITS_FILE}"),
                format!(
                    "plan year {year} has plans but no legal limits: add {LIMITS_FILE} to its folder \
                     (out-of-pocket maximum, HSA deductible and out-of-pocket limits; see rules/README.md)"
                ),
            );
        }
    }

    /// Every `<year>/crosswalk.yaml`, checked against the plans read.
    fn crosswalks(&mut self) {
        for s in self.files {
            let Some((year_dir, CROSSWALK_FILE)) = year_file(&s.path) else {
                continue;
            };
            // A folder that is not a year is reported with the plans.
            let Ok(year) = year_dir.parse::<i32>() else {
                continue;
            };
            match crosswalk::read(&self.cat, &s.path, &s.text, year) {
                Ok(c) => {
                    self.cat.crosswalks.insert(year, c);
                }
                Err(d) => self.problems.extend(d),
            }
        }
    }

    /// Every `<year>/cost_sharing.yaml`, checked against the year's medical plans.
    fn cost_sharing(&mut self) {
        for s in self.files {
            let Some((year_dir, COST_SHARING_FILE)) = year_file(&s.path) else {
                continue;
            };
            let Ok(year) = year_dir.parse::<i32>() else {
                continue;
            };
            match cost_sharing::read(&self.cat, &s.path, &s.text, year) {
                Ok(c) => self.cat.cost_sharing.extend(c),
                Err(d) => self.problems.extend(d),
            }
        }
    }

    fn plan_ids_are_unique(&mut self) {
        let mut seen = BTreeSet::new();
        let mut twice = Vec::new();
        for plans in self.cat.plans.values().flat_map(|k| k.values()) {
            for p in plans {
                if !seen.insert(p.id) {
                    twice.push((format!("{DIR}{}/{}.yaml", p.plan_year, p.kind.key()), p.id));
                }
            }
        }
        for (path, id) in twice {
            self.problem(&path, format!("plan id `{id}` is used twice"));
        }
    }
}

fn folder_mismatch(written: i32, folder: i32) -> String {
    format!("plan_year `{written}` does not match the folder `{folder}`")
}

/// The file of a plan year's legal limits, next to its plan files.
const LIMITS_FILE: &str = "limits.yaml";

/// `rules/catalog/<year dir>/<file>` split into its folder and file name.
fn year_file(path: &str) -> Option<(&str, &str)> {
    path.strip_prefix(DIR)?.split_once('/')
}
