//! Files on disk are parsed as they are read (streamed), texts in memory whole (in parallel
//! chunks for profiles and tables): the same bytes must give the same records, warnings (line
//! and message) and errors either way. The bytes are written to one scratch file per process and
//! read back through each streaming reader: ibprof, `.lst`, `ibroute`/`dump_fts`, Boxfish table.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::model::Warning;
use shoal::profile_io::boxfish_table::parse_table;
use shoal::profile_io::ibdiagnet_lst::read_lst;
use shoal::profile_io::ibprof::{parse_profile, read_profile};
use shoal::profile_io::ibroute::parse_ibroute;
use shoal::profile_io::{Input, ParseError};

fn said(warnings: &[Warning]) -> Vec<(Option<usize>, String)> {
    warnings.iter().map(|w| (w.line, w.message.clone())).collect()
}

/// The streamed result against the whole one: equal records and warnings, or the same error
/// (the streamed one may list the warnings before it).
fn same<T: PartialEq + std::fmt::Debug>(
    what: &str,
    streamed: Result<(T, Vec<Warning>), ParseError>,
    whole: Result<(T, Vec<Warning>), ParseError>,
) {
    match (streamed, whole) {
        (Ok((a, wa)), Ok((b, wb))) => {
            assert_eq!(a, b, "{what}: same records");
            assert_eq!(said(&wa), said(&wb), "{what}: same warnings");
        }
        (Err(a), Err(b)) => {
            let (a, b) = (a.to_string(), b.to_string());
            assert!(a.starts_with(&b), "{what}: same error\nstreamed: {a}\nwhole: {b}");
        }
        (a, b) => panic!("{what}: streamed {:?}, whole {:?}", a.map(|_| ()), b.map(|_| ())),
    }
}

/// The whole path: `Input::from_bytes` (its warnings first), then the parser on the text.
fn whole<T>(
    path: &str,
    data: &[u8],
    parse: impl FnOnce(&Input) -> Result<(T, Vec<Warning>), ParseError>,
) -> Result<(T, Vec<Warning>), ParseError> {
    let (input, mut warnings) = Input::from_bytes(path, data.to_vec())?;
    // As the rail loader does: an error carries the warnings gathered before it.
    let (records, more) = parse(&input).map_err(|e| e.with_warnings(warnings.clone()))?;
    warnings.extend(more);
    Ok((records, warnings))
}

fuzz_target!(|data: &[u8]| {
    let file = std::env::temp_dir().join(format!("shoal-fuzz-streamed-{}", std::process::id()));
    std::fs::write(&file, data).expect("the scratch file is writable");
    let shown = file.display().to_string();
    let profile = |input: &Input| parse_profile(input.text(), input.display());
    same("ibprof", read_profile(&file), whole(&shown, data, profile));
    same("lst", read_lst(&Input::deferred(&file)), whole(&shown, data, read_lst));
    same("ibroute", parse_ibroute(&Input::deferred(&file)), whole(&shown, data, parse_ibroute));
    same("boxfish table", parse_table(&Input::deferred(&file)), whole(&shown, data, parse_table));
});
