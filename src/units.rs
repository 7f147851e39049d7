//! Human-readable byte counts, in binary units as MPI users read them (1 KiB = 1024 B).

/// Formats bytes with the largest binary unit that keeps the number ≥ 1: `512 B`, `1.5 KiB`,
/// `3.25 GiB`. Three significant digits, trailing zeros trimmed.
pub fn format_bytes(bytes: u64) -> String {
    format_bytes_f64(bytes as f64)
}

/// As [`format_bytes`], for values that may be fractional or negative (diffs, means).
pub fn format_bytes_f64(bytes: f64) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let sign = if bytes < 0.0 { "-" } else { "" };
    let mut value = bytes.abs();
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        return format!("{sign}{} B", value.round());
    }
    let decimals = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    let text = format!("{value:.decimals$}");
    let text =
        if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text };
    format!("{sign}{text} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_pick_the_largest_binary_unit() {
        assert_eq!(format_bytes(0), "0 B");
        assert_eq!(format_bytes(1023), "1023 B");
        assert_eq!(format_bytes(1024), "1 KiB");
        assert_eq!(format_bytes(1536), "1.5 KiB");
        assert_eq!(format_bytes(3 * 1024 * 1024 * 1024 + 256 * 1024 * 1024), "3.25 GiB");
        assert_eq!(format_bytes(150 * 1024 * 1024), "150 MiB");
        assert_eq!(format_bytes_f64(-2048.0), "-2 KiB");
    }
}
