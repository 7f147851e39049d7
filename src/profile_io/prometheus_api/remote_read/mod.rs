//! A range read through Prometheus's remote-read API (`POST /api/v1/read`), streamed chunks.
//!
//! Why: `query_range` cannot give a day of every port of the k = 36 rails in 10 s. Its answer
//! is JSON, ~25 bytes a sample: about 202 M samples and 5 GB, which Prometheus 2.42 writes at
//! 8 M samples/s at best (~25 s) before shoal parses it (6–7 s more). Remote read with
//! `STREAMED_XOR_CHUNKS` sends the stored chunks as they lie on disk, ~1.4 bytes a sample,
//! with no evaluation on the server: the decoding is shoal's, in parallel.
//!
//! The answer is frames (uvarint length, CRC32-C, one `ChunkedReadResponse`) of one series
//! each, a long series split over several. Each series' samples are taken at the step times as
//! `query_range` takes them ([`steps`]: the latest sample within the 5-minute lookback, stale
//! markers ending it), so what is handed on is the same [`Series`] the JSON would have given.
//! Frames are read on one thread and decoded in batches on all cores; at most a few batches are
//! held, never the answer.
//!
//! A server that refuses remote read (an HTTP error, another content type: a proxy, a
//! read-only API gateway) is [`Outcome::Refused`], for the caller to fall back to
//! `query_range`. A truncated or corrupt frame is an error naming the URL and the frame.

mod decode;
pub mod frames;
pub mod proto;
pub mod steps;
pub mod xor;

use std::io::BufReader;
use std::sync::mpsc::sync_channel;

use crate::model::Warning;

use super::super::error::ParseError;
use super::http::{Api, quoted_start};
use super::snapshots::Series;
use decode::{BatchNotes, decode_batch, to_series};
use frames::{Frame, FrameReader};
use proto::{MATCH_REGEX, ReadQuery, read_request};
use steps::Steps;

/// The endpoint.
pub const READ_ENDPOINT: &str = "/api/v1/read";
/// The content type of a streamed chunks answer.
const STREAMED_TYPE: &str = "application/x-streamed-protobuf; proto=prometheus.ChunkedReadResponse";
/// Frames decoded together: about 1,000 series (a day at one minute: ~2 kB each).
const BATCH_FRAMES: usize = 1024;
/// Or fewer, once a batch holds this many bytes.
const BATCH_BYTES: usize = 8 << 20;
/// Batches read ahead of the decoding.
const BATCHES_AHEAD: usize = 2;

/// What came of asking.
pub enum Outcome {
    /// The answer was read; its series were handed over.
    Read(ReadSummary),
    /// The server does not serve remote read: what it answered instead.
    Refused(String),
}

/// A read answer's counts and warnings.
#[derive(Debug, Default)]
pub struct ReadSummary {
    pub source: String,
    pub series: usize,
    pub points: usize,
    pub warnings: Vec<Warning>,
}

/// Reads the series whose `__name__` matches `name_regex` over `steps` and hands each, at the
/// steps, to `each`.
pub fn read_range(
    api: &Api,
    name_regex: &str,
    steps: Steps,
    each: &mut dyn FnMut(Series),
) -> Result<Outcome, ParseError> {
    let (start_ms, end_ms) = steps.window();
    let matchers = [(MATCH_REGEX, "__name__", name_regex)];
    let query = ReadQuery { start_ms, end_ms, matchers: &matchers, step_ms: steps.step_ms };
    let headers = [
        ("Content-Type", "application/x-protobuf"),
        ("Content-Encoding", "snappy"),
        ("X-Prometheus-Remote-Read-Version", "0.1.0"),
    ];
    let answer = api.post(READ_ENDPOINT, &headers, &read_request(&query))?;
    if answer.status != 200 || answer.content_type != STREAMED_TYPE {
        let shown = if answer.content_type.is_empty() { "no content type" } else { &answer.content_type };
        let said = quoted_start(answer.body);
        return Ok(Outcome::Refused(format!("HTTP {} ({shown}): {said}", answer.status)));
    }
    let source = api.url(READ_ENDPOINT);
    let summary = stream_frames(BufReader::with_capacity(1 << 16, answer.body), &source, steps, each)
        .map_err(|e| ParseError::invalid(&source, format!("the streamed answer's {e}")))?;
    Ok(Outcome::Read(ReadSummary { source, ..summary }))
}

/// Cuts `body` into frames on a thread of its own and decodes them in batches here, handing
/// each series on in the server's order.
pub fn stream_frames(
    body: impl std::io::BufRead + Send,
    source: &str,
    steps: Steps,
    each: &mut dyn FnMut(Series),
) -> Result<ReadSummary, String> {
    let (send, batches) = sync_channel::<Result<Vec<Frame>, String>>(BATCHES_AHEAD);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut reader = FrameReader::new(body);
            loop {
                let batch = next_batch(&mut reader);
                let last = !matches!(&batch, Ok(frames) if !frames.is_empty());
                // A closed channel: the decoding stopped at an error; so does the reading.
                if send.send(batch).is_err() || last {
                    return;
                }
            }
        });
        let (mut summary, mut notes, mut pending) = (ReadSummary::default(), BatchNotes::default(), None);
        let mut hand_on = |series: Vec<Series>, summary: &mut ReadSummary| {
            for one in series {
                (summary.series, summary.points) = (summary.series + 1, summary.points + one.values.len());
                each(one);
            }
        };
        for batch in batches {
            let frames = batch?;
            if frames.is_empty() {
                break;
            }
            let complete = decode_batch(&frames, &mut pending, &mut notes)?;
            hand_on(to_series(complete, steps), &mut summary);
        }
        hand_on(to_series(pending.into_iter().collect(), steps), &mut summary);
        if notes.other_chunks > 0 {
            summary.warnings.push(Warning::in_file(
                source,
                format!("{} chunks not of floats (native histograms) skipped", notes.other_chunks),
            ));
        }
        Ok(summary)
    })
}

/// The next frames, up to a batch; empty at the end of the answer.
fn next_batch(reader: &mut FrameReader<impl std::io::BufRead>) -> Result<Vec<Frame>, String> {
    let (mut frames, mut bytes) = (Vec::new(), 0);
    while frames.len() < BATCH_FRAMES && bytes < BATCH_BYTES {
        let Some(frame) = reader.next_frame()? else { break };
        bytes += frame.payload.len();
        frames.push(frame);
    }
    Ok(frames)
}

#[cfg(test)]
mod tests;
