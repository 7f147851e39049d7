//! A batch of frames decoded in parallel (checksum, protobuf, XOR chunks), the frames of one
//! series joined (the server splits a series over frames near 1 MB), and each series' points
//! taken at the range's steps, again in parallel: what comes out is the [`Series`] a
//! `query_range` answer would have held, in the server's order.

use std::collections::HashMap;

use rayon::prelude::*;

use super::super::snapshots::Series;
use super::frames::{Frame, check};
use super::proto::{XOR_ENCODING, chunked_read_response};
use super::steps::{Steps, step_points};
use super::xor::decode_xor;

/// One series' stored samples, as far as the frames so far carry it.
pub struct Stored {
    labels: Vec<(String, String)>,
    samples: Vec<(i64, f64)>,
}

/// What a batch gave besides its series.
#[derive(Default)]
pub struct BatchNotes {
    /// Chunks in another encoding than XOR (native histograms: no exporter counter is one).
    pub other_chunks: usize,
}

/// The series of one frame, checksum checked, chunks decoded.
fn decode_frame(frame: &Frame) -> Result<(Vec<Stored>, usize), String> {
    check(frame)?;
    let number = frame.number;
    let answer = chunked_read_response(&frame.payload).map_err(|e| format!("frame {number}: {e}"))?;
    let mut other_chunks = 0;
    let mut out = Vec::with_capacity(answer.len());
    for series in answer {
        // Each chunk starts with its sample count: the samples' room, taken once, never more
        // than its bits can hold (two bits a sample at least after the first), whatever it says.
        let held = series.chunks.iter().map(|c| {
            let said: usize = c.data.get(..2).map_or(0, |n| u16::from_be_bytes([n[0], n[1]]).into());
            said.min(c.data.len() * 4 + 1)
        });
        let mut samples = Vec::with_capacity(held.sum::<usize>());
        for chunk in &series.chunks {
            if chunk.encoding != XOR_ENCODING {
                other_chunks += 1;
                continue;
            }
            decode_xor(chunk.data, &mut samples).map_err(|e| format!("frame {number}: {e}"))?;
        }
        let labels = series.labels.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
        out.push(Stored { labels, samples });
    }
    Ok((out, other_chunks))
}

/// Joins a batch's frames into series. The last series is kept in `pending`: the next batch's
/// first frame may continue it.
pub fn decode_batch(
    frames: &[Frame],
    pending: &mut Option<Stored>,
    notes: &mut BatchNotes,
) -> Result<Vec<Stored>, String> {
    let decoded: Vec<Result<(Vec<Stored>, usize), String>> = frames.par_iter().map(decode_frame).collect();
    let mut complete = Vec::new();
    for frame in decoded {
        let (series, other_chunks) = frame?;
        notes.other_chunks += other_chunks;
        for stored in series {
            match pending {
                Some(open) if open.labels == stored.labels => open.samples.extend(stored.samples),
                _ => complete.extend(pending.replace(stored)),
            }
        }
    }
    Ok(complete)
}

/// Each series' points at the steps, in order, made ready by `prepare`, with their number;
/// series without one are left out, as `query_range` leaves them out.
pub fn to_series<T: Send>(
    stored: Vec<Stored>,
    steps: Steps,
    prepare: &(dyn Fn(Series) -> T + Sync),
) -> Vec<(usize, T)> {
    stored
        .into_par_iter()
        .filter_map(|mut one| {
            // A series' chunks come in time order and do not overlap (the server merges
            // them); sorted again only if not, the first of equal times kept.
            if !one.samples.is_sorted_by_key(|s| s.0) {
                one.samples.sort_by_key(|s| s.0);
                one.samples.dedup_by_key(|s| s.0);
            }
            let values = step_points(&one.samples, steps);
            let metric: HashMap<String, String> = one.labels.into_iter().collect();
            (!values.is_empty()).then(|| (values.len(), prepare(Series { metric, values })))
        })
        .collect()
}
