//! The printable sheets of the plan pages (spec part 1, 2.7, 2.8, 2.11 and 7 "Plans"): the plan
//! comparison (`printPdf`, one kind or medical, dental and vision together) and the benefit
//! selection (`printSelectionPdf`). Quotes and filters are the plan APIs' own; the layout is
//! `crate::pdf`.

use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use time::Date;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use enrollflow_engine::catalog::{Catalog, Choice, Plan, PlanKind};
use enrollflow_engine::dates;
use enrollflow_engine::money::Money;
use enrollflow_engine::rating::{self, Filter, Household, Rates, Role};

use super::error::{ApiError, ApiResult};
use super::host::SiteHost;
use super::open::open_step;
use super::plans::{household, open_plan_step, quoted};
use crate::applications::OpenStep;
use crate::db::agents::AgentRow;
use crate::http::session::LiveSession;
use crate::pdf::{self, Branding, Column, Orientation, Sheet, Style, Table};
use crate::quoting::PlanSnapshot;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(print_pdf))
        .routes(routes!(print_pdf_filtered))
        .routes(routes!(print_selection_pdf))
}

const FOOTER: &str = "Premiums are monthly for the household shown; the carrier confirms the \
                      final rate at enrollment.";

#[utoipa::path(get, path = "/api/printPdf/{plan_type}/{flag}", tag = "plans",
    params(("plan_type" = u8, Path, description = "1 medical, 2 dental, 3 vision"),
           ("flag" = bool, Path, description = "true: the medical, dental and vision sheet; false: this plan type's")),
    responses((status = 200, description = "The comparison sheet, saved as compare.pdf", content_type = "application/pdf", body = [u8]),
              (status = 400, description = "The flag is not true or false"),
              (status = 403, description = "The application may not open this plan page"),
              (status = 409, description = "About You is not complete")))]
async fn print_pdf(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path((plan_type, flag)): Path<(u8, String)>,
) -> ApiResult<Response> {
    comparison(&app, &session, &host, plan_type, &flag, "").await
}

#[utoipa::path(get, path = "/api/printPdf/{plan_type}/{flag}/{filters}", tag = "plans",
    params(("plan_type" = u8, Path, description = "1 medical, 2 dental, 3 vision"),
           ("flag" = bool, Path, description = "true: the medical, dental and vision sheet; false: this plan type's"),
           ("filters" = String, Path, description = "Filter tokens, comma-separated: `car_{id}`, `net_{id}`, `m_{id}`, \
             `hsa`, `plan_{id}`, `minPrice:{n}`, `maxPrice:{n}`, `dental_only`, `dental_and_vision`; they narrow \
             this plan type's plans")),
    responses((status = 200, description = "The comparison sheet, saved as compare.pdf", content_type = "application/pdf", body = [u8]),
              (status = 400, description = "A filter token is not valid, or the flag is not true or false"),
              (status = 403, description = "The application may not open this plan page"),
              (status = 409, description = "About You is not complete")))]
async fn print_pdf_filtered(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path((plan_type, flag, filters)): Path<(u8, String, String)>,
) -> ApiResult<Response> {
    comparison(&app, &session, &host, plan_type, &flag, &filters).await
}

#[utoipa::path(get, path = "/api/printSelectionPdf", tag = "plans",
    responses((status = 200, description = "The benefit selection sheet, saved as benefits.pdf", content_type = "application/pdf", body = [u8]),
              (status = 403, description = "The application has not reached Review Selections"),
              (status = 409, description = "About You is not complete")))]
async fn print_selection_pdf(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
) -> ApiResult<Response> {
    let s = open_step(&app, &session, &host, "review").await?;
    let h = household(&s)?;
    let sheet = selection_sheet(&s, &h)?;
    Ok(pdf_response(sheet.finish(app.clock.now()), BENEFITS))
}

const COMPARE: &str = "attachment; filename=\"compare.pdf\"";
const BENEFITS: &str = "attachment; filename=\"benefits.pdf\"";

fn pdf_response(bytes: Vec<u8>, disposition: &'static str) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/pdf"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_static(disposition),
            ),
            // The sheets name the household: never kept by a cache.
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        bytes,
    )
        .into_response()
}

fn parse_flag(flag: &str) -> ApiResult<bool> {
    match flag {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(ApiError::BadRequest(
            "The flag is `true` (medical, dental and vision) or `false`.".into(),
        )),
    }
}

async fn comparison(
    app: &AppState,
    session: &LiveSession,
    host: &SiteHost,
    plan_type: u8,
    flag: &str,
    filters: &str,
) -> ApiResult<Response> {
    let all = parse_flag(flag)?;
    let filter = Filter::parse(filters).map_err(ApiError::BadRequest)?;
    let (s, kind, _) = open_plan_step(app, session, host, plan_type).await?;
    let h = household(&s)?;
    let cat = s.bundle.engine.catalog();
    let kinds = if all {
        vec![PlanKind::Medical, PlanKind::Dental, PlanKind::Vision]
    } else {
        vec![kind]
    };
    let title = if all {
        "Medical, Dental and Vision Plans".to_string()
    } else {
        format!("{} Plan Comparison", kind_name(kind))
    };
    let mut sheet = Sheet::new(
        &title,
        branding(&s.agent),
        &long_date(s.ctx.today),
        FOOTER,
        Orientation::Landscape,
    );
    household_block(&mut sheet, &s, &h, kinds.contains(&PlanKind::Medical));
    for k in kinds {
        let list = quoted(&s, k, &h)?;
        let narrowed = k == kind && filter != Filter::default();
        let shown: Vec<(&Plan, Rates)> = list
            .into_iter()
            .filter(|(p, r)| !narrowed || filter.accepts(p, r.total))
            .collect();
        sheet.space(6.0);
        sheet.heading(&format!("{} plans ({})", kind_name(k), shown.len()));
        if narrowed {
            sheet.field("Filters", &describe_filter(cat, &filter));
        }
        if shown.is_empty() {
            sheet.paragraph(
                Style::BODY,
                if narrowed {
                    "No plans match these filters."
                } else {
                    "Sorry, there are no plans available in your area."
                },
            );
            continue;
        }
        sheet.table(&plan_table(cat, k, &shown, h.members.len()));
    }
    Ok(pdf_response(sheet.finish(app.clock.now()), COMPARE))
}

fn kind_name(kind: PlanKind) -> &'static str {
    match kind {
        PlanKind::Medical => "Medical",
        PlanKind::Dental => "Dental",
        PlanKind::Vision => "Vision",
    }
}

fn branding(a: &AgentRow) -> Branding {
    Branding {
        agency_name: a.agency_name.clone(),
        agent_name: a.agent_name.clone(),
        phone: a.phone_number.clone(),
        email: a.email.clone(),
        npn: a.npn.to_string(),
        address_lines: a.address_lines.clone(),
    }
}

/// "January 1, 2025".
fn long_date(d: Date) -> String {
    format!("{} {}, {}", d.month(), d.day(), d.year())
}

fn dash() -> String {
    "\u{2014}".to_string()
}

fn money_or_dash(v: Option<Money>) -> String {
    v.map_or_else(dash, Money::whole_or_cents)
}

fn pair(a: Option<Money>, b: Option<Money>) -> String {
    match (a, b) {
        (None, None) => dash(),
        _ => format!("{} / {}", money_or_dash(a), money_or_dash(b)),
    }
}

fn percent(v: Option<f64>) -> String {
    v.map_or_else(dash, |c| {
        let c = (c * 100.0).round() / 100.0;
        format!("{c}%")
    })
}

fn choice_name(list: &[Choice], id: Option<u8>) -> Option<String> {
    let id = id?;
    list.iter().find(|c| c.id == id).map(|c| c.name.clone())
}

fn carrier_name(cat: &Catalog, id: u8) -> String {
    cat.carrier(id)
        .map(|c| c.short_name.clone().unwrap_or_else(|| c.name.clone()))
        .unwrap_or_default()
}

/// Out-of-network deductibles of 0 on a network without out-of-network coverage (HMO, EPO).
fn out_of_network(cat: &Catalog, p: &Plan) -> String {
    let ppo = choice_name(&cat.networks, p.network).is_some_and(|n| n == "PPO");
    if !ppo && p.ded_out_ind == Some(Money::ZERO) && p.ded_out_fam == Some(Money::ZERO) {
        "Not covered".into()
    } else {
        pair(p.ded_out_ind, p.ded_out_fam)
    }
}

fn oop_title(household_size: usize) -> &'static str {
    match household_size {
        0 | 1 => "Out-of-pocket max (individual)",
        2 => "Out-of-pocket max (2 people)",
        _ => "Out-of-pocket max (family)",
    }
}

/// The comparison table of a plan kind (spec 2.8 and 2.10: the compare modal's columns).
fn plan_table(
    cat: &Catalog,
    kind: PlanKind,
    plans: &[(&Plan, Rates)],
    household_size: usize,
) -> Table {
    let premium = |w| Column::right("Monthly premium", w);
    let name = |p: &Plan| pdf::plain_text(&p.name);
    match kind {
        PlanKind::Medical => Table {
            columns: vec![
                Column::left("Plan", 188.0),
                Column::left("Carrier", 78.0),
                Column::left("Network", 44.0),
                Column::left("Metal", 72.0),
                Column::right("In-network deductible (ind / fam)", 72.0),
                Column::right("Out-of-network deductible (ind / fam)", 72.0),
                Column::right(oop_title(household_size), 60.0),
                Column::right("Coinsurance", 58.0),
                premium(76.0),
            ],
            rows: plans
                .iter()
                .map(|(p, r)| {
                    let mut metal = choice_name(&cat.metals, p.metal).unwrap_or_else(dash);
                    if p.hsa {
                        metal.push_str(" (HSA)");
                    }
                    vec![
                        name(p),
                        carrier_name(cat, p.carrier),
                        choice_name(&cat.networks, p.network).unwrap_or_else(dash),
                        metal,
                        pair(p.ded_ind, p.ded_fam),
                        out_of_network(cat, p),
                        money_or_dash(rating::oop_for(p, household_size)),
                        percent(p.coins),
                        r.total.to_string(),
                    ]
                })
                .collect(),
        },
        PlanKind::Dental => Table {
            columns: vec![
                Column::left("Plan", 210.0),
                Column::left("Carrier", 90.0),
                Column::left("Includes vision", 70.0),
                Column::right("Deductible (ind / fam)", 100.0),
                Column::right("Annual maximum", 80.0),
                Column::right("Coinsurance (major services)", 90.0),
                premium(80.0),
            ],
            rows: plans
                .iter()
                .map(|(p, r)| {
                    vec![
                        name(p),
                        carrier_name(cat, p.carrier),
                        if p.includes_vision { "Yes" } else { "No" }.into(),
                        pair(p.ded_ind, p.ded_fam),
                        money_or_dash(p.annual_max),
                        percent(p.coins),
                        r.total.to_string(),
                    ]
                })
                .collect(),
        },
        PlanKind::Vision => Table {
            columns: vec![
                Column::left("Plan", 210.0),
                Column::left("Carrier", 100.0),
                Column::right("Eye exam copay", 80.0),
                Column::right("Frames / contacts allowance", 110.0),
                Column::left("Adult eye exam frequency", 140.0),
                premium(80.0),
            ],
            rows: plans
                .iter()
                .map(|(p, r)| {
                    vec![
                        name(p),
                        carrier_name(cat, p.carrier),
                        money_or_dash(p.eye_exam_copay),
                        money_or_dash(p.frames_contact_allowance),
                        p.eye_exam_frequency.clone().unwrap_or_else(dash),
                        r.total.to_string(),
                    ]
                })
                .collect(),
        },
    }
}

/// The filters in words ("Carrier: Blue Care Network; HSA eligible").
fn describe_filter(cat: &Catalog, f: &Filter) -> String {
    let mut parts = Vec::new();
    let names = |list: &[u8], name: &dyn Fn(u8) -> Option<String>| {
        list.iter()
            .map(|id| name(*id).unwrap_or_else(|| format!("#{id}")))
            .collect::<Vec<_>>()
            .join(" or ")
    };
    if !f.carriers.is_empty() {
        let n = names(&f.carriers, &|id| {
            cat.carrier(id)
                .map(|_| carrier_name(cat, id))
                .filter(|s| !s.is_empty())
        });
        parts.push(format!("carrier {n}"));
    }
    if !f.networks.is_empty() {
        let n = names(&f.networks, &|id| choice_name(&cat.networks, Some(id)));
        parts.push(format!("network {n}"));
    }
    if !f.metals.is_empty() {
        let n = names(&f.metals, &|id| choice_name(&cat.metals, Some(id)));
        parts.push(format!("metal {n}"));
    }
    if f.hsa {
        parts.push("HSA eligible".into());
    }
    if f.dental_only && !f.dental_and_vision {
        parts.push("dental only".into());
    }
    if f.dental_and_vision && !f.dental_only {
        parts.push("dental and vision".into());
    }
    if !f.plans.is_empty() {
        parts.push(format!(
            "{} chosen plan{}",
            f.plans.len(),
            if f.plans.len() == 1 { "" } else { "s" }
        ));
    }
    match (f.min_price, f.max_price) {
        (Some(lo), Some(hi)) => parts.push(format!("premium {} to {} a month", lo, hi)),
        (Some(lo), None) => parts.push(format!("premium from {} a month", lo)),
        (None, Some(hi)) => parts.push(format!("premium up to {} a month", hi)),
        (None, None) => {}
    }
    let text = parts.join("; ");
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

/// The effective date, the household with ages at that date, and the premium rule.
fn household_block(sheet: &mut Sheet, s: &OpenStep, h: &Household, medical: bool) {
    sheet.field("Coverage effective", &long_date(h.effective_date));
    let census = s.data.get("census");
    let text = |k: &str| {
        census
            .and_then(|c| c.get(k))
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .to_string()
    };
    let subscriber = format!("{} {}", text("sub_first_name"), text("sub_last_name"))
        .trim()
        .to_string();
    let mut dependent = 0;
    let people: Vec<String> = h
        .members
        .iter()
        .map(|m| {
            let age = dates::age_at(m.birth_date, h.effective_date);
            let mut who = match m.role {
                Role::Subscriber if !subscriber.is_empty() => format!("{subscriber} (subscriber)"),
                Role::Subscriber => "Subscriber".into(),
                Role::Spouse => "Spouse".into(),
                Role::Dependent => {
                    dependent += 1;
                    format!("Dependent {dependent}")
                }
            };
            who.push_str(&format!(", age {age}"));
            if m.tobacco && age >= 18 {
                who.push_str(", tobacco user");
            }
            who
        })
        .collect();
    sheet.field(
        &format!("Household ({})", h.members.len()),
        &people.join("; "),
    );
    let mut note = "Premiums are charged for the subscriber, spouse, all children 21 and older, \
                    and the three oldest children under 21."
        .to_string();
    if medical {
        note.push_str(" Pediatric vision is included in all medical plans.");
    }
    sheet.paragraph(Style::NOTE, &note);
}

/// The benefit selection sheet (spec 2.11): each selected plan, its premium by member, the total.
fn selection_sheet(s: &OpenStep, h: &Household) -> ApiResult<Sheet> {
    let cat = s.bundle.engine.catalog();
    let mut sheet = Sheet::new(
        "Benefit Selection",
        branding(&s.agent),
        &long_date(s.ctx.today),
        FOOTER,
        Orientation::Portrait,
    );
    household_block(&mut sheet, s, h, false);
    let kinds = [PlanKind::Medical, PlanKind::Dental, PlanKind::Vision];
    let snapshot = |k: PlanKind| PlanSnapshot::stored(&s.data, k);
    if kinds.iter().all(|k| snapshot(*k).is_none()) {
        sheet.space(8.0);
        sheet.heading("Your selections");
        sheet.paragraph(
            Style::BODY,
            "No plans have been selected yet. Choose a medical, dental or vision plan, then print \
             your benefit selection again.",
        );
        return Ok(sheet);
    }
    let mut total = Money::ZERO;
    for k in kinds {
        sheet.space(8.0);
        sheet.heading(&format!("{} plan", kind_name(k)));
        let Some(snap) = snapshot(k) else {
            let included = k == PlanKind::Vision
                && snapshot(PlanKind::Dental).is_some_and(|d| d.includes_vision);
            sheet.paragraph(
                Style::BODY,
                &if included {
                    "Vision coverage is included in the dental plan.".to_string()
                } else {
                    format!("No {} plan selected.", k.key())
                },
            );
            continue;
        };
        let id = snap.id;
        let plan = cat.plan(id);
        let name = pdf::plain_text(plan.map_or(snap.name.as_str(), |p| p.name.as_str()));
        sheet.paragraph(
            Style {
                size: 11.0,
                ..Style::STRONG
            },
            &name,
        );
        if let Some(p) = plan {
            plan_details(&mut sheet, cat, p, h.members.len());
        }
        let rates = quoted(s, k, h)?
            .into_iter()
            .find(|(p, _)| p.id == id)
            .map(|(_, r)| r);
        let premium = match &rates {
            Some(r) => {
                sheet.space(3.0);
                sheet.table(&breakdown(r));
                r.total
            }
            None => {
                sheet.paragraph(
                    Style::NOTE,
                    "This plan is no longer quoted for this household; the premium is the one \
                     shown when it was selected.",
                );
                snap.rate
            }
        };
        sheet.space(3.0);
        sheet.field("Monthly premium", &premium.to_string());
        total += premium;
    }
    sheet.space(10.0);
    sheet.ensure(20.0);
    sheet.paragraph(
        Style {
            size: 12.0,
            ..Style::STRONG
        },
        &format!("Your total cost: {} per month", total),
    );
    Ok(sheet)
}

fn plan_details(sheet: &mut Sheet, cat: &Catalog, p: &Plan, household_size: usize) {
    sheet.field("Carrier", &carrier_name(cat, p.carrier));
    match p.kind {
        PlanKind::Medical => {
            let mut kind: Vec<String> = [
                choice_name(&cat.networks, p.network),
                choice_name(&cat.metals, p.metal),
            ]
            .into_iter()
            .flatten()
            .collect();
            if p.hsa {
                kind.push("HSA eligible".into());
            }
            sheet.field("Network and metal", &kind.join(", "));
            sheet.field(
                "In-network deductible",
                &format!(
                    "{} individual / {} family",
                    money_or_dash(p.ded_ind),
                    money_or_dash(p.ded_fam)
                ),
            );
            sheet.field("Out-of-network deductible", &out_of_network(cat, p));
            sheet.field(
                "Out-of-pocket maximum",
                &money_or_dash(rating::oop_for(p, household_size)),
            );
            sheet.field("Coinsurance", &percent(p.coins));
        }
        PlanKind::Dental => {
            sheet.field(
                "Deductible",
                &format!(
                    "{} individual / {} family",
                    money_or_dash(p.ded_ind),
                    money_or_dash(p.ded_fam)
                ),
            );
            sheet.field("Annual maximum", &money_or_dash(p.annual_max));
            sheet.field("Coinsurance (major services)", &percent(p.coins));
            sheet.field(
                "Includes vision",
                if p.includes_vision { "Yes" } else { "No" },
            );
        }
        PlanKind::Vision => {
            sheet.field("Eye exam copay", &money_or_dash(p.eye_exam_copay));
            sheet.field(
                "Frames / contacts allowance",
                &money_or_dash(p.frames_contact_allowance),
            );
            sheet.field(
                "Adult eye exam frequency",
                p.eye_exam_frequency.as_deref().unwrap_or("\u{2014}"),
            );
        }
    }
}

/// Each member's part of the premium, as the rating breakdown explains it.
fn breakdown(r: &Rates) -> Table {
    let rows = r
        .members
        .iter()
        .map(|m| {
            vec![
                m.member(),
                m.age.to_string(),
                m.why(),
                m.amount().to_string(),
            ]
        })
        .collect();
    Table {
        columns: vec![
            Column::left("Member", 62.0),
            Column::right("Age", 30.0),
            Column::left("How the premium is figured", 372.0),
            Column::right("Monthly amount", 76.0),
        ],
        rows,
    }
}
