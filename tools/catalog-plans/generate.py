#!/usr/bin/env python3
"""Generate the demo plan catalog: rules/catalog/<year>/{medical,dental,vision}.yaml for 2024 and 2025.

    python3 tools/catalog-plans/generate.py            # writes the six files (run from anywhere)
    python3 tools/catalog-plans/generate.py --check    # only verifies the tables below, writes nothing

Python 3 standard library only; deterministic (the same tables give byte-identical files).

The plans are demo data modelled on the Michigan individual market: real carriers and plan-name
styles, benefit amounts inside each year's legal limits, and premiums derived from the published
benchmark (second-lowest silver) age-21 premium of each rating area (KFF subsidy-calculator data,
../shared/data/domain-facts.md):

    age-21 rate(plan, area) = BENCHMARK[year][area] x plan factor x carrier/area variation (+-3%)

rounded to the cent. Plan factors by metal: catastrophic ~0.6, bronze 0.75-0.85, silver 0.95-1.15,
gold 1.15-1.35, platinum ~1.45. Dental and vision rates are the plan's age-21 rate with a small area
spread. The generated files say they were generated; analysts may edit them directly afterwards
(then this script is no longer the source of those files: re-running it overwrites the edits).

To change the catalog here: edit the tables (one line per plan), run the script, then
`enrollflow check` (the catalog loader validates the files).
"""

import hashlib
import os
import sys
from decimal import ROUND_HALF_UP, Decimal

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CATALOG = os.path.join(ROOT, "rules", "catalog")

# ---------------------------------------------------------------------------------------------
# Public figures (domain-facts.md)
# ---------------------------------------------------------------------------------------------

# Benchmark (second-lowest silver) monthly premium at age 21 by rating area 1-16.
BENCHMARK = {
    2024: {1: "252.29", 2: "257.52", 3: "313.73", 4: "262.75", 5: "249.67", 6: "341.18", 7: "312.42",
           8: "334.64", 9: "343.79", 10: "328.10", 11: "334.64", 12: "294.12", 13: "334.64",
           14: "332.03", 15: "352.94", 16: "542.48"},
    2025: {1: "282.35", 2: "262.75", 3: "318.95", 4: "282.35", 5: "270.59", 6: "379.08", 7: "330.72",
           8: "367.32", 9: "373.86", 10: "316.34", 11: "316.34", 12: "311.11", 13: "440.52",
           14: "381.70", 15: "406.54", 16: "585.62"},
}
AREAS = range(1, 17)

LIMITS = {
    #     The generator's own targets for the demo plans. The legal limits themselves are data in
    #     rules/catalog/<year>/limits.yaml, which `enrollflow check` and verify.py check plans against
    #     (this script writes only the plan files, never limits.yaml).
    #     ACA OOP max (self, family), HSA min deductible (self, family), HSA max OOP (self, family),
    #     stand-alone pediatric dental OOP cap (one child, two or more). 2024 has no published cap in
    #     domain-facts; 2024 dental plans are kept at or under 400 / 800, inside the 2025 caps.
    2024: dict(oop=(9450, 18900), hsa_ded=(1600, 3200), hsa_oop=(8050, 16100), dental_oop=(400, 800)),
    2025: dict(oop=(9200, 18400), hsa_ded=(1650, 3300), hsa_oop=(8300, 16600), dental_oop=(425, 850)),
}

# ---------------------------------------------------------------------------------------------
# Where plans are sold (county ids = 3-digit FIPS, rules/catalog/counties.yaml)
# ---------------------------------------------------------------------------------------------

ALL_COUNTIES = list(range(1, 166, 2))
# Upper Peninsula. The six western counties are the thinly served area: only Blue Cross's
# statewide PPOs are sold there (12 medical plans a year, against 40+ around Detroit).
WESTERN_UP = [13, 53, 61, 71, 83, 131]  # Baraga, Gogebic, Houghton, Iron, Keweenaw, Ontonagon
EASTERN_UP = [3, 33, 41, 43, 95, 97, 103, 109, 153]  # Alger, Chippewa, Delta, Dickinson, Luce, Mackinac, Marquette, Menominee, Schoolcraft
LOWER_PENINSULA = [c for c in ALL_COUNTIES if c not in WESTERN_UP + EASTERN_UP]
LP_AND_EASTERN_UP = sorted(LOWER_PENINSULA + EASTERN_UP)
# Wayne, Oakland, Macomb, Washtenaw, Monroe, Livingston, St. Clair, Lenawee, Genesee, Lapeer
SOUTHEAST = [163, 125, 99, 161, 115, 93, 147, 91, 49, 87]
# Kent, Ottawa, Muskegon, Allegan, Barry, Ionia, Montcalm, Newaygo, Kalamazoo, Calhoun, Van Buren,
# Berrien, Cass, St. Joseph, Branch, Oceana, Mecosta
WEST = [81, 139, 121, 5, 15, 67, 117, 123, 77, 25, 159, 21, 27, 149, 23, 127, 107]
# Southeast plus Grand Rapids, Holland, Kalamazoo, Battle Creek and Lansing
METRO = SOUTHEAST + [81, 139, 77, 25, 65, 45, 37]
SOUTHEAST_AND_GRAND_RAPIDS = SOUTHEAST + [81, 139]

COUNTY_SETS = {  # name shown as a comment next to each list in the YAML
    id(LOWER_PENINSULA): "Lower Peninsula",
    id(LP_AND_EASTERN_UP): "all but the six western Upper Peninsula counties",
    id(SOUTHEAST): "southeast Michigan",
    id(WEST): "west Michigan",
    id(METRO): "southeast Michigan, Grand Rapids, Holland, Kalamazoo, Battle Creek, Lansing",
    id(SOUTHEAST_AND_GRAND_RAPIDS): "southeast Michigan and Grand Rapids",
}

# ---------------------------------------------------------------------------------------------
# Carriers: link domains, default tobacco factor
# ---------------------------------------------------------------------------------------------

CARRIER_SITE = {1: "https://www.bcbsm.example.com", 2: "https://www.bcn.example.com",
                3: "https://www.priorityhealth.example.com", 4: "https://www.uhc.example.com"}
TOBACCO = {1: "1.15", 2: "1.15", 3: "1.30", 4: "1.50"}

PPO, HMO, EPO = 1, 2, 3
CAT, BRONZE, EXP_BRONZE, SILVER, GOLD, PLATINUM = 1, 2, 3, 4, 5, 6

# ---------------------------------------------------------------------------------------------
# Medical plans. One line per plan, in id order:
#   (name, carrier, network, metal, hsa, deductible, coinsurance %, OOP max, rate factor[, options])
# Deductible and OOP max are the individual amounts; the generator derives
#   ded_fam = 2 x ded_ind; PPO out-of-network ded = 2 x in-network (HMO/EPO: 0, no out-of-network);
#   max_fam_oop = 2 x max_ind_oop; max_2p_oop = min(2 x max_ind_oop, max_fam_oop).
# options: counties=[...] (default all), tobacco="1.0" (default: the carrier's).
# "CAT" deductible/OOP = the year's ACA OOP maximum.
# ---------------------------------------------------------------------------------------------

MEDICAL = {
    2024: [  # ids 101 and up
        # Blue Cross Blue Shield of Michigan: PPOs, statewide
        ("Blue Cross Premier PPO Catastrophic",        1, PPO, CAT,        False, "CAT", 0,  "CAT", "0.61", dict(tobacco="1.00")),
        ("Blue Cross Premier PPO Bronze",              1, PPO, BRONZE,     False, 7500, 50, 9450, "0.79"),
        ("Blue Cross Premier PPO Bronze HSA",          1, PPO, BRONZE,     True,  7000, 0,  7000, "0.81"),
        ("Blue Cross Premier PPO Bronze Value",        1, PPO, BRONZE,     False, 9000, 0,  9450, "0.76"),
        ("Blue Cross Premier PPO Bronze Extra",        1, PPO, EXP_BRONZE, False, 5250, 40, 9450, "0.85"),
        ("Blue Cross Premier PPO Silver",              1, PPO, SILVER,     False, 4750, 30, 9400, "1.08"),
        ("Blue Cross Premier PPO Silver HSA",          1, PPO, SILVER,     True,  3200, 20, 8050, "1.04"),
        ("Blue Cross Premier PPO Silver Value",        1, PPO, SILVER,     False, 6250, 40, 9450, "0.98"),
        ("Blue Cross Premier PPO Silver Extra",        1, PPO, SILVER,     False, 2400, 30, 8600, "1.13"),
        ("Blue Cross Premier PPO Gold",                1, PPO, GOLD,       False, 1500, 20, 7000, "1.26"),
        ("Blue Cross Premier PPO Gold HSA",            1, PPO, GOLD,       True,  1900, 10, 4000, "1.22"),
        ("Blue Cross Premier PPO Gold Extra",          1, PPO, GOLD,       False, 1000, 20, 6000, "1.32"),
        ("Blue Cross Premier PPO Platinum",            1, PPO, PLATINUM,   False, 500,  10, 3000, "1.46", dict(counties=SOUTHEAST_AND_GRAND_RAPIDS)),
        # Blue Care Network: HMOs (Select statewide but the western UP; Local in southeast Michigan)
        ("Blue Cross Select HMO Catastrophic",         2, HMO, CAT,        False, "CAT", 0,  "CAT", "0.58", dict(counties=LP_AND_EASTERN_UP, tobacco="1.00")),
        ("Blue Cross Select HMO Bronze Saver",         2, HMO, BRONZE,     False, 7750, 50, 9450, "0.75", dict(counties=LP_AND_EASTERN_UP)),
        ("Blue Cross Select HMO Bronze Saver HSA",     2, HMO, BRONZE,     True,  6250, 20, 8050, "0.77", dict(counties=LP_AND_EASTERN_UP)),
        ("Blue Cross Select HMO Bronze Extra",         2, HMO, EXP_BRONZE, False, 5750, 30, 9200, "0.81", dict(counties=LP_AND_EASTERN_UP)),
        ("Blue Cross Select HMO Silver Saver",         2, HMO, SILVER,     False, 5250, 30, 9450, "0.97", dict(counties=LP_AND_EASTERN_UP)),
        ("Blue Cross Select HMO Silver",               2, HMO, SILVER,     False, 3250, 20, 8500, "1.02", dict(counties=LP_AND_EASTERN_UP)),
        ("Blue Cross Select HMO Gold",                 2, HMO, GOLD,       False, 1000, 20, 6500, "1.18", dict(counties=LP_AND_EASTERN_UP)),
        ("Blue Cross Select HMO Gold HSA",             2, HMO, GOLD,       True,  1750, 10, 4500, "1.16", dict(counties=LP_AND_EASTERN_UP)),
        ("Blue Cross Select HMO Platinum",             2, HMO, PLATINUM,   False, 250,  10, 2500, "1.44", dict(counties=LOWER_PENINSULA)),
        ("Blue Cross Local HMO Bronze Secure",         2, HMO, BRONZE,     False, 7900, 40, 9450, "0.75", dict(counties=SOUTHEAST)),
        ("Blue Cross Local HMO Silver Secure",         2, HMO, SILVER,     False, 4600, 30, 9100, "0.96", dict(counties=SOUTHEAST)),
        ("Blue Cross Local HMO Gold Secure",           2, HMO, GOLD,       False, 1250, 20, 7000, "1.16", dict(counties=SOUTHEAST)),
        # Priority Health: HMOs in the Lower Peninsula, EPOs in west Michigan
        ("MyPriority Catastrophic HMO",                3, HMO, CAT,        False, "CAT", 0,  "CAT", "0.59", dict(counties=LOWER_PENINSULA, tobacco="1.00")),
        ("MyPriority Bronze 8500 HMO",                 3, HMO, BRONZE,     False, 8500, 50, 9450, "0.76", dict(counties=LOWER_PENINSULA)),
        ("MyPriority Bronze HSA 6500 HMO",             3, HMO, BRONZE,     True,  6500, 0,  6500, "0.79", dict(counties=LOWER_PENINSULA)),
        ("MyPriority Expanded Bronze 4250 HMO",        3, HMO, EXP_BRONZE, False, 4250, 40, 9450, "0.83", dict(counties=LOWER_PENINSULA)),
        ("MyPriority Silver 5000 HMO",                 3, HMO, SILVER,     False, 5000, 25, 9450, "0.99", dict(counties=LOWER_PENINSULA)),
        ("MyPriority Silver 2500 HMO",                 3, HMO, SILVER,     False, 2500, 30, 8900, "1.06", dict(counties=LOWER_PENINSULA)),
        ("MyPriority Silver HSA 3000 HMO",             3, HMO, SILVER,     True,  3000, 20, 8000, "1.02", dict(counties=LOWER_PENINSULA)),
        ("MyPriority Gold 1000 HMO",                   3, HMO, GOLD,       False, 1000, 20, 6000, "1.21", dict(counties=LOWER_PENINSULA)),
        ("MyPriority Bronze 7500 EPO",                 3, EPO, BRONZE,     False, 7500, 40, 9450, "0.82", dict(counties=WEST)),
        ("MyPriority Silver 4000 EPO",                 3, EPO, SILVER,     False, 4000, 30, 9000, "1.10", dict(counties=WEST)),
        ("MyPriority Gold 500 EPO",                    3, EPO, GOLD,       False, 500,  20, 5500, "1.30", dict(counties=WEST)),
        # UnitedHealthcare: EPOs and PPOs in the metro areas
        ("UnitedHealthcare Bronze Value EPO",          4, EPO, BRONZE,     False, 8000, 50, 9450, "0.77", dict(counties=METRO)),
        ("UnitedHealthcare Bronze Value+ HSA EPO",     4, EPO, BRONZE,     True,  7000, 20, 8050, "0.79", dict(counties=METRO)),
        ("UnitedHealthcare Bronze Standard EPO",       4, EPO, EXP_BRONZE, False, 6350, 30, 9450, "0.82", dict(counties=METRO)),
        ("UnitedHealthcare Silver Value EPO",          4, EPO, SILVER,     False, 5800, 30, 9450, "0.97", dict(counties=METRO)),
        ("UnitedHealthcare Silver Standard EPO",       4, EPO, SILVER,     False, 3000, 30, 9000, "1.05", dict(counties=METRO)),
        ("UnitedHealthcare Gold Value EPO",            4, EPO, GOLD,       False, 1500, 20, 7500, "1.17", dict(counties=METRO)),
        ("UnitedHealthcare Choice Plus<sup>&reg;</sup> Silver PPO", 4, PPO, SILVER, False, 4500, 30, 9450, "1.14", dict(counties=METRO)),
        ("UnitedHealthcare Choice Plus<sup>&reg;</sup> Gold PPO",   4, PPO, GOLD,   False, 2000, 20, 8000, "1.34", dict(counties=METRO)),
    ],
    2025: [  # ids 520 and up
        # Blue Cross Blue Shield of Michigan: PPOs, statewide
        ("Blue Cross Premier PPO Catastrophic",        1, PPO, CAT,        False, "CAT", 0,  "CAT", "0.61", dict(tobacco="1.00")),
        ("Blue Cross Premier PPO Bronze",              1, PPO, BRONZE,     False, 7500, 50, 9200, "0.79"),
        ("Blue Cross Premier PPO Bronze HSA",          1, PPO, BRONZE,     True,  7000, 0,  7000, "0.80"),
        ("Blue Cross Premier PPO Bronze Value",        1, PPO, BRONZE,     False, 9000, 0,  9200, "0.76"),
        ("Blue Cross Premier PPO Bronze Extra",        1, PPO, EXP_BRONZE, False, 5500, 40, 9200, "0.84"),
        ("Blue Cross Premier PPO Silver",              1, PPO, SILVER,     False, 5000, 30, 9200, "1.08"),
        ("Blue Cross Premier PPO Silver HSA",          1, PPO, SILVER,     True,  3300, 20, 8300, "1.04"),
        ("Blue Cross Premier PPO Silver Value",        1, PPO, SILVER,     False, 6500, 40, 9200, "0.97"),
        ("Blue Cross Premier PPO Silver Extra",        1, PPO, SILVER,     False, 2500, 30, 8700, "1.12"),
        ("Blue Cross Premier PPO Gold",                1, PPO, GOLD,       False, 1500, 20, 7000, "1.26"),
        ("Blue Cross Premier PPO Gold HSA",            1, PPO, GOLD,       True,  2000, 10, 4000, "1.22"),
        ("Blue Cross Premier PPO Gold Extra",          1, PPO, GOLD,       False, 1000, 20, 6000, "1.32"),
        ("Blue Cross Premier PPO Platinum",            1, PPO, PLATINUM,   False, 500,  10, 3000, "1.45", dict(counties=SOUTHEAST_AND_GRAND_RAPIDS)),
        # Blue Care Network: HMOs (Select statewide but the western UP; Local in southeast Michigan)
        ("Blue Cross Select HMO Catastrophic",         2, HMO, CAT,        False, "CAT", 0,  "CAT", "0.58", dict(counties=LP_AND_EASTERN_UP, tobacco="1.00")),
        ("Blue Cross Select HMO Bronze Saver",         2, HMO, BRONZE,     False, 8000, 50, 9200, "0.75", dict(counties=LP_AND_EASTERN_UP)),
        ("Blue Cross Select HMO Bronze Saver HSA",     2, HMO, BRONZE,     True,  6500, 20, 8300, "0.77", dict(counties=LP_AND_EASTERN_UP)),
        ("Blue Cross Select HMO Bronze Extra",         2, HMO, EXP_BRONZE, False, 6000, 30, 9000, "0.80", dict(counties=LP_AND_EASTERN_UP)),
        ("Blue Cross Select HMO Silver Saver",         2, HMO, SILVER,     False, 5500, 30, 9200, "0.98", dict(counties=LP_AND_EASTERN_UP)),
        ("Blue Cross Select HMO Silver",               2, HMO, SILVER,     False, 3500, 20, 8500, "1.03", dict(counties=LP_AND_EASTERN_UP)),
        ("Blue Cross Select HMO Gold",                 2, HMO, GOLD,       False, 1000, 20, 6500, "1.18", dict(counties=LP_AND_EASTERN_UP)),
        ("Blue Cross Select HMO Gold HSA",             2, HMO, GOLD,       True,  1800, 10, 4500, "1.16", dict(counties=LP_AND_EASTERN_UP)),
        ("Blue Cross Select HMO Platinum",             2, HMO, PLATINUM,   False, 250,  10, 2500, "1.44", dict(counties=LOWER_PENINSULA)),
        ("Blue Cross Local HMO Bronze Secure",         2, HMO, BRONZE,     False, 7900, 40, 9200, "0.75", dict(counties=SOUTHEAST)),
        ("Blue Cross Local HMO Silver Secure",         2, HMO, SILVER,     False, 4800, 30, 9100, "0.96", dict(counties=SOUTHEAST)),
        ("Blue Cross Local HMO Gold Secure",           2, HMO, GOLD,       False, 1250, 20, 7000, "1.16", dict(counties=SOUTHEAST)),
        # Priority Health: HMOs in the Lower Peninsula, EPOs in west Michigan
        ("MyPriority Catastrophic HMO",                3, HMO, CAT,        False, "CAT", 0,  "CAT", "0.59", dict(counties=LOWER_PENINSULA, tobacco="1.00")),
        ("MyPriority Bronze 8700 HMO",                 3, HMO, BRONZE,     False, 8700, 50, 9200, "0.76", dict(counties=LOWER_PENINSULA)),
        ("MyPriority Bronze HSA 6500 HMO",             3, HMO, BRONZE,     True,  6500, 0,  6500, "0.79", dict(counties=LOWER_PENINSULA)),
        ("MyPriority Expanded Bronze 4500 HMO",        3, HMO, EXP_BRONZE, False, 4500, 40, 9200, "0.83", dict(counties=LOWER_PENINSULA)),
        ("MyPriority Silver 5500 HMO",                 3, HMO, SILVER,     False, 5500, 25, 9200, "0.99", dict(counties=LOWER_PENINSULA)),
        ("MyPriority Silver 2500 HMO",                 3, HMO, SILVER,     False, 2500, 30, 8900, "1.06", dict(counties=LOWER_PENINSULA)),
        ("MyPriority Silver HSA 3000 HMO",             3, HMO, SILVER,     True,  3000, 20, 8000, "1.02", dict(counties=LOWER_PENINSULA)),
        ("MyPriority Gold 1000 HMO",                   3, HMO, GOLD,       False, 1000, 20, 6000, "1.21", dict(counties=LOWER_PENINSULA)),
        ("MyPriority Bronze 7500 EPO",                 3, EPO, BRONZE,     False, 7500, 40, 9200, "0.82", dict(counties=WEST)),
        ("MyPriority Silver 4000 EPO",                 3, EPO, SILVER,     False, 4000, 30, 9000, "1.10", dict(counties=WEST)),
        ("MyPriority Gold 500 EPO",                    3, EPO, GOLD,       False, 500,  20, 5500, "1.30", dict(counties=WEST)),
        # UnitedHealthcare: EPOs and PPOs in the metro areas
        ("UnitedHealthcare Bronze Value EPO",          4, EPO, BRONZE,     False, 8000, 50, 9200, "0.77", dict(counties=METRO)),
        ("UnitedHealthcare Bronze Value+ HSA EPO",     4, EPO, BRONZE,     True,  7000, 20, 8300, "0.79", dict(counties=METRO)),
        ("UnitedHealthcare Bronze Standard EPO",       4, EPO, EXP_BRONZE, False, 6500, 30, 9200, "0.82", dict(counties=METRO)),
        ("UnitedHealthcare Silver Value EPO",          4, EPO, SILVER,     False, 6000, 30, 9200, "0.97", dict(counties=METRO)),
        ("UnitedHealthcare Silver Standard EPO",       4, EPO, SILVER,     False, 3000, 30, 9000, "1.05", dict(counties=METRO)),
        ("UnitedHealthcare Gold Value EPO",            4, EPO, GOLD,       False, 1500, 20, 7500, "1.17", dict(counties=METRO)),
        ("UnitedHealthcare Choice Plus<sup>&reg;</sup> Silver PPO", 4, PPO, SILVER, False, 4500, 30, 9200, "1.14", dict(counties=METRO)),
        ("UnitedHealthcare Choice Plus<sup>&reg;</sup> Gold PPO",   4, PPO, GOLD,   False, 2000, 20, 8000, "1.34", dict(counties=METRO)),
    ],
}

# ---------------------------------------------------------------------------------------------
# Dental plans (age curve `dental`). One line per plan:
#   (name, carrier, includes vision, deductible, coinsurance % (major services), annual benefit
#    maximum, pediatric OOP max one child, age-21 rate[, options])
# ded_fam = 3 x ded_ind; max_2p_oop = max_fam_oop = 2 x the one-child OOP (within the caps).
# ---------------------------------------------------------------------------------------------

DENTAL = {
    2024: [  # ids 201 and up
        ("Blue Dental PPO Basic",                     1, False, 50, 50, 1000, 375, "27.50"),
        ("Blue Dental PPO Plus",                      1, False, 50, 50, 1500, 375, "36.90"),
        ("Blue Dental PPO Premium",                   1, False, 25, 40, 2000, 350, "50.40"),
        ("Blue Dental PPO Plus with Blue Vision",     1, True,  50, 50, 1500, 375, "44.20"),
        ("Blue Dental EPO Family",                    1, False, 0,  50, 1000, 400, "29.80"),
        ("Blue Care Network Dental HMO Basic",        2, False, 0,  50, 1000, 400, "24.60"),
        ("Blue Care Network Dental HMO Plus",         2, False, 0,  40, 1500, 350, "31.20"),
        ("Blue Care Network Dental and Vision HMO",   2, True,  0,  40, 1500, 350, "35.70"),
        ("Blue Care Network Dental PPO Select",       2, False, 50, 50, 1250, 400, "39.10"),
        ("UnitedHealthcare Dental Value",             4, False, 75, 50, 1000, 400, "26.40"),
        ("UnitedHealthcare Dental Premier",           4, False, 50, 40, 2000, 350, "47.30", dict(counties=METRO)),
        ("UnitedHealthcare Dental Premier with Vision", 4, True, 50, 40, 2000, 350, "54.90", dict(counties=METRO)),
    ],
    2025: [  # ids 620 and up
        ("Blue Dental PPO Basic",                     1, False, 50, 50, 1000, 425, "28.40"),
        ("Blue Dental PPO Plus",                      1, False, 50, 50, 1500, 400, "38.10"),
        ("Blue Dental PPO Premium",                   1, False, 25, 40, 2000, 375, "52.30"),
        ("Blue Dental PPO Plus with Blue Vision",     1, True,  50, 50, 1500, 400, "45.60"),
        ("Blue Dental EPO Family",                    1, False, 0,  50, 1000, 425, "30.70"),
        ("Blue Care Network Dental HMO Basic",        2, False, 0,  50, 1000, 425, "25.30"),
        ("Blue Care Network Dental HMO Plus",         2, False, 0,  40, 1500, 375, "32.40"),
        ("Blue Care Network Dental and Vision HMO",   2, True,  0,  40, 1500, 375, "36.80"),
        ("Blue Care Network Dental PPO Select",       2, False, 50, 50, 1250, 425, "40.20"),
        ("UnitedHealthcare Dental Value",             4, False, 75, 50, 1000, 425, "27.20"),
        ("UnitedHealthcare Dental Premier",           4, False, 50, 40, 2000, 375, "48.90", dict(counties=METRO)),
        ("UnitedHealthcare Dental Premier with Vision", 4, True, 50, 40, 2000, 375, "56.80", dict(counties=METRO)),
    ],
}

# ---------------------------------------------------------------------------------------------
# Vision plans (age curve `flat`). One line per plan:
#   (name, carrier, plan type 3 monthly / 4 annual, eye exam copay, frames/contacts allowance,
#    eye exam frequency, monthly rate)
# ---------------------------------------------------------------------------------------------

EVERY_12 = "Once every 12 months"
EVERY_24 = "Once every 24 months"

VISION = {
    2024: [  # ids 301 and up
        ("Blue Vision Basic",                    1, 3, 10, 130, EVERY_12, "7.40"),
        ("Blue Vision Plus",                     1, 3, 5,  150, EVERY_12, "10.80"),
        ("Blue Vision Annual",                   1, 4, 10, 130, EVERY_12, "6.60"),
        ("Blue Care Network Vision",             2, 3, 10, 100, EVERY_24, "5.40"),
        ("Blue Care Network Vision Plus",        2, 3, 0,  175, EVERY_12, "12.70"),
        ("UnitedHealthcare Vision",              4, 3, 10, 150, EVERY_12, "9.60"),
        ("UnitedHealthcare Vision Annual Plus",  4, 4, 0,  200, EVERY_12, "15.90"),
    ],
    2025: [  # ids 720 and up
        ("Blue Vision Basic",                    1, 3, 10, 130, EVERY_12, "7.60"),
        ("Blue Vision Plus",                     1, 3, 5,  160, EVERY_12, "11.20"),
        ("Blue Vision Annual",                   1, 4, 10, 130, EVERY_12, "6.80"),
        ("Blue Care Network Vision",             2, 3, 10, 100, EVERY_24, "5.60"),
        ("Blue Care Network Vision Plus",        2, 3, 0,  175, EVERY_12, "13.10"),
        ("UnitedHealthcare Vision",              4, 3, 10, 150, EVERY_12, "9.90"),
        ("UnitedHealthcare Vision Annual Plus",  4, 4, 0,  200, EVERY_12, "16.40"),
    ],
}

FIRST_ID = {
    2024: {"medical": 101, "dental": 201, "vision": 301},
    2025: {"medical": 520, "dental": 620, "vision": 720},
}
# 2024 plans stay below 520, 2025 plans from 520 up (carriers.yaml drug_list_newer_from_plan_id).

# ---------------------------------------------------------------------------------------------
# Rates
# ---------------------------------------------------------------------------------------------


def cents(x):
    return x.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def variation(carrier, area, spread):
    """A fixed pseudo-random factor in [1 - spread, 1 + spread] for a carrier in an area."""
    h = int(hashlib.sha256(f"{carrier}-{area}".encode()).hexdigest()[:8], 16)
    return Decimal(1) + spread * (Decimal(h % 2001) - 1000) / 1000


def medical_rates(year, carrier, factor):
    return {a: cents(Decimal(BENCHMARK[year][a]) * Decimal(factor) * variation(carrier, a, Decimal("0.03")))
            for a in AREAS}


def area_spread(year, area):
    """Dental and vision vary a little by area: 15% of the benchmark's deviation from its mean."""
    mean = sum(Decimal(v) for v in BENCHMARK[year].values()) / 16
    return Decimal(1) + Decimal("0.15") * (Decimal(BENCHMARK[year][area]) / mean - 1)


def flat_rates(year, carrier, base):
    return {a: cents(Decimal(base) * area_spread(year, a) * variation(carrier + 10, a, Decimal("0.02")))
            for a in AREAS}


# ---------------------------------------------------------------------------------------------
# Building and checking the plans
# ---------------------------------------------------------------------------------------------


def slug(name):
    out = name.replace("<sup>&reg;</sup>", "").replace("+", " plus").lower()
    return "-".join("".join(ch if ch.isalnum() else " " for ch in out).split())


def links(carrier, year, name):
    site = CARRIER_SITE[carrier]
    s = slug(name)
    return f"{site}/plans/{year}/sbc/{s}.pdf", f"{site}/plans/{year}/{s}"


def build_medical(year):
    lim = LIMITS[year]
    plans = []
    for i, row in enumerate(MEDICAL[year]):
        name, carrier, network, metal, hsa, ded, coins, oop, factor = row[:9]
        opts = row[9] if len(row) > 9 else {}
        if ded == "CAT":
            ded = lim["oop"][0]
        if oop == "CAT":
            oop = lim["oop"][0]
        ded_out = 2 * ded if network == PPO else 0
        fam_oop = 2 * oop
        sbc, baag = links(carrier, year, name)
        plans.append(dict(
            id=FIRST_ID[year]["medical"] + i, name=name, carrier=carrier, network=network, metal=metal,
            hsa=hsa, ded_ind=ded, ded_fam=2 * ded, ded_out_ind=ded_out, ded_out_fam=2 * ded_out,
            coins=coins, max_ind_oop=oop, max_2p_oop=min(2 * oop, fam_oop), max_fam_oop=fam_oop,
            sbc=sbc, baag=baag, tobacco_factor=opts.get("tobacco", TOBACCO[carrier]),
            counties=opts.get("counties", "all"), rates=medical_rates(year, carrier, factor),
            _factor=Decimal(factor)))
    return plans


def build_dental(year):
    plans = []
    for i, row in enumerate(DENTAL[year]):
        name, carrier, vision, ded, coins, annual_max, oop1, base = row[:8]
        opts = row[8] if len(row) > 8 else {}
        sbc, baag = links(carrier, year, name)
        plans.append(dict(
            id=FIRST_ID[year]["dental"] + i, name=name, carrier=carrier, includes_vision=vision,
            ded_ind=ded, ded_fam=3 * ded, coins=coins, annual_max=annual_max, max_ind_oop=oop1,
            max_2p_oop=2 * oop1, max_fam_oop=2 * oop1, sbc=sbc, baag=baag, tobacco_factor="1.00",
            age_curve="dental", counties=opts.get("counties", "all"), rates=flat_rates(year, carrier, base)))
    return plans


def build_vision(year):
    plans = []
    for i, row in enumerate(VISION[year]):
        name, carrier, plan_type, copay, allowance, freq, base = row
        sbc, baag = links(carrier, year, name)
        plans.append(dict(
            id=FIRST_ID[year]["vision"] + i, name=name, carrier=carrier, plan_type=plan_type,
            eye_exam_copay=copay, frames_contact_allowance=allowance, eye_exam_frequency=freq,
            sbc=sbc, baag=baag, tobacco_factor="1.00", age_curve="flat", counties="all",
            rates=flat_rates(year, carrier, base)))
    return plans


METAL_FACTOR = {CAT: ("0.55", "0.65"), BRONZE: ("0.75", "0.85"), EXP_BRONZE: ("0.75", "0.85"),
                SILVER: ("0.95", "1.15"), GOLD: ("1.15", "1.35"), PLATINUM: ("1.40", "1.50")}


def check(year, medical, dental, vision):
    """Raise on anything outside the year's limits or the catalog's rules."""
    lim = LIMITS[year]
    problems = []

    def bad(p, msg):
        problems.append(f"{year} plan {p['id']} {p['name']!r}: {msg}")

    ids = [p["id"] for p in medical + dental + vision]
    if len(set(ids)) != len(ids):
        problems.append(f"{year}: duplicate plan ids")
    for p in medical + dental + vision:
        if (p["id"] >= 520) != (year >= 2025):
            bad(p, "2024 plan ids must stay below 520, 2025 ids from 520 up")
        if sorted(p["rates"]) != list(AREAS) or min(p["rates"].values()) <= 0:
            bad(p, "needs a positive rate for each of the 16 areas")
        if not Decimal("1") <= Decimal(p["tobacco_factor"]) <= Decimal("1.5"):
            bad(p, "tobacco_factor outside 1-1.5")
        if p["counties"] != "all" and (not p["counties"] or any(c not in ALL_COUNTIES for c in p["counties"])):
            bad(p, "unknown county")
    names = [p["name"] for p in medical + dental + vision]
    if len(set(names)) != len(names):
        problems.append(f"{year}: duplicate plan names")
    for p in medical:
        if p["max_ind_oop"] > lim["oop"][0] or p["max_fam_oop"] > lim["oop"][1]:
            bad(p, "OOP maximum above the ACA limit")
        if not p["max_ind_oop"] <= p["max_2p_oop"] <= p["max_fam_oop"]:
            bad(p, "OOP maxima out of order")
        if p["ded_ind"] > p["max_ind_oop"] or p["ded_fam"] > p["max_fam_oop"]:
            bad(p, "deductible above the OOP maximum")
        if (p["network"] == PPO) != (p["ded_out_ind"] > 0):
            bad(p, "out-of-network deductible must be set for PPOs only")
        if p["hsa"]:
            if p["ded_ind"] < lim["hsa_ded"][0] or p["ded_fam"] < lim["hsa_ded"][1]:
                bad(p, "HSA plan deductible below the HDHP minimum")
            if p["max_ind_oop"] > lim["hsa_oop"][0] or p["max_fam_oop"] > lim["hsa_oop"][1]:
                bad(p, "HSA plan OOP above the HDHP maximum")
        if p["metal"] == CAT and (p["ded_ind"] != lim["oop"][0] or p["max_ind_oop"] != lim["oop"][0]):
            bad(p, "catastrophic deductible and OOP must be the ACA maximum")
        lo, hi = METAL_FACTOR[p["metal"]]
        if not Decimal(lo) <= p["_factor"] <= Decimal(hi):
            bad(p, f"rate factor {p['_factor']} outside {lo}-{hi} for its metal")
    for p in dental:
        if p["max_ind_oop"] > lim["dental_oop"][0] or p["max_fam_oop"] > lim["dental_oop"][1]:
            bad(p, "pediatric dental OOP above the cap")
        if not Decimal(20) <= p["rates"][1] <= Decimal(65):
            bad(p, "dental rate outside the usual range")
    for p in vision:
        if p["plan_type"] not in (3, 4) or not Decimal(4) <= min(p["rates"].values()) <= max(p["rates"].values()) <= Decimal(21):
            bad(p, "vision plan type or rate out of range")
    # Every county must have at least a dozen medical plans.
    for c in ALL_COUNTIES:
        n = sum(1 for p in medical if p["counties"] == "all" or c in p["counties"])
        if n < 12:
            problems.append(f"{year}: county {c} has only {n} medical plans")
    if len(medical) < 42 or len(dental) < 10 or len(vision) < 5:
        problems.append(f"{year}: too few plans")
    if sum(p["includes_vision"] for p in dental) < 3 or not any(p["plan_type"] == 4 for p in vision):
        problems.append(f"{year}: needs 3 dental plans with vision and an annual vision plan")
    if problems:
        raise SystemExit("\n".join(problems))


# ---------------------------------------------------------------------------------------------
# YAML output (written by hand: simple, stable, and in the order analysts read)
# ---------------------------------------------------------------------------------------------

HEADER = """\
# yaml-language-server: $schema=../../../schemas/plans.schema.json
# {what} plans for plan year {year} (format: rules/README.md, "The plan catalog").
# GENERATED by tools/catalog-plans/generate.py (demo data modelled on the Michigan market: age-21
# rates = the area's benchmark premium x a plan factor; benefits within the {year} limits).
# Analysts may edit this file directly from here on -- re-running the generator would overwrite
# such edits. Check edits with `enrollflow check`.
"""


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def num(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Decimal):
        return str(v)
    return str(v)


def counties_yaml(c):
    if c == "all":
        return "all"
    items = [str(x) for x in sorted(c)]
    lines, cur = [], ""
    for it in items:  # wrap long lists at about 100 characters
        if cur and len(cur) + len(it) > 84:
            lines.append(cur.rstrip())
            cur = ""
        cur += it + ", "
    lines.append(cur.rstrip(", "))
    text = "[" + "\n      ".join(lines) + "]"
    label = COUNTY_SETS.get(id(c))
    return f"{text}   # {label}" if label else text


def rates_yaml(r):
    return "{ " + ", ".join(f"{a}: {r[a]}" for a in AREAS) + " }"


FIELDS = {
    "medical": ["id", "name", "carrier", "network", "metal", "hsa", "ded_ind", "ded_fam", "ded_out_ind",
                "ded_out_fam", "coins", "max_ind_oop", "max_2p_oop", "max_fam_oop", "sbc", "baag",
                "tobacco_factor", "counties", "rates"],
    "dental": ["id", "name", "carrier", "includes_vision", "ded_ind", "ded_fam", "coins", "annual_max",
               "max_ind_oop", "max_2p_oop", "max_fam_oop", "sbc", "baag", "tobacco_factor", "age_curve",
               "counties", "rates"],
    "vision": ["id", "name", "carrier", "plan_type", "eye_exam_copay", "frames_contact_allowance",
               "eye_exam_frequency", "sbc", "baag", "tobacco_factor", "age_curve", "counties", "rates"],
}
# Comments written on the first plan of a file, as a key to the codes.
COMMENTS = {
    "medical": {"network": "PPO 1, HMO 2, EPO 3",
                "metal": "1 catastrophic, 2 bronze, 3 expanded bronze, 4 silver, 5 gold, 6 platinum",
                "ded_out_ind": "HMO and EPO plans: 0 (no out-of-network coverage)",
                "coins": "coinsurance %",
                "counties": "or a list of county ids"},
    "dental": {"coins": "coinsurance % for major services",
               "annual_max": "yearly benefit maximum",
               "max_ind_oop": "pediatric OOP maximum: one child",
               "max_2p_oop": "two or more children",
               "counties": "or a list of county ids"},
    "vision": {"plan_type": "3 monthly, 4 annual (priced per month here)"},
}


def render(kind, year, plans):
    out = [HEADER.format(what=kind.capitalize(), year=year).rstrip("\n")]
    out.append(f"plan_year: {year}")
    out.append("plans:")
    for p in plans:
        first = True
        for key in FIELDS[kind]:
            v = p[key]
            if key in ("name", "sbc", "baag", "eye_exam_frequency"):
                text = q(v)
            elif key == "counties":
                text = counties_yaml(v)
            elif key == "rates":
                text = rates_yaml(v)
            else:
                text = num(v)
            line = f"{'  - ' if first else '    '}{key}: {text}"
            note = COMMENTS[kind].get(key)
            if note and p is plans[0]:
                line += f"   # {note}"
            out.append(line)
            first = False
    return "\n".join(out) + "\n"


def main():
    only_check = "--check" in sys.argv[1:]
    summary = []
    for year in (2024, 2025):
        medical, dental, vision = build_medical(year), build_dental(year), build_vision(year)
        check(year, medical, dental, vision)
        summary.append(f"{year}: {len(medical)} medical, {len(dental)} dental, {len(vision)} vision")
        if only_check:
            continue
        os.makedirs(os.path.join(CATALOG, str(year)), exist_ok=True)
        for kind, plans in (("medical", medical), ("dental", dental), ("vision", vision)):
            path = os.path.join(CATALOG, str(year), f"{kind}.yaml")
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(render(kind, year, plans))
    print("ok: " + "; ".join(summary) + ("" if only_check else f" (written under {CATALOG})"))


if __name__ == "__main__":
    main()
