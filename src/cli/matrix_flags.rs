//! `shoal render --module matrix`'s own flags: what the matrix's rows are, which rail's hues,
//! what a cell counts and the order (the window's matrix options, from the command line).

use clap::Args;
use shoal::routing::pair_table::Granularity;
use shoal::view_model::matrix::{CellValues, MatrixOptions, MatrixOrder, MatrixShow, RailChoice};

/// The matrix's own flags.
#[derive(Args, Debug, Clone, Default)]
pub struct MatrixFlags {
    /// With `--module matrix`: rows and columns are `rank`s, `host`s or `leaf` switches.
    #[arg(long, value_name = "rank|host|leaf", value_parser = parse_by)]
    pub matrix_by: Option<Granularity>,
    /// With `--module matrix`: the hues of rail N's paths (`N`), or every rail's bytes with the
    /// worse rail's hue (`worse`, the default).
    #[arg(long, value_name = "worse|N", value_parser = parse_rail)]
    pub matrix_rail: Option<RailChoice>,
    /// With `--module matrix`: cells count `bytes` (default) or `messages`.
    #[arg(long, value_name = "bytes|messages", value_parser = parse_values)]
    pub matrix_values: Option<CellValues>,
    /// With `--module matrix`: rows in `id` order (rank, host name, leaf), the `layout`'s host
    /// order, or `clustered` (entities that talk among themselves next to each other).
    #[arg(long, value_name = "id|layout|clustered", value_parser = parse_order)]
    pub matrix_order: Option<MatrixOrder>,
    /// With `--module matrix`: draw the entity × entity `cells` (default), or INTAP-MPI's
    /// stacked `bars`: what each row sent, split by switches crossed.
    #[arg(long, value_name = "cells|bars", value_parser = parse_show)]
    pub matrix_show: Option<MatrixShow>,
}

fn parse_by(text: &str) -> Result<Granularity, String> {
    Granularity::parse(text).ok_or_else(|| format!("expected rank, host or leaf, got `{text}`"))
}

fn parse_rail(text: &str) -> Result<RailChoice, String> {
    match text {
        "worse" => Ok(RailChoice::Worse),
        n => n
            .parse()
            .map(RailChoice::Rail)
            .map_err(|_| format!("expected worse or a rail number, got `{text}`")),
    }
}

fn parse_values(text: &str) -> Result<CellValues, String> {
    match text {
        "bytes" => Ok(CellValues::Bytes),
        "messages" => Ok(CellValues::Messages),
        _ => Err(format!("expected bytes or messages, got `{text}`")),
    }
}

fn parse_order(text: &str) -> Result<MatrixOrder, String> {
    match text {
        "id" => Ok(MatrixOrder::Id),
        "layout" => Ok(MatrixOrder::Layout),
        "clustered" => Ok(MatrixOrder::Clustered),
        _ => Err(format!("expected id, layout or clustered, got `{text}`")),
    }
}

fn parse_show(text: &str) -> Result<MatrixShow, String> {
    match text {
        "cells" => Ok(MatrixShow::Cells),
        "bars" => Ok(MatrixShow::Bars),
        _ => Err(format!("expected cells or bars, got `{text}`")),
    }
}

impl MatrixFlags {
    pub fn options(&self) -> MatrixOptions {
        let d = MatrixOptions::default();
        MatrixOptions {
            by: self.matrix_by.unwrap_or(d.by),
            rail: self.matrix_rail.unwrap_or(d.rail),
            values: self.matrix_values.unwrap_or(d.values),
            order: self.matrix_order.unwrap_or(d.order),
            focus: None,
            show: self.matrix_show.unwrap_or(d.show),
        }
    }
}
