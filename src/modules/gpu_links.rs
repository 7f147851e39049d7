//! Link halves drawn by the GPU (placeholder until the paint callback lands: never available,
//! so the egui mesh path draws everything).

use crate::scene::Scene;
use crate::scene::camera::Camera;

#[derive(Default)]
pub struct GpuLinkState;

pub fn available(_ui: &egui::Ui) -> bool {
    false
}

pub fn paint(
    _ui: &egui::Ui,
    _painter: &egui::Painter,
    _state: &mut GpuLinkState,
    _scene: &Scene,
    _camera: &Camera,
    _rect: egui::Rect,
    _generation: u64,
) {
}
