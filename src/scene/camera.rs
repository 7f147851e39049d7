//! The camera: which part of a scene's world a plot rectangle shows.
//!
//! At zoom 1 the scene's bounds fill the plot ("fit"), stretched on each axis independently: a
//! fat tree is far wider than tall. Zooming scales both axes alike. Screen y grows downward.

use crate::layout::Position;

use crate::view_model::session::CameraState;

use super::Bounds;

/// A pixel rectangle, y down.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScreenRect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl ScreenRect {
    pub fn new(x: f32, y: f32, w: f32, h: f32) -> Self {
        ScreenRect { x, y, w: w.max(0.0), h: h.max(0.0) }
    }

    pub fn contains(&self, p: [f32; 2]) -> bool {
        p[0] >= self.x && p[0] <= self.x + self.w && p[1] >= self.y && p[1] <= self.y + self.h
    }

    pub fn centre(&self) -> [f32; 2] {
        [self.x + self.w / 2.0, self.y + self.h / 2.0]
    }

    pub fn right(&self) -> f32 {
        self.x + self.w
    }

    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }
}

/// Where the camera looks (a world point at the plot's centre) and how far in it is zoomed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// `None`: the centre of the scene's bounds.
    pub centre: Option<Position>,
    /// 1 = fit.
    pub zoom: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Camera { centre: None, zoom: 1.0 }
    }
}

pub const MIN_ZOOM: f32 = 0.25;
pub const MAX_ZOOM: f32 = 200.0;

/// World ↔ screen for one camera, scene and plot rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    pub scale: [f32; 2],
    pub centre: Position,
    pub plot: ScreenRect,
}

impl Transform {
    pub fn new(camera: &Camera, bounds: &Bounds, plot: ScreenRect) -> Self {
        let z = camera.zoom;
        let scale = [plot.w / bounds.width().max(1e-6) * z, plot.h / bounds.height().max(1e-6) * z];
        Transform { scale, centre: camera.centre.unwrap_or_else(|| bounds.centre()), plot }
    }

    pub fn to_screen(&self, p: Position) -> [f32; 2] {
        let [cx, cy] = self.plot.centre();
        [cx + (p.x - self.centre.x) * self.scale[0], cy - (p.y - self.centre.y) * self.scale[1]]
    }

    pub fn to_world(&self, s: [f32; 2]) -> Position {
        let [cx, cy] = self.plot.centre();
        Position {
            x: self.centre.x + (s[0] - cx) / self.scale[0],
            y: self.centre.y - (s[1] - cy) / self.scale[1],
        }
    }
}

impl Camera {
    /// Back to the whole scene.
    pub fn fit(&mut self) {
        *self = Camera::default();
    }

    /// Moves the view by a drag of `delta` pixels.
    pub fn pan(&mut self, bounds: &Bounds, plot: ScreenRect, delta: [f32; 2]) {
        let t = Transform::new(self, bounds, plot);
        let c = t.centre;
        self.centre = Some(Position { x: c.x - delta[0] / t.scale[0], y: c.y + delta[1] / t.scale[1] });
    }

    /// Zooms by `factor`, keeping the world point under `cursor` where it is.
    pub fn zoom_at(&mut self, bounds: &Bounds, plot: ScreenRect, cursor: [f32; 2], factor: f32) {
        let before = Transform::new(self, bounds, plot);
        let anchor = before.to_world(cursor);
        self.zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        self.centre = Some(before.centre);
        let after = Transform::new(self, bounds, plot);
        let moved = after.to_world(cursor);
        let c = after.centre;
        self.centre = Some(Position { x: c.x + anchor.x - moved.x, y: c.y + anchor.y - moved.y });
    }
}

/// A session's camera is this camera as plain data.
impl From<&Camera> for CameraState {
    fn from(camera: &Camera) -> Self {
        CameraState { centre: camera.centre.map(|p| [p.x, p.y]), zoom: camera.zoom }
    }
}

impl From<CameraState> for Camera {
    fn from(state: CameraState) -> Self {
        let centre = state.centre.map(|[x, y]| crate::layout::Position { x, y });
        Camera { centre, zoom: if state.zoom.is_finite() && state.zoom > 0.0 { state.zoom } else { 1.0 } }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds() -> Bounds {
        Bounds { min: Position { x: -10.0, y: -3.0 }, max: Position { x: 10.0, y: 3.0 } }
    }

    #[test]
    fn fit_maps_the_bounds_onto_the_plot_with_y_up() {
        let plot = ScreenRect::new(0.0, 0.0, 200.0, 60.0);
        let t = Transform::new(&Camera::default(), &bounds(), plot);
        assert_eq!(t.to_screen(Position { x: -10.0, y: 3.0 }), [0.0, 0.0]);
        assert_eq!(t.to_screen(Position { x: 10.0, y: -3.0 }), [200.0, 60.0]);
    }

    #[test]
    fn zooming_at_the_cursor_keeps_the_point_under_it() {
        let plot = ScreenRect::new(5.0, 5.0, 200.0, 60.0);
        let mut cam = Camera::default();
        let cursor = [40.0, 20.0];
        let before = Transform::new(&cam, &bounds(), plot).to_world(cursor);
        cam.zoom_at(&bounds(), plot, cursor, 3.0);
        let after = Transform::new(&cam, &bounds(), plot).to_world(cursor);
        assert!((before.x - after.x).abs() < 1e-4 && (before.y - after.y).abs() < 1e-4);
        assert_eq!(cam.zoom, 3.0);
    }

    #[test]
    fn panning_moves_the_world_with_the_mouse() {
        let plot = ScreenRect::new(0.0, 0.0, 200.0, 60.0);
        let mut cam = Camera::default();
        let p = Position { x: 1.0, y: 1.0 };
        let s0 = Transform::new(&cam, &bounds(), plot).to_screen(p);
        cam.pan(&bounds(), plot, [15.0, -4.0]);
        let s1 = Transform::new(&cam, &bounds(), plot).to_screen(p);
        assert!((s1[0] - s0[0] - 15.0).abs() < 1e-4 && (s1[1] - s0[1] + 4.0).abs() < 1e-4);
        cam.fit();
        assert_eq!(cam, Camera::default());
    }
}
