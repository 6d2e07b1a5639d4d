//! Rows printed as a table, JSON (an array of objects keyed by the column names) or CSV (a
//! header row, RFC 4180 quoting), as `--format` says, for the commands that list things.

use std::io::Write;

/// How a listing is printed (`--format`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// A text table.
    Table,
    /// JSON.
    Json,
    /// CSV with a header line.
    Csv,
}

/// Rows of strings under named columns.
pub(crate) struct Table {
    columns: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// An empty table with these columns.
    pub(crate) fn new(columns: &[&str]) -> Table {
        Table { columns: columns.iter().map(|&c| c.to_owned()).collect(), rows: Vec::new() }
    }

    /// A table with these columns and one row per item, as `row` writes it.
    pub(crate) fn of<T>(columns: &[&str], items: &[T], row: impl Fn(&T) -> Vec<String>) -> Table {
        let mut table = Table::new(columns);
        items.iter().for_each(|item| table.row(row(item)));
        table
    }

    /// Adds a row: one value per column.
    pub(crate) fn row(&mut self, row: Vec<String>) {
        debug_assert_eq!(row.len(), self.columns.len());
        self.rows.push(row);
    }

    /// Prints the table in `format`. Whatever the cells hold (a store's names and versions
    /// come from bots), a table or CSV never writes a control character: each is escaped as
    /// Rust escapes it (`\n`, `\u{1b}`), so nothing reaches an operator's terminal raw and a
    /// row stays one line.
    pub(crate) fn write(&self, format: Format, out: &mut dyn Write) -> anyhow::Result<()> {
        match format {
            Format::Table => {
                let escaped: Vec<Vec<std::borrow::Cow<'_, str>>> = std::iter::once(&self.columns)
                    .chain(&self.rows)
                    .map(|row| row.iter().map(|cell| escape(cell)).collect())
                    .collect();
                let mut widths = vec![0; self.columns.len()];
                for row in &escaped {
                    for (width, value) in widths.iter_mut().zip(row) {
                        *width = (*width).max(value.chars().count());
                    }
                }
                for row in &escaped {
                    let mut line = String::new();
                    for (value, width) in row.iter().zip(&widths) {
                        // Padded by hand: `format!`'s width stops at 65,535.
                        line.push_str(value);
                        line.extend(std::iter::repeat_n(' ', width - value.chars().count() + 2));
                    }
                    writeln!(out, "{}", line.trim_end())?;
                }
            }
            Format::Json => {
                let rows: Vec<serde_json::Map<String, serde_json::Value>> = self
                    .rows
                    .iter()
                    .map(|row| {
                        self.columns
                            .iter()
                            .zip(row)
                            .map(|(c, v)| (c.clone(), serde_json::Value::String(v.clone())))
                            .collect()
                    })
                    .collect();
                serde_json::to_writer_pretty(&mut *out, &rows)?;
                writeln!(out)?;
            }
            Format::Csv => {
                let mut writer = csv::Writer::from_writer(&mut *out);
                writer.write_record(&self.columns).map_err(std::io::Error::from)?;
                for row in &self.rows {
                    let row: Vec<std::borrow::Cow<'_, str>> =
                        row.iter().map(|cell| escape(cell)).collect();
                    writer
                        .write_record(row.iter().map(|cell| cell.as_bytes()))
                        .map_err(std::io::Error::from)?;
                }
                writer.flush()?;
            }
        }
        Ok(())
    }
}

pub(crate) use cardroom_web::utc_time;

/// `cell` with every control character escaped as Rust's `{:?}` writes it (`\n`, `\u{1b}`);
/// borrowed when it holds none.
fn escape(cell: &str) -> std::borrow::Cow<'_, str> {
    if !cell.contains(char::is_control) {
        return std::borrow::Cow::Borrowed(cell);
    }
    let mut escaped = String::with_capacity(cell.len() + 8);
    for c in cell.chars() {
        if c.is_control() {
            escaped.extend(c.escape_debug());
        } else {
            escaped.push(c);
        }
    }
    std::borrow::Cow::Owned(escaped)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn printed(table: &Table, format: Format) -> String {
        let mut out = Vec::new();
        table.write(format, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn rows_print_as_a_table_json_and_csv() {
        let mut table = Table::new(&["name", "note"]);
        table.row(vec!["alice".into(), "a, \"b\"".into()]);
        table.row(vec!["bo".into(), String::new()]);
        assert_eq!(printed(&table, Format::Table), "name   note\nalice  a, \"b\"\nbo\n");
        assert_eq!(printed(&table, Format::Csv), "name,note\nalice,\"a, \"\"b\"\"\"\nbo,\n");
        let json: serde_json::Value = serde_json::from_str(&printed(&table, Format::Json)).unwrap();
        assert_eq!(
            json,
            serde_json::json!([{"name": "alice", "note": "a, \"b\""}, {"name": "bo", "note": ""}])
        );
    }

    #[test]
    fn times_are_utc_dates() {
        assert_eq!(utc_time(0), "1970-01-01 00:00:00Z");
        assert_eq!(utc_time(951_782_400_000), "2000-02-29 00:00:00Z");
        assert_eq!(utc_time(1_796_128_200_999), "2026-12-01 12:30:00Z");
        assert_eq!(utc_time(-1_000), "1969-12-31 23:59:59Z");
    }
}
