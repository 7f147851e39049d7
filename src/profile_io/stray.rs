//! Lines that do not belong to a dump: what infiniband-diags print on stderr, captured into the
//! file by `tool >file 2>&1`. Parsers skip them with a warning that says so, rather than calling
//! them unparseable.

/// True for the shapes of infiniband-diags' and libibmad's error output:
/// `ibwarn: [1234] mad_rpc: _do_madrpc failed; …`, `ibpanic: …`, `src/query_smp.c:228; umad (DR path …)
/// bad status 110; Connection timed out`, `ibnetdiscover: iberror: failed: …`.
pub fn looks_like_stderr(line: &str) -> bool {
    let line = line.trim_start();
    let first = line.split_whitespace().next().unwrap_or("");
    first.starts_with("ibwarn")
        || first.starts_with("ibpanic")
        || line.contains("iberror:")
        || is_source_location(first)
        || line.contains("_do_madrpc")
        || line.contains("Connection timed out")
}

/// `src/query_smp.c:228;` or `ibnetdisc.c:123:`.
fn is_source_location(word: &str) -> bool {
    let Some((file, rest)) = word.split_once(".c:") else {
        return false;
    };
    !file.is_empty() && rest.bytes().next().is_some_and(|b| b.is_ascii_digit())
}

/// True for the debug trace a tool prints with `-d`/`-v` (`ibwarn: [pid] umad_init: …`,
/// `./libibnetdisc/ibnetdisc.c:821; from DR path …`, `ibdebug: …`) when captured with `2>&1`:
/// hundreds of lines, counted in one warning rather than listed. A line that reports a failure
/// (`failed`, `timed out`, `bad status`, `iberror`) is not debug: it says data may be missing.
pub fn is_debug_trace(line: &str) -> bool {
    let line = line.trim_start();
    let traced = looks_like_stderr(line) || line.starts_with("ibdebug");
    let lower = line.to_ascii_lowercase();
    traced && !["failed", "timed out", "bad status", "iberror", "error"].iter().any(|w| lower.contains(w))
}

/// The warning text for a skipped line, quoting (the start of) it.
pub fn skipped(line: &str) -> String {
    let shown: String = line.trim().chars().take(80).collect();
    if looks_like_stderr(line) {
        format!("skipped a tool's error message mixed into the dump: `{shown}`")
    } else {
        format!("unrecognised line; skipped: `{shown}`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infiniband_diags_error_lines_are_recognised() {
        assert!(looks_like_stderr(
            "ibwarn: [30251] mad_rpc: _do_madrpc failed; dport (DR path slid 0; dlid 0; 0,1,3)"
        ));
        assert!(looks_like_stderr(
            "src/query_smp.c:228; umad (DR path slid 0; dlid 0; 0,1,3 Attr 0x11:0) bad status 110; Connection timed out"
        ));
        assert!(looks_like_stderr("ibnetdiscover: iberror: failed: discover failed"));
        assert!(!looks_like_stderr("[1]\t\"H-0002c9030001002a\"[1](2c9030001002b)"));
        assert!(!looks_like_stderr(
            "0x0001 001 : (Channel Adapter portguid 0x0002c90300010001: 'n0001 HCA-1')"
        ));
    }

    #[test]
    fn debug_traces_are_told_from_failures() {
        assert!(is_debug_trace("ibwarn: [22264] umad_init: umad_init"));
        assert!(is_debug_trace("./libibnetdisc/ibnetdisc.c:821; from DR path slid 0; dlid 0; 0"));
        assert!(is_debug_trace("ibdebug: [22604] switch_iter_func: SWITCH: node 0x5588ab864d60"));
        assert!(!is_debug_trace("ibwarn: [30251] mad_rpc: _do_madrpc failed; dport (DR path slid 0)"));
        assert!(!is_debug_trace("src/query_smp.c:228; umad (DR path) bad status 110; Connection timed out"));
        assert!(!is_debug_trace("CA    44  1 0x0002c90300010053 4x QDR - SW     3 21 0x0002c90200010001"));
    }

    #[test]
    fn the_warning_says_what_kind_of_line_was_skipped() {
        assert!(skipped("ibwarn: [1] x").starts_with("skipped a tool's error message"));
        assert!(skipped("hello").starts_with("unrecognised line"));
    }
}
