//! Generates `rules/catalog/zips.yaml`: every Michigan ZIP code -> the ids of its counties.
//!
//! Run from the repository root:
//!
//! ```sh
//! CARGO_TARGET_DIR=/var/tmp/enrollflow-tools-target \
//!   cargo run -q --manifest-path tools/catalog-zips/Cargo.toml > rules/catalog/zips.yaml
//! ```
//!
//! Data: the `zipcodes` crate (MIT), one county per ZIP given as a name ("Washtenaw County"),
//! joined on the county name with `rules/catalog/counties.yaml` (which gives the FIPS ids).
//! Nothing is dropped: a ZIP whose county is empty in the dataset is resolved from its
//! neighbours (see `resolve_missing`), and the border ZIPs in `EXTRA_COUNTIES` get further
//! counties (several counties, or 999 "out of state"). The program fails rather than write an
//! incomplete file: an unknown county name, an unresolvable ZIP, or a county left without a ZIP.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

const COUNTIES_YAML: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../rules/catalog/counties.yaml"));

#[derive(Deserialize)]
struct CountiesFile {
    counties: Vec<County>,
    out_of_state: County,
}

#[derive(Deserialize)]
struct County {
    id: u16,
    name: String,
}

/// Real ZIPs that reach beyond the one county the dataset gives them. The dataset's county stays
/// first; these are appended in this order (999, out of state, always last).
/// (zip, extra county ids, why)
const EXTRA_COUNTIES: &[(&str, &[u16], &str)] = &[
    ("48062", &[147], "Richmond: the city lies in Macomb, the ZIP reaches into St. Clair (rating areas 2 and 3)"),
    ("48160", &[115], "Milan: the city straddles the Washtenaw-Monroe line (rating areas 4 and 1)"),
    ("48167", &[163], "Northville: the city straddles the Oakland-Wayne line (rating areas 2 and 1)"),
    ("48178", &[93, 161], "South Lyon: Lyon Twp (Oakland), Green Oak Twp (Livingston), edge of Salem Twp (Washtenaw)"),
    ("48189", &[93], "Whitmore Lake: Northfield Twp (Washtenaw) and Green Oak Twp (Livingston)"),
    ("48823", &[37], "East Lansing: the city reaches north from Ingham into Clinton"),
    ("48837", &[37], "Grand Ledge: the city lies in Eaton with a part in Clinton"),
    ("48917", &[65], "Lansing west side: Delta Twp (Eaton) and the city of Lansing (Ingham)"),
    ("49423", &[5], "Holland: the city straddles the Ottawa-Allegan line (rating areas 12 and 11)"),
    ("49684", &[89], "Traverse City: Grand Traverse with the south edge of Leelanau"),
    ("48182", &[999], "Temperance: on the Ohio line north of Toledo; 999 lets a household across the line say so"),
    ("49120", &[27, 999], "Niles: Berrien and Howard Twp (Cass), just north of the Indiana line; 999 for Indiana"),
    ("49858", &[999], "Menominee: across the Menominee River from Marinette, Wisconsin; 999 for Wisconsin"),
    ("49938", &[999], "Ironwood: across the Montreal River from Hurley, Wisconsin; 999 for Wisconsin"),
];

struct Row {
    zip: String,
    city: String,
    /// County id from the dataset, or None when the dataset has no county.
    county: Option<u16>,
}

fn main() {
    let file: CountiesFile = serde_saphyr::from_str(COUNTIES_YAML).expect("rules/catalog/counties.yaml parses");
    let by_name: BTreeMap<String, u16> =
        file.counties.iter().map(|c| (format!("{} County", c.name), c.id)).collect();
    let known: BTreeSet<u16> = file.counties.iter().map(|c| c.id).collect();

    let mut rows: Vec<Row> = zipcodes::database()
        .iter()
        .filter(|z| z.state == "MI")
        .map(|z| Row {
            zip: z.zip_code.clone(),
            city: z.city.clone(),
            county: if z.county.trim().is_empty() {
                None
            } else {
                Some(*by_name.get(z.county.trim()).unwrap_or_else(|| {
                    panic!("ZIP {}: county {:?} is not in counties.yaml", z.zip_code, z.county)
                }))
            },
        })
        .collect();
    rows.sort_by(|a, b| a.zip.cmp(&b.zip));
    for w in rows.windows(2) {
        assert_ne!(w[0].zip, w[1].zip, "ZIP {} is listed twice in the dataset", w[0].zip);
    }

    let mut out: BTreeMap<String, (Vec<u16>, Option<String>)> = BTreeMap::new();
    let mut resolved = Vec::new();
    for r in &rows {
        let (id, note) = match r.county {
            Some(id) => (id, None),
            None => {
                let (id, how) = resolve_missing(r, &rows);
                let name = &file.counties.iter().find(|c| c.id == id).expect("known id").name;
                let note = format!("no county in the dataset; {name} {how}");
                resolved.push(format!("{} ({}): {}", r.zip, r.city, note));
                (id, Some(note))
            }
        };
        out.insert(r.zip.clone(), (vec![id], note));
    }

    for (zip, extra, why) in EXTRA_COUNTIES {
        let (ids, note) = out.get_mut(*zip).unwrap_or_else(|| panic!("border ZIP {zip} is not in the dataset"));
        for id in *extra {
            assert!(known.contains(id) || *id == file.out_of_state.id, "border ZIP {zip}: unknown county {id}");
            assert!(!ids.contains(id), "border ZIP {zip}: county {id} is already there");
            ids.push(*id);
        }
        *note = Some(match note.take() {
            Some(n) => format!("{n}; {why}"),
            None => (*why).to_string(),
        });
    }

    let served: BTreeSet<u16> = out.values().flat_map(|(ids, _)| ids.iter().copied()).collect();
    let unserved: Vec<&str> =
        file.counties.iter().filter(|c| !served.contains(&c.id)).map(|c| c.name.as_str()).collect();
    assert!(unserved.is_empty(), "counties without a ZIP: {unserved:?}");

    let multi = out.values().filter(|(ids, _)| ids.len() > 1).count();
    println!("# Every Michigan ZIP code -> the ids of its counties (counties.yaml; 999 = out of state).");
    println!("# GENERATED by tools/catalog-zips from the `zipcodes` crate 3.0.1. A hand edit here works but is");
    println!("# lost on regeneration: for a lasting change edit the generator (EXTRA_COUNTIES) and regenerate");
    println!("# from the repository root:");
    println!("#   CARGO_TARGET_DIR=/var/tmp/enrollflow-tools-target \\");
    println!("#     cargo run -q --manifest-path tools/catalog-zips/Cargo.toml > rules/catalog/zips.yaml");
    println!("#");
    println!("# Source: crates.io `zipcodes` (MIT license, https://github.com/seanpianka/zipcodes), built from");
    println!("# unitedstateszipcodes.org, the USPS ZIP Locale Detail file (public domain) and GeoNames postal");
    println!("# data (CC BY 4.0, https://www.geonames.org/). Each ZIP has one county there, by name; it is");
    println!("# joined on the name with counties.yaml. All {} of the dataset's Michigan ZIPs are here, inactive", out.len());
    println!("# and PO-box/unique ZIPs included.");
    println!("#");
    println!("# Adjustments (each also noted on its line):");
    for r in &resolved {
        println!("# - {r}");
    }
    println!("# - {} border ZIPs get more counties than the dataset's one: the dataset's county first, then the", EXTRA_COUNTIES.len());
    println!("#   neighbouring county the city or township reaches into, and 999 last where the ZIP lies on");
    println!("#   the Wisconsin, Indiana or Ohio line so a household across it can pick Out of State.");
    println!("zips:");
    for (zip, (ids, note)) in &out {
        let list = ids.iter().map(u16::to_string).collect::<Vec<_>>().join(", ");
        match note {
            Some(n) => println!("  \"{zip}\": [{list}]   # {n}"),
            None => println!("  \"{zip}\": [{list}]"),
        }
    }
    eprintln!(
        "{} ZIPs, {} with several counties, {} resolved from neighbours, {} counties served",
        out.len(),
        multi,
        resolved.len(),
        served.iter().filter(|id| known.contains(id)).count()
    );
}

/// A ZIP without a county takes the county of the ZIPs of the same city, preferring those with the
/// same 3-digit prefix (the same sectional center), and among several the numerically nearest;
/// with no ZIP of the same city, the nearest ZIP with the same prefix. Returns the id and how.
fn resolve_missing(r: &Row, rows: &[Row]) -> (u16, String) {
    let num = |z: &str| z.parse::<i64>().expect("numeric ZIP");
    let nearest = |cands: Vec<&Row>| -> Option<(u16, String, bool)> {
        let counties: BTreeSet<u16> = cands.iter().filter_map(|c| c.county).collect();
        let best = cands.iter().min_by_key(|c| ((num(&c.zip) - num(&r.zip)).abs(), c.zip.clone()))?;
        let zips: Vec<&str> = cands.iter().map(|c| c.zip.as_str()).collect();
        Some((best.county?, zips.join(", "), counties.len() == 1))
    };
    let prefix = &r.zip[..3];
    let same_city = |c: &&Row| c.county.is_some() && c.city.eq_ignore_ascii_case(&r.city);
    let tries: [(&str, Vec<&Row>); 3] = [
        ("same city and 3-digit prefix", rows.iter().filter(same_city).filter(|c| c.zip.starts_with(prefix)).collect()),
        ("same city", rows.iter().filter(same_city).collect()),
        ("same 3-digit prefix", rows.iter().filter(|c| c.county.is_some() && c.zip.starts_with(prefix)).collect()),
    ];
    for (rule, cands) in tries {
        if let Some((id, zips, unanimous)) = nearest(cands) {
            let how = if unanimous {
                format!("from the other {} ZIPs ({rule}: {zips})", r.city)
            } else {
                format!("from the numerically nearest ZIP ({rule})")
            };
            return (id, how);
        }
    }
    panic!("ZIP {} ({}) has no county and no neighbour to take one from", r.zip, r.city);
}
