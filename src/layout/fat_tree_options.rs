//! The fat-tree layout's knobs, shared by the thesis layout (`fat_tree.rs`) and the plane
//! layout (`planes.rs`).

/// Knobs for [`super::layout_fat_tree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FatTreeOptions {
    /// Barycentre sweeps after the breadth-first order. Default 4; 0 gives the thesis's layout.
    pub sweeps: usize,
    /// Whether hosts with several CAs in one multi-plane subnet are expanded into their CAs,
    /// grouped by plane (`--hca-planes`, default auto).
    pub hca_planes: HcaPlanes,
}

impl Default for FatTreeOptions {
    fn default() -> Self {
        FatTreeOptions { sweeps: 4, hca_planes: HcaPlanes::Auto }
    }
}

/// `--hca-planes auto|off`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HcaPlanes {
    /// The plane layout where [`crate::model::Cluster::has_planes`], else the thesis layout.
    #[default]
    Auto,
    /// Always the thesis layout: one dot per host.
    Off,
}

impl HcaPlanes {
    pub fn parse(text: &str) -> Option<HcaPlanes> {
        match text {
            "auto" => Some(HcaPlanes::Auto),
            "off" => Some(HcaPlanes::Off),
            _ => None,
        }
    }
}
