//! Reading an ibprof file as a stream: lines are parsed as they are read, a piece at a time, and
//! only the parsed sections are kept, so memory follows what the profile holds, not what the
//! file expands to (a gzip bomb of a billion repeated `peer` lines costs one peer's counters).
//!
//! The grammar is [`super::chunk`]'s, in the same two parts as [`super::read::parse_text`]: the
//! prelude up to the first `rank` line (which must open with the header), then the sections.
//! The sections are parsed in file order on one thread; a text already in memory is parsed in
//! parallel chunks instead.

use crate::profile_io::error::ParseError;
use crate::profile_io::input::Input;

use super::chunk::{Context, Fatal, Parser};
use super::read::{Parsed, assemble, is_rank_line};

/// Whole lines are gathered into a piece of about this size before they are parsed (the parser's
/// fast path works on a run of lines).
const PIECE_BYTES: usize = 1 << 20;

/// Parses a profile input: streamed from its file when [deferred](Input::deferred), else its text.
pub(super) fn parse_input(input: &Input) -> Result<Parsed, ParseError> {
    let display = input.display();
    if input.deferred_path().is_none() {
        return super::read::parse_text(input.text(), display);
    }
    let mut stream = Streamed::default();
    let summary = input.for_each_line(|number, line, _| stream.line(number, line))?;
    match stream.finish(display, summary.unterminated_last_line.is_some()) {
        Ok(mut parsed) => {
            parsed.warnings.splice(0..0, summary.warnings);
            Ok(parsed)
        }
        // A bomb whose only line was skipped is "empty": the skip says why.
        Err(e) => Err(e.with_warnings(summary.warnings)),
    }
}

/// The state of a profile being read.
struct Streamed {
    /// Parses the prelude, then (from the first `rank` line on) the sections.
    parser: Parser,
    /// The prelude once it ended, with its line count.
    prelude: Option<super::chunk::Chunk>,
    /// Whole lines not parsed yet.
    piece: String,
    /// The number the next line should have (lines skipped for their length become blank).
    next: usize,
    last_blank: bool,
    fatal: Option<Fatal>,
}

impl Default for Streamed {
    fn default() -> Self {
        Streamed {
            parser: Parser::new(true, Context::default()),
            prelude: None,
            piece: String::new(),
            next: 1,
            last_blank: true,
            fatal: None,
        }
    }
}

impl Streamed {
    fn line(&mut self, number: usize, line: &str) {
        if self.fatal.is_some() {
            return;
        }
        for _ in self.next..number {
            self.piece.push('\n');
        }
        self.next = number + 1;
        self.last_blank = line.trim().is_empty();
        if self.prelude.is_none() && is_rank_line(line.as_bytes(), 0) {
            self.end_prelude();
            if self.fatal.is_some() {
                return;
            }
        }
        self.piece.push_str(line);
        self.piece.push('\n');
        if self.piece.len() >= PIECE_BYTES {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if let Err(fatal) = self.parser.feed(&self.piece) {
            self.fatal.get_or_insert(fatal);
        }
        self.piece.clear();
    }

    /// At the first `rank` line: the prelude must have had the header; its job bounds the rest.
    fn end_prelude(&mut self) {
        self.flush();
        if self.fatal.is_some() {
            return;
        }
        let prelude = std::mem::replace(&mut self.parser, Parser::new(false, Context::default())).finish();
        if !prelude.header_seen {
            let message = "not an ibprof profile: a `rank` line before the `ibprof 1` header";
            self.fatal = Some((prelude.lines + 1, message.into()));
            return;
        }
        self.parser = Parser::new(false, Context { job: prelude.job.clone() });
        self.prelude = Some(prelude);
    }

    /// What the stream gave; `unterminated` says its last line had no line end.
    fn finish(mut self, display: &str, unterminated: bool) -> Result<Parsed, ParseError> {
        self.flush();
        if let Some((line, message)) = self.fatal {
            // Lines of the prelude are absolute; a fatal problem is only ever in the prelude.
            return Err(ParseError::syntax(display, line, message));
        }
        let cut = unterminated && !self.last_blank;
        match self.prelude {
            Some(prelude) => Ok(assemble(cut, display, prelude, vec![self.parser.finish()])),
            None => {
                let prelude = self.parser.finish();
                if !prelude.header_seen {
                    return Err(ParseError::invalid(display, "empty profile: no `ibprof 1` header line"));
                }
                Ok(assemble(cut, display, prelude, Vec::new()))
            }
        }
    }
}
