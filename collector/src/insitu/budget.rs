//! What `IBPROF_TOPK` costs, and the K the collector can honour (issue 24).
//!
//! At `MPI_Finalize` every rank holds `link ends × K` summary slots of one region (and rank 0 two
//! more such arrays: the merged region and the running total), so K is memory per rank, times the
//! fabric: `IBPROF_TOPK=1000000` made every rank allocate terabytes and the MPI job abort, and
//! even K = 1000 on two k = 36 rails was 2.2 GB per rank. So K is capped at what fits
//! [`BUDGET_BYTES`] per rank (and at [`MAX_K`]), the cost is said once by rank 0, and a K of
//! which not even 1 fits is dropped, named: the loads file is written without a summary.

use shoal::routing::topk::Contributor;

/// Slot arrays of `link ends × K` one rank may hold at once (rank 0: its own, the merged region
/// and the total).
const ARRAYS: usize = 3;

/// Memory the top-K summary may take per rank.
pub const BUDGET_BYTES: usize = 128 << 20;

/// No summary is useful beyond this many pairs per link end.
pub const MAX_K: usize = 4096;

/// The K to use for `wanted` on a fabric of `ends` link ends, and what rank 0 says about it
/// (`None`: K is used as asked, silently).
pub fn top_k_within(wanted: usize, ends: usize) -> (usize, Option<String>) {
    if wanted == 0 {
        return (0, None);
    }
    let per_k = ends.max(1).saturating_mul(ARRAYS * std::mem::size_of::<Contributor>());
    let fits = (BUDGET_BYTES / per_k).min(MAX_K);
    let cost = |k: usize| mib(per_k.saturating_mul(k));
    if wanted <= fits {
        return (wanted, None);
    }
    if fits == 0 {
        let why = format!(
            "IBPROF_TOPK={wanted} dropped: even K = 1 takes {} per rank on these {ends} link ends \
             (budget {}); the loads file has no top-K summary",
            cost(1),
            mib(BUDGET_BYTES)
        );
        return (0, Some(why));
    }
    let why = format!(
        "IBPROF_TOPK={wanted} capped at {fits}: {ends} link ends × K slots would take {} per rank; \
         K = {fits} takes {} (budget {}, at most {MAX_K})",
        cost(wanted),
        cost(fits),
        mib(BUDGET_BYTES)
    );
    (fits, Some(why))
}

fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_k_on_a_small_fabric_is_used_as_asked_without_a_word() {
        assert_eq!(top_k_within(8, 1_000), (8, None));
        assert_eq!(top_k_within(0, 1_000), (0, None));
    }

    #[test]
    fn a_huge_k_is_capped_at_the_budget_and_the_cost_is_named() {
        // Two k = 36 rails: 2 × 69,984 link ends.
        let (k, why) = top_k_within(1_000_000, 139_968);
        let why = why.unwrap();
        assert!(k > 0 && 139_968 * k * ARRAYS * std::mem::size_of::<Contributor>() <= BUDGET_BYTES, "{k}");
        assert!(why.starts_with(&format!("IBPROF_TOPK=1000000 capped at {k}:")), "{why}");
        assert_eq!(top_k_within(u32::MAX as usize, 10).0, MAX_K);
    }

    #[test]
    fn a_k_of_which_not_one_fits_is_dropped_and_named() {
        let (k, why) = top_k_within(5, usize::MAX / 2);
        assert_eq!(k, 0);
        assert!(why.unwrap().contains("IBPROF_TOPK=5 dropped"));
    }
}
