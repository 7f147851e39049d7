//! What the GUI tests share: comparing renders, and finding a point on screen where picking
//! finds a link half (not a node), to aim a click at.

use shoal::scene::camera::Transform;
use shoal::scene::draw::{Picked, pick};
use shoal::scene::{Half, Scene};

#[allow(dead_code)] // each test file uses what it needs
/// The share of pixels that differ clearly (any channel by more than 60) between two renders.
pub fn differing(a: &image::RgbaImage, b: &image::RgbaImage) -> f64 {
    let n = a
        .pixels()
        .zip(b.pixels())
        .filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > 60))
        .count();
    n as f64 / a.pixels().len() as f64
}

#[allow(dead_code)]
/// A plot-local point 70 % along some half where picking finds a half, and that half; halves
/// are tried last first (nearest first in a depth-sorted torus) when `nearest_first`.
pub fn pickable_half(s: &Scene, t: &Transform, nearest_first: bool) -> Option<([f32; 2], Half)> {
    let try_half = |half: &Half| {
        let (a, b) = (t.to_screen(half.from), t.to_screen(half.to));
        let p = [a[0] * 0.3 + b[0] * 0.7, a[1] * 0.3 + b[1] * 0.7];
        match pick(s, t, p) {
            Some(Picked::Half(i)) => Some((p, s.halves[i])),
            _ => None,
        }
    };
    if nearest_first { s.halves.iter().rev().find_map(try_half) } else { s.halves.iter().find_map(try_half) }
}
