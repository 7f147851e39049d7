//! Human-readable byte counts, in binary units as MPI users read them (1 KiB = 1024 B), and
//! times as dates (UTC) and durations.

/// Formats bytes with the largest binary unit that keeps the number ≥ 1: `512 B`, `1.5 KiB`,
/// `3.25 GiB`. Three significant digits, trailing zeros trimmed.
pub fn format_bytes(bytes: u64) -> String {
    if crate::model::bytes::is_saturated(bytes) {
        // A sum that overflowed (issue 16): say so wherever it is printed.
        return "16 EiB (overflow)".to_string();
    }
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

/// Unix epoch microseconds as a UTC date and time with milliseconds:
/// `2023-11-14 22:13:20.000 UTC`.
pub fn format_epoch_micros(micros: i64) -> String {
    format!("{} {} UTC", format_date(micros), format_time_of_day(micros))
}

/// The UTC date of Unix epoch microseconds: `2023-11-14`.
pub fn format_date(micros: i64) -> String {
    let (y, m, d) = civil_from_days(micros.div_euclid(86_400_000_000));
    format!("{y:04}-{m:02}-{d:02}")
}

/// The time of day (UTC) of Unix epoch microseconds, to the millisecond: `22:13:20.040`.
pub fn format_time_of_day(micros: i64) -> String {
    let day_micros = micros.rem_euclid(86_400_000_000);
    let (secs, millis) = (day_micros / 1_000_000, day_micros % 1_000_000 / 1000);
    format!("{:02}:{:02}:{:02}.{millis:03}", secs / 3600, secs % 3600 / 60, secs % 60)
}

/// A duration in seconds, to the millisecond: `39.001 s`; `+` for a positive one when `signed`.
pub fn format_seconds(micros: i64, signed: bool) -> String {
    let sign = if signed && micros > 0 { "+" } else { "" };
    format!("{sign}{:.3} s", micros as f64 / 1e6)
}

/// (year, month, day) of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_micros_read_as_utc_dates() {
        assert_eq!(format_epoch_micros(0), "1970-01-01 00:00:00.000 UTC");
        assert_eq!(format_epoch_micros(1_700_000_002_000_616), "2023-11-14 22:13:22.000 UTC");
        assert_eq!(format_epoch_micros(951_782_400_000_000), "2000-02-29 00:00:00.000 UTC", "a leap day");
        assert_eq!(format_epoch_micros(-1), "1969-12-31 23:59:59.999 UTC");
        assert_eq!(format_time_of_day(1_700_000_000_040_999), "22:13:20.040");
        assert_eq!(format_time_of_day(-1), "23:59:59.999");
        assert_eq!(format_seconds(39_000_616, true), "+39.001 s");
        assert_eq!(format_seconds(0, true), "0.000 s");
    }

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
