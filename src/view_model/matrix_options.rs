//! How a traffic matrix is asked for (issue 23): granularity, rail, values, order, focus and
//! what is drawn; and the entities its rows and columns are.

use crate::routing::pair_table::Granularity;

/// Which rail's paths the hues show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RailChoice {
    /// Every rail's bytes, each cell's hue the worse rail's hop class.
    #[default]
    Worse,
    Rail(u8),
}

/// What a cell counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellValues {
    #[default]
    Bytes,
    Messages,
}

/// The order of rows (and of columns, the same).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatrixOrder {
    /// By rank number, host name or leaf.
    #[default]
    Id,
    /// By the layout's host order (left to right), ranks by their host's place.
    Layout,
    /// Heavy partners next to each other ([`super::matrix_order::clustered`]): blocks of
    /// entities that talk among themselves show as squares on the diagonal.
    Clustered,
}

/// What the view draws of the matrix.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatrixShow {
    /// Entity × entity cells.
    #[default]
    Cells,
    /// INTAP-MPI's stacked bars: each row's sent bytes split by hop class.
    Bars,
}

/// How a matrix is built.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct MatrixOptions {
    pub by: Granularity,
    pub rail: RailChoice,
    pub values: CellValues,
    pub order: MatrixOrder,
    /// Positions `a..b` of the order shown alone (a drill-down), if any.
    pub focus: Option<(usize, usize)>,
    pub show: MatrixShow,
}

impl Default for MatrixOptions {
    fn default() -> Self {
        MatrixOptions {
            by: Granularity::Host,
            rail: RailChoice::Worse,
            values: CellValues::Bytes,
            order: MatrixOrder::Id,
            focus: None,
            show: MatrixShow::Cells,
        }
    }
}

/// An entity of the order: `(rail, id)` — leaves are per rail, ranks and hosts on rail 0.
pub type Entity = (u8, u32);

/// The worse of two hop classes: more switches, and an undelivered path worst of all.
pub fn worse(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    Some(a?.max(b?))
}
