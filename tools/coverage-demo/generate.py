#!/usr/bin/env python3
"""Generate Michigan demo data in the CMS QHP provider & formulary machine-readable format.

What: for every carrier of rules/catalog/carriers.yaml (the demo's issuers), one folder holding the
files a real issuer publishes for CMS (format: docs/yearly-cost-sources.md, section 4; samples:
server/tests/fixtures/coverage/cms-sample/):

    <out>/<issuer id>-<carrier slug>/cms-data-index.json   provider_urls, formulary_urls, plan_urls
    <out>/<issuer id>-<carrier slug>/plans.json             every medical plan of the carrier, 2024 and 2025
    <out>/<issuer id>-<carrier slug>/providers-1.json ...   the carrier's in-network providers, <= 5,000 a file
    <out>/<issuer id>-<carrier slug>/drugs.json             the carrier's formulary drugs

Why: the provider and drug look-up (is my doctor in network, is my drug covered and on which tier)
needs realistic volumes to build and test against, and the carriers' real files cannot be shipped.
The CMS samples hold three providers and two drugs; this writes about 30,000 Michigan providers and
about 3,000 drugs, spread over our own catalog plans.

How to run (from the repository root; Python 3 standard library only, nothing to install):

    python3 tools/coverage-demo/generate.py [OUT] [--seed N] [--providers N] [--base-url URL]
    python3 tools/coverage-demo/check.py [OUT]

OUT defaults to target/coverage-demo (under the repository root; /target is git-ignored); each
issuer folder in it is deleted and written anew. It takes about 3 seconds and writes about 200 MB
(some 1.3 million provider-plan rows: every provider is listed on each plan of its networks, two
years of plans; --providers 5000 gives a sixth of that). Deterministic: the same catalog, seed
(default 20250101) and options give byte-identical files: no clock, no set or hash ordering
(PYTHONHASHSEED does not matter), two random.Random streams seeded "<seed>:providers" and
"<seed>:drugs" (so --providers changes no formulary).

The format, followed exactly (field names and JSON types of the samples and the README tables):
- plans.json: plan_id_type "HIOS-PLAN-ID", plan_id, marketing_name, summary_url (the catalog's
  `sbc`), marketing_url (`baag`), formulary_url (the carrier's drug list, older/newer as
  carriers.yaml splits them; left out for a carrier without one), plan_contact, years,
  network [{network_tier}], formulary [{drug_tier, mail_order, cost_sharing [...]}] (always an
  array here; the format also allows a single object), benefits {telemedicine}, last_updated_on.
- providers-N.json: npi, type INDIVIDUAL (name {prefix?, first, middle?, last, suffix?}, addresses,
  specialty, accepting, gender, languages?) or FACILITY (facility_name, facility_type, addresses),
  last_updated_on, plans [{plan_id_type, plan_id, network_tier, years}] with one row per network
  tier. The field is spelled `specialty` as in the sample files and the 2017 branch; the master
  README's table spells it `speciality` (readers should accept both).
- drugs.json: rxnorm_id, drug_name, plans [{plan_id_type, plan_id, drug_tier,
  prior_authorization, step_therapy, quantity_limit, years}]; a plan missing from `plans` means
  the drug is not on that plan's formulary.
- cms-data-index.json: the file URLs are RELATIVE ("plans.json", "providers-1.json", ...), to be
  resolved against the index's own address; the format wants absolute HTTPS addresses, which
  --base-url gives (--base-url https://example.com/mi/ writes https://example.com/mi/<folder>/plans.json).
- last_updated_on: one fixed date per carrier (LAST_UPDATED below), on every record of its files.

Plan ids (HIOS-style; our catalog plans have integer ids): plan_id = <5-digit issuer id> + "MI" +
the catalog plan id zero-padded to 7 digits, e.g. plan 521 of carrier 1 -> 15560MI0000521; the
catalog plan id is the last 7 digits, int(plan_id[7:]). Catalog plan ids are unique across years,
so each plan_id belongs to one plan year (its `years` is [2024] or [2025]). Issuer ids: a carrier's
`hios_issuer_id` in carriers.yaml if it has one; otherwise ISSUER_IDS below: 15560 Blue Cross Blue
Shield of Michigan and 98185 Blue Care Network (real, ../shared/data/domain-facts.md), 90003
Priority Health and 90004 UnitedHealthcare of Michigan (INVENTED for the demo, stable, not the
carriers' real HIOS issuer ids).

Everything else is demo data, not real:
- NPIs are random but valid: 10 digits, first digit 1 or 2, the last the Luhn check digit over
  "80840" + the first 9 digits (the CMS NPI check-digit rule); unique. They may collide with real
  NPIs of real people: do not look them up.
- Names are drawn from common first and last names; addresses pair invented street addresses with
  real Michigan cities and real ZIP codes of those cities (each ZIP checked against
  rules/catalog/zips.yaml and its county at start); phone numbers are the city's area code + 555 +
  four digits (fictitious). Facility names are invented.
- Drugs: about 530 real drug names (generic, with brand names where brands exist; DRUGS below) times
  real-looking strengths and dose forms, about 3,000 products named RxNorm-style ("Atorvastatin 20 MG
  Oral Tablet", "Atorvastatin 20 MG Oral Tablet [Lipitor]"); a few are on no formulary of a carrier
  (weight-loss drugs outside Priority Health, and a small random share, brand-name products of
  drugs with a generic most often).
  rxnorm_id values are DEMO ids ("99" + 6 digits, 99000001 up), NOT real RxCUIs: matching them to
  RxNorm must go by drug_name. Tiers, prior authorization, step therapy and quantity limits are
  plausible, not any carrier's real formulary.
- Networks: each plan belongs to a product family (the plan name before its metal level, with the
  network type: "Blue Cross Premier PPO", "Blue Cross Local HMO", "MyPriority ... EPO"...). A
  provider joins a family at random (PPO families broadest, HMO narrowest; a second, smaller family
  of the same carrier and network type is a subset of the broad one; Priority Health stronger in
  west and northern Michigan), with some change between 2024 and 2025, and is listed on the
  family's plans of that year whose counties include one of the provider's address counties.
"""

import argparse
import json
import os
import random
import re
import shutil
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CATALOG = os.path.join(ROOT, "rules", "catalog")
DEFAULT_OUT = os.path.join(ROOT, "target", "coverage-demo")
DEFAULT_SEED = 20250101
DEFAULT_PROVIDERS = 30000
FACILITY_SHARE = 0.08
PROVIDERS_PER_FILE = 5000
YEARS = (2024, 2025)

# HIOS issuer id per catalog carrier id, when carriers.yaml gives none (see the header).
ISSUER_IDS = {1: "15560", 2: "98185", 3: "90003", 4: "90004"}
# last_updated_on per carrier id (fixed dates; unknown carriers get DEFAULT_LAST_UPDATED).
LAST_UPDATED = {1: "2025-01-06", 2: "2025-01-08", 3: "2025-01-03", 4: "2024-12-30"}
DEFAULT_LAST_UPDATED = "2025-01-02"

PLAN_ID_TYPE = "HIOS-PLAN-ID"
NETWORK_TYPES = {1: "PPO", 2: "HMO", 3: "EPO"}
# Network tiers per network type (issuer-defined uppercase names).
NETWORK_TIERS = {"PPO": ("PREFERRED", "NON-PREFERRED"), "EPO": ("PREFERRED", "STANDARD"), "HMO": ("PREFERRED",)}
# Chance that a provider is in a carrier's broad product family, by network type.
FAMILY_PROB = {"PPO": 0.74, "EPO": 0.50, "HMO": 0.42}
# A narrower family of the same carrier and network type takes this share of the broad one's providers.
SUBSET_PROB = 0.6
YEAR_CHANGE = 0.05         # share of providers whose membership of a family differs between 2024 and 2025
# Carrier-specific reach: a factor on FAMILY_PROB, by rating area of the provider (None = all areas).
CARRIER_REACH = {
    1: {None: 1.05},
    2: {None: 1.0},
    3: {None: 0.7, 9: 1.5, 10: 1.45, 11: 1.55, 12: 1.6, 13: 1.3, 14: 1.4},   # Priority Health: west and north
    4: {None: 0.85},
}

DRUG_TIERS = ("GENERIC", "PREFERRED-BRAND", "NON-PREFERRED-BRAND", "SPECIALTY", "ZERO-COST-SHARE-PREVENTIVE")

# --------------------------------------------------------------------------------------------------
# Michigan cities: (city, county id, area code, weight, real ZIPs of the city). The county is the
# first county of each ZIP in rules/catalog/zips.yaml (checked at start).
CITIES = [
    ("Detroit", 163, "313", 60, "48201 48202 48204 48205 48206 48207 48208 48209 48210 48211 48212 48213 "
     "48214 48215 48216 48217 48219 48221 48223 48224 48226 48227 48228 48234 48235 48238"),
    ("Dearborn", 163, "313", 14, "48120 48124 48126 48128"),
    ("Livonia", 163, "734", 12, "48150 48152 48154"),
    ("Westland", 163, "734", 6, "48185 48186"),
    ("Taylor", 163, "734", 5, "48180"),
    ("Wyandotte", 163, "734", 5, "48192"),
    ("Grosse Pointe", 163, "313", 5, "48230 48236"),
    ("Southfield", 125, "248", 16, "48033 48034 48075 48076"),
    ("Troy", 125, "248", 14, "48083 48084 48085 48098"),
    ("Royal Oak", 125, "248", 14, "48067 48073"),
    ("Pontiac", 125, "248", 8, "48340 48341 48342"),
    ("Farmington Hills", 125, "248", 10, "48331 48334 48335 48336"),
    ("Novi", 125, "248", 9, "48374 48375 48377"),
    ("Rochester Hills", 125, "248", 8, "48307 48309"),
    ("Bloomfield Hills", 125, "248", 8, "48301 48302 48304"),
    ("Waterford", 125, "248", 5, "48327 48328 48329"),
    ("Warren", 99, "586", 12, "48088 48089 48091 48092 48093"),
    ("Sterling Heights", 99, "586", 9, "48310 48312 48313 48314"),
    ("Clinton Township", 99, "586", 9, "48035 48036 48038"),
    ("Mount Clemens", 99, "586", 5, "48043"),
    ("Port Huron", 147, "810", 6, "48060"),
    ("Ann Arbor", 161, "734", 22, "48103 48104 48105 48108 48109"),
    ("Ypsilanti", 161, "734", 6, "48197 48198"),
    ("Brighton", 93, "810", 5, "48114 48116"),
    ("Howell", 93, "517", 4, "48843"),
    ("Monroe", 115, "734", 5, "48161 48162"),
    ("Adrian", 91, "517", 4, "49221"),
    ("Flint", 49, "810", 14, "48503 48504 48505 48506 48507 48532"),
    ("Grand Blanc", 49, "810", 5, "48439"),
    ("Lapeer", 87, "810", 3, "48446"),
    ("Owosso", 155, "989", 3, "48867"),
    ("Lansing", 65, "517", 14, "48906 48910 48911 48912 48915"),
    ("East Lansing", 65, "517", 6, "48823"),
    ("Okemos", 65, "517", 4, "48864"),
    ("Jackson", 75, "517", 7, "49201 49202 49203"),
    ("Charlotte", 45, "517", 2, "48813"),
    ("St. Johns", 37, "989", 2, "48879"),
    ("Hillsdale", 59, "517", 2, "49242"),
    ("Saginaw", 145, "989", 10, "48601 48602 48603 48604"),
    ("Bay City", 17, "989", 6, "48706 48708"),
    ("Midland", 111, "989", 6, "48640 48642"),
    ("Mount Pleasant", 73, "989", 4, "48858"),
    ("Alma", 57, "989", 2, "48801"),
    ("Grand Rapids", 81, "616", 30, "49503 49504 49505 49506 49507 49508 49512 49525 49546"),
    ("Wyoming", 81, "616", 6, "49509 49519"),
    ("Holland", 139, "616", 7, "49423 49424"),
    ("Grand Haven", 139, "616", 4, "49417"),
    ("Muskegon", 121, "231", 8, "49440 49441 49442 49444"),
    ("Kalamazoo", 77, "269", 14, "49001 49006 49007 49008 49009 49048"),
    ("Portage", 77, "269", 5, "49002 49024"),
    ("Battle Creek", 25, "269", 7, "49014 49015 49017 49037"),
    ("Coldwater", 23, "517", 2, "49036"),
    ("St. Joseph", 21, "269", 4, "49085"),
    ("Benton Harbor", 21, "269", 3, "49022"),
    ("Niles", 21, "269", 2, "49120"),
    ("Sturgis", 149, "269", 2, "49091"),
    ("Allegan", 5, "269", 2, "49010"),
    ("Hastings", 15, "269", 2, "49058"),
    ("Ionia", 67, "616", 2, "48846"),
    ("Greenville", 117, "616", 2, "48838"),
    ("Big Rapids", 107, "231", 2, "49307"),
    ("Ludington", 105, "231", 2, "49431"),
    ("Fremont", 123, "231", 2, "49412"),
    ("Traverse City", 55, "231", 8, "49684 49686"),
    ("Petoskey", 47, "231", 4, "49770"),
    ("Cadillac", 165, "231", 3, "49601"),
    ("Manistee", 101, "231", 2, "49660"),
    ("Gaylord", 137, "989", 3, "49735"),
    ("Alpena", 7, "989", 3, "49707"),
    ("Cheboygan", 31, "231", 2, "49721"),
    ("Sault Ste. Marie", 33, "906", 2, "49783"),
    ("West Branch", 129, "989", 1, "48661"),
    ("Grayling", 39, "989", 1, "49738"),
    ("Marquette", 103, "906", 5, "49855"),
    ("Escanaba", 41, "906", 2, "49829"),
    ("Houghton", 61, "906", 2, "49931"),
    ("Iron Mountain", 43, "906", 2, "49801"),
    ("Ironwood", 53, "906", 1, "49938"),
    ("Menominee", 109, "906", 1, "49858"),
    ("Sandusky", 151, "810", 1, "48471"),
    ("Bad Axe", 63, "989", 1, "48413"),
    ("Caro", 157, "989", 1, "48723"),
    ("Clare", 35, "989", 1, "48617"),
    ("Gladwin", 51, "989", 1, "48624"),
    ("Tawas City", 69, "989", 1, "48763"),
    ("Roscommon", 143, "989", 1, "48653"),
]

STREETS = (
    "Woodward Ave", "Michigan Ave", "Grand River Ave", "Gratiot Ave", "Jefferson Ave", "Telegraph Rd",
    "Southfield Rd", "Van Dyke Ave", "Mound Rd", "Hall Rd", "Big Beaver Rd", "Maple Rd", "12 Mile Rd",
    "13 Mile Rd", "14 Mile Rd", "Orchard Lake Rd", "Haggerty Rd", "Middlebelt Rd", "Ford Rd",
    "Warren Ave", "Main St", "State St", "Washington Ave", "Division Ave", "28th St SE", "Fulton St",
    "Lake Michigan Dr", "Westnedge Ave", "Saginaw St", "Washtenaw Ave", "Packard St", "Plymouth Rd",
    "Court St", "Front St", "Center Ave", "Mission St", "Lake St", "Park Ave", "Oak St", "Elm St",
    "Pine St", "River Rd", "Medical Center Dr", "Professional Dr", "Commerce Dr", "Beltline Ave NE",
    "Cascade Rd SE", "University Dr", "Health Pkwy", "Wellness Way", "Clinic Dr", "Cedar St",
    "Hospital Dr", "Hill St", "Broadway St", "Mitchell St", "Ludington St", "Third St", "Division St",
)

SPECIALTIES = (  # (specialty, weight)
    ("Family Medicine", 14), ("Internal Medicine", 11), ("Pediatrics", 8), ("Obstetrics & Gynecology", 5),
    ("Nurse Practitioner", 8), ("Physician Assistant", 5), ("Cardiology", 3), ("Dermatology", 2),
    ("Endocrinology", 1.5), ("Gastroenterology", 2), ("Neurology", 2), ("Hematology & Oncology", 2),
    ("Ophthalmology", 2), ("Optometry", 2), ("Orthopedic Surgery", 3), ("Otolaryngology", 1.5),
    ("Psychiatry", 4), ("Psychology", 4), ("Clinical Social Work", 3), ("Pulmonary Disease", 1.5),
    ("Nephrology", 1), ("Rheumatology", 1), ("Urology", 1.5), ("General Surgery", 2.5),
    ("Emergency Medicine", 4), ("Anesthesiology", 3), ("Diagnostic Radiology", 3),
    ("Physical Medicine & Rehabilitation", 1), ("Allergy & Immunology", 0.7), ("Infectious Disease", 0.7),
    ("Podiatry", 1.5), ("Chiropractic", 2.5), ("Physical Therapy", 4),
)
# A second specialty some providers list with the first.
SECOND_SPECIALTY = {
    "Internal Medicine": ("Cardiology", "Gastroenterology", "Nephrology", "Endocrinology", "Pulmonary Disease",
                          "Rheumatology", "Infectious Disease", "Hematology & Oncology"),
    "Pediatrics": ("Allergy & Immunology", "Endocrinology", "Cardiology"),
    "Family Medicine": ("Emergency Medicine",),
    "Psychiatry": ("Neurology",),
    "Nurse Practitioner": ("Family Medicine", "Pediatrics", "Psychiatry"),
    "Physician Assistant": ("Orthopedic Surgery", "Dermatology", "Emergency Medicine"),
}
NOT_PHYSICIANS = {"Nurse Practitioner", "Physician Assistant", "Psychology", "Clinical Social Work",
                  "Chiropractic", "Physical Therapy", "Optometry", "Podiatry"}

FACILITY_TYPES = (  # (facility_type, weight, name patterns)
    ("Hospital", 6, ("{place} General Hospital", "{desc} Medical Center", "{desc} Hospital - {place}")),
    ("Urgent Care", 14, ("{desc} Urgent Care - {place}", "{place} Walk-In Urgent Care")),
    ("Laboratory", 8, ("{desc} Clinical Laboratory", "{desc} Lab Services - {place}")),
    ("Imaging Center", 8, ("{desc} Imaging - {place}", "{place} MRI and Imaging")),
    ("Ambulatory Surgery Center", 6, ("{desc} Surgery Center", "{place} Outpatient Surgery Center")),
    ("Dialysis Center", 5, ("{desc} Dialysis - {place}", "{place} Kidney Center")),
    ("Skilled Nursing Facility", 6, ("{desc} Rehabilitation and Nursing Center", "{place} Care Center")),
    ("Home Health Agency", 4, ("{desc} Home Health Care", "{desc} Home Care - {place}")),
    ("Federally Qualified Health Center", 4, ("{desc} Community Health Center", "{place} Family Health Center")),
    ("Behavioral Health Center", 4, ("{desc} Behavioral Health", "{place} Counseling Center")),
)
FACILITY_DESC = (
    "Great Lakes", "Lakeshore", "Riverside", "Peninsula", "Pine Ridge", "Maple Valley", "Cedar Creek",
    "Heritage", "Harbor", "Bayview", "Westside", "Eastside", "Lakeside", "Summit", "Pioneer",
    "Willow Creek", "Clearwater", "Crossroads", "Grand Valley", "Northwoods", "Superior", "Birchwood",
    "Oak Hollow", "Sunrise", "Meadowlark", "Stonebridge", "Trillium", "Red Cedar", "Bluewater",
    "Cherry Hill", "Silver Lake", "Evergreen", "Wolverine", "Mitten", "Huron Shores", "Twin Pines",
)

FIRST_FEMALE = (
    "Mary", "Jennifer", "Linda", "Patricia", "Elizabeth", "Susan", "Jessica", "Sarah", "Karen", "Lisa",
    "Nancy", "Sandra", "Ashley", "Emily", "Michelle", "Amanda", "Melissa", "Stephanie", "Rebecca", "Laura",
    "Rachel", "Nicole", "Anna", "Megan", "Amy", "Angela", "Heather", "Katherine", "Christine", "Julie",
    "Kimberly", "Erin", "Lauren", "Hannah", "Olivia", "Emma", "Grace", "Natalie", "Samantha", "Victoria",
    "Maria", "Ana", "Sofia", "Gabriela", "Priya", "Anjali", "Fatima", "Layla", "Zainab", "Mariam",
    "Mei", "Lin", "Yuna", "Linh", "Katarzyna", "Agnieszka", "Joanna", "Aisha", "Keisha", "Tiffany",
    "Danielle", "Allison", "Caroline", "Diana", "Monica", "Teresa", "Renee", "Kristen", "Brooke", "Claire",
)
FIRST_MALE = (
    "James", "John", "Robert", "Michael", "William", "David", "Richard", "Joseph", "Thomas", "Charles",
    "Christopher", "Daniel", "Matthew", "Anthony", "Mark", "Steven", "Paul", "Andrew", "Joshua", "Kevin",
    "Brian", "Timothy", "Ryan", "Jason", "Eric", "Jacob", "Nicholas", "Benjamin", "Samuel", "Patrick",
    "Scott", "Gregory", "Jonathan", "Aaron", "Adam", "Nathan", "Kyle", "Peter", "Zachary", "Ethan",
    "Carlos", "Luis", "Jose", "Miguel", "Raj", "Arjun", "Vikram", "Sanjay", "Ali", "Hassan",
    "Mohamed", "Omar", "Khalil", "Wei", "Jun", "Min", "Tuan", "Piotr", "Tomasz", "Marek",
    "Darnell", "Marcus", "Terrence", "Derek", "Craig", "Dennis", "Keith", "Douglas", "Henry", "Luke",
)
MIDDLE_FEMALE = ("Marie", "Ann", "Lynn", "Elizabeth", "Rose", "Jean", "Louise", "Grace", "Nicole", "Renee")
MIDDLE_MALE = ("James", "Joseph", "Michael", "Allen", "Lee", "Edward", "Thomas", "Paul", "David", "Ray")
# Last names in groups: (languages often spoken besides English, chance, names).
LAST_NAMES = (
    ((), 0.0, (
        "Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson", "Thomas",
        "Taylor", "Moore", "Jackson", "Martin", "Thompson", "White", "Harris", "Clark", "Lewis", "Robinson",
        "Walker", "Young", "Allen", "King", "Wright", "Scott", "Hill", "Green", "Adams", "Baker", "Nelson",
        "Carter", "Mitchell", "Roberts", "Turner", "Phillips", "Campbell", "Parker", "Evans", "Edwards",
        "Collins", "Stewart", "Morris", "Murphy", "Cook", "Rogers", "Morgan", "Peterson", "Cooper", "Reed",
        "Bailey", "Bell", "Kelly", "Howard", "Ward", "Cox", "Richardson", "Wood", "Watson", "Brooks",
        "Bennett", "Gray", "James", "Hughes", "Price", "Myers", "Long", "Foster", "Sanders", "Ross", "Powell",
        "Sullivan", "Russell", "Jenkins", "Perry", "Butler", "Barnes", "Fisher", "Henderson", "Coleman",
        "Simmons", "Patterson", "Jordan", "Reynolds", "Hamilton", "Graham", "Wallace", "Griffin", "West",
        "Cole", "Hayes", "Gibson", "Bryant", "Ellis", "Stevens", "Murray", "Ford", "Marshall", "Owens",
        "McDonald", "Harrison", "Kennedy", "Wells", "Woods", "Olson", "Webb", "Washington", "Tucker",
        "Freeman", "Burns", "Henry", "Snyder", "Simpson", "Crawford", "Porter", "Mason", "Shaw", "Gordon",
        "Hunter", "Hicks", "Dixon", "Palmer", "Robertson", "Black", "Holmes", "Stone", "Boyd", "Mills",
        "Warren", "Fox", "Rose", "Rice", "Ferguson", "Nichols", "Ryan", "Weaver", "Daniels", "Stephens",
        "Gardner", "Payne", "Dunn", "Pierce", "Arnold", "Spencer", "Peters", "Hawkins", "Grant", "Hansen",
        "Hart", "Elliott", "Cunningham", "Knight", "Bradley", "O'Brien", "McCarthy", "Sheridan", "Donnelly",
    )),
    (("German",), 0.03, ("Schmidt", "Mueller", "Wagner", "Becker", "Schultz", "Koenig", "Hoffman", "Meyer",
                          "Krause", "Zimmerman", "Hartmann", "Vogel")),
    (("Dutch",), 0.02, ("VanderMeer", "DeVries", "VanderPloeg", "Bos", "Dykstra", "Hoekstra", "Visser",
                         "Kuipers", "Brouwer", "DeYoung", "VanDyke", "Vermeulen", "Ten Brink", "Zwiers")),
    (("Polish",), 0.18, ("Kowalski", "Nowak", "Wisniewski", "Kaminski", "Lewandowski", "Zielinski",
                          "Szymanski", "Wojcik", "Kowalczyk", "Mazur", "Krawczyk", "Jankowski")),
    (("Finnish",), 0.05, ("Maki", "Niemi", "Koski", "Lahti", "Heikkinen", "Salo", "Aho", "Hill")),
    (("Arabic",), 0.6, ("Haddad", "Hamade", "Saad", "Bazzi", "Beydoun", "Jaber", "Fawaz", "Hammoud",
                         "Elias", "Khoury", "Mansour", "Nasser", "Salem", "Aoun", "Berry", "Hamdan")),
    (("Arabic", "Chaldean"), 0.55, ("Yono", "Kassab", "Shamoun", "Jarbo", "Najor", "Kello", "Arabo")),
    (("Spanish",), 0.5, ("Garcia", "Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez", "Perez",
                          "Sanchez", "Ramirez", "Torres", "Flores", "Rivera", "Gomez", "Diaz", "Reyes",
                          "Morales", "Ortiz", "Ramos", "Chavez", "Ruiz", "Alvarez", "Mendoza", "Castillo",
                          "Jimenez", "Vasquez", "Herrera", "Medina", "Castro", "Romero", "Guerrero")),
    (("Hindi", "Gujarati", "Telugu", "Tamil"), 0.4, ("Patel", "Shah", "Reddy", "Rao", "Gupta", "Sharma",
                                                     "Desai", "Mehta", "Kumar", "Singh", "Iyer", "Joshi",
                                                     "Nair", "Chaudhry", "Malhotra")),
    (("Mandarin", "Cantonese"), 0.4, ("Chen", "Wang", "Li", "Zhang", "Liu", "Huang", "Wu", "Zhou", "Lin")),
    (("Korean",), 0.4, ("Kim", "Park", "Choi", "Jung", "Kang")),
    (("Vietnamese",), 0.45, ("Nguyen", "Tran", "Pham", "Le", "Vu")),
    (("Albanian",), 0.4, ("Hoxha", "Gjonaj", "Dedvukaj", "Berisha")),
)
SUFFIXES = ("Jr.", "Sr.", "II", "III")
OTHER_LANGUAGES = ("Spanish", "Spanish", "Spanish", "French", "Arabic", "American Sign Language")

# --------------------------------------------------------------------------------------------------
# Drugs: "generic|brand|kind|class|forms". brand: one or several ("Brand1,Brand2"), each a
# brand-name product. kind: G generic (plus the brand-name products), P like G but the generic is an
# ACA preventive drug ($0), B brand only, PB brand only and preventive, S specialty brand only, SG
# specialty with a generic. forms: "Dose Form=s1,s2 UNIT" separated by ";"; a strength holding a
# space carries its own unit ("40 MG/0.4ML"); "@Brand" after a form names that form's brands instead
# ("@" alone: none). A combination ("a / b") takes strengths "x/y". A product named twice is kept once.
DRUGS = """
atorvastatin|Lipitor|P|statin|Oral Tablet=10,20,40,80 MG
rosuvastatin|Crestor|P|statin|Oral Tablet=5,10,20,40 MG
simvastatin|Zocor|P|statin|Oral Tablet=5,10,20,40,80 MG
pravastatin|Pravachol|P|statin|Oral Tablet=10,20,40,80 MG
lovastatin||P|statin|Oral Tablet=10,20,40 MG
pitavastatin|Livalo|P|statin|Oral Tablet=1,2,4 MG
ezetimibe|Zetia|G|lipid|Oral Tablet=10 MG
ezetimibe / simvastatin|Vytorin|G|lipid|Oral Tablet=10/10,10/20,10/40,10/80 MG
fenofibrate|Tricor|G|lipid|Oral Tablet=48,145 MG
gemfibrozil|Lopid|G|lipid|Oral Tablet=600 MG
icosapent ethyl|Vascepa|G|lipid|Oral Capsule=0.5,1 GM
colesevelam|Welchol|G|lipid|Oral Tablet=625 MG
niacin|Niaspan|G|lipid|Extended Release Oral Tablet=500,750,1000 MG
evolocumab|Repatha|S|lipid|Auto-Injector=140 MG/ML
alirocumab|Praluent|S|lipid|Auto-Injector=75,150 MG/ML
lisinopril|Zestril,Prinivil|G|ace|Oral Tablet=2.5,5,10,20,30,40 MG;Oral Solution=1 MG/ML@Qbrelis
lisinopril / hydrochlorothiazide|Zestoretic|G|ace|Oral Tablet=10/12.5,20/12.5,20/25 MG
enalapril|Vasotec|G|ace|Oral Tablet=2.5,5,10,20 MG;Oral Solution=1 MG/ML@Epaned
benazepril|Lotensin|G|ace|Oral Tablet=5,10,20,40 MG
ramipril|Altace|G|ace|Oral Capsule=1.25,2.5,5,10 MG
quinapril|Accupril|G|ace|Oral Tablet=5,10,20,40 MG
losartan|Cozaar|G|arb|Oral Tablet=25,50,100 MG
losartan / hydrochlorothiazide|Hyzaar|G|arb|Oral Tablet=50/12.5,100/12.5,100/25 MG
valsartan|Diovan|G|arb|Oral Tablet=40,80,160,320 MG
valsartan / hydrochlorothiazide|Diovan HCT|G|arb|Oral Tablet=80/12.5,160/12.5,160/25,320/12.5,320/25 MG
irbesartan|Avapro|G|arb|Oral Tablet=75,150,300 MG
olmesartan|Benicar|G|arb|Oral Tablet=5,20,40 MG
telmisartan|Micardis|G|arb|Oral Tablet=20,40,80 MG
candesartan|Atacand|G|arb|Oral Tablet=4,8,16,32 MG
amlodipine|Norvasc|G|ccb|Oral Tablet=2.5,5,10 MG;Oral Suspension=1 MG/ML@Katerzia
amlodipine / benazepril|Lotrel|G|ccb|Oral Capsule=2.5/10,5/10,5/20,5/40,10/20,10/40 MG
amlodipine / olmesartan|Azor|G|ccb|Oral Tablet=5/20,5/40,10/20,10/40 MG
nifedipine|Procardia XL|G|ccb|24 HR Extended Release Oral Tablet=30,60,90 MG
diltiazem|Cardizem CD|G|ccb|24 HR Extended Release Oral Capsule=120,180,240,300,360 MG;Oral Tablet=30,60,90,120 MG@Cardizem
verapamil|Calan SR|G|ccb|Extended Release Oral Tablet=120,180,240 MG;Oral Tablet=40,80,120 MG@Calan
metoprolol succinate|Toprol XL|G|bb|24 HR Extended Release Oral Tablet=25,50,100,200 MG
metoprolol tartrate|Lopressor|G|bb|Oral Tablet=25,37.5,50,75,100 MG
carvedilol|Coreg|G|bb|Oral Tablet=3.125,6.25,12.5,25 MG;24 HR Extended Release Oral Capsule=10,20,40,80 MG@Coreg CR
atenolol|Tenormin|G|bb|Oral Tablet=25,50,100 MG
propranolol||G|bb|Oral Tablet=10,20,40,60,80 MG;Oral Solution=20,40 MG/5ML;24 HR Extended Release Oral Capsule=60,80,120,160 MG@Inderal LA
bisoprolol||G|bb|Oral Tablet=2.5,5,10 MG
nebivolol|Bystolic|G|bb|Oral Tablet=2.5,5,10,20 MG
labetalol||G|bb|Oral Tablet=100,200,300 MG
hydrochlorothiazide||G|diuretic|Oral Tablet=12.5,25,50 MG;Oral Capsule=12.5 MG
chlorthalidone||G|diuretic|Oral Tablet=25,50 MG
furosemide|Lasix|G|diuretic|Oral Tablet=20,40,80 MG;Oral Solution=10 MG/ML@
bumetanide||G|diuretic|Oral Tablet=0.5,1,2 MG
torsemide||G|diuretic|Oral Tablet=5,10,20,100 MG
spironolactone|Aldactone|G|diuretic|Oral Tablet=25,50,100 MG;Oral Suspension=25 MG/5ML@CaroSpir
triamterene / hydrochlorothiazide|Maxzide|G|diuretic|Oral Tablet=37.5/25,75/50 MG;Oral Capsule=37.5/25 MG@Dyazide
metolazone||G|diuretic|Oral Tablet=2.5,5,10 MG
eplerenone|Inspra|G|diuretic|Oral Tablet=25,50 MG
clonidine|Catapres|G|antihtn|Oral Tablet=0.1,0.2,0.3 MG;Transdermal System=0.1,0.2,0.3 MG/24HR@Catapres-TTS;12 HR Extended Release Oral Tablet=0.1 MG@Kapvay
hydralazine||G|antihtn|Oral Tablet=10,25,50,100 MG
minoxidil||G|antihtn|Oral Tablet=2.5,10 MG
prazosin|Minipress|G|antihtn|Oral Capsule=1,2,5 MG
isosorbide mononitrate||G|nitrate|24 HR Extended Release Oral Tablet=30,60,120 MG
nitroglycerin|Nitrostat|G|nitrate|Sublingual Tablet=0.3,0.4,0.6 MG;Transdermal System=0.1,0.2,0.4,0.6 MG/HR@Minitran;Topical Ointment=20 MG/GM@Nitro-Bid
ranolazine|Ranexa|G|cardio|Extended Release Oral Tablet=500,1000 MG
sacubitril / valsartan|Entresto|B|hf|Oral Tablet=24/26,49/51,97/103 MG
digoxin|Lanoxin|G|hf|Oral Tablet=0.0625,0.125,0.25 MG
amiodarone|Pacerone|G|antiarrhythmic|Oral Tablet=100,200,400 MG
flecainide||G|antiarrhythmic|Oral Tablet=50,100,150 MG
sotalol|Betapace|G|antiarrhythmic|Oral Tablet=80,120,160 MG
dofetilide|Tikosyn|G|antiarrhythmic|Oral Capsule=125,250,500 MCG
warfarin|Jantoven,Coumadin|G|anticoag|Oral Tablet=1,2,2.5,3,4,5,6,7.5,10 MG
apixaban|Eliquis|B|anticoag|Oral Tablet=2.5,5 MG
rivaroxaban|Xarelto|B|anticoag|Oral Tablet=2.5,10,15,20 MG
dabigatran etexilate|Pradaxa|G|anticoag|Oral Capsule=75,110,150 MG
enoxaparin|Lovenox|G|anticoag|Prefilled Syringe=30 MG/0.3ML,40 MG/0.4ML,60 MG/0.6ML,80 MG/0.8ML,100 MG/ML
clopidogrel|Plavix|G|antiplatelet|Oral Tablet=75 MG
prasugrel|Effient|G|antiplatelet|Oral Tablet=5,10 MG
ticagrelor|Brilinta|B|antiplatelet|Oral Tablet=60,90 MG
aspirin||P|antiplatelet|Delayed Release Oral Tablet=81 MG;Chewable Tablet=81 MG
metformin|Glucophage|G|diabetes|Oral Tablet=500,850,1000 MG;24 HR Extended Release Oral Tablet=500,750 MG@Glucophage XR;24 HR Extended Release Oral Tablet=500,1000 MG@Fortamet,Glumetza;Oral Solution=100 MG/ML@Riomet
glipizide|Glucotrol|G|diabetes|Oral Tablet=5,10 MG;24 HR Extended Release Oral Tablet=2.5,5,10 MG@Glucotrol XL
glimepiride|Amaryl|G|diabetes|Oral Tablet=1,2,4 MG
glyburide||G|diabetes|Oral Tablet=1.25,2.5,5 MG
pioglitazone|Actos|G|diabetes|Oral Tablet=15,30,45 MG
sitagliptin|Januvia|B|diabetes|Oral Tablet=25,50,100 MG
sitagliptin / metformin|Janumet|B|diabetes|Oral Tablet=50/500,50/1000 MG
linagliptin|Tradjenta|B|diabetes|Oral Tablet=5 MG
empagliflozin|Jardiance|B|diabetes|Oral Tablet=10,25 MG
dapagliflozin|Farxiga|B|diabetes|Oral Tablet=5,10 MG
canagliflozin|Invokana|B|diabetes|Oral Tablet=100,300 MG
semaglutide|Ozempic|B|glp1|Pen Injector=0.68,1.34,2.68 MG/ML;Oral Tablet=3,7,14 MG@Rybelsus
dulaglutide|Trulicity|B|glp1|Auto-Injector=0.75,1.5,3,4.5 MG/0.5ML
liraglutide|Victoza|B|glp1|Pen Injector=6 MG/ML
tirzepatide|Mounjaro|B|glp1|Auto-Injector=2.5,5,7.5,10,12.5,15 MG/0.5ML
semaglutide|Wegovy|B|weight|Auto-Injector=0.25 MG/0.5ML,0.5 MG/0.5ML,1 MG/0.5ML,1.7 MG/0.75ML,2.4 MG/0.75ML
tirzepatide|Zepbound|B|weight|Auto-Injector=2.5,5,7.5,10,12.5,15 MG/0.5ML
phentermine|Adipex-P|G|weight|Oral Capsule=37.5 MG;Oral Tablet=37.5 MG
insulin glargine|Lantus|B|insulin|Pen Injector=100 UNT/ML;Injectable Solution=100 UNT/ML
insulin glargine|Toujeo|B|insulin|Pen Injector=300 UNT/ML
insulin glargine|Basaglar|B|insulin|Pen Injector=100 UNT/ML
insulin degludec|Tresiba|B|insulin|Pen Injector=100,200 UNT/ML;Injectable Solution=100 UNT/ML
insulin detemir|Levemir|B|insulin|Pen Injector=100 UNT/ML
insulin lispro|Humalog,Admelog,Lyumjev|B|insulin|Pen Injector=100,200 UNT/ML;Injectable Solution=100 UNT/ML;Cartridge=100 UNT/ML
insulin aspart|Novolog,Fiasp|B|insulin|Pen Injector=100 UNT/ML;Injectable Solution=100 UNT/ML;Cartridge=100 UNT/ML
insulin human regular|Humulin R|B|insulin|Injectable Solution=100,500 UNT/ML
insulin isophane human|Humulin N|B|insulin|Injectable Solution=100 UNT/ML;Pen Injector=100 UNT/ML
glucagon|Baqsimi|B|diabetes|Nasal Powder=3 MG
levothyroxine|Synthroid,Levoxyl,Unithroid,Euthyrox|G|thyroid|Oral Tablet=25,50,75,88,100,112,125,137,150,175,200,300 MCG
liothyronine|Cytomel|G|thyroid|Oral Tablet=5,25,50 MCG
methimazole||G|thyroid|Oral Tablet=5,10 MG
omeprazole|Prilosec|G|ppi|Delayed Release Oral Capsule=10,20,40 MG;Delayed Release Oral Suspension=2.5,10 MG@
pantoprazole|Protonix|G|ppi|Delayed Release Oral Tablet=20,40 MG
esomeprazole|Nexium|G|ppi|Delayed Release Oral Capsule=20,40 MG
lansoprazole|Prevacid|G|ppi|Delayed Release Oral Capsule=15,30 MG
dexlansoprazole|Dexilant|G|ppi|Delayed Release Oral Capsule=30,60 MG
rabeprazole|Aciphex|G|ppi|Delayed Release Oral Tablet=20 MG
famotidine|Pepcid|G|gi|Oral Tablet=10,20,40 MG;Oral Suspension=40 MG/5ML
ondansetron|Zofran|G|antiemetic|Oral Tablet=4,8,24 MG;Disintegrating Oral Tablet=4,8 MG@Zofran ODT;Oral Solution=4 MG/5ML@
promethazine||G|antiemetic|Oral Tablet=12.5,25,50 MG;Oral Solution=6.25 MG/5ML;Rectal Suppository=12.5,25 MG@Promethegan
scopolamine|Transderm Scop|G|antiemetic|Transdermal System=1 MG/72HR
meclizine||G|antiemetic|Oral Tablet=12.5,25 MG
metoclopramide|Reglan|G|gi|Oral Tablet=5,10 MG
dicyclomine|Bentyl|G|gi|Oral Capsule=10 MG;Oral Tablet=20 MG
mesalamine|Lialda|G|ibd|Delayed Release Oral Tablet=1.2 GM;24 HR Extended Release Oral Capsule=0.375 GM@Apriso
sucralfate|Carafate|G|gi|Oral Tablet=1 GM
linaclotide|Linzess|B|gi|Oral Capsule=72,145,290 MCG
lubiprostone|Amitiza|G|gi|Oral Capsule=8,24 MCG
rifaximin|Xifaxan|B|gi|Oral Tablet=200,550 MG
pancrelipase|Creon|B|gi|Delayed Release Oral Capsule=3000,6000,12000,24000,36000 UNT
ursodiol|Actigall|G|gi|Oral Capsule=300 MG;Oral Tablet=250,500 MG@Urso
loperamide|Imodium|G|gi|Oral Capsule=2 MG
polyethylene glycol 3350|GoLytely|P|bowelprep|Powder for Oral Solution=236 GM
albuterol|ProAir HFA,Proventil HFA,Ventolin HFA|G|asthma|Metered Dose Inhaler=90 MCG/ACTUAT;Oral Tablet=2,4 MG@;Oral Solution=2 MG/5ML@;Inhalation Solution=0.417,0.83 MG/ML@
levalbuterol|Xopenex HFA|G|asthma|Metered Dose Inhaler=45 MCG/ACTUAT
fluticasone propionate|Flovent HFA|G|asthma|Metered Dose Inhaler=44,110,220 MCG/ACTUAT;Nasal Spray=50 MCG/ACTUAT@Flonase
fluticasone / salmeterol|Advair Diskus,Wixela Inhub|G|asthma|Dry Powder Inhaler=100/50,250/50,500/50 MCG/ACTUAT;Metered Dose Inhaler=45/21,115/21,230/21 MCG/ACTUAT@Advair HFA
budesonide / formoterol|Symbicort|G|asthma|Metered Dose Inhaler=80/4.5,160/4.5 MCG/ACTUAT
fluticasone furoate / vilanterol|Breo Ellipta|G|asthma|Dry Powder Inhaler=100/25,200/25 MCG/ACTUAT
fluticasone furoate / umeclidinium / vilanterol|Trelegy Ellipta|B|copd|Dry Powder Inhaler=100/62.5/25,200/62.5/25 MCG/ACTUAT
mometasone / formoterol|Dulera|B|asthma|Metered Dose Inhaler=50/5,100/5,200/5 MCG/ACTUAT
tiotropium|Spiriva|B|copd|Inhalation Powder=18 MCG;Soft Mist Inhaler=1.25,2.5 MCG/ACTUAT@Spiriva Respimat
umeclidinium / vilanterol|Anoro Ellipta|B|copd|Dry Powder Inhaler=62.5/25 MCG/ACTUAT
ipratropium / albuterol|Combivent Respimat|B|copd|Soft Mist Inhaler=20/100 MCG/ACTUAT
ipratropium|Atrovent|G|copd|Nasal Spray=21,42 MCG/ACTUAT;Inhalation Solution=0.2 MG/ML@
roflumilast|Daliresp|G|copd|Oral Tablet=250,500 MCG
montelukast|Singulair|G|asthma|Oral Tablet=10 MG;Chewable Tablet=4,5 MG;Oral Granules=4 MG
budesonide|Pulmicort|G|asthma|Inhalation Suspension=0.125,0.25,0.5 MG/ML;24 HR Extended Release Oral Tablet=9 MG@Uceris;Delayed Release Oral Capsule=3 MG@Entocort EC
mometasone furoate|Nasonex|G|allergy|Nasal Spray=50 MCG/ACTUAT;Topical Cream=1 MG/GM@Elocon
azelastine||G|allergy|Nasal Spray=137 MCG/ACTUAT
benzonatate|Tessalon|G|cough|Oral Capsule=100,200 MG
cetirizine|Zyrtec|G|allergy|Oral Tablet=5,10 MG;Oral Solution=1 MG/ML
levocetirizine|Xyzal|G|allergy|Oral Tablet=5 MG
loratadine|Claritin,Alavert|G|allergy|Oral Tablet=10 MG;Disintegrating Oral Tablet=10 MG@Claritin RediTabs;Oral Solution=1 MG/ML@
fexofenadine|Allegra|G|allergy|Oral Tablet=60,180 MG
hydroxyzine hydrochloride||G|allergy|Oral Tablet=10,25,50 MG;Oral Solution=10 MG/5ML
hydroxyzine pamoate|Vistaril|G|allergy|Oral Capsule=25,50 MG
epinephrine|EpiPen,Auvi-Q,Adrenaclick|G|allergy|Auto-Injector=0.15 MG/0.3ML,0.3 MG/0.3ML
prednisone||G|steroid|Oral Tablet=1,2.5,5,10,20,50 MG;Delayed Release Oral Tablet=1,2,5 MG@Rayos;Oral Solution=1 MG/ML
methylprednisolone|Medrol|G|steroid|Oral Tablet=4,8,16,32 MG
dexamethasone||G|steroid|Oral Tablet=0.5,0.75,1,1.5,4,6 MG
prednisolone||G|steroid|Oral Solution=15 MG/5ML
dupilumab|Dupixent|S|immunology|Prefilled Syringe=150,175 MG/ML
omalizumab|Xolair|S|immunology|Prefilled Syringe=75 MG/0.5ML,150 MG/ML
mepolizumab|Nucala|S|immunology|Auto-Injector=100 MG/ML
amoxicillin||G|antibiotic|Oral Capsule=250,500 MG;Oral Tablet=500,875 MG;Oral Suspension=125,200,250,400 MG/5ML
amoxicillin / clavulanate|Augmentin|G|antibiotic|Oral Tablet=250/125,500/125,875/125 MG;Oral Suspension=400/57,600/42.9 MG/5ML
azithromycin|Zithromax|G|antibiotic|Oral Tablet=250,500,600 MG;Oral Suspension=100,200 MG/5ML
cephalexin|Keflex|G|antibiotic|Oral Capsule=250,500,750 MG;Oral Suspension=125,250 MG/5ML@
cefdinir||G|antibiotic|Oral Capsule=300 MG;Oral Suspension=125,250 MG/5ML
cefuroxime axetil|Ceftin|G|antibiotic|Oral Tablet=250,500 MG
cefadroxil||G|antibiotic|Oral Capsule=500 MG
ciprofloxacin|Cipro|G|antibiotic|Oral Tablet=250,500,750 MG
levofloxacin||G|antibiotic|Oral Tablet=250,500,750 MG
doxycycline hyclate||G|antibiotic|Oral Capsule=50,100 MG;Oral Tablet=20,100 MG
minocycline||G|antibiotic|Oral Capsule=50,75,100 MG;24 HR Extended Release Oral Tablet=45,55,65,80,90,105,115,135 MG@Solodyn
sulfamethoxazole / trimethoprim|Bactrim DS|G|antibiotic|Oral Tablet=400/80,800/160 MG
nitrofurantoin|Macrobid|G|antibiotic|Oral Capsule=100 MG
metronidazole|Flagyl|G|antibiotic|Oral Tablet=250,500 MG;Vaginal Gel=7.5 MG/GM@Metrogel
clindamycin|Cleocin|G|antibiotic|Oral Capsule=75,150,300 MG
penicillin V potassium||G|antibiotic|Oral Tablet=250,500 MG
clarithromycin||G|antibiotic|Oral Tablet=250,500 MG
vancomycin||G|antibiotic|Oral Capsule=125,250 MG
isoniazid||G|antibiotic|Oral Tablet=100,300 MG
rifampin|Rifadin|G|antibiotic|Oral Capsule=150,300 MG
fluconazole|Diflucan|G|antifungal|Oral Tablet=50,100,150,200 MG;Oral Suspension=10,40 MG/ML
terbinafine||G|antifungal|Oral Tablet=250 MG
nystatin||G|antifungal|Oral Suspension=100000 UNT/ML;Topical Cream=100000 UNT/GM;Topical Powder=100000 UNT/GM
clotrimazole||G|antifungal|Topical Cream=10 MG/GM;Oral Troche=10 MG
itraconazole|Sporanox|G|antifungal|Oral Capsule=100 MG
voriconazole|Vfend|G|antifungal|Oral Tablet=50,200 MG
valacyclovir|Valtrex|G|antiviral|Oral Tablet=500,1000 MG
acyclovir||G|antiviral|Oral Tablet=400,800 MG;Oral Capsule=200 MG
oseltamivir|Tamiflu|G|antiviral|Oral Capsule=30,45,75 MG;Oral Suspension=6 MG/ML
nirmatrelvir / ritonavir|Paxlovid|B|antiviral|Oral Tablet=150/100 MG
entecavir|Baraclude|G|antiviral|Oral Tablet=0.5,1 MG
tenofovir disoproxil fumarate|Viread|G|antiviral|Oral Tablet=300 MG
emtricitabine / tenofovir disoproxil fumarate|Truvada|P|prep|Oral Tablet=100/150,133/200,167/250,200/300 MG
emtricitabine / tenofovir alafenamide|Descovy|S|hiv|Oral Tablet=120/15,200/25 MG
bictegravir / emtricitabine / tenofovir alafenamide|Biktarvy|S|hiv|Oral Tablet=30/120/15,50/200/25 MG
dolutegravir|Tivicay|S|hiv|Oral Tablet=10,25,50 MG
dolutegravir / lamivudine|Dovato|S|hiv|Oral Tablet=50/300 MG
efavirenz / emtricitabine / tenofovir disoproxil fumarate|Atripla|SG|hiv|Oral Tablet=600/200/300 MG
sofosbuvir / velpatasvir|Epclusa|S|hepc|Oral Tablet=200/50,400/100 MG
glecaprevir / pibrentasvir|Mavyret|S|hepc|Oral Tablet=100/40 MG
hydroxychloroquine|Plaquenil|G|rheum|Oral Tablet=200 MG;Oral Tablet=100,300,400 MG@
ivermectin|Stromectol|G|antiparasitic|Oral Tablet=3 MG
sertraline|Zoloft|G|ssri|Oral Tablet=25,50,100 MG;Oral Solution=20 MG/ML;Oral Capsule=150,200 MG@
escitalopram|Lexapro|G|ssri|Oral Tablet=5,10,20 MG;Oral Solution=1 MG/ML@
citalopram|Celexa|G|ssri|Oral Tablet=10,20,40 MG;Oral Solution=2 MG/ML@
fluoxetine|Prozac|G|ssri|Oral Capsule=10,20,40 MG;Oral Tablet=10,20,60 MG@;Oral Solution=20 MG/5ML@;Delayed Release Oral Capsule=90 MG@Prozac Weekly
paroxetine|Paxil|G|ssri|Oral Tablet=10,20,30,40 MG
venlafaxine|Effexor XR|G|snri|24 HR Extended Release Oral Capsule=37.5,75,150 MG;Oral Tablet=25,37.5,50,75,100 MG@;24 HR Extended Release Oral Tablet=37.5,75,150,225 MG@
duloxetine|Cymbalta|G|snri|Delayed Release Oral Capsule=20,30,60 MG
desvenlafaxine|Pristiq|G|snri|24 HR Extended Release Oral Tablet=25,50,100 MG
bupropion hydrochloride|Wellbutrin XL|G|antidep|24 HR Extended Release Oral Tablet=150,300 MG;12 HR Extended Release Oral Tablet=100,150,200 MG@Wellbutrin SR
mirtazapine|Remeron|G|antidep|Oral Tablet=7.5,15,30,45 MG;Disintegrating Oral Tablet=15,30,45 MG@Remeron SolTab
trazodone||G|antidep|Oral Tablet=50,100,150,300 MG
amitriptyline||G|antidep|Oral Tablet=10,25,50,75,100,150 MG
nortriptyline|Pamelor|G|antidep|Oral Capsule=10,25,50,75 MG
vortioxetine|Trintellix|B|antidep|Oral Tablet=5,10,20 MG
esketamine|Spravato|S|antidep|Nasal Spray=28 MG
buspirone||G|anxiolytic|Oral Tablet=5,7.5,10,15,30 MG
alprazolam|Xanax|G|benzo|Oral Tablet=0.25,0.5,1,2 MG
lorazepam|Ativan|G|benzo|Oral Tablet=0.5,1,2 MG;Oral Concentrate=2 MG/ML@
clonazepam|Klonopin|G|benzo|Oral Tablet=0.5,1,2 MG
diazepam|Valium|G|benzo|Oral Tablet=2,5,10 MG;Oral Solution=5 MG/5ML@;Rectal Gel=2.5,10,20 MG@Diastat
temazepam|Restoril|G|sleep|Oral Capsule=7.5,15,22.5,30 MG
zolpidem|Ambien|G|sleep|Oral Tablet=5,10 MG;Extended Release Oral Tablet=6.25,12.5 MG@Ambien CR
eszopiclone|Lunesta|G|sleep|Oral Tablet=1,2,3 MG
ramelteon|Rozerem|G|sleep|Oral Tablet=8 MG
doxepin|Silenor|G|sleep|Oral Tablet=3,6 MG;Oral Capsule=10,25,50,75,100,150 MG@
suvorexant|Belsomra|B|sleep|Oral Tablet=5,10,15,20 MG
modafinil|Provigil|G|sleep|Oral Tablet=100,200 MG
armodafinil|Nuvigil|G|sleep|Oral Tablet=50,150,200,250 MG
quetiapine|Seroquel|G|antipsych|Oral Tablet=25,50,100,200,300,400 MG;24 HR Extended Release Oral Tablet=50,150,200,300,400 MG@Seroquel XR
aripiprazole|Abilify|G|antipsych|Oral Tablet=2,5,10,15,20,30 MG;Oral Solution=1 MG/ML@;Disintegrating Oral Tablet=10,15 MG@
risperidone|Risperdal|G|antipsych|Oral Tablet=0.25,0.5,1,2,3,4 MG;Disintegrating Oral Tablet=0.5,1,2,3,4 MG@Risperdal M-Tab;Oral Solution=1 MG/ML
olanzapine|Zyprexa|G|antipsych|Oral Tablet=2.5,5,7.5,10,15,20 MG;Disintegrating Oral Tablet=5,10,15,20 MG@Zyprexa Zydis
ziprasidone|Geodon|G|antipsych|Oral Capsule=20,40,60,80 MG
lurasidone|Latuda|G|antipsych|Oral Tablet=20,40,60,80,120 MG
clozapine|Clozaril|G|antipsych|Oral Tablet=25,50,100,200 MG;Disintegrating Oral Tablet=12.5,25,100,150,200 MG@
haloperidol||G|antipsych|Oral Tablet=0.5,1,2,5,10,20 MG
brexpiprazole|Rexulti|B|antipsych|Oral Tablet=0.25,0.5,1,2,3,4 MG
cariprazine|Vraylar|B|antipsych|Oral Capsule=1.5,3,4.5,6 MG
paliperidone palmitate|Invega Sustenna|S|antipsych|Prefilled Syringe=39,78,117,156,234 MG
lithium carbonate||G|mood|Oral Capsule=150,300,600 MG;Extended Release Oral Tablet=300,450 MG
lamotrigine|Lamictal|G|anticonv|Oral Tablet=25,100,150,200 MG;Chewable Tablet=5,25 MG@
levetiracetam|Keppra|G|anticonv|Oral Tablet=250,500,750,1000 MG;Oral Solution=100 MG/ML;24 HR Extended Release Oral Tablet=500,750 MG@Keppra XR
topiramate|Topamax|G|anticonv|Oral Tablet=25,50,100,200 MG
gabapentin|Neurontin|G|anticonv|Oral Capsule=100,300,400 MG;Oral Tablet=600,800 MG;Oral Solution=250 MG/5ML;24 HR Extended Release Oral Tablet=300,600 MG@Gralise
pregabalin|Lyrica|G|anticonv|Oral Capsule=25,50,75,100,150,200,225,300 MG
divalproex sodium|Depakote|G|anticonv|Delayed Release Oral Tablet=125,250,500 MG;24 HR Extended Release Oral Tablet=250,500 MG@Depakote ER
carbamazepine|Tegretol|G|anticonv|Oral Tablet=200 MG;Extended Release Oral Tablet=100,200,400 MG@Tegretol XR;Chewable Tablet=100 MG@;Oral Suspension=100 MG/5ML
oxcarbazepine|Trileptal|G|anticonv|Oral Tablet=150,300,600 MG;Oral Suspension=300 MG/5ML;24 HR Extended Release Oral Tablet=150,300,600 MG@Oxtellar XR
phenytoin sodium|Dilantin|G|anticonv|Extended Release Oral Capsule=30,100 MG;Extended Release Oral Capsule=200,300 MG@Phenytek
lacosamide|Vimpat|G|anticonv|Oral Tablet=50,100,150,200 MG
zonisamide||G|anticonv|Oral Capsule=25,50,100 MG
methylphenidate hydrochloride|Concerta,Relexxii|G|adhd|24 HR Extended Release Oral Tablet=18,27,36,54 MG;Oral Tablet=5,10,20 MG@Ritalin;24 HR Extended Release Oral Capsule=10,20,30,40,50,60 MG@Ritalin LA
amphetamine mixed salts|Adderall|G|adhd|Oral Tablet=5,7.5,10,12.5,15,20,30 MG;24 HR Extended Release Oral Capsule=5,10,15,20,25,30 MG@Adderall XR
lisdexamfetamine|Vyvanse|G|adhd|Oral Capsule=10,20,30,40,50,60,70 MG;Chewable Tablet=10,20,30,40,50,60 MG
atomoxetine|Strattera|G|adhd|Oral Capsule=10,18,25,40,60,80,100 MG
guanfacine|Intuniv|G|adhd|24 HR Extended Release Oral Tablet=1,2,3,4 MG;Oral Tablet=1,2 MG@
donepezil|Aricept|G|dementia|Oral Tablet=5,10,23 MG
memantine|Namenda|G|dementia|Oral Tablet=5,10 MG
sumatriptan|Imitrex|G|migraine|Oral Tablet=25,50,100 MG;Auto-Injector=6 MG/0.5ML;Nasal Spray=5,20 MG@
rizatriptan|Maxalt|G|migraine|Oral Tablet=5,10 MG;Disintegrating Oral Tablet=5,10 MG@Maxalt-MLT
erenumab|Aimovig|B|migraine|Auto-Injector=70,140 MG/ML
rimegepant|Nurtec ODT|B|migraine|Disintegrating Oral Tablet=75 MG
ubrogepant|Ubrelvy|B|migraine|Oral Tablet=50,100 MG
carbidopa / levodopa|Sinemet|G|parkinson|Oral Tablet=10/100,25/100,25/250 MG
pramipexole|Mirapex|G|parkinson|Oral Tablet=0.125,0.25,0.5,0.75,1,1.5 MG
ropinirole|Requip|G|parkinson|Oral Tablet=0.25,0.5,1,2,3,4,5 MG
benztropine||G|parkinson|Oral Tablet=0.5,1,2 MG
cyclobenzaprine||G|muscle|Oral Tablet=5,7.5,10 MG
tizanidine|Zanaflex|G|muscle|Oral Tablet=2,4 MG;Oral Capsule=2,4,6 MG
baclofen||G|muscle|Oral Tablet=5,10,15,20 MG;Oral Solution=5 MG/5ML@Ozobax
methocarbamol|Robaxin|G|muscle|Oral Tablet=500,750 MG
dimethyl fumarate|Tecfidera|SG|ms|Delayed Release Oral Capsule=120,240 MG
glatiramer|Copaxone|SG|ms|Prefilled Syringe=20,40 MG/ML
fingolimod|Gilenya|SG|ms|Oral Capsule=0.5 MG
teriflunomide|Aubagio|SG|ms|Oral Tablet=7,14 MG
buprenorphine / naloxone|Suboxone|G|oud|Sublingual Film=2/0.5,4/1,8/2,12/3 MG;Sublingual Tablet=2/0.5,8/2 MG@;Sublingual Tablet=1.4/0.36,5.7/1.4,8.6/2.1,11.4/2.9 MG@Zubsolv
naloxone|Narcan|G|oud|Nasal Spray=4 MG/ACTUAT;Nasal Spray=8 MG/ACTUAT@Kloxxado;Prefilled Syringe=0.4 MG/ML@
naltrexone||G|oud|Oral Tablet=50 MG
disulfiram||G|oud|Oral Tablet=250,500 MG
acamprosate||G|oud|Delayed Release Oral Tablet=333 MG
methadone||G|opioid|Oral Tablet=5,10 MG
varenicline|Chantix|P|smoking|Oral Tablet=0.5,1 MG
nicotine|Nicoderm CQ|P|smoking|Transdermal System=7,14,21 MG/24HR;Chewing Gum=2,4 MG@Nicorette;Oral Lozenge=2,4 MG@
ibuprofen|Motrin|G|nsaid|Oral Tablet=400,600,800 MG;Oral Suspension=100 MG/5ML
naproxen|Naprosyn|G|nsaid|Oral Tablet=250,375,500 MG;Delayed Release Oral Tablet=375,500 MG@EC-Naprosyn;Oral Suspension=125 MG/5ML
meloxicam|Mobic|G|nsaid|Oral Tablet=7.5,15 MG
celecoxib|Celebrex|G|nsaid|Oral Capsule=50,100,200,400 MG
diclofenac sodium||G|nsaid|Delayed Release Oral Tablet=50,75 MG;Topical Gel=10 MG/GM@Voltaren
acetaminophen|Tylenol|G|analgesic|Oral Tablet=325,500 MG;Oral Suspension=160 MG/5ML;Extended Release Oral Tablet=650 MG@Tylenol 8 HR
lidocaine|Lidoderm|G|analgesic|Medicated Patch=700 MG;Topical Ointment=50 MG/GM@
tramadol|Ultram|G|opioid|Oral Tablet=50,100 MG
oxycodone hydrochloride|Roxicodone|G|opioid|Oral Tablet=5,10,15,20,30 MG;12 HR Extended Release Oral Tablet=10,15,20,30,40,60,80 MG@OxyContin
oxycodone / acetaminophen|Percocet,Endocet|G|opioid|Oral Tablet=2.5/325,5/325,7.5/325,10/325 MG
hydrocodone / acetaminophen|Norco,Lortab,Lorcet|G|opioid|Oral Tablet=5/325,7.5/325,10/325 MG
morphine sulfate|MS Contin|G|opioid|Extended Release Oral Tablet=15,30,60,100,200 MG;Oral Tablet=15,30 MG@
hydromorphone|Dilaudid|G|opioid|Oral Tablet=2,4,8 MG
fentanyl|Duragesic|G|opioid|Transdermal System=12,25,37.5,50,62.5,75,87.5,100 MCG/HR
colchicine|Colcrys|G|gout|Oral Tablet=0.6 MG;Oral Capsule=0.6 MG@Mitigare
allopurinol|Zyloprim|G|gout|Oral Tablet=100,300 MG
febuxostat|Uloric|G|gout|Oral Tablet=40,80 MG
adalimumab|Humira|S|immunology|Pen Injector=40 MG/0.4ML,80 MG/0.8ML;Prefilled Syringe=10 MG/0.1ML,20 MG/0.2ML,40 MG/0.4ML
adalimumab-adaz|Hyrimoz|S|immunology|Auto-Injector=40 MG/0.4ML,80 MG/0.8ML;Prefilled Syringe=40 MG/0.4ML
adalimumab-adbm|Cyltezo|S|immunology|Pen Injector=40 MG/0.8ML;Prefilled Syringe=40 MG/0.8ML
etanercept|Enbrel|S|immunology|Auto-Injector=50 MG/ML;Prefilled Syringe=25 MG/0.5ML,50 MG/ML
ustekinumab|Stelara|S|immunology|Prefilled Syringe=45 MG/0.5ML,90 MG/ML
secukinumab|Cosentyx|S|immunology|Auto-Injector=150 MG/ML,300 MG/2ML
risankizumab|Skyrizi|S|immunology|Auto-Injector=150 MG/ML
guselkumab|Tremfya|S|immunology|Pen Injector=100 MG/ML
ixekizumab|Taltz|S|immunology|Auto-Injector=80 MG/ML
abatacept|Orencia|S|immunology|Prefilled Syringe=50 MG/0.4ML,87.5 MG/0.7ML,125 MG/ML
tofacitinib|Xeljanz|S|immunology|Oral Tablet=5,10 MG;24 HR Extended Release Oral Tablet=11,22 MG@Xeljanz XR
upadacitinib|Rinvoq|S|immunology|24 HR Extended Release Oral Tablet=15,30,45 MG
apremilast|Otezla|S|immunology|Oral Tablet=10,20,30 MG
methotrexate||G|rheum|Oral Tablet=2.5 MG;Injectable Solution=25 MG/ML
leflunomide|Arava|G|rheum|Oral Tablet=10,20 MG
sulfasalazine|Azulfidine|G|rheum|Oral Tablet=500 MG;Delayed Release Oral Tablet=500 MG@Azulfidine EN-tabs
anastrozole|Arimidex|G|onc|Oral Tablet=1 MG
letrozole|Femara|G|onc|Oral Tablet=2.5 MG
exemestane|Aromasin|G|onc|Oral Tablet=25 MG
tamoxifen||P|onc|Oral Tablet=10,20 MG
bicalutamide|Casodex|G|onc|Oral Tablet=50 MG
imatinib|Gleevec|SG|onc|Oral Tablet=100,400 MG
abiraterone|Zytiga|SG|onc|Oral Tablet=250,500 MG
lenalidomide|Revlimid|SG|onc|Oral Capsule=2.5,5,10,15,20,25 MG
capecitabine|Xeloda|SG|onc|Oral Tablet=150,500 MG
ibrutinib|Imbruvica|S|onc|Oral Tablet=140,280,420 MG;Oral Capsule=70,140 MG
palbociclib|Ibrance|S|onc|Oral Tablet=75,100,125 MG
osimertinib|Tagrisso|S|onc|Oral Tablet=40,80 MG
enzalutamide|Xtandi|S|onc|Oral Capsule=40 MG;Oral Tablet=40,80 MG
olaparib|Lynparza|S|onc|Oral Tablet=100,150 MG
norethindrone||P|contraceptive|Oral Tablet=0.35 MG@Camila,Errin,Heather,Jencycla,Nora-BE;Oral Tablet=5 MG@Aygestin
ethinyl estradiol / norgestimate|Sprintec,Mononessa,Estarylla,Previfem|P|contraceptive|Oral Tablet=0.035/0.25 MG
ethinyl estradiol / levonorgestrel||P|contraceptive|Oral Tablet=0.02/0.1 MG@Aviane,Lessina,Lutera,Vienva;Oral Tablet=0.03/0.15 MG@Levora,Portia,Altavera,Marlissa
ethinyl estradiol / norethindrone acetate|Loestrin,Junel,Microgestin,Larin|P|contraceptive|Oral Tablet=0.02/1,0.03/1.5 MG
ethinyl estradiol / drospirenone||P|contraceptive|Oral Tablet=0.02/3 MG@Yaz,Gianvi,Loryna,Nikki;Oral Tablet=0.03/3 MG@Yasmin,Ocella,Syeda,Zarah
etonogestrel / ethinyl estradiol|NuvaRing,EluRyng|P|contraceptive|Vaginal Ring=0.12/0.015 MG/24HR
medroxyprogesterone acetate|Depo-Provera|P|contraceptive|Injectable Suspension=150 MG/ML
levonorgestrel|Plan B One-Step,My Way,Option 2,Take Action|P|contraceptive|Oral Tablet=1.5 MG
ulipristal acetate|ella|PB|contraceptive|Oral Tablet=30 MG
estradiol|Estrace|G|hormone|Oral Tablet=0.5,1,2 MG;Transdermal System=0.025,0.0375,0.05,0.075,0.1 MG/24HR@Vivelle-Dot,Minivelle,Climara;Vaginal Cream=0.1 MG/GM@Estrace
conjugated estrogens|Premarin|B|hormone|Oral Tablet=0.3,0.45,0.625,0.9,1.25 MG
progesterone|Prometrium|G|hormone|Oral Capsule=100,200 MG
raloxifene|Evista|P|osteo|Oral Tablet=60 MG
alendronate|Fosamax|G|osteo|Oral Tablet=10,35,70 MG
ibandronate|Boniva|G|osteo|Oral Tablet=150 MG
denosumab|Prolia|S|osteo|Prefilled Syringe=60 MG/ML
testosterone cypionate|Depo-Testosterone|G|hormone|Injectable Solution=100,200 MG/ML
testosterone|AndroGel,Testim|G|hormone|Topical Gel=10,16.2 MG/GM
cabergoline||G|hormone|Oral Tablet=0.5 MG
desmopressin|DDAVP|G|hormone|Oral Tablet=0.1,0.2 MG
somatropin|Genotropin|S|hormone|Cartridge=5 MG,12 MG
folic acid||P|vitamin|Oral Tablet=0.4,0.8,1 MG
sodium fluoride||P|vitamin|Chewable Tablet=0.25,0.5,1 MG
ferrous sulfate||G|vitamin|Oral Tablet=325 MG
ergocalciferol|Drisdol|G|vitamin|Oral Capsule=50000 UNT
cyanocobalamin||G|vitamin|Injectable Solution=1000 MCG/ML
potassium chloride|Klor-Con|G|electrolyte|Extended Release Oral Tablet=8,10,20 MEQ;Extended Release Oral Capsule=8,10 MEQ@;Oral Solution=20 MEQ/15ML@
tamsulosin|Flomax|G|uro|Oral Capsule=0.4 MG
finasteride|Proscar|G|uro|Oral Tablet=5 MG
dutasteride|Avodart|G|uro|Oral Capsule=0.5 MG
oxybutynin|Ditropan XL|G|uro|24 HR Extended Release Oral Tablet=5,10,15 MG;Oral Tablet=5 MG@
tolterodine|Detrol|G|uro|Oral Tablet=1,2 MG
solifenacin|Vesicare|G|uro|Oral Tablet=5,10 MG
mirabegron|Myrbetriq|B|uro|24 HR Extended Release Oral Tablet=25,50 MG
doxazosin|Cardura|G|uro|Oral Tablet=1,2,4,8 MG
terazosin||G|uro|Oral Capsule=1,2,5,10 MG
alfuzosin|Uroxatral|G|uro|24 HR Extended Release Oral Tablet=10 MG
phenazopyridine||G|uro|Oral Tablet=100,200 MG
sildenafil|Viagra|G|ed|Oral Tablet=25,50,100 MG;Oral Tablet=20 MG@Revatio
tadalafil|Cialis|G|ed|Oral Tablet=2.5,5,10,20 MG
triamcinolone acetonide|Kenalog|G|derm|Topical Cream=0.25,1,5 MG/GM;Topical Ointment=0.25,1 MG/GM;Topical Lotion=0.25,1 MG/ML@;Nasal Spray=55 MCG/ACTUAT@Nasacort
hydrocortisone||G|derm|Topical Cream=10,25 MG/GM;Topical Ointment=10,25 MG/GM;Oral Tablet=5,10,20 MG@Cortef
clobetasol propionate|Temovate|G|derm|Topical Cream=0.5 MG/GM;Topical Ointment=0.5 MG/GM;Topical Solution=0.5 MG/ML@
betamethasone dipropionate||G|derm|Topical Cream=0.5 MG/GM;Topical Lotion=0.5 MG/ML
mupirocin|Bactroban|G|derm|Topical Ointment=20 MG/GM
ketoconazole|Nizoral|G|derm|Topical Cream=20 MG/GM;Medicated Shampoo=20 MG/ML;Oral Tablet=200 MG@
tretinoin|Retin-A|G|derm|Topical Cream=0.25,0.5,1 MG/GM;Topical Gel=0.1,0.25 MG/GM
isotretinoin|Absorica|G|derm|Oral Capsule=10,20,30,40 MG
tacrolimus|Protopic|G|derm|Topical Ointment=0.3,1 MG/GM;Oral Capsule=0.5,1,5 MG@Prograf
silver sulfadiazine|Silvadene|G|derm|Topical Cream=10 MG/GM
permethrin|Elimite|G|derm|Topical Cream=50 MG/GM
clindamycin / benzoyl peroxide|BenzaClin|G|derm|Topical Gel=10/50 MG/GM
crisaborole|Eucrisa|B|derm|Topical Ointment=20 MG/GM
latanoprost|Xalatan|G|eye|Ophthalmic Solution=0.05 MG/ML
timolol|Timoptic|G|eye|Ophthalmic Solution=2.5,5 MG/ML
brimonidine|Alphagan P|G|eye|Ophthalmic Solution=1,1.5,2 MG/ML
dorzolamide / timolol|Cosopt|G|eye|Ophthalmic Solution=20/5 MG/ML
prednisolone acetate|Pred Forte|G|eye|Ophthalmic Suspension=10 MG/ML
moxifloxacin|Vigamox|G|eye|Ophthalmic Solution=5 MG/ML
ofloxacin||G|eye|Ophthalmic Solution=3 MG/ML
olopatadine|Pataday|G|eye|Ophthalmic Solution=1,2,7 MG/ML
cyclosporine|Restasis|G|eye|Ophthalmic Emulsion=0.5 MG/ML
bimatoprost|Lumigan|B|eye|Ophthalmic Solution=0.1 MG/ML
netarsudil|Rhopressa|B|eye|Ophthalmic Solution=0.2 MG/ML
cyclosporine modified|Neoral|G|transplant|Oral Capsule=25,100 MG;Oral Solution=100 MG/ML
mycophenolate mofetil|CellCept|G|transplant|Oral Tablet=500 MG;Oral Capsule=250 MG
azathioprine|Imuran|G|transplant|Oral Tablet=50 MG
sevelamer carbonate|Renvela|G|renal|Oral Tablet=800 MG
calcitriol|Rocaltrol|G|renal|Oral Capsule=0.25,0.5 MCG
cinacalcet|Sensipar|G|renal|Oral Tablet=30,60,90 MG
hydroxyurea|Hydrea|G|heme|Oral Capsule=500 MG
epoetin alfa|Retacrit|S|heme|Injectable Solution=2000,3000,4000,10000,20000,40000 UNT/ML
filgrastim-sndz|Zarxio|S|heme|Prefilled Syringe=300 MCG/0.5ML,480 MCG/0.8ML
pegfilgrastim|Neulasta|S|heme|Prefilled Syringe=6 MG/0.6ML
elexacaftor / tezacaftor / ivacaftor|Trikafta|S|cf|Oral Tablet=50/25/37.5,100/50/75 MG
dornase alfa|Pulmozyme|S|cf|Inhalation Solution=1 MG/ML
ambrisentan|Letairis|SG|pah|Oral Tablet=5,10 MG
bosentan|Tracleer|SG|pah|Oral Tablet=62.5,125 MG
riociguat|Adempas|S|pah|Oral Tablet=0.5,1,1.5,2,2.5 MG
nintedanib|Ofev|S|ipf|Oral Capsule=100,150 MG
pirfenidone|Esbriet|SG|ipf|Oral Tablet=267,801 MG
atenolol / chlorthalidone|Tenoretic|G|bb|Oral Tablet=50/25,100/25 MG
bisoprolol / hydrochlorothiazide|Ziac|G|bb|Oral Tablet=2.5/6.25,5/6.25,10/6.25 MG
metoprolol succinate / hydrochlorothiazide|Dutoprol|G|bb|24 HR Extended Release Oral Tablet=25/12.5,50/12.5,100/12.5 MG
olmesartan / hydrochlorothiazide|Benicar HCT|G|arb|Oral Tablet=20/12.5,40/12.5,40/25 MG
irbesartan / hydrochlorothiazide|Avalide|G|arb|Oral Tablet=150/12.5,300/12.5 MG
telmisartan / hydrochlorothiazide|Micardis HCT|G|arb|Oral Tablet=40/12.5,80/12.5,80/25 MG
candesartan / hydrochlorothiazide|Atacand HCT|G|arb|Oral Tablet=16/12.5,32/12.5,32/25 MG
benazepril / hydrochlorothiazide|Lotensin HCT|G|ace|Oral Tablet=5/6.25,10/12.5,20/12.5,20/25 MG
enalapril / hydrochlorothiazide|Vaseretic|G|ace|Oral Tablet=5/12.5,10/25 MG
amlodipine / valsartan|Exforge|G|ccb|Oral Tablet=5/160,5/320,10/160,10/320 MG
amlodipine / valsartan / hydrochlorothiazide|Exforge HCT|G|ccb|Oral Tablet=5/160/12.5,5/160/25,10/160/12.5,10/160/25,10/320/25 MG
amlodipine / atorvastatin|Caduet|G|ccb|Oral Tablet=2.5/10,2.5/20,2.5/40,5/10,5/20,5/40,5/80,10/10,10/20,10/40,10/80 MG
nadolol|Corgard|G|bb|Oral Tablet=20,40,80 MG
felodipine||G|ccb|24 HR Extended Release Oral Tablet=2.5,5,10 MG
nisoldipine|Sular|G|ccb|24 HR Extended Release Oral Tablet=8.5,17,20,25.5,30,34,40 MG
isosorbide dinitrate|Isordil|G|nitrate|Oral Tablet=5,10,20,30,40 MG
cilostazol||G|antiplatelet|Oral Tablet=50,100 MG
pentoxifylline||G|antiplatelet|Extended Release Oral Tablet=400 MG
ivabradine|Corlanor|G|hf|Oral Tablet=5,7.5 MG
edoxaban|Savaysa|B|anticoag|Oral Tablet=15,30,60 MG
omega-3-acid ethyl esters|Lovaza|G|lipid|Oral Capsule=1 GM
alogliptin|Nesina|G|diabetes|Oral Tablet=6.25,12.5,25 MG
saxagliptin|Onglyza|G|diabetes|Oral Tablet=2.5,5 MG
glipizide / metformin||G|diabetes|Oral Tablet=2.5/250,2.5/500,5/500 MG
glyburide / metformin||G|diabetes|Oral Tablet=1.25/250,2.5/500,5/500 MG
pioglitazone / metformin|Actoplus Met|G|diabetes|Oral Tablet=15/500,15/850 MG
empagliflozin / metformin|Synjardy|B|diabetes|Oral Tablet=5/500,5/1000,12.5/500,12.5/1000 MG
dapagliflozin / metformin|Xigduo XR|B|diabetes|24 HR Extended Release Oral Tablet=2.5/1000,5/1000,10/500,10/1000 MG
empagliflozin / linagliptin|Glyxambi|B|diabetes|Oral Tablet=10/5,25/5 MG
linagliptin / metformin|Jentadueto|B|diabetes|Oral Tablet=2.5/500,2.5/850,2.5/1000 MG
insulin glargine-yfgn|Semglee|B|insulin|Pen Injector=100 UNT/ML;Injectable Solution=100 UNT/ML
insulin lispro protamine / insulin lispro|Humalog Mix 75/25|B|insulin|Pen Injector=75/25 UNT/ML;Injectable Suspension=75/25 UNT/ML
insulin aspart protamine / insulin aspart|Novolog Mix 70/30|B|insulin|Pen Injector=70/30 UNT/ML;Injectable Suspension=70/30 UNT/ML
fludrocortisone||G|steroid|Oral Tablet=0.1 MG
prochlorperazine|Compazine|G|antiemetic|Oral Tablet=5,10 MG;Rectal Suppository=25 MG@
hyoscyamine|Levsin|G|gi|Oral Tablet=0.125 MG;Disintegrating Oral Tablet=0.125 MG@Levsin SL;12 HR Extended Release Oral Tablet=0.375 MG@Levbid
misoprostol|Cytotec|G|gi|Oral Tablet=100,200 MCG
lactulose|Kristalose|G|gi|Oral Solution=667 MG/ML;Powder for Oral Solution=10,20 GM
balsalazide|Colazal|G|ibd|Oral Capsule=750 MG
cefprozil||G|antibiotic|Oral Tablet=250,500 MG;Oral Suspension=125,250 MG/5ML
cefpodoxime||G|antibiotic|Oral Tablet=100,200 MG;Oral Suspension=50,100 MG/5ML
erythromycin|Ery-Tab|G|antibiotic|Delayed Release Oral Tablet=250,333,500 MG;Ophthalmic Ointment=5 MG/GM@
linezolid|Zyvox|G|antibiotic|Oral Tablet=600 MG;Oral Suspension=100 MG/5ML
moxifloxacin hydrochloride|Avelox|G|antibiotic|Oral Tablet=400 MG
tinidazole|Tindamax|G|antibiotic|Oral Tablet=250,500 MG
fosfomycin|Monurol|G|antibiotic|Granules for Oral Solution=3 GM
trimethoprim||G|antibiotic|Oral Tablet=100 MG
famciclovir||G|antiviral|Oral Tablet=125,250,500 MG
ciclopirox|Penlac|G|antifungal|Topical Solution=80 MG/ML;Topical Cream=7.7 MG/GM@Loprox
econazole||G|antifungal|Topical Cream=10 MG/GM
terconazole||G|antifungal|Vaginal Cream=4,8 MG/GM
beclomethasone dipropionate|Qvar RediHaler|B|asthma|Breath Activated Inhaler=40,80 MCG/ACTUAT
mometasone furoate|Asmanex Twisthaler|B|asthma|Dry Powder Inhaler=110,220 MCG/ACTUAT
ciclesonide|Alvesco|B|asthma|Metered Dose Inhaler=80,160 MCG/ACTUAT
cromolyn sodium||G|asthma|Inhalation Solution=10 MG/ML
diphenhydramine|Benadryl|G|allergy|Oral Capsule=25,50 MG
fluvoxamine||G|ssri|Oral Tablet=25,50,100 MG
imipramine|Tofranil|G|antidep|Oral Tablet=10,25,50 MG
clomipramine|Anafranil|G|antidep|Oral Capsule=25,50,75 MG
paliperidone|Invega|G|antipsych|24 HR Extended Release Oral Tablet=1.5,3,6,9 MG
asenapine|Saphris|G|antipsych|Sublingual Tablet=2.5,5,10 MG
lamotrigine|Lamictal XR|G|anticonv|24 HR Extended Release Oral Tablet=25,50,100,200,250,300 MG
topiramate|Trokendi XR|G|anticonv|24 HR Extended Release Oral Capsule=25,50,100,200 MG
primidone|Mysoline|G|anticonv|Oral Tablet=50,125,250 MG
clobazam|Onfi|G|anticonv|Oral Tablet=10,20 MG;Oral Suspension=2.5 MG/ML
brivaracetam|Briviact|B|anticonv|Oral Tablet=10,25,50,75,100 MG
rasagiline|Azilect|G|parkinson|Oral Tablet=0.5,1 MG
amantadine||G|parkinson|Oral Capsule=100 MG;Oral Tablet=100 MG
rivastigmine|Exelon|G|dementia|Transdermal System=4.6,9.5,13.3 MG/24HR;Oral Capsule=1.5,3,4.5,6 MG@
galantamine|Razadyne|G|dementia|Oral Tablet=4,8,12 MG;24 HR Extended Release Oral Capsule=8,16,24 MG@Razadyne ER
butalbital / acetaminophen / caffeine|Fioricet|G|analgesic|Oral Capsule=50/300/40 MG;Oral Tablet=50/325/40 MG@Esgic
galcanezumab|Emgality|B|migraine|Pen Injector=120 MG/ML
fremanezumab|Ajovy|B|migraine|Auto-Injector=225 MG/1.5ML
naproxen sodium|Anaprox DS|G|nsaid|Oral Tablet=275,550 MG
nabumetone||G|nsaid|Oral Tablet=500,750 MG
etodolac||G|nsaid|Oral Tablet=400,500 MG;Oral Capsule=200,300 MG
ketorolac|Sprix|G|nsaid|Oral Tablet=10 MG@;Ophthalmic Solution=5 MG/ML@Acular
indomethacin||G|nsaid|Oral Capsule=25,50 MG
diclofenac potassium|Cataflam|G|nsaid|Oral Tablet=50 MG
carisoprodol|Soma|G|muscle|Oral Tablet=250,350 MG
metaxalone|Skelaxin|G|muscle|Oral Tablet=400,800 MG
probenecid||G|gout|Oral Tablet=500 MG
risedronate|Actonel|G|osteo|Oral Tablet=5,35,150 MG;Delayed Release Oral Tablet=35 MG@Atelvia
nitrofurantoin macrocrystals|Macrodantin|G|antibiotic|Oral Capsule=25,50,100 MG
trospium||G|uro|Oral Tablet=20 MG
fesoterodine|Toviaz|G|uro|24 HR Extended Release Oral Tablet=4,8 MG
darifenacin|Enablex|G|uro|24 HR Extended Release Oral Tablet=7.5,15 MG
clomiphene citrate|Clomid|G|hormone|Oral Tablet=50 MG
conjugated estrogens / medroxyprogesterone|Prempro|B|hormone|Oral Tablet=0.3/1.5,0.45/1.5,0.625/2.5,0.625/5 MG
fluocinonide||G|derm|Topical Cream=0.5,1 MG/GM;Topical Ointment=0.5 MG/GM;Topical Gel=0.5 MG/GM;Topical Solution=0.5 MG/ML
desonide||G|derm|Topical Cream=0.5 MG/GM;Topical Ointment=0.5 MG/GM;Topical Lotion=0.5 MG/ML
adapalene|Differin|G|derm|Topical Gel=1,3 MG/GM;Topical Cream=1 MG/GM
clindamycin|Cleocin T|G|derm|Topical Solution=10 MG/ML;Topical Gel=10 MG/GM;Topical Lotion=10 MG/ML
metronidazole|MetroGel|G|derm|Topical Gel=7.5,10 MG/GM;Topical Cream=7.5 MG/GM@MetroCream
calcipotriene|Dovonex|G|derm|Topical Cream=0.05 MG/GM;Topical Ointment=0.05 MG/GM@;Topical Solution=0.05 MG/ML@
ivermectin|Soolantra|G|derm|Topical Cream=10 MG/GM
travoprost|Travatan Z|G|eye|Ophthalmic Solution=0.04 MG/ML
tobramycin|Tobrex|G|eye|Ophthalmic Solution=3 MG/ML
tobramycin / dexamethasone|Tobradex|G|eye|Ophthalmic Suspension=3/1 MG/ML
loteprednol etabonate|Lotemax|G|eye|Ophthalmic Suspension=5 MG/ML;Ophthalmic Gel=5 MG/GM
dorzolamide|Trusopt|G|eye|Ophthalmic Solution=20 MG/ML
tocilizumab|Actemra|S|immunology|Prefilled Syringe=162 MG/0.9ML;Auto-Injector=162 MG/0.9ML@Actemra ACTPen
certolizumab pegol|Cimzia|S|immunology|Prefilled Syringe=200 MG/ML
golimumab|Simponi|S|immunology|Auto-Injector=50 MG/0.5ML,100 MG/ML
benralizumab|Fasenra|S|immunology|Auto-Injector=30 MG/ML
tezepelumab|Tezspire|S|immunology|Pen Injector=210 MG/1.91ML
tralokinumab|Adbry|S|immunology|Prefilled Syringe=150 MG/ML
temozolomide|Temodar|SG|onc|Oral Capsule=5,20,100,140,180,250 MG
venetoclax|Venclexta|S|onc|Oral Tablet=10,50,100 MG
ruxolitinib|Jakafi|S|onc|Oral Tablet=5,10,15,20,25 MG
dasatinib|Sprycel|SG|onc|Oral Tablet=20,50,70,80,100,140 MG
acalabrutinib|Calquence|S|onc|Oral Tablet=100 MG
emtricitabine / rilpivirine / tenofovir alafenamide|Odefsey|S|hiv|Oral Tablet=200/25/25 MG
elvitegravir / cobicistat / emtricitabine / tenofovir alafenamide|Genvoya|S|hiv|Oral Tablet=150/150/200/10 MG
abacavir / lamivudine|Epzicom|SG|hiv|Oral Tablet=600/300 MG
rilpivirine|Edurant|S|hiv|Oral Tablet=25 MG
sodium bicarbonate||G|renal|Oral Tablet=325,650 MG
calcium acetate|Phoslo|G|renal|Oral Capsule=667 MG;Oral Tablet=667 MG@
dextroamphetamine sulfate|Zenzedi|G|adhd|Oral Tablet=2.5,5,7.5,10,15,20,30 MG;24 HR Extended Release Oral Capsule=5,10,15 MG@Dexedrine
dexmethylphenidate|Focalin|G|adhd|Oral Tablet=2.5,5,10 MG;24 HR Extended Release Oral Capsule=5,10,15,20,25,30,35,40 MG@Focalin XR
bupropion hydrochloride|Zyban|P|smoking|12 HR Extended Release Oral Tablet=150 MG
olmesartan / amlodipine / hydrochlorothiazide|Tribenzor|G|arb|Oral Tablet=20/5/12.5,40/5/12.5,40/5/25,40/10/12.5,40/10/25 MG
finerenone|Kerendia|B|renal|Oral Tablet=10,20 MG
bempedoic acid|Nexletol|B|lipid|Oral Tablet=180 MG
bempedoic acid / ezetimibe|Nexlizet|B|lipid|Oral Tablet=180/10 MG
doxycycline monohydrate||G|antibiotic|Oral Capsule=50,75,100,150 MG;Oral Tablet=50,75,100,150 MG
azelaic acid|Finacea|G|derm|Topical Gel=150 MG/GM;Topical Cream=200 MG/GM@Azelex
pimecrolimus|Elidel|G|derm|Topical Cream=10 MG/GM
ruxolitinib phosphate|Opzelura|B|derm|Topical Cream=15 MG/GM
griseofulvin microsize|Grifulvin V|G|antifungal|Oral Tablet=500 MG;Oral Suspension=125 MG/5ML
valproic acid|Depakene|G|anticonv|Oral Capsule=250 MG;Oral Solution=250 MG/5ML
midazolam|Nayzilam|B|anticonv|Nasal Spray=5 MG/ACTUAT
"""

# Classes whose drugs carry a utilisation rule more often: class -> (prior auth, step therapy, quantity limit) chances.
CLASS_RULES = {
    "opioid": (0.1, 0.0, 1.0), "benzo": (0.0, 0.0, 0.9), "sleep": (0.2, 0.3, 0.8), "migraine": (0.4, 0.3, 0.9),
    "glp1": (1.0, 0.2, 0.9), "weight": (1.0, 0.0, 0.9), "adhd": (0.3, 0.2, 0.8), "oud": (0.1, 0.0, 0.6),
    "antiviral": (0.0, 0.0, 0.6), "ed": (0.5, 0.0, 1.0), "immunology": (0.95, 0.4, 0.6), "onc": (0.5, 0.0, 0.3),
    "hiv": (0.1, 0.0, 0.2), "hepc": (1.0, 0.0, 0.5), "ms": (0.9, 0.3, 0.4), "pah": (0.9, 0.2, 0.4),
    "ipf": (0.9, 0.0, 0.4), "cf": (0.9, 0.0, 0.2), "heme": (0.8, 0.0, 0.3), "insulin": (0.0, 0.1, 0.3),
    "derm": (0.05, 0.05, 0.05), "ppi": (0.0, 0.4, 0.5), "antipsych": (0.1, 0.15, 0.2),
}
DEFAULT_RULES = (0.02, 0.02, 0.04)
# Classes most carriers leave off the formulary (carrier id -> covered?); others follow EXCLUDE_RATE.
EXCLUDED_CLASSES = {"weight": {3}}   # only Priority Health covers weight-loss drugs (with prior authorization)
EXCLUDE_RATE = {"generic": 0.003, "brand": 0.01, "brand_of_generic": 0.03}

# Cost sharing per metal level (catalog metal 1..6) and drug tier: (copay, copay_opt, coinsurance, coinsurance_opt).
NC, AD, BD, NCAD = "NO-CHARGE", "AFTER-DEDUCTIBLE", "BEFORE-DEDUCTIBLE", "NO-CHARGE-AFTER-DEDUCTIBLE"
COST_SHARING = {
    1: {t: (0.0, NCAD, 0.0, NCAD) for t in DRUG_TIERS},
    2: {"GENERIC": (25.0, BD, 0.0, NC), "PREFERRED-BRAND": (0.0, NC, 0.5, AD),
        "NON-PREFERRED-BRAND": (0.0, NC, 0.5, AD), "SPECIALTY": (0.0, NC, 0.5, AD)},
    3: {"GENERIC": (20.0, BD, 0.0, NC), "PREFERRED-BRAND": (75.0, AD, 0.0, NC),
        "NON-PREFERRED-BRAND": (0.0, NC, 0.5, AD), "SPECIALTY": (0.0, NC, 0.5, AD)},
    4: {"GENERIC": (15.0, BD, 0.0, NC), "PREFERRED-BRAND": (50.0, BD, 0.0, NC),
        "NON-PREFERRED-BRAND": (0.0, NC, 0.4, AD), "SPECIALTY": (0.0, NC, 0.4, AD)},
    5: {"GENERIC": (10.0, BD, 0.0, NC), "PREFERRED-BRAND": (40.0, BD, 0.0, NC),
        "NON-PREFERRED-BRAND": (80.0, BD, 0.0, NC), "SPECIALTY": (0.0, NC, 0.3, AD)},
    6: {"GENERIC": (5.0, BD, 0.0, NC), "PREFERRED-BRAND": (25.0, BD, 0.0, NC),
        "NON-PREFERRED-BRAND": (50.0, BD, 0.0, NC), "SPECIALTY": (0.0, NC, 0.2, AD)},
}
HSA_COST_SHARING = {"GENERIC": (10.0, AD, 0.0, NC), "PREFERRED-BRAND": (0.0, NC, 0.3, AD),
                    "NON-PREFERRED-BRAND": (0.0, NC, 0.5, AD), "SPECIALTY": (0.0, NC, 0.5, AD)}
ZERO = (0.0, NC, 0.0, NC)


# --- reading the catalog (a small reader for the catalog's own YAML layout; stdlib only) ----------
def scalar(text):
    """A YAML scalar of the catalog files: a double-quoted string, a number, true/false or plain text."""
    text = text.strip()
    if text.startswith('"'):
        end = 1
        while True:
            end = text.index('"', end)
            if text[end - 1] != "\\":
                break
            end += 1
        return json.loads(text[: end + 1])
    if " #" in text:
        text = text[: text.index(" #")].strip()
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d+", text):
        return float(text)
    if text in ("true", "false"):
        return text == "true"
    if text.startswith("[") and text.endswith("]"):
        return [scalar(x) for x in text[1:-1].split(",") if x.strip()]
    return text


def read_lines(rel):
    with open(os.path.join(CATALOG, rel), encoding="utf-8") as f:
        return f.read().split("\n")


def load_plans(year):
    """The medical plans of rules/catalog/<year>/medical.yaml as dicts (top-level keys of each plan)."""
    plans, cur, pending = [], None, None
    for line in read_lines(os.path.join(str(year), "medical.yaml")):
        if pending is not None:   # a flow list spread over several lines
            key, acc = pending
            acc += " " + line.split(" #")[0].strip()
            if "]" in acc:
                cur[key] = scalar(acc)
                pending = None
            else:
                pending = (key, acc)
            continue
        m = re.match(r"^  - id: (\d+)", line)
        if m:
            cur = {"id": int(m.group(1))}
            plans.append(cur)
            continue
        m = re.match(r"^    ([a-z_0-9]+):(.*)$", line)
        if m and cur is not None:
            key, rest = m.group(1), m.group(2).strip()
            if rest.startswith("[") and "]" not in rest:
                pending = (key, rest.split(" #")[0].strip())
            elif key != "rates":
                cur[key] = scalar(rest)
    for p in plans:
        for k in ("carrier", "network", "metal", "name", "counties"):
            if k not in p:
                sys.exit(f"generate.py: plan {p['id']} of {year} lacks `{k}`")
        p["year"] = year
    return plans


def load_carriers():
    carriers, cur, sub, newer_from = [], None, None, None
    for line in read_lines("carriers.yaml"):
        m = re.match(r"^drug_list_newer_from_plan_id:(.*)$", line)
        if m:
            newer_from = scalar(m.group(1))
        m = re.match(r"^  - id: (\d+)", line)
        if m:
            cur = {"id": int(m.group(1)), "drug_list": {}}
            carriers.append(cur)
            sub = None
            continue
        if cur is None:
            continue
        m = re.match(r"^    ([a-z_]+):(.*)$", line)
        if m:
            sub = m.group(1) if not m.group(2).strip() else None
            if m.group(2).strip():
                cur[m.group(1)] = scalar(m.group(2))
            continue
        m = re.match(r"^      ([a-z_]+):(.*)$", line)
        if m and sub == "drug_list":
            cur["drug_list"][m.group(1)] = scalar(m.group(2))
    return carriers, newer_from


def load_counties():
    areas = {}
    for line in read_lines("counties.yaml"):
        m = re.match(r"^  - \{ id: (\d+), fips: \"\d+\", name: ([^,]+), rating_area: (\d+) \}", line)
        if m:
            areas[int(m.group(1))] = int(m.group(3))
    return areas


def load_zips():
    zips = {}
    for line in read_lines("zips.yaml"):
        m = re.match(r'^  "(\d{5})": \[([^\]]*)\]', line)
        if m:
            zips[m.group(1)] = [int(x) for x in m.group(2).split(",")]
    return zips


# --- helpers ------------------------------------------------------------------------------------
def npi_check_digit(first9):
    """The NPI check digit: Luhn over "80840" + the first nine digits."""
    total = 0
    for i, ch in enumerate(reversed("80840" + first9)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def weighted(rng, items, weights_cum, total):
    x = rng.random() * total
    lo, hi = 0, len(weights_cum) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if weights_cum[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return items[lo]


class Picker:
    def __init__(self, pairs):
        self.items = [p[0] for p in pairs]
        self.cum, t = [], 0.0
        for _, w in pairs:
            t += w
            self.cum.append(t)
        self.total = t

    def __call__(self, rng):
        return weighted(rng, self.items, self.cum, self.total)


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def plain_name(name):
    """The plan name as shown to people: the catalog's markup (<sup>&reg;</sup>) to text."""
    name = name.replace("<sup>&reg;</sup>", "\u00ae").replace("&reg;", "\u00ae")
    return re.sub(r"<[^>]+>", "", name).replace("&amp;", "&")


def dumps(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def write_array(path, lines):
    """A JSON array with one element per line (compact elements: the files are large)."""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("[\n")
        f.write(",\n".join(lines))
        f.write("\n]\n")


def write_json(path, obj):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(obj, ensure_ascii=False, indent=2))
        f.write("\n")


# --- plans ------------------------------------------------------------------------------------------
METAL_WORDS = ("Catastrophic", "Bronze", "Expanded", "Silver", "Gold", "Platinum")


def family_of(plan):
    """The product family: the name before the metal level, and the network type."""
    words = plain_name(plan["name"]).split()
    cut = next((i for i, w in enumerate(words) if w in METAL_WORDS), len(words))
    return (plan["carrier"], NETWORK_TYPES.get(plan["network"], "PPO"), " ".join(words[:cut]))


def build_issuers(carriers, newer_from, plans):
    issuers = []
    for c in carriers:
        issuer_id = str(c.get("hios_issuer_id") or ISSUER_IDS.get(c["id"]) or "")
        if not re.fullmatch(r"\d{5}", issuer_id):
            sys.exit(f"generate.py: carrier {c['id']} has no 5-digit issuer id: add it to ISSUER_IDS")
        host = re.sub(r"^https?://(www\.)?", "", c.get("provider_directory", "")).split("/")[0] or "example.com"
        issuers.append({
            "carrier": c["id"], "issuer_id": issuer_id, "name": c["name"],
            "folder": f"{issuer_id}-{slug(c.get('short_name', c['name']))}",
            "contact": f"directory-data@{host}", "drug_list": c.get("drug_list", {}),
            "date": LAST_UPDATED.get(c["id"], DEFAULT_LAST_UPDATED),
            "plans": [p for p in plans if p["carrier"] == c["id"]],
        })
    for iss in issuers:
        for p in iss["plans"]:
            p["plan_id"] = f"{iss['issuer_id']}MI{p['id']:07d}"
            p["tiers"] = NETWORK_TIERS[NETWORK_TYPES.get(p["network"], "PPO")]
            p["family"] = family_of(p)
            p["county_set"] = None if p["counties"] == "all" else frozenset(p["counties"])
            p["formulary_url"] = iss["drug_list"].get("older" if newer_from and p["id"] < newer_from else "newer")
    return issuers


def formulary(plan):
    tiers = []
    for tier in DRUG_TIERS:
        if tier == "ZERO-COST-SHARE-PREVENTIVE":
            cs = ZERO
        elif plan.get("hsa") and plan["metal"] != 1:
            cs = HSA_COST_SHARING[tier]
        else:
            cs = COST_SHARING[plan["metal"]][tier]
        copay, copay_opt, coins, coins_opt = cs
        rows = []
        for pharmacy, factor in (("1-MONTH-IN-RETAIL", 1.0), ("3-MONTH-IN-MAIL", 2.5)):
            rows.append({"pharmacy_type": pharmacy, "copay_amount": round(copay * factor, 2), "copay_opt": copay_opt,
                         "coinsurance_rate": coins, "coinsurance_opt": coins_opt})
        tiers.append({"drug_tier": tier, "mail_order": True, "cost_sharing": rows})
    return tiers


def plan_record(plan, iss):
    rec = {"plan_id_type": PLAN_ID_TYPE, "plan_id": plan["plan_id"], "marketing_name": plain_name(plan["name"]),
           "summary_url": plan.get("sbc") or plan.get("baag") or "",
           "marketing_url": plan.get("baag") or plan.get("sbc") or ""}
    if plan.get("formulary_url"):
        rec["formulary_url"] = plan["formulary_url"]
    rec.update({"plan_contact": iss["contact"], "years": [plan["year"]],
                "network": [{"network_tier": t} for t in plan["tiers"]], "formulary": formulary(plan),
                "benefits": {"telemedicine": True}, "last_updated_on": iss["date"]})
    return rec


# --- providers ----------------------------------------------------------------------------------
def check_cities(zips):
    for city, county, _, _, zlist in CITIES:
        for z in zlist.split():
            if z not in zips or zips[z][0] != county:
                sys.exit(f"generate.py: ZIP {z} of {city} is not in rules/catalog/zips.yaml with county {county}")


def make_npis(rng, n):
    seen, out = set(), []
    while len(out) < n:
        first9 = ("1" if rng.random() < 0.9 else "2") + f"{rng.randrange(10 ** 8):08d}"
        if first9 in seen:
            continue
        seen.add(first9)
        out.append(first9 + npi_check_digit(first9))
    return out


def make_address(rng, city, suite_chance):
    name, county, area, _, zlist = city
    zlist = zlist.split()
    addr = {"address": f"{rng.randrange(100, 30000)} {rng.choice(STREETS)}"}
    if rng.random() < suite_chance:
        addr["address_2"] = f"Suite {rng.randrange(1, 6)}{rng.randrange(0, 100):02d}"
    addr.update({"city": name, "state": "MI", "zip": zlist[rng.randrange(len(zlist))],
                 "phone": f"{area}555{rng.randrange(10000):04d}"})
    return addr


def build_providers(rng, n_total, zips, areas):
    city_pick = Picker([(c, c[3]) for c in CITIES])
    by_area_code = {}
    for c in CITIES:
        by_area_code.setdefault(c[2], []).append(c)
    spec_pick = Picker(SPECIALTIES)
    ftype_pick = Picker([(f, f[1]) for f in FACILITY_TYPES])
    group_pick = Picker([(g, len(g[2]) * (1.0 if not g[0] else 0.35)) for g in LAST_NAMES])
    n_fac = int(round(n_total * FACILITY_SHARE))
    npis = make_npis(rng, n_total)
    providers, used_fac_names = [], set()
    for i in range(n_total):
        home = city_pick(rng)
        n_addr = 1 if rng.random() < 0.7 else (2 if rng.random() < 0.83 else 3)
        cities = [home] + [rng.choice(by_area_code[home[2]]) if rng.random() < 0.7 else home for _ in range(n_addr - 1)]
        if i < n_fac:
            ftype = ftype_pick(rng)
            for _ in range(6):
                pattern = rng.choice(ftype[2])
                fname = pattern.format(place=home[0], desc=rng.choice(FACILITY_DESC))
                if fname not in used_fac_names:
                    break
            used_fac_names.add(fname)
            types = [ftype[0]]
            if ftype[0] == "Hospital" and rng.random() < 0.3:
                types.append(rng.choice(("Emergency Department", "Dialysis Center", "Imaging Center")))
            rec = {"npi": npis[i], "type": "FACILITY", "facility_name": fname, "facility_type": types,
                   "addresses": [make_address(rng, c, 0.2) for c in cities[:1 if ftype[0] == "Hospital" else n_addr]]}
            kind = "hospital" if ftype[0] == "Hospital" else "facility"
        else:
            female = rng.random() < 0.52
            group = group_pick(rng)
            name = {}
            if rng.random() < 0.25:
                name["prefix"] = "Dr."
            name["first"] = rng.choice(FIRST_FEMALE if female else FIRST_MALE)
            if rng.random() < 0.3:
                name["middle"] = rng.choice(MIDDLE_FEMALE if female else MIDDLE_MALE)
            name["last"] = rng.choice(group[2])
            if not female and rng.random() < 0.03:
                name["suffix"] = rng.choice(SUFFIXES)
            spec = spec_pick(rng)
            if name.get("prefix") and spec in NOT_PHYSICIANS:
                del name["prefix"]
            specialty = [spec]
            if spec in SECOND_SPECIALTY and rng.random() < 0.2:
                specialty.append(rng.choice(SECOND_SPECIALTY[spec]))
            accepting = "accepting" if rng.random() < 0.72 else "not accepting"
            if n_addr > 1 and rng.random() < 0.3:
                accepting = "accepting in some locations"
            languages = ["English"]
            if group[0] and rng.random() < group[1]:
                languages.append(rng.choice(group[0]))
            elif rng.random() < (0.25 if home[0] == "Dearborn" else 0.0):
                languages.append("Arabic")
            elif rng.random() < 0.06:
                languages.append(rng.choice(OTHER_LANGUAGES))
            rec = {"npi": npis[i], "type": "INDIVIDUAL", "name": name,
                   "addresses": [make_address(rng, c, 0.45) for c in cities], "specialty": specialty,
                   "accepting": accepting, "gender": "Female" if female else "Male"}
            if len(languages) > 1:
                rec["languages"] = languages
            kind = "individual"
        counties = []
        for a in rec["addresses"]:
            for cid in zips[a["zip"]]:
                if cid != 999 and cid not in counties:
                    counties.append(cid)
        providers.append({"rec": rec, "kind": kind, "counties": counties, "area": areas[counties[0]]})
    return providers


def assign_networks(rng, providers, plans):
    """provider["rows"][carrier] = list of (plan index, tier) for the plans the provider is in."""
    families = {}
    for idx, p in enumerate(plans):
        families.setdefault(p["family"], []).append(idx)
    # Broad family first within (carrier, network type): the one serving the most counties.
    def reach(fam):
        counts = [len(plans[i]["county_set"]) if plans[i]["county_set"] is not None else 10 ** 6 for i in families[fam]]
        return max(counts)
    fam_order = sorted(families, key=lambda f: (f[0], f[1], -reach(f), f[2]))
    broad_of = {}
    for f in fam_order:
        key = (f[0], f[1])
        broad_of.setdefault(key, f)
    for prov in providers:
        rows = {}
        member = {}
        for fam in fam_order:
            carrier, ntype, _ = fam
            broad = broad_of[(carrier, ntype)]
            if fam == broad:
                reach_f = CARRIER_REACH.get(carrier, {None: 1.0})
                prob = FAMILY_PROB[ntype] * reach_f.get(prov["area"], reach_f.get(None, 1.0))
                if prov["kind"] == "hospital":
                    prob = min(0.97, prob * 1.6)
                elif prov["kind"] == "facility":
                    prob = min(0.95, prob * 1.2)
                y1 = rng.random() < min(prob, 0.97)
                y2 = y1 if rng.random() >= YEAR_CHANGE else not y1
            else:
                b1, b2 = member[broad]
                y1 = b1 and rng.random() < SUBSET_PROB
                y2 = (y1 if rng.random() >= YEAR_CHANGE else not y1) and b2
            member[fam] = (y1, y2)
            if not (y1 or y2):
                continue
            tiers = NETWORK_TIERS[ntype]
            if len(tiers) > 1:
                r = rng.random()
                chosen = (tiers[0],) if r < 0.75 else ((tiers[1],) if r < 0.92 else tiers)
            else:
                chosen = tiers
            for idx in families[fam]:
                p = plans[idx]
                if not ((y1 and p["year"] == YEARS[0]) or (y2 and p["year"] == YEARS[1])):
                    continue
                if p["county_set"] is not None and not any(c in p["county_set"] for c in prov["counties"]):
                    continue
                lst = rows.setdefault(carrier, [])
                for t in chosen:
                    lst.append((idx, t))
        if not rows:   # everyone is in some network: the broadest PPO family of the first carrier
            fam = fam_order[0]
            for idx in families[fam]:
                p = plans[idx]
                if p["county_set"] is None or any(c in p["county_set"] for c in prov["counties"]):
                    rows.setdefault(fam[0], []).append((idx, NETWORK_TIERS[fam[1]][0]))
        prov["rows"] = rows


# --- drugs --------------------------------------------------------------------------------------
def cap(word):
    return word[:1].upper() + word[1:]


def drug_products():
    """[(rxnorm_id, drug_name, kind, class, is_brand)] from DRUGS, in table order."""
    products, seen = [], set()
    for line in DRUGS.strip().split("\n"):
        generic, brand, kind, klass, forms = line.split("|")
        parts = [x.strip() for x in generic.split(" / ")]
        for form_spec in forms.split(";"):
            form_brand = brand
            if "@" in form_spec:
                form_spec, form_brand = form_spec.split("@")
            form, strengths = form_spec.split("=")
            items = strengths.split(",")
            last_num, unit = items[-1].split(" ", 1)
            items[-1] = last_num
            for item in items:
                s, u = item.split(" ", 1) if " " in item else (item, unit)
                pieces = s.split("/")
                if len(parts) > 1:
                    if len(pieces) != len(parts):
                        sys.exit(f"generate.py: drug {generic}: strength {s} does not fit the combination")
                    label = " / ".join(f"{cap(p)} {x} {u}" for p, x in zip(parts, pieces))
                else:
                    label = f"{cap(parts[0])} {s} {u}"
                base = f"{label} {form}"
                variants = []
                if kind in ("G", "P", "SG"):
                    variants.append((base, False))
                for b in form_brand.split(","):
                    if b:
                        variants.append((f"{base} [{b}]", True))
                for name, is_brand in variants:
                    if name in seen:
                        continue
                    seen.add(name)
                    products.append({"name": name, "kind": kind, "class": klass, "brand": is_brand,
                                     "generic_exists": kind in ("G", "P", "SG")})
    for i, p in enumerate(products):
        p["rxnorm_id"] = str(99000001 + i)
    return products


def base_tier(prod, rng):
    kind = prod["kind"]
    if kind in ("S", "SG"):
        return "SPECIALTY"
    if kind == "P" and not prod["brand"]:
        return "ZERO-COST-SHARE-PREVENTIVE"
    if kind == "PB":
        return "ZERO-COST-SHARE-PREVENTIVE"
    if not prod["brand"]:
        return "GENERIC"
    if prod["generic_exists"]:
        return "PREFERRED-BRAND" if rng.random() < 0.1 else "NON-PREFERRED-BRAND"
    return "PREFERRED-BRAND" if rng.random() < 0.6 else "NON-PREFERRED-BRAND"


def assign_formularies(rng, products, issuers):
    """prod["carriers"][carrier] = {year: (tier, pa, st, ql)} for the years the drug is covered."""
    for prod in products:
        prod["carriers"] = {}
        pa_c, st_c, ql_c = CLASS_RULES.get(prod["class"], DEFAULT_RULES)
        if prod["kind"] in ("S", "SG"):
            pa_c, ql_c = max(pa_c, 0.85), max(ql_c, 0.4)
        if prod["brand"] and prod["generic_exists"]:
            st_c = max(st_c, 0.2)
        elif prod["brand"]:
            pa_c, st_c = max(pa_c, 0.12), max(st_c, 0.15)
        for iss in issuers:
            carrier = iss["carrier"]
            if prod["class"] in EXCLUDED_CLASSES and carrier not in EXCLUDED_CLASSES[prod["class"]]:
                continue
            rate = EXCLUDE_RATE["generic" if not prod["brand"] else
                                ("brand_of_generic" if prod["generic_exists"] else "brand")]
            if rng.random() < rate:
                continue
            tier = base_tier(prod, rng)
            pa, st, ql = rng.random() < pa_c, rng.random() < st_c, rng.random() < ql_c
            years = {YEARS[0]: (tier, pa, st, ql), YEARS[1]: (tier, pa, st, ql)}
            r = rng.random()
            if r < 0.03:
                del years[YEARS[0]]          # added for 2025
            elif r < 0.05:
                del years[YEARS[1]]          # dropped for 2025
            elif r < 0.10 and tier in ("PREFERRED-BRAND", "NON-PREFERRED-BRAND"):
                other = "NON-PREFERRED-BRAND" if tier == "PREFERRED-BRAND" else "PREFERRED-BRAND"
                years[YEARS[1]] = (other, pa, st, ql)   # re-tiered for 2025
            prod["carriers"][carrier] = years


# --- writing ----------------------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?", default=DEFAULT_OUT, help="output folder (default: target/coverage-demo)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    ap.add_argument("--providers", type=int, default=DEFAULT_PROVIDERS,
                    help=f"providers in all (default {DEFAULT_PROVIDERS})")
    ap.add_argument("--base-url", default="", help="prefix for the index's file URLs (default: relative URLs)")
    args = ap.parse_args()
    started = time.monotonic()
    # Two independent streams, so that --providers leaves the formularies as they are.
    rng = random.Random(f"{args.seed}:providers")
    drug_rng = random.Random(f"{args.seed}:drugs")

    carriers, newer_from = load_carriers()
    areas, zips = load_counties(), load_zips()
    check_cities(zips)
    plans = [p for y in YEARS for p in load_plans(y)]
    issuers = build_issuers(carriers, newer_from, plans)
    plans = [p for iss in issuers for p in iss["plans"]]   # carrier order, then year and id

    providers = build_providers(rng, args.providers, zips, areas)
    assign_networks(rng, providers, plans)
    products = drug_products()
    assign_formularies(drug_rng, products, issuers)

    os.makedirs(args.out, exist_ok=True)
    row_text = {}
    for idx, p in enumerate(plans):
        for t in p["tiers"]:
            row_text[(idx, t)] = dumps({"plan_id_type": PLAN_ID_TYPE, "plan_id": p["plan_id"], "network_tier": t,
                                        "years": [p["year"]]})
    providers.sort(key=lambda pr: pr["rec"]["npi"])
    summary = []
    for iss in issuers:
        folder = os.path.join(args.out, iss["folder"])
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        os.makedirs(folder)
        write_json(os.path.join(folder, "plans.json"), [plan_record(p, iss) for p in iss["plans"]])

        lines, n_rows = [], 0
        for prov in providers:
            rows = prov["rows"].get(iss["carrier"])
            if not rows:
                continue
            rec = dict(prov["rec"])
            rec["last_updated_on"] = iss["date"]
            head = dumps(rec)
            lines.append(head[:-1] + ',"plans":[' + ",".join(row_text[r] for r in rows) + "]}")
            n_rows += len(rows)
        provider_files = []
        for k in range(0, max(len(lines), 1), PROVIDERS_PER_FILE):
            name = f"providers-{k // PROVIDERS_PER_FILE + 1}.json"
            write_array(os.path.join(folder, name), lines[k:k + PROVIDERS_PER_FILE])
            provider_files.append(name)

        plan_by_year = {y: [p for p in iss["plans"] if p["year"] == y] for y in YEARS}
        drug_lines, n_drug_rows = [], 0
        for prod in products:
            years = prod["carriers"].get(iss["carrier"])
            if not years:
                continue
            rows = []
            for y in YEARS:
                if y not in years:
                    continue
                tier, pa, st, ql = years[y]
                for p in plan_by_year[y]:
                    rows.append({"plan_id_type": PLAN_ID_TYPE, "plan_id": p["plan_id"], "drug_tier": tier,
                                 "prior_authorization": pa, "step_therapy": st, "quantity_limit": ql, "years": [y]})
            if rows:
                drug_lines.append(dumps({"rxnorm_id": prod["rxnorm_id"], "drug_name": prod["name"], "plans": rows}))
                n_drug_rows += len(rows)
        write_array(os.path.join(folder, "drugs.json"), drug_lines)

        base = args.base_url
        if base:
            base = base.rstrip("/") + "/" + iss["folder"] + "/"
        write_json(os.path.join(folder, "cms-data-index.json"), {
            "provider_urls": [base + f for f in provider_files],
            "formulary_urls": [base + "drugs.json"],
            "plan_urls": [base + "plans.json"],
        })
        size = sum(os.path.getsize(os.path.join(folder, f)) for f in sorted(os.listdir(folder)))
        summary.append((iss, len(iss["plans"]), len(lines), n_rows, len(provider_files), len(drug_lines),
                        n_drug_rows, size))

    print(f"coverage demo -> {args.out}  (seed {args.seed})")
    print(f"{'issuer':<30} {'plans':>5} {'providers':>9} {'rows':>9} {'files':>5} {'drugs':>6} {'rows':>7} {'MB':>7}")
    for iss, np_, nprov, nrows, nfiles, ndrugs, ndrows, size in summary:
        print(f"{iss['folder']:<30} {np_:>5} {nprov:>9} {nrows:>9} {nfiles:>5} {ndrugs:>6} {ndrows:>7} "
              f"{size / 1e6:>7.1f}")
    n_ind = sum(1 for p in providers if p["rec"]["type"] == "INDIVIDUAL")
    print(f"providers: {len(providers)} ({n_ind} individual, {len(providers) - n_ind} facility); "
          f"drugs: {len(products)}; total {sum(s[-1] for s in summary) / 1e6:.1f} MB; "
          f"{time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
