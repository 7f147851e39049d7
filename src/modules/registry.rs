//! Every view class, by its stable id. Adding a class is adding its file and a line here.

use crate::view_model::dataset::Dataset;
use crate::view_model::view::{ModuleKind, ViewSpec};

use super::class::AnyViewClass;
use super::congestion_view::CongestionClass;
use super::fat_tree::FatTree;
use super::generic2d::Generic2d;
use super::matrix::MatrixClass;
use super::time_strip::TimeStripClass;
use super::torus::{Torus, TorusFlat};

/// Every class, in menu order.
pub static REGISTRY: &[&dyn AnyViewClass] =
    &[&FatTree, &Torus, &TorusFlat, &Generic2d, &TimeStripClass, &MatrixClass, &CongestionClass];

/// The class with this id, if there is one.
pub fn class(id: &str) -> Option<&'static dyn AnyViewClass> {
    REGISTRY.iter().copied().find(|c| c.id() == id)
}

/// The class that draws a view: the one its spec names (generic 2D, which draws any network
/// at its given positions, if none has that id).
pub fn class_of(spec: &ViewSpec) -> &'static dyn AnyViewClass {
    class(spec.module.class_id()).unwrap_or(&Generic2d)
}

/// What a new view of each class that can draw `dataset` shows, in menu order.
pub fn choices(dataset: &Dataset) -> Vec<ModuleKind> {
    REGISTRY.iter().filter_map(|c| c.module_for(dataset)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_finds_each_class_by_its_id() {
        for id in ["fat_tree", "torus", "torus_flat", "generic_2d", "time_strip", "matrix", "congestion"] {
            assert_eq!(class(id).map(|c| c.id()), Some(id), "{id}");
        }
        assert!(class("sunburst").is_none(), "an unknown id finds no class");
    }

    #[test]
    fn class_ids_are_unique() {
        let mut ids: Vec<&str> = REGISTRY.iter().map(|c| c.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), REGISTRY.len());
    }

    #[test]
    fn each_module_of_a_spec_is_drawn_by_the_class_it_names() {
        let modules = [
            (ModuleKind::FatTree, "fat tree"),
            (ModuleKind::Torus { kept: vec![0, 1, 2] }, "torus 3D"),
            (ModuleKind::TorusFlat { down: 2 }, "torus 2D"),
            (ModuleKind::Generic2d, "generic 2D"),
            (ModuleKind::TimeStrip, "time strip"),
            (ModuleKind::Congestion, "congestion regions"),
        ];
        for (module, name) in modules {
            let spec = ViewSpec { module: module.clone(), ..Default::default() };
            assert_eq!(class_of(&spec).display_name(), name, "{module:?}");
            assert_eq!(class_of(&spec).id(), module.class_id());
        }
    }

    #[test]
    fn the_menus_offer_the_classes_that_can_draw_the_data_set_as_scene_lists_them() {
        let fabric = Dataset::synthetic(6, 4, 3, 2);
        let names = |d: &Dataset| choices(d).iter().map(|m| m.class_id()).collect::<Vec<_>>();
        assert_eq!(names(&fabric), ["fat_tree", "generic_2d", "time_strip", "matrix"]);
        let torus = Dataset::from_run(
            crate::view_model::run_synthetic::synthetic_run(&["x", "y", "z"], &[4, 4, 4]),
            Vec::new(),
        );
        assert_eq!(names(&torus), ["torus", "torus_flat", "generic_2d"]);
        for d in [&fabric, &torus] {
            assert_eq!(choices(d), ModuleKind::choices(d), "the CLI's and the window's lists agree");
        }
    }
}
