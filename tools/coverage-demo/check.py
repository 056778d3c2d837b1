#!/usr/bin/env python3
"""Check a folder of CMS QHP provider & formulary files and print what it holds.

    python3 tools/coverage-demo/check.py [FOLDER]      (default: target/coverage-demo)

FOLDER is the output of tools/coverage-demo/generate.py (one sub-folder per issuer, each with its
cms-data-index.json) or a single issuer's folder (server/tests/fixtures/coverage/cms-sample/, where
the sample's quirks show up as problems). Each issuer's files are found through its index: a
relative URL is read beside the index, an absolute one by its base name there. Standard library only.

Checks (format: docs/yearly-cost-sources.md, section 4):
- the index has provider_urls, formulary_urls and plan_urls, and every file it names exists;
- plans.json: required fields and types, plan_id HIOS-shaped (5 digits, 2 letters, 7 digits) and
  unique, network tiers and formulary tiers (an object or an array) with valid cost sharing;
- providers: every NPI valid (10 digits, first 1 or 2, Luhn check digit over 80840 + the first nine
  digits) and unique within the issuer; at most 5,000 entries a file; INDIVIDUAL and FACILITY
  fields; `specialty` (or the README's `speciality`); addresses (a Michigan ZIP must be in
  rules/catalog/zips.yaml); every plans row's plan_id in this issuer's plans.json and its
  network_tier one of that plan's tiers, years within the plan's years, no row twice; the same NPI
  described alike by every issuer;
- drugs: rxnorm_id a digit string, drug_name, every plans row's plan_id in this issuer's plans.json
  and its drug_tier one of that plan's formulary tiers, the three booleans, years within the plan's,
  no (rxnorm_id, plan_id) twice, one name per rxnorm_id.
Prints counts per issuer and in total; exits 1 when a problem was found.
"""

import json
import os
import re
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_DIR = os.path.join(ROOT, "target", "coverage-demo")
MAX_PER_FILE = 5000
PLAN_ID = re.compile(r"^[0-9]{5}[A-Z]{2}[0-9]{7}$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
COPAY_OPTS = {"AFTER-DEDUCTIBLE", "BEFORE-DEDUCTIBLE", "NO-CHARGE", "NO-CHARGE-AFTER-DEDUCTIBLE"}
# BEFORE-DEDUCTIBLE: not in the master README's table; the 2017-changes branch and the samples use it.
COINS_OPTS = {"AFTER-DEDUCTIBLE", "NO-CHARGE", "NO-CHARGE-AFTER-DEDUCTIBLE", "BEFORE-DEDUCTIBLE"}
ACCEPTING = {"accepting", "not accepting", "accepting in some locations"}
SHOW = 40   # problems printed per issuer

problems = []


def problem(where, msg):
    problems.append(f"{where}: {msg}")


def npi_valid(npi):
    if not isinstance(npi, str) or not re.fullmatch(r"[12][0-9]{9}", npi):
        return False
    total = 0
    for i, ch in enumerate(reversed("80840" + npi[:9])):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return (10 - total % 10) % 10 == int(npi[9])


def load_zips():
    path = os.path.join(ROOT, "rules", "catalog", "zips.yaml")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return {m.group(1) for m in re.finditer(r'^  "(\d{5})":', f.read(), re.M)}


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def local_file(folder, url):
    return os.path.join(folder, url.rsplit("/", 1)[-1] if re.match(r"^[a-z]+://", url) else url)


def check_plans(where, plans):
    out = {}
    if not isinstance(plans, list) or not plans:
        problem(where, "plans.json must be a non-empty array")
        return out
    for i, p in enumerate(plans):
        w = f"{where} plan #{i + 1}"
        for k in ("plan_id_type", "plan_id", "marketing_name", "summary_url", "plan_contact", "network",
                  "formulary", "last_updated_on"):
            if k not in p:
                problem(w, f"missing `{k}`")
        pid = p.get("plan_id")
        if not isinstance(pid, str) or not PLAN_ID.match(pid):
            problem(w, f"plan_id {pid!r} is not a 14-character HIOS plan id")
        if pid in out:
            problem(w, f"plan_id {pid} twice")
        if p.get("plan_id_type") != "HIOS-PLAN-ID":
            problem(w, f"plan_id_type {p.get('plan_id_type')!r}")
        if not DATE.match(str(p.get("last_updated_on", ""))):
            problem(w, "last_updated_on is not YYYY-MM-DD")
        years = p.get("years")
        if years is not None and not (isinstance(years, list) and all(isinstance(y, int) for y in years)):
            problem(w, "years must be an array of integers")
        tiers = []
        for n in p.get("network") or []:
            t = n.get("network_tier") if isinstance(n, dict) else None
            if not isinstance(t, str) or t != t.upper():
                problem(w, f"network_tier {t!r} must be an uppercase string")
            tiers.append(t)
        if not tiers:
            problem(w, "no network tier")
        form = p.get("formulary")
        form = form if isinstance(form, list) else [form] if isinstance(form, dict) else []
        drug_tiers = {}
        for f in form:
            t = f.get("drug_tier")
            if not isinstance(t, str) or t != t.upper():
                problem(w, f"drug_tier {t!r} must be an uppercase string")
            if t in drug_tiers:
                problem(w, f"drug_tier {t} twice")
            if not isinstance(f.get("mail_order"), bool):
                problem(w, f"tier {t}: mail_order must be true or false")
            for cs in f.get("cost_sharing", []):
                if not isinstance(cs.get("pharmacy_type"), str):
                    problem(w, f"tier {t}: pharmacy_type missing")
                if not is_num(cs.get("copay_amount")) or cs.get("copay_opt") not in COPAY_OPTS:
                    problem(w, f"tier {t}: copay {cs.get('copay_amount')!r} {cs.get('copay_opt')!r}")
                rate = cs.get("coinsurance_rate")
                if not is_num(rate) or not 0 <= rate <= 1 or cs.get("coinsurance_opt") not in COINS_OPTS:
                    problem(w, f"tier {t}: coinsurance {rate!r} {cs.get('coinsurance_opt')!r}")
            drug_tiers[t] = f
        if not drug_tiers:
            problem(w, "no formulary tier")
        out[pid] = {"tiers": set(tiers), "drug_tiers": set(drug_tiers), "years": set(years or [])}
    return out


def check_rows(w, rows, plans, tier_key, tier_set_key):
    seen = set()
    for r in rows:
        pid = r.get("plan_id")
        plan = plans.get(pid)
        if r.get("plan_id_type") != "HIOS-PLAN-ID":
            problem(w, f"plan_id_type {r.get('plan_id_type')!r}")
        if plan is None:
            problem(w, f"plan_id {pid!r} is not in this issuer's plans.json")
            continue
        tier = r.get(tier_key)
        if tier not in plan[tier_set_key]:
            problem(w, f"{tier_key} {tier!r} is not one of plan {pid}'s tiers {sorted(plan[tier_set_key])}")
        years = r.get("years")
        if years is not None:
            if not (isinstance(years, list) and all(isinstance(y, int) for y in years)):
                problem(w, f"plan {pid}: years must be an array of integers")
            elif plan["years"] and not set(years) <= plan["years"]:
                problem(w, f"plan {pid}: years {years} outside the plan's {sorted(plan['years'])}")
        key = (pid, tier) if tier_key == "network_tier" else pid
        if key in seen:
            problem(w, f"plan row {key} twice")
        seen.add(key)


def check_address(w, a, zips):
    for k in ("address", "city", "state", "zip", "phone"):
        if not isinstance(a.get(k), str) or not a.get(k):
            problem(w, f"address lacks `{k}`")
    if not re.fullmatch(r"[A-Z]{2}", str(a.get("state"))):
        problem(w, f"state {a.get('state')!r}")
    if not re.fullmatch(r"\d{5}", str(a.get("zip"))):
        problem(w, f"zip {a.get('zip')!r} is not five digits")
    elif zips is not None and a.get("state") == "MI" and a["zip"] not in zips:
        problem(w, f"zip {a['zip']} is not a Michigan ZIP of rules/catalog/zips.yaml")
    if not re.fullmatch(r"\d{10}", str(a.get("phone"))):
        problem(w, f"phone {a.get('phone')!r} is not ten digits")


def check_issuer(folder, zips, everyone, all_drugs, seen_in):
    name = os.path.basename(os.path.normpath(folder))
    stats = {"issuer": name, "bytes": 0, "files": 0}
    with open(os.path.join(folder, "cms-data-index.json"), encoding="utf-8") as f:
        index = json.load(f)
    for k in ("provider_urls", "formulary_urls", "plan_urls"):
        if not isinstance(index.get(k), list) or (k != "formulary_urls" and not index.get(k)):
            problem(name, f"index: `{k}` must be an array" + ("" if k == "formulary_urls" else " of at least one URL"))
            index[k] = index.get(k) if isinstance(index.get(k), list) else []

    def files(key):
        out = []
        for url in index[key]:
            path = local_file(folder, url)
            if not os.path.exists(path):
                problem(name, f"index names {url}, which is not here")
                continue
            stats["bytes"] += os.path.getsize(path)
            stats["files"] += 1
            out.append(path)
        return out

    plans = {}
    for path in files("plan_urls"):
        with open(path, encoding="utf-8") as f:
            plans.update(check_plans(f"{name}/{os.path.basename(path)}", json.load(f)))
    stats["plans"] = len(plans)

    npis, kinds, n_rows, net_plans = set(), {"INDIVIDUAL": 0, "FACILITY": 0}, 0, set()
    for path in files("provider_urls"):
        fname = f"{name}/{os.path.basename(path)}"
        with open(path, encoding="utf-8") as f:
            entries = json.load(f)
        if len(entries) > MAX_PER_FILE:
            problem(fname, f"{len(entries)} entries (at most {MAX_PER_FILE} a file)")
        for e in entries:
            npi = e.get("npi")
            w = f"{fname} npi {npi}"
            if npi is not None:
                if not npi_valid(npi):
                    problem(w, "not a valid NPI (10 digits, first 1 or 2, Luhn check digit)")
                if npi in npis:
                    problem(w, "NPI listed twice by this issuer")
                npis.add(npi)
            typ = e.get("type")
            if typ not in kinds:
                problem(w, f"type {typ!r}")
            else:
                kinds[typ] += 1
            if not DATE.match(str(e.get("last_updated_on", ""))):
                problem(w, "last_updated_on is not YYYY-MM-DD")
            if typ == "INDIVIDUAL":
                nm = e.get("name") or {}
                if not nm.get("first") or not nm.get("last"):
                    problem(w, "name lacks first or last")
                spec = e.get("specialty", e.get("speciality"))
                if not (isinstance(spec, list) and spec and all(isinstance(s, str) for s in spec)):
                    problem(w, "specialty (or speciality) must be a non-empty array of strings")
                if e.get("accepting") not in ACCEPTING:
                    problem(w, f"accepting {e.get('accepting')!r}")
                if "gender" in e and e["gender"] not in ("Male", "Female", "Other"):
                    problem(w, f"gender {e['gender']!r}")
                ident = ("INDIVIDUAL", nm.get("first"), nm.get("last"))
            elif typ == "FACILITY":
                if not e.get("facility_name") or not isinstance(e.get("facility_type"), list):
                    problem(w, "facility_name or facility_type missing")
                ident = ("FACILITY", e.get("facility_name"))
            else:
                ident = (typ,)
            addrs = e.get("addresses")
            if not isinstance(addrs, list) or not addrs:
                problem(w, "no address")
            for a in addrs or []:
                check_address(w, a, zips)
            rows = e.get("plans")
            if not isinstance(rows, list):
                problem(w, "plans must be an array")
                rows = []
            check_rows(w, rows, plans, "network_tier", "tiers")
            n_rows += len(rows)
            for r in rows:
                net_plans.add(r.get("plan_id"))
            if npi is not None:
                seen_in[npi] = seen_in.get(npi, 0) + 1
                prev = everyone.setdefault(npi, (ident, name))
                if prev[0] != ident:
                    problem(w, f"described as {ident} here but as {prev[0]} by {prev[1]}")
    stats.update(providers=len(npis), individual=kinds["INDIVIDUAL"], facility=kinds["FACILITY"],
                 provider_rows=n_rows, plans_without_providers=len(set(plans) - net_plans))

    names, pairs, n_rows, flags, tiers = {}, set(), 0, [0, 0, 0], {}
    for path in files("formulary_urls"):
        fname = f"{name}/{os.path.basename(path)}"
        with open(path, encoding="utf-8") as f:
            entries = json.load(f)
        for d in entries:
            rx = d.get("rxnorm_id")
            w = f"{fname} rxnorm_id {rx}"
            if not isinstance(rx, str) or not rx.isdigit():
                problem(w, "rxnorm_id must be a string of digits")
            if not isinstance(d.get("drug_name"), str) or not d.get("drug_name"):
                problem(w, "drug_name missing")
            if rx in names and names[rx] != d.get("drug_name"):
                problem(w, f"named {d.get('drug_name')!r} here and {names[rx]!r} elsewhere")
            names.setdefault(rx, d.get("drug_name"))
            rows = d.get("plans")
            if not isinstance(rows, list):
                problem(w, "plans must be an array")
                rows = []
            check_rows(w, rows, plans, "drug_tier", "drug_tiers")
            for r in rows:
                if (rx, r.get("plan_id")) in pairs:
                    problem(w, f"plan {r.get('plan_id')} listed twice for this rxnorm_id")
                pairs.add((rx, r.get("plan_id")))
                for i, k in enumerate(("prior_authorization", "step_therapy", "quantity_limit")):
                    v = r.get(k, False)
                    if not isinstance(v, bool):
                        problem(w, f"{k} must be true or false")
                    elif v:
                        flags[i] += 1
                tiers[r.get("drug_tier")] = tiers.get(r.get("drug_tier"), 0) + 1
            n_rows += len(rows)
            all_drugs.setdefault(rx, d.get("drug_name"))
    stats.update(drugs=len(names), drug_rows=n_rows, pa=flags[0], st=flags[1], ql=flags[2], tiers=tiers,
                 drug_ids=set(names))
    return stats


def main():
    started = time.monotonic()
    target = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_DIR
    if os.path.exists(os.path.join(target, "cms-data-index.json")):
        folders = [target]
    else:
        folders = sorted(os.path.join(target, d) for d in os.listdir(target)
                         if os.path.exists(os.path.join(target, d, "cms-data-index.json")))
    if not folders:
        sys.exit(f"check.py: no cms-data-index.json in {target} or its sub-folders")
    zips = load_zips()
    everyone, all_drugs, seen_in, results = {}, {}, {}, []
    for folder in folders:
        before = len(problems)
        results.append(check_issuer(folder, zips, everyone, all_drugs, seen_in))
        for p in problems[before:before + SHOW]:
            print("PROBLEM", p)
        if len(problems) - before > SHOW:
            print(f"PROBLEM ... and {len(problems) - before - SHOW} more in {os.path.basename(folder)}")

    print(f"{'issuer':<30} {'plans':>5} {'providers':>9} {'indiv':>6} {'facil':>5} {'net rows':>9} "
          f"{'drugs':>5} {'absent':>6} {'drug rows':>9} {'PA':>6} {'ST':>6} {'QL':>6} {'files':>5} {'MB':>6}")
    for s in results:
        absent = len(set(all_drugs) - s["drug_ids"])
        print(f"{s['issuer']:<30} {s['plans']:>5} {s['providers']:>9} {s['individual']:>6} {s['facility']:>5} "
              f"{s['provider_rows']:>9} {s['drugs']:>5} {absent:>6} {s['drug_rows']:>9} {s['pa']:>6} {s['st']:>6} "
              f"{s['ql']:>6} {s['files']:>5} {s['bytes'] / 1e6:>6.1f}")
    for s in results:
        by_tier = ", ".join(f"{t} {n}" for t, n in sorted(s["tiers"].items(), key=str))
        print(f"{s['issuer']}: drug rows by tier {by_tier}"
              + (f"; {s['plans_without_providers']} plan(s) without providers" if s["plans_without_providers"] else ""))
    spread = {}
    for n in seen_in.values():
        spread[n] = spread.get(n, 0) + 1
    if len(results) > 1:
        print("NPIs by number of issuers listing them: " + ", ".join(f"{k}: {spread[k]}" for k in sorted(spread)))
    print(f"total: {len(everyone)} distinct NPIs over {len(results)} issuer(s), {len(all_drugs)} distinct rxnorm_ids, "
          f"{sum(s['bytes'] for s in results) / 1e6:.1f} MB; {len(problems)} problem(s); "
          f"{time.monotonic() - started:.1f} s")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
