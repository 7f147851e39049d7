//! `shoal render`: load, select a region (or a diff), filter, and write PNG or SVG headless.
//! The binary only parses flags into [`RenderArgs`]; everything else is here.

use std::path::PathBuf;

use anyhow::{Context, bail};

use crate::model::Warning;
use crate::routing::RegionKey;
use crate::scene::camera::Camera;
use crate::scene::colour::{ColourMap, ScaleKind};
use crate::scene::fat_tree::value_range;
use crate::scene::filter::parse_number;
use crate::scene::highlight::Highlight;
use crate::scene::load::{LoadRequest, load_dataset};
use crate::scene::values::RegionSelection;
use crate::scene::view::{ViewSpec, scene_for, values_for};

/// A hot-link threshold: bytes (`2 MiB`, `1e6`) or a percentage of the maximum (`25%`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Threshold {
    Bytes(f64),
    Percent(f64),
}

impl Threshold {
    pub fn parse(text: &str) -> Option<Threshold> {
        let t = text.trim();
        match t.strip_suffix('%') {
            Some(p) => {
                p.trim().parse().ok().filter(|v: &f64| (0.0..=100.0).contains(v)).map(Threshold::Percent)
            }
            None => parse_number(t).filter(|v| *v >= 0.0).map(Threshold::Bytes),
        }
    }

    /// The byte value for a given maximum.
    pub fn bytes(self, max: f64) -> f64 {
        match self {
            Threshold::Bytes(b) => b,
            Threshold::Percent(p) => max * p / 100.0,
        }
    }
}

/// Validated arguments of `shoal render`.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderArgs {
    /// One path list per rail (a directory or dump files).
    pub rails: Vec<Vec<PathBuf>>,
    pub profile: Option<PathBuf>,
    /// `None`: the cumulative total.
    pub region: Option<u32>,
    pub diff: Option<(u32, u32)>,
    pub threshold: Option<Threshold>,
    pub colour_map: Option<ColourMap>,
    pub scale: ScaleKind,
    pub hide_unused: bool,
    pub width: u32,
    pub height: u32,
    pub out: PathBuf,
}

/// What a render did, for the CLI to print.
#[derive(Debug)]
pub struct RenderReport {
    pub visible_links: usize,
    pub warnings: Vec<Warning>,
}

pub fn render(args: &RenderArgs) -> anyhow::Result<RenderReport> {
    if args.width < 64 || args.height < 64 || args.width > 16384 || args.height > 16384 {
        bail!("--width and --height must be between 64 and 16384 pixels");
    }
    if crate::export::Format::of_path(&args.out).is_none() {
        bail!("{}: the output must end in .png or .svg", args.out.display());
    }
    let request = LoadRequest { rails: args.rails.clone(), profile: args.profile.clone() };
    let dataset = load_dataset(&request, &|_| {})?;
    let selection = match (args.region, args.diff) {
        (Some(_), Some(_)) => bail!("--region and --diff exclude each other"),
        (Some(n), None) => RegionSelection::Region(n),
        (None, Some((a, b))) => RegionSelection::Diff(RegionKey::Region(a), RegionKey::Region(b)),
        (None, None) => RegionSelection::Total,
    };
    let values = values_for(&dataset, selection).with_context(|| {
        let have: Vec<String> = dataset.regions().iter().map(|r| r.number.to_string()).collect();
        format!("the profile has no such region (it has: {})", have.join(", "))
    })?;
    let mut spec = ViewSpec { selection, ..Default::default() };
    spec.filter.hide_unused = args.hide_unused;
    if let Some(t) = args.threshold {
        let (_, max) = value_range(&values);
        spec.filter.bytes_range = Some((t.bytes(max), f64::INFINITY));
    }
    if let Some(map) = args.colour_map {
        if map.is_diverging() {
            spec.options.diverging_map = map;
        } else {
            spec.options.link_map = map;
            spec.options.node_map = map;
        }
    }
    spec.options.scale = args.scale;
    spec.options.title = format!("{} — {}", dataset.name, selection.label());
    let scene = scene_for(&dataset, &spec, None, &Highlight::default()).context("no such region")?;
    crate::export::write(&scene, &Camera::default(), args.width, args.height, &args.out)?;
    Ok(RenderReport { visible_links: scene.visible_link_count(), warnings: dataset.warnings })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_parse_as_bytes_or_percent() {
        assert_eq!(Threshold::parse("25%"), Some(Threshold::Percent(25.0)));
        assert_eq!(Threshold::parse("2 MiB"), Some(Threshold::Bytes(2.0 * 1048576.0)));
        assert_eq!(Threshold::parse("120%"), None);
        assert_eq!(Threshold::parse("-3"), None);
        assert_eq!(Threshold::Percent(50.0).bytes(10.0), 5.0);
    }
}
