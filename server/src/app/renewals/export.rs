//! The renewal worklist as an Excel workbook (rust_xlsxwriter): a row per customer in the
//! worklist's order, premiums as numbers with a currency format, the change as a percentage.

use rust_xlsxwriter::{Format, Workbook, XlsxError};

use super::worklist::RenewalPage;

/// The workbook's file name.
pub const FILE_NAME: &str = "Renewals.xlsx";

/// The columns, in order.
pub const HEADERS: [&str; 9] = [
    "Last Name",
    "First Name",
    "Status",
    "Plans This Year",
    "Plans Next Year",
    "Premium This Year",
    "Premium Next Year",
    "Change",
    "Follow-up",
];

/// How a status reads in the workbook (as on the page); `notable` the rules' percentage of a
/// notable premium change.
fn status_label(key: &str, notable: u32) -> String {
    match key {
        "carrier_change" => "Carrier change".into(),
        "no_successor" => "No successor plan".into(),
        "plan_change" => "Plan change".into(),
        "member_aging_off" => "Member ageing off".into(),
        "premium_change" => format!("Premium change of {notable}% or more"),
        "same_plan" => "Same plan".into(),
        other => other.into(),
    }
}

fn follow_label(key: &str) -> &str {
    match key {
        "to_do" => "To do",
        "sent" => "Sent",
        "opened" => "Opened",
        "reenrolled" => "Re-enrolled",
        other => other,
    }
}

/// The workbook's bytes: the worklist's rows in order.
pub fn workbook(list: &RenewalPage) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let ws = book.add_worksheet();
    ws.set_name(format!("Renewals {}", list.plan_year))?;
    let bold = Format::new().set_bold();
    let money = Format::new().set_num_format("$#,##0.00");
    let percent = Format::new().set_num_format("0.0%");
    for (c, h) in (0u16..).zip(HEADERS) {
        ws.write_string_with_format(0, c, h, &bold)?;
    }
    for (r, row) in (1u32..).zip(&list.rows) {
        let names = |next: bool| {
            row.plans
                .iter()
                .map(|p| {
                    if next {
                        p.renewal.clone().unwrap_or_else(|| "(no successor)".into())
                    } else {
                        p.current.clone()
                    }
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        ws.write_string(r, 0, row.last_name.as_deref().unwrap_or_default())?;
        ws.write_string(r, 1, row.first_name.as_deref().unwrap_or_default())?;
        ws.write_string(r, 2, status_label(&row.status, list.notable_change_percent))?;
        ws.write_string(r, 3, names(false))?;
        ws.write_string(r, 4, names(true))?;
        ws.write_number_with_format(r, 5, row.current_premium, &money)?;
        ws.write_number_with_format(r, 6, row.next_premium, &money)?;
        ws.write_number_with_format(r, 7, row.change_percent / 100.0, &percent)?;
        ws.write_string(r, 8, follow_label(&row.follow))?;
    }
    ws.autofit();
    book.save_to_buffer()
}
