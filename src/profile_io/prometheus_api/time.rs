//! Times and durations as `--from`, `--to` and `--step` take them, and as Prometheus's HTTP API
//! takes them: RFC 3339 (`2026-11-24T10:00:00Z`, `…+01:00`, fractions of a second allowed) or
//! Unix seconds (`1795000000`, `1795000000.5`); durations as Prometheus writes them (`60s`,
//! `5m`, `1h30m`, `1d`, `250ms`) or plain seconds (`60`).

/// Unix seconds of an RFC 3339 time or of a Unix seconds number.
pub fn parse_time(text: &str) -> Result<f64, String> {
    let text = text.trim();
    if let Ok(seconds) = text.parse::<f64>() {
        return if seconds.is_finite() {
            Ok(seconds)
        } else {
            Err(format!("`{text}` is not a time: expected RFC 3339 or Unix seconds"))
        };
    }
    rfc3339(text).ok_or_else(|| {
        format!("`{text}` is not a time: expected RFC 3339 (2026-11-24T10:00:00Z) or Unix seconds")
    })
}

/// `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`; a space may stand for the `T`.
fn rfc3339(text: &str) -> Option<f64> {
    let (date, rest) = (text.get(..10)?, text.get(10..)?);
    let rest = rest.strip_prefix(['T', 't', ' '])?;
    let (year, month, day) = ymd(date)?;
    let clock = rest.get(..8)?;
    let (hour, minute, second) = hms(clock)?;
    let mut rest = &rest[8..];
    let mut fraction = 0.0;
    if let Some(after) = rest.strip_prefix('.') {
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        fraction = format!("0.{}", after.get(..digits)?).parse().ok()?;
        rest = &after[digits..];
    }
    let offset = zone(rest)?;
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + i64::from(hour * 3600 + minute * 60 + second) - offset;
    Some(seconds as f64 + fraction)
}

/// `YYYY-MM-DD`, checked against the month's length.
pub(crate) fn ymd(date: &str) -> Option<(i64, u32, u32)> {
    let mut parts = date.split('-');
    let year: i64 = number(parts.next()?, 4)?.into();
    let month = number(parts.next()?, 2)?;
    let day = number(parts.next()?, 2)?;
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let length = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (parts.next().is_none() && (1..=length).contains(&day)).then_some((year, month, day))
}

/// `HH:MM:SS` (a leap second's 60 is taken).
pub(crate) fn hms(clock: &str) -> Option<(u32, u32, u32)> {
    let mut parts = clock.split(':');
    let (h, m, s) = (number(parts.next()?, 2)?, number(parts.next()?, 2)?, number(parts.next()?, 2)?);
    (parts.next().is_none() && h < 24 && m < 60 && s <= 60).then_some((h, m, s))
}

/// `Z` or `±HH:MM` as seconds east of UTC.
fn zone(text: &str) -> Option<i64> {
    if text == "Z" || text == "z" {
        return Some(0);
    }
    let sign = match text.get(..1)? {
        "+" => 1,
        "-" => -1,
        _ => return None,
    };
    let (h, m) = text.get(1..)?.split_once(':')?;
    let (h, m) = (number(h, 2)?, number(m, 2)?);
    (h < 24 && m < 60).then(|| sign * i64::from(h * 3600 + m * 60))
}

/// Exactly `width` ASCII digits.
fn number(text: &str, width: usize) -> Option<u32> {
    (text.len() == width && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse().ok())?
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's `days_from_civil`).
pub(crate) fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Seconds of a duration: Prometheus's units (`ms`, `s`, `m`, `h`, `d`, `w`, `y`), combined
/// largest first (`1h30m`), or plain seconds; always positive.
pub fn parse_duration(text: &str) -> Result<f64, String> {
    let text = text.trim();
    let bad = || format!("`{text}` is not a duration: expected e.g. 60s, 5m, 1h30m or plain seconds");
    if let Ok(seconds) = text.parse::<f64>() {
        return (seconds.is_finite() && seconds > 0.0).then_some(seconds).ok_or_else(bad);
    }
    let mut total = 0.0;
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let value: f64 = rest.get(..digits).and_then(|d| d.parse().ok()).ok_or_else(bad)?;
        rest = &rest[digits..];
        let unit = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        let scale = match &rest[..unit] {
            "ms" => 0.001,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            "d" => 86_400.0,
            "w" => 604_800.0,
            "y" => 31_536_000.0,
            _ => return Err(bad()),
        };
        total += value * scale;
        rest = &rest[unit..];
    }
    (total > 0.0).then_some(total).ok_or_else(bad)
}

/// Unix seconds as RFC 3339 UTC, to the second (`2026-11-24T10:00:00Z`), as the API's
/// parameters and shoal's messages write a time.
pub fn rfc3339_of(seconds: f64) -> String {
    let text = crate::units::format_epoch_micros((seconds * 1e6).round() as i64);
    // `2026-11-24 10:00:00.000 UTC` → `2026-11-24T10:00:00Z`
    format!("{}T{}Z", &text[..10], &text[11..19])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_and_unix_seconds_name_the_same_instant() {
        assert_eq!(parse_time("2023-11-14T22:13:20Z").unwrap(), 1_700_000_000.0);
        assert_eq!(parse_time("2023-11-14T23:13:20+01:00").unwrap(), 1_700_000_000.0);
        assert_eq!(parse_time("2023-11-14 22:13:20.5Z").unwrap(), 1_700_000_000.5);
        assert_eq!(parse_time("1700000000").unwrap(), 1_700_000_000.0);
        assert_eq!(parse_time("2000-02-29T00:00:00Z").unwrap(), 951_782_400.0, "a leap day");
        assert_eq!(rfc3339_of(1_700_000_000.0), "2023-11-14T22:13:20Z");
    }

    #[test]
    fn a_time_without_zone_or_with_an_impossible_date_is_refused() {
        for bad in ["2023-11-14T22:13:20", "2023-02-29T00:00:00Z", "2023-11-14T25:00:00Z", "yesterday", "NaN"]
        {
            let error = parse_time(bad).unwrap_err();
            assert!(error.contains(bad), "{error}");
        }
    }

    #[test]
    fn durations_read_in_prometheus_units_or_seconds() {
        assert_eq!(parse_duration("60s").unwrap(), 60.0);
        assert_eq!(parse_duration("1h30m").unwrap(), 5400.0);
        assert_eq!(parse_duration("250ms").unwrap(), 0.25);
        assert_eq!(parse_duration("15").unwrap(), 15.0);
        for bad in ["0", "-5", "5x", "m", ""] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
