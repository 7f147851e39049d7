//! The numbers a view colours by: bytes per link end for a region selection, and per node.
//!
//! Loads are linear in the traffic, so a cumulative view is the sum of the region deltas up to a
//! region, and a diff is one selection minus another, value by value.

use crate::model::{Cluster, LinkEnd};
use crate::routing::{LinkBytes, Loads, RegionKey};

/// Which traffic a view shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RegionSelection {
    /// Everything up to the last dump.
    #[default]
    Total,
    /// Region N's own traffic (its delta).
    Region(u32),
    /// Regions up to and including N, summed.
    Cumulative(u32),
    /// Regions A to B (both included), summed: a window brushed on the time strip.
    Window(u32, u32),
    /// A − B, value by value (signed).
    Diff(RegionKey, RegionKey),
}

impl RegionSelection {
    /// The selection showing one region key's traffic.
    pub fn from_key(key: RegionKey) -> Self {
        match key {
            RegionKey::Total => RegionSelection::Total,
            RegionKey::Region(n) => RegionSelection::Region(n),
        }
    }

    /// The regions a summed selection spans (`Cumulative(n)`: from 0), both included.
    pub fn window(self) -> Option<(u32, u32)> {
        match self {
            RegionSelection::Cumulative(n) => Some((0, n)),
            RegionSelection::Window(a, b) => Some((a.min(b), a.max(b))),
            _ => None,
        }
    }

    pub fn is_diff(self) -> bool {
        matches!(self, RegionSelection::Diff(..))
    }

    /// A short label for titles and legends: `total`, `region 3`, `regions ≤ 3`, `region 2 − region 1`.
    pub fn label(self) -> String {
        let key = |k: RegionKey| match k {
            RegionKey::Total => "total".to_string(),
            RegionKey::Region(n) => format!("region {n}"),
        };
        match self {
            RegionSelection::Total => "total".into(),
            RegionSelection::Region(n) => format!("region {n}"),
            RegionSelection::Cumulative(n) => format!("regions ≤ {n}"),
            RegionSelection::Window(a, b) => format!("regions {a}–{b}"),
            RegionSelection::Diff(a, b) => format!("{} − {}", key(a), key(b)),
        }
    }
}

/// Bytes per link end, per rail (`rails[r][LinkEnd::index]`); signed for a diff.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkValues {
    pub rails: Vec<Vec<f64>>,
    pub signed: bool,
}

impl LinkValues {
    /// All zero, shaped like the cluster (a fabric with no profile).
    pub fn zeros(cluster: &Cluster) -> Self {
        LinkValues {
            rails: cluster.rails.iter().map(|f| vec![0.0; f.link_end_count()]).collect(),
            signed: false,
        }
    }

    /// The values a selection names; `None` if it names a region the loads do not have.
    pub fn select(loads: &Loads, selection: RegionSelection) -> Option<LinkValues> {
        let of_key = |key: RegionKey| -> Option<Vec<Vec<f64>>> {
            let region = loads.get(key)?;
            Some(
                region
                    .rails
                    .iter()
                    .map(|r| r.bytes.to_dense().into_iter().map(|b| b as f64).collect())
                    .collect(),
            )
        };
        let rails = match selection {
            RegionSelection::Total => of_key(RegionKey::Total)?,
            RegionSelection::Region(n) => of_key(RegionKey::Region(n))?,
            RegionSelection::Cumulative(_) | RegionSelection::Window(..) => {
                let (first, n) = selection.window()?;
                let has = |m: u32| loads.regions.iter().any(|r| r.region == Some(m));
                if !has(n) || (first > 0 && !has(first)) {
                    return None;
                }
                let mut sum: Vec<Vec<f64>> =
                    loads.total.rails.iter().map(|r| vec![0.0; r.bytes.len()]).collect();
                for region in loads.regions.iter().filter(|r| r.region.is_some_and(|m| first <= m && m <= n))
                {
                    add_into(&mut sum, region.rails.iter().map(|r| &r.bytes), 1.0);
                }
                sum
            }
            RegionSelection::Diff(a, b) => {
                let mut a = of_key(a)?;
                let b = loads.get(b)?;
                add_into(&mut a, b.rails.iter().map(|r| &r.bytes), -1.0);
                return Some(LinkValues { rails: a, signed: true });
            }
        };
        Some(LinkValues { rails, signed: false })
    }

    pub fn at(&self, rail: usize, end: LinkEnd) -> f64 {
        self.rails.get(rail).and_then(|r| r.get(end.index())).copied().unwrap_or(0.0)
    }

    /// The smallest and largest value over all rails (`(0, 0)` when empty).
    pub fn range(&self) -> (f64, f64) {
        let mut it = self.rails.iter().flatten().copied();
        let Some(first) = it.next() else { return (0.0, 0.0) };
        it.fold((first, first), |(lo, hi), v| (lo.min(v), hi.max(v)))
    }
}

fn add_into<'a>(sum: &mut [Vec<f64>], rails: impl Iterator<Item = &'a LinkBytes>, sign: f64) {
    for (s, r) in sum.iter_mut().zip(rails) {
        r.add_into(s, sign);
    }
}

/// A − B, value by value; an id missing on one side counts 0 there.
pub fn difference(a: &[Option<f64>], b: &[Option<f64>]) -> Vec<Option<f64>> {
    a.iter()
        .zip(b)
        .map(|(x, y)| match (x, y) {
            (None, None) => None,
            _ => Some(x.unwrap_or(0.0) - y.unwrap_or(0.0)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::{RailLoad, RegionLoads};

    fn region(n: Option<u32>, bytes: Vec<u64>) -> RegionLoads {
        let bytes = LinkBytes::from_dense(&bytes);
        RegionLoads { region: n, rails: vec![RailLoad { bytes, ..Default::default() }], ..Default::default() }
    }

    fn loads() -> Loads {
        Loads {
            regions: vec![region(Some(1), vec![1, 0, 5]), region(Some(2), vec![2, 3, 0])],
            total: region(None, vec![3, 3, 5]),
        }
    }

    #[test]
    fn cumulative_sums_the_deltas_up_to_the_region() {
        let v = LinkValues::select(&loads(), RegionSelection::Cumulative(2)).unwrap();
        assert_eq!(v.rails, vec![vec![3.0, 3.0, 5.0]]);
        let v = LinkValues::select(&loads(), RegionSelection::Cumulative(1)).unwrap();
        assert_eq!(v.rails, vec![vec![1.0, 0.0, 5.0]]);
    }

    #[test]
    fn the_diff_of_a_region_with_itself_is_all_zero() {
        let key = RegionKey::Region(2);
        let v = LinkValues::select(&loads(), RegionSelection::Diff(key, key)).unwrap();
        assert!(v.signed);
        assert!(v.rails.iter().flatten().all(|&x| x == 0.0));
        let v =
            LinkValues::select(&loads(), RegionSelection::Diff(RegionKey::Region(2), RegionKey::Region(1)))
                .unwrap();
        assert_eq!(v.rails, vec![vec![1.0, 3.0, -5.0]]);
        assert_eq!(v.range(), (-5.0, 3.0));
    }

    #[test]
    fn a_missing_region_selects_nothing() {
        assert!(LinkValues::select(&loads(), RegionSelection::Region(9)).is_none());
        assert!(LinkValues::select(&loads(), RegionSelection::Cumulative(9)).is_none());
    }
}

/// Values, filter and highlight of one network view, indexed like the network's nodes and
/// links. An empty slice means "none" for values and highlight, and "all pass" for masks.
#[derive(Clone, Copy, Debug, Default)]
pub struct NetworkInput<'a> {
    pub node_values: &'a [Option<f64>],
    pub link_values: &'a [Option<f64>],
    pub node_pass: &'a [bool],
    pub link_pass: &'a [bool],
    pub node_lit: &'a [bool],
    pub link_lit: &'a [bool],
    /// Link ids in draw order ([`draw_order`] of `link_values`); empty: the scene sorts.
    pub link_order: &'a [u32],
}

impl NetworkInput<'_> {
    pub fn link_passes(&self, i: usize) -> bool {
        self.link_pass.get(i).copied().unwrap_or(true)
    }

    pub fn node_passes(&self, i: usize) -> bool {
        self.node_pass.get(i).copied().unwrap_or(true)
    }

    /// Whether anything is highlighted (everything else then fades).
    pub fn any_lit(&self) -> bool {
        self.node_lit.iter().chain(self.link_lit).any(|&l| l)
    }
}

/// The default colour range of some values: `[min(0, lo), hi]`; `None` if none has a value.
pub fn values_range(values: &[Option<f64>]) -> Option<(f64, f64)> {
    let mut it = values.iter().flatten().filter(|v| v.is_finite());
    let first = *it.next()?;
    let (lo, hi) = it.fold((first, first), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    Some((lo.min(0.0), hi))
}

/// Whether an attribute counts bytes, by its name: `bytes`, `bytes_sent` …, and the byte
/// columns of counters (`predicted`, `observed`, `residual`) and AR (`ar_minus_static`).
pub fn is_bytes(attribute: Option<&str>) -> bool {
    const BYTE_COLUMNS: [&str; 4] = ["predicted", "observed", "residual", "ar_minus_static"];
    attribute.is_some_and(|a| a == "bytes" || a.starts_with("bytes_") || BYTE_COLUMNS.contains(&a))
}

/// Where a link half goes in the draw order: busier on top (a diff's by magnitude), an end
/// without a value below every valued one. Every painter — the window's, the GPU's, PNG and
/// SVG — draws a scene's halves in order, so sorting by this key once puts busy ends on top
/// everywhere (issue 21); lit halves still go after all of these.
pub fn draw_key(value: Option<f64>) -> f64 {
    value.map_or(f64::NEG_INFINITY, |v| if v.is_nan() { f64::NEG_INFINITY } else { v.abs() })
}

/// Link ids in draw order: by [`draw_key`] of their values, equal keys by id. A view's values
/// change only when it is prepared again, so the order is sorted once there and every scene of
/// the view (each highlight, each range of its group) walks it instead of sorting its halves.
pub fn draw_order(values: &[Option<f64>]) -> Vec<u32> {
    let mut keyed: Vec<(f64, u32)> =
        values.iter().enumerate().map(|(i, &v)| (draw_key(v), i as u32)).collect();
    keyed.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    keyed.into_iter().map(|(_, i)| i).collect()
}
