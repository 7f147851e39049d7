//! A layer of lines painted onto premultiplied RGBA8 pixels by [`super::line_raster`], in
//! bands of rows in parallel: the PNG export's links, and the window's links on a software
//! renderer (`modules::gpu_links::raster`), so both show the same pixels.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::scene::colour::Rgba;
use crate::scene::draw::Line;

use super::line_raster::{Band, PixelRect, ReadyLine};

/// The bytes of a band of rows, its pixels and their stamps (8 bytes a pixel): about a core's
/// L2 cache, since a line crossing a band touches it row by row.
const BAND_BYTES: usize = 256 << 10;

/// Paints `lines` (in points, at `pixels_per_point`) onto `pixels`, rows of `width` pixels,
/// nothing outside `clip`. Each band paints the lines that reach its rows, group by group (a
/// colour and a width) in first-appearance order, so that lit lines stay on top.
pub fn paint_lines(pixels: &mut [u8], width: usize, lines: &[Line], pixels_per_point: f32, clip: PixelRect) {
    let lines = lines_in_painting_order(lines, pixels_per_point);
    if lines.is_empty() || width == 0 {
        return;
    }
    let reach: Vec<[f32; 2]> = lines.iter().map(|(_, ready)| ready.rows()).collect();
    let height = pixels.len() / (4 * width);
    let band_rows = (BAND_BYTES / (8 * width)).clamp(1, height.max(1));
    pixels.par_chunks_mut(band_rows * width * 4).enumerate().for_each(|(i, pixels)| {
        let rows = (pixels.len() / (width * 4)) as f32;
        let top = (i * band_rows) as f32;
        let mut band = Band::new(pixels, width, i * band_rows, clip);
        // The rows alone are scanned: every band looks at every line.
        for (l, [y0, y1]) in reach.iter().enumerate() {
            if *y1 >= top && *y0 <= top + rows {
                let (group, ready) = &lines[l];
                band.line(*group, ready);
            }
        }
    });
}

/// Every line made ready to paint, with its group: groups in first-appearance order, each
/// group's lines in theirs.
fn lines_in_painting_order(lines: &[Line], s: f32) -> Vec<(u32, ReadyLine)> {
    let mut ready = Vec::with_capacity(lines.len());
    for (g, members) in line_groups(lines).iter().enumerate() {
        for &l in members {
            ready.push((g as u32, ReadyLine::new(&lines[l as usize], s)));
        }
    }
    ready
}

/// The lines of each (colour, width) group, groups in first-appearance order, lines in theirs.
fn line_groups(lines: &[Line]) -> Vec<Vec<u32>> {
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut index: HashMap<(Rgba, u32), usize> = HashMap::new();
    for (i, line) in lines.iter().enumerate() {
        let key = (line.colour, line.width.to_bits());
        let g = *index.entry(key).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i as u32);
    }
    groups
}
