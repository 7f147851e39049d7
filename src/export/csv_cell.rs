//! Text cells of the tables shoal writes (`nodes.csv`, `links.csv`, `placement.csv`, a loads
//! file). Node descriptions are set by whoever runs the node and job names by whoever submits
//! the job, so a cell is made harmless for a spreadsheet (issue 24): control characters are
//! written as visible escapes, as everywhere text is shown back ([`crate::model::echo`]), and a
//! cell that a spreadsheet would take for a formula (it starts with `=`, `+`, `-`, `@`, TAB or
//! CR) gets a leading `'`, OWASP's rule for CSV injection. Numbers are not text cells and are
//! written as they are.

use std::borrow::Cow;

use serde::Serializer;

/// What a spreadsheet takes for the start of a formula.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// `text` as a safe cell: control characters escaped, a formula start disarmed with `'`.
pub fn safe_cell(text: &str) -> Cow<'_, str> {
    let armed = text.starts_with(FORMULA_STARTS);
    // A cap of its byte length never cuts: a cell is escaped whole.
    let escaped = crate::model::echo::shown(text, text.len());
    if armed || escaped.starts_with(FORMULA_STARTS) {
        return Cow::Owned(format!("'{escaped}"));
    }
    escaped
}

/// `#[serde(serialize_with = "…")]` for a text cell of a written table.
pub fn serialize<S: Serializer>(text: &str, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&safe_cell(text))
}

/// A field of a `#` comment line of a loads file, quoted as the `csv` crate quotes (and reads
/// back) when it holds a comma, a quote or starts or ends with a space; made safe first.
pub fn comment_field(text: &str) -> String {
    let cell = safe_cell(text);
    if cell.contains([',', '"']) || cell.starts_with(' ') || cell.ends_with(' ') {
        format!("\"{}\"", cell.replace('"', "\"\""))
    } else {
        cell.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_a_spreadsheet_would_evaluate_gets_a_leading_quote() {
        for evil in ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"] {
            let cell = safe_cell(evil);
            assert!(cell.starts_with('\''), "{evil:?} → {cell:?}");
        }
        assert_eq!(safe_cell("\t=1"), "'\\t=1", "the TAB is escaped and the cell still disarmed");
    }

    #[test]
    fn control_bytes_are_escaped_and_plain_names_kept_as_they_are() {
        assert_eq!(safe_cell("sw\u{1b}[2J\u{7}\u{0}"), "sw\\x1b[2J\\x07\\x00");
        assert!(matches!(safe_cell("n0001 HCA-1"), Cow::Borrowed("n0001 HCA-1")));
        assert_eq!(safe_cell(""), "");
    }

    #[test]
    fn comment_fields_are_quoted_only_when_they_must_be() {
        assert_eq!(comment_field("h1"), "h1");
        assert_eq!(comment_field("a,b"), "\"a,b\"");
        assert_eq!(comment_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(comment_field("=cmd"), "'=cmd");
    }
}
