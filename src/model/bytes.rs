//! Byte sums that never wrap (issue 16).
//!
//! Counters near 2^64 (a corrupt or adversarial profile, a 64-bit counter read as signed) must not
//! wrap to a small number: two counts of 2^64 − 300 on one link end once printed as 299 B.
//! Every place that adds bytes goes through [`add_bytes`], which stops at [`SATURATED`]; a total
//! equal to [`SATURATED`] is therefore a sum that overflowed, and the routing reports it as a
//! warning ([`is_saturated`]) instead of clamping it silently.

/// The value a byte sum stops at: 2^64 − 1.
pub const SATURATED: u64 = u64::MAX;

/// Adds `bytes` to `total`, stopping at [`SATURATED`]. Returns true if the sum overflowed.
#[inline]
pub fn add_bytes(total: &mut u64, bytes: u64) -> bool {
    match total.checked_add(bytes) {
        Some(sum) => {
            *total = sum;
            false
        }
        None => {
            *total = SATURATED;
            true
        }
    }
}

/// True if `bytes` is a sum that hit the ceiling (or a counter that was already there).
#[inline]
pub fn is_saturated(bytes: u64) -> bool {
    bytes == SATURATED
}

/// The sum of `values`, saturating.
pub fn sum_bytes(values: impl IntoIterator<Item = u64>) -> u64 {
    values.into_iter().fold(0, u64::saturating_add)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_counts_near_the_top_stop_at_the_ceiling_instead_of_wrapping() {
        let mut total = u64::MAX - 300;
        assert!(add_bytes(&mut total, u64::MAX - 300));
        assert_eq!(total, SATURATED);
        assert!(is_saturated(total));
        assert_eq!(sum_bytes([u64::MAX - 1, 2, 3]), SATURATED);
    }

    #[test]
    fn ordinary_sums_are_exact() {
        let mut total = 5;
        assert!(!add_bytes(&mut total, 7));
        assert_eq!(total, 12);
        assert!(!is_saturated(total));
    }
}
