//! The lists' Excel exports (rust_xlsxwriter): real dates, times in Michigan time
//! (America/Detroit, jiff's bundled zone data), the last step by its title, user text only as
//! strings. Rows stream from PostgreSQL in batches through a bounded channel into the
//! constant-memory writer on the blocking pool; the workbook is saved to an unnamed temporary
//! file, so the server holds neither the rows nor the file whatever the export's size.

use std::fs::File;
use std::io::{Seek, SeekFrom, Write};

use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, Worksheet, XlsxError};
use time::{Date, OffsetDateTime};

use super::lists::mask_handed_off;
use super::{Filter, List, ListRow, SortCol};
use crate::db::{PgPool, dashboard};

/// Why there is no workbook.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(ExportError);

/// The workbook's file name.
pub fn file_name(list: List) -> &'static str {
    match list {
        List::Quotes => "Exported_Quotes.xlsx",
        List::Enrollees => "Exported_Enrollees.xlsx",
    }
}

/// Writes every row of `list` under `filter`, sorted by `sort`, to a temporary file, and
/// answers it read from its start. `steps`: each step's number and title (the Last Step column).
pub async fn workbook_file(
    pool: &PgPool,
    list: List,
    filter: &Filter,
    (sort, asc): (SortCol, bool),
    steps: Vec<(i16, String)>,
) -> Result<File, ExportError> {
    // In batches: a hand-over per row cost more than the row.
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Vec<ListRow>>(8);
    let writer = tokio::task::spawn_blocking(move || -> Result<File, XlsxError> {
        let mut file = tempfile::tempfile()?;
        let rows = std::iter::from_fn(|| rx.blocking_recv()).flatten();
        workbook(list, &steps, rows, &mut file)?;
        file.seek(SeekFrom::Start(0))?;
        Ok(file)
    });
    let read = dashboard::each_batch(pool, list, filter, sort, asc, |mut rows| {
        let tx = tx.clone();
        async move {
            // A batch whose hand-off masking cannot be read is not written: the export fails.
            if let Err(e) = mask_handed_off(pool, &mut rows).await {
                tracing::warn!(error = %e, "an export's hand-off masking could not be read");
                return false;
            }
            tx.send(rows).await.is_ok()
        }
    })
    .await;
    drop(tx);
    let written = writer.await.map_err(anyhow::Error::from)?;
    read?;
    Ok(written.map_err(anyhow::Error::from)?)
}

/// The export's columns, in order.
pub fn headers(list: List) -> &'static [&'static str] {
    match list {
        List::Quotes => &[
            "Name",
            "Email",
            "Started By",
            "Created Date (Michigan time)",
            "Effective Date",
            "Last Step",
            "Medical Plan",
            "Dental Plan",
            "Vision Plan",
        ],
        List::Enrollees => &[
            "Subscriber Name",
            "Email",
            "Submit Date (Michigan time)",
            "Effective Date",
            "OEP/SEP",
            "Contract Count",
            "Medical Plan",
            "Dental Plan",
            "Vision Plan",
        ],
    }
}

fn excel_date(d: Date) -> Result<ExcelDateTime, XlsxError> {
    let year = u16::try_from(d.year()).map_err(|_| XlsxError::DateTimeRangeError(d.to_string()))?;
    ExcelDateTime::from_ymd(year, u8::from(d.month()), d.day())
}

/// An instant as the agent's wall-clock time in Michigan (daylight saving included).
fn excel_time(t: OffsetDateTime) -> Result<ExcelDateTime, XlsxError> {
    let bad = || XlsxError::DateTimeRangeError(t.to_string());
    let local = crate::rules::impact::michigan_datetime(t).ok_or_else(bad)?;
    let year = u16::try_from(local.year()).map_err(|_| bad())?;
    let month = u8::try_from(local.month()).map_err(|_| bad())?;
    let day = u8::try_from(local.day()).map_err(|_| bad())?;
    ExcelDateTime::from_ymd(year, month, day)?.and_hms(
        u16::try_from(local.hour()).map_err(|_| bad())?,
        u8::try_from(local.minute()).map_err(|_| bad())?,
        f64::from(local.second()),
    )
}

/// User text: always a string cell, so `=…`, `+…`, `-…` and `@…` stay text (never a formula).
fn text(ws: &mut Worksheet, row: u32, col: u16, s: &str) -> Result<(), XlsxError> {
    ws.write_string(row, col, s)?;
    Ok(())
}

/// The workbook of `rows`, written to `out`.
/// `steps`: each step's number and title (the Last Step column).
fn workbook(
    list: List,
    steps: &[(i16, String)],
    rows: impl Iterator<Item = ListRow>,
    out: impl Write + Send,
) -> Result<(), XlsxError> {
    let mut wb = Workbook::new();
    // Excel's own level: most of a large export's time is the worksheet's compression, and level 3
    // takes about two thirds of the default's for a file a few percent larger.
    wb.set_zip_compression_level(3);
    let ws = wb.add_worksheet_with_constant_memory()?;
    ws.set_name(match list {
        List::Quotes => "Quotes",
        List::Enrollees => "Enrollees",
    })?;
    let bold = Format::new().set_bold();
    let date = Format::new().set_num_format("mm/dd/yyyy");
    let stamp = Format::new().set_num_format("mm/dd/yyyy hh:mm");
    // Column widths first: a constant memory worksheet writes its rows as it goes.
    let last = u16::try_from(headers(list).len()).unwrap_or(u16::MAX);
    for c in 0..last {
        ws.set_column_width(c, 20)?;
    }
    for (c, h) in (0..last).zip(headers(list)) {
        ws.write_string_with_format(0, c, *h, &bold)?;
    }
    let mut n: u32 = 0;
    for r in rows {
        n = n.checked_add(1).ok_or(XlsxError::RowColumnLimitError)?;
        text(ws, n, 0, &r.primary_name())?;
        text(ws, n, 1, &r.email)?;
        let plans = [
            &r.medical_plan_name,
            &r.dental_plan_name,
            &r.vision_plan_name,
        ];
        match list {
            List::Quotes => {
                text(ws, n, 2, r.started_by.as_deref().unwrap_or(""))?;
                ws.write_datetime_with_format(n, 3, excel_time(r.created_at)?, &stamp)?;
                if let Some(d) = r.effective_date {
                    ws.write_datetime_with_format(n, 4, excel_date(d)?, &date)?;
                }
                match steps.iter().find(|(number, _)| *number == r.last_step) {
                    Some((_, title)) => text(ws, n, 5, title)?,
                    None => ws.write_number(n, 5, f64::from(r.last_step)).map(|_| ())?,
                }
            }
            List::Enrollees => {
                if let Some(t) = r.submission_time {
                    ws.write_datetime_with_format(n, 2, excel_time(t)?, &stamp)?;
                }
                if let Some(d) = r.effective_date {
                    ws.write_datetime_with_format(n, 3, excel_date(d)?, &date)?;
                }
                text(ws, n, 4, r.period_badge())?;
                ws.write_number(n, 5, f64::from(r.contract_count()))?;
            }
        }
        for (c, p) in [6u16, 7, 8].into_iter().zip(plans) {
            if let Some(p) = p {
                text(ws, n, c, p)?;
            }
        }
    }
    wb.save_to_writer(out)
}
