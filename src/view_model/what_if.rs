//! The routing what-if (issue 23): one rail's traffic under the recorded tables, D-mod-K,
//! minhop and PFSim's greedy routers, measured by the busiest link end. `shoal route --engine
//! greedy` prints these rows and the window's What-if tab shows them: both take their traffic
//! from [`traffic_flows`] and their figures from [`rows_shown`], so the two cannot differ.

use crate::model::Fabric;
use crate::routing::Flow;
use crate::routing::engines::compare::{MaxLoad, compare_routings, end_label};
use crate::units::format_bytes;

use super::dataset::Dataset;
use super::values::RegionSelection;

/// One routing's figures as shown: text, so the command's lines and the window's cells are the
/// same strings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownRow {
    /// `recorded`, or the engine's `--engine` name.
    pub routing: String,
    /// The busiest switch-to-switch link end's bytes, with units.
    pub switch_to_switch: String,
    /// The busiest link end's bytes (CA links included), with units.
    pub any_end: String,
    /// `switch_to_switch` over the recorded tables' (`-` without recorded tables or bytes).
    pub ratio: String,
    /// Where the busiest switch-to-switch end is (`-` when no bytes cross one).
    pub at: String,
    /// The lowest `switch_to_switch` of the rows.
    pub lowest: bool,
    /// Bytes the tables do not deliver, with units, if any.
    pub undelivered: Option<String>,
    /// The raw figures, for a highlight and for tests.
    pub load: MaxLoad,
}

/// The whole-traffic flows of `selection` (of `job` when jobs share the fabric; for a diff,
/// region A's) on rail `rail`: what the what-if routes. `shoal route` takes the whole run
/// ([`RegionSelection::Total`], every job) on its one rail.
pub fn traffic_flows(d: &Dataset, rail: usize, selection: RegionSelection, job: Option<&str>) -> Vec<Flow> {
    d.flows_for(selection, job).into_iter().filter_map(|set| set.flows.get(rail)).flatten().copied().collect()
}

/// The rows the window shows for rail `rail`: recorded (when every switch has tables), dmodk
/// (on a fat tree), minhop, greedy and greedy-sum. `Err` says why there is nothing to compare.
pub fn what_if(
    d: &Dataset,
    rail: usize,
    selection: RegionSelection,
    job: Option<&str>,
) -> Result<Vec<ShownRow>, String> {
    let fabric = d.fabric.as_ref().ok_or("the routing what-if needs fabric dumps")?;
    let recorded = fabric.cluster.rails.get(rail).ok_or_else(|| format!("there is no rail {rail}"))?;
    let flows = traffic_flows(d, rail, selection, job);
    if flows.is_empty() {
        return Err(format!("{} puts no bytes between two hosts of rail {rail}", selection.label()));
    }
    let rows = compare_routings(recorded, &flows, &format!("rail {rail}"));
    if rows.is_empty() {
        return Err(format!("no engine could route rail {rail}"));
    }
    Ok(rows_shown(recorded, &rows))
}

/// `rows` as shown, their link ends named on `fabric` (the recorded rail: every routing keeps
/// its links), their ratios against the `recorded` row.
pub fn rows_shown(fabric: &Fabric, rows: &[MaxLoad]) -> Vec<ShownRow> {
    let lowest = rows.iter().map(|r| r.switch_to_switch).min().unwrap_or(0);
    let recorded = rows.iter().find(|r| r.routing == "recorded").map(|r| r.switch_to_switch);
    rows.iter()
        .map(|row| ShownRow {
            routing: row.routing.clone(),
            switch_to_switch: format_bytes(row.switch_to_switch),
            any_end: format_bytes(row.any_end),
            ratio: match recorded {
                Some(base) if base > 0 => format!("{:.2}", row.switch_to_switch as f64 / base as f64),
                _ => "-".to_string(),
            },
            at: row.busiest_end.map_or_else(|| "-".to_string(), |end| end_label(fabric, end)),
            lowest: row.switch_to_switch == lowest,
            undelivered: (row.undelivered > 0).then(|| format_bytes(row.undelivered)),
            load: row.clone(),
        })
        .collect()
}

/// The command's lines: a heading, then one line per row.
pub fn comparison_text(rows: &[ShownRow]) -> String {
    let mut text = String::from(
        "maximum link-end load of the profile's traffic (switch to switch; any end; \
         switch to switch over recorded; the busiest switch-to-switch end):\n",
    );
    for row in rows {
        let best = if row.lowest { "  (lowest)" } else { "" };
        let lost = row.undelivered.as_ref().map(|u| format!("  {u} undelivered")).unwrap_or_default();
        text += &format!(
            "  {:<10} {:>12}  {:>12}  {:>5}  {}{best}{lost}\n",
            row.routing, row.switch_to_switch, row.any_end, row.ratio, row.at
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view_model::{OpenRequest, open};

    fn sample() -> Dataset {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let dir = root.join("sample-data/tworail");
        let request = OpenRequest {
            profile: Some(dir.join("samplesort.ibprof.gz")),
            ..OpenRequest::of_rails(vec![vec![dir.join("rail0")], vec![dir.join("rail1")]])
        };
        open(&request, &|_| {}).expect("the sample loads")
    }

    #[test]
    fn every_engine_has_a_row_with_its_busiest_end_and_a_ratio_to_the_recorded_tables() {
        let d = sample();
        let rows = what_if(&d, 1, RegionSelection::Total, None).expect("rows");
        let names: Vec<&str> = rows.iter().map(|r| r.routing.as_str()).collect();
        assert_eq!(names, ["recorded", "dmodk", "minhop", "greedy", "greedy-sum"]);
        assert_eq!(rows[0].ratio, "1.00");
        for row in &rows {
            assert!(row.at.contains(" -> "), "{row:?}");
            let base = rows[0].load.switch_to_switch as f64;
            let ratio: f64 = row.ratio.parse().expect("a number");
            assert!((ratio - row.load.switch_to_switch as f64 / base).abs() < 0.005, "{row:?}");
        }
        assert_eq!(
            rows.iter().filter(|r| r.lowest).map(|r| r.load.switch_to_switch).min(),
            rows.iter().map(|r| r.load.switch_to_switch).min()
        );
    }

    #[test]
    fn a_region_routes_only_its_own_traffic() {
        let d = sample();
        let total: u64 = traffic_flows(&d, 0, RegionSelection::Total, None).iter().map(|f| f.bytes).sum();
        let first: u64 = traffic_flows(&d, 0, RegionSelection::Region(1), None).iter().map(|f| f.bytes).sum();
        assert!(first > 0 && first < total, "{first} of {total}");
    }

    #[test]
    fn a_rail_that_is_not_open_is_an_error_not_a_panic() {
        let d = sample();
        let err = what_if(&d, 7, RegionSelection::Total, None).unwrap_err();
        assert!(err.contains("no rail 7"), "{err}");
    }
}
