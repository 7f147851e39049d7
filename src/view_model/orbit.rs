//! The orbit (arcball) camera of 3D views: a rotation, applied before an orthographic
//! projection onto the scene's 2D world.
//!
//! View space: x right, y up, z toward the viewer; the projection keeps x and y and uses z as
//! depth (nearer is larger, painted later). Zoom and pan stay with the 2D [`super::Camera`]
//! after the projection, so the torus views pan, zoom and export like every other view.

/// A rotation as a unit quaternion `[w, x, y, z]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Orbit {
    pub rotation: [f32; 4],
}

/// Radians of rotation per pixel of drag.
pub const RADIANS_PER_PIXEL: f32 = 0.01;

/// The default view: turned 35° about the vertical, then tipped 25° toward the viewer, so all
/// three axes show.
pub const DEFAULT_YAW_DEG: f32 = -35.0;
pub const DEFAULT_PITCH_DEG: f32 = 25.0;

impl Default for Orbit {
    fn default() -> Self {
        Orbit::from_yaw_pitch(DEFAULT_YAW_DEG, DEFAULT_PITCH_DEG)
    }
}

impl Orbit {
    /// No rotation: x right, y up, z toward the viewer.
    pub const IDENTITY: Orbit = Orbit { rotation: [1.0, 0.0, 0.0, 0.0] };

    /// Turned `yaw` degrees about the vertical (positive: the front moves right), then `pitch`
    /// degrees about the horizontal (positive: the top tips toward the viewer).
    pub fn from_yaw_pitch(yaw_deg: f32, pitch_deg: f32) -> Orbit {
        let yaw = about([0.0, 1.0, 0.0], yaw_deg.to_radians());
        let pitch = about([1.0, 0.0, 0.0], pitch_deg.to_radians());
        Orbit { rotation: mul(pitch, yaw) }
    }

    /// Back to the default view.
    pub fn reset(&mut self) {
        *self = Orbit::default();
    }

    /// An arcball drag of `delta` screen pixels (y down): the scene turns with the pointer,
    /// about the screen axis perpendicular to the drag.
    pub fn drag(&mut self, delta: [f32; 2]) {
        let [dx, dy] = delta;
        let length = (dx * dx + dy * dy).sqrt();
        if length < 1e-6 {
            return;
        }
        // Dragging right turns about +y; dragging down (screen y grows) turns about +x.
        let axis = [dy / length, dx / length, 0.0];
        self.rotation = normalise(mul(about(axis, length * RADIANS_PER_PIXEL), self.rotation));
    }

    /// The rotation matrix, rows of view space.
    pub fn matrix(&self) -> [[f32; 3]; 3] {
        let [w, x, y, z] = self.rotation;
        [
            [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
            [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
            [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
        ]
    }
}

/// Applies a rotation matrix.
pub fn rotate(m: &[[f32; 3]; 3], p: [f32; 3]) -> [f32; 3] {
    std::array::from_fn(|r| m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2])
}

fn about(axis: [f32; 3], angle: f32) -> [f32; 4] {
    let (s, c) = (angle / 2.0).sin_cos();
    [c, axis[0] * s, axis[1] * s, axis[2] * s]
}

fn mul(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    let [aw, ax, ay, az] = a;
    let [bw, bx, by, bz] = b;
    [
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ]
}

fn normalise(q: [f32; 4]) -> [f32; 4] {
    let n = q.iter().map(|v| v * v).sum::<f32>().sqrt();
    if n > 0.0 { q.map(|v| v / n) } else { Orbit::IDENTITY.rotation }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f32; 3], b: [f32; 3]) -> bool {
        a.iter().zip(&b).all(|(p, q)| (p - q).abs() < 1e-5)
    }

    #[test]
    fn a_quarter_yaw_turns_the_right_side_away() {
        let m = Orbit::from_yaw_pitch(90.0, 0.0).matrix();
        assert!(close(rotate(&m, [1.0, 0.0, 0.0]), [0.0, 0.0, -1.0]));
        assert!(close(rotate(&m, [0.0, 0.0, 1.0]), [1.0, 0.0, 0.0]), "the front moved right");
    }

    #[test]
    fn a_positive_pitch_tips_the_top_toward_the_viewer() {
        let m = Orbit::from_yaw_pitch(0.0, 90.0).matrix();
        assert!(close(rotate(&m, [0.0, 1.0, 0.0]), [0.0, 0.0, 1.0]));
    }

    #[test]
    fn dragging_right_turns_the_front_right_and_dragging_down_turns_it_down() {
        let mut o = Orbit::IDENTITY;
        o.drag([std::f32::consts::FRAC_PI_2 / RADIANS_PER_PIXEL, 0.0]);
        assert!(close(rotate(&o.matrix(), [0.0, 0.0, 1.0]), [1.0, 0.0, 0.0]));
        let mut o = Orbit::IDENTITY;
        o.drag([0.0, std::f32::consts::FRAC_PI_2 / RADIANS_PER_PIXEL]);
        assert!(close(rotate(&o.matrix(), [0.0, 0.0, 1.0]), [0.0, -1.0, 0.0]));
        o.reset();
        assert_eq!(o, Orbit::default());
    }
}
