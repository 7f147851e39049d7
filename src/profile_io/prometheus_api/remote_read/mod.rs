//! A range read through Prometheus's remote-read API (`POST /api/v1/read`), streamed chunks.
//!
//! Why: `query_range` cannot give a day of every port of the k = 36 rails in 10 s. Its answer
//! is JSON, ~25 bytes a sample: about 202 M samples and 5 GB, which Prometheus 2.42 writes at
//! 8 M samples/s at best (~25 s) before shoal parses it (6–7 s more). Remote read with
//! `STREAMED_XOR_CHUNKS` sends the stored chunks as they lie on disk (3.5–5.4 bytes a sample
//! measured, labels included), with no evaluation on the server: the decoding is shoal's, in
//! parallel.
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
/// steps and made ready by `prepare` (on the decoding's cores), to `each`.
pub fn read_range<T: Send>(
    api: &Api,
    name_regex: &str,
    steps: Steps,
    prepare: &(dyn Fn(Series) -> T + Sync),
    each: &mut dyn FnMut(T),
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
    let summary =
        stream_frames(BufReader::with_capacity(1 << 16, answer.body), &source, steps, prepare, each)
            .map_err(|e| ParseError::invalid(&source, format!("the streamed answer's {e}")))?;
    Ok(Outcome::Read(ReadSummary { source, ..summary }))
}

/// What the decoding hands the fold: a batch's series (each with its points' number, made
/// ready), or the end.
enum Decoded<T> {
    Series(Vec<(usize, T)>),
    Done(BatchNotes),
    Failed(String),
}

/// Cuts `body` into frames on one thread, decodes them in batches on another (with all cores,
/// where `prepare` makes each series ready too), and hands each series on here, in the server's
/// order: reading, decoding and folding overlap.
pub fn stream_frames<T: Send>(
    body: impl std::io::BufRead + Send,
    source: &str,
    steps: Steps,
    prepare: &(dyn Fn(Series) -> T + Sync),
    each: &mut dyn FnMut(T),
) -> Result<ReadSummary, String> {
    let (send_frames, frames) = sync_channel::<Result<Vec<Frame>, String>>(BATCHES_AHEAD);
    let (send_series, decoded) = sync_channel::<Decoded<T>>(BATCHES_AHEAD);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut reader = FrameReader::new(body);
            loop {
                let batch = next_batch(&mut reader);
                let last = !matches!(&batch, Ok(frames) if !frames.is_empty());
                // A closed channel: the decoding stopped at an error; so does the reading.
                if send_frames.send(batch).is_err() || last {
                    return;
                }
            }
        });
        scope.spawn(move || {
            let _ = send_series.send(decode_all(frames, steps, prepare, &send_series));
        });
        let mut summary = ReadSummary::default();
        for message in decoded {
            match message {
                Decoded::Series(series) => {
                    for (points, one) in series {
                        (summary.series, summary.points) = (summary.series + 1, summary.points + points);
                        each(one);
                    }
                }
                Decoded::Failed(error) => return Err(error),
                Decoded::Done(notes) if notes.other_chunks > 0 => {
                    summary.warnings.push(Warning::in_file(
                        source,
                        format!("{} chunks not of floats (native histograms) skipped", notes.other_chunks),
                    ));
                }
                Decoded::Done(_) => {}
            }
        }
        Ok(summary)
    })
}

/// Decodes every batch of `frames`, sending each batch's series on; the last message: how it
/// ended.
fn decode_all<T: Send>(
    frames: std::sync::mpsc::Receiver<Result<Vec<Frame>, String>>,
    steps: Steps,
    prepare: &(dyn Fn(Series) -> T + Sync),
    send: &std::sync::mpsc::SyncSender<Decoded<T>>,
) -> Decoded<T> {
    let (mut notes, mut pending) = (BatchNotes::default(), None);
    for batch in frames {
        let batch = batch.and_then(|frames| {
            let last = frames.is_empty();
            decode_batch(&frames, &mut pending, &mut notes).map(|complete| (complete, last))
        });
        match batch {
            Err(error) => return Decoded::Failed(error),
            Ok((_, true)) => break,
            // A closed channel: the fold has stopped; nothing more to decode.
            Ok((complete, false)) => {
                if send.send(Decoded::Series(to_series(complete, steps, prepare))).is_err() {
                    return Decoded::Done(notes);
                }
            }
        }
    }
    // A closed channel here too only means the fold has stopped.
    let _ = send.send(Decoded::Series(to_series(pending.into_iter().collect(), steps, prepare)));
    Decoded::Done(notes)
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
