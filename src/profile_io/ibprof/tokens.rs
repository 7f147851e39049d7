//! Splitting an ibprof line into tokens: whitespace-separated, `#` starts a comment, and
//! double-quoted strings may hold spaces, `#`, `\"` and `\\`.

/// Splits one line into `out` (cleared first). Returns an error for an unterminated quote.
pub fn tokenize<'a>(line: &'a str, out: &mut Vec<std::borrow::Cow<'a, str>>) -> Result<(), &'static str> {
    out.clear();
    // Fast path: the counter lines that make up nearly all of a profile have no quotes.
    if !line.contains('"') {
        let content = line.split('#').next().unwrap_or("");
        out.extend(content.split_ascii_whitespace().map(std::borrow::Cow::Borrowed));
        return Ok(());
    }
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b' ' | b'\t' | b'\r' => i += 1,
            b'#' => break,
            b'"' => {
                let mut text = String::new();
                i += 1;
                loop {
                    match bytes.get(i) {
                        None => return Err("unterminated quoted string"),
                        Some(b'"') => {
                            i += 1;
                            break;
                        }
                        Some(b'\\') if matches!(bytes.get(i + 1), Some(b'"' | b'\\')) => {
                            text.push(bytes[i + 1] as char);
                            i += 2;
                        }
                        Some(_) => {
                            let rest = &line[i..];
                            let len = rest.find(['"', '\\']).unwrap_or(rest.len()).max(1);
                            let len = (1..=len).rev().find(|&l| rest.is_char_boundary(l)).unwrap_or(len);
                            text.push_str(&rest[..len]);
                            i += len;
                        }
                    }
                }
                out.push(std::borrow::Cow::Owned(text));
            }
            _ => {
                let start = i;
                while i < bytes.len() && !matches!(bytes[i], b' ' | b'\t' | b'\r' | b'#' | b'"') {
                    i += 1;
                }
                out.push(std::borrow::Cow::Borrowed(&line[start..i]));
            }
        }
    }
    Ok(())
}

/// Writes a string as one token: bare if it can be, else quoted with escapes.
pub fn quote(text: &str) -> String {
    let bare = !text.is_empty() && !text.chars().any(|c| c.is_whitespace() || matches!(c, '"' | '#' | '\\'));
    if bare {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(line: &str) -> Vec<String> {
        let mut out = Vec::new();
        tokenize(line, &mut out).unwrap();
        out.into_iter().map(|t| t.into_owned()).collect()
    }

    #[test]
    fn quoted_strings_keep_spaces_hashes_and_escapes() {
        assert_eq!(
            split(r#"job ranks 4 mpi "Open MPI 4.1 #1 \"x\" \\" source pmpi # done"#),
            ["job", "ranks", "4", "mpi", r#"Open MPI 4.1 #1 "x" \"#, "source", "pmpi"]
        );
        assert_eq!(split("peer 3 sent 10 recv 20   # comment"), ["peer", "3", "sent", "10", "recv", "20"]);
        assert_eq!(split(r#"region 1 name "" dumptime 1.0"#), ["region", "1", "name", "", "dumptime", "1.0"]);
    }

    #[test]
    fn an_unterminated_quote_is_an_error() {
        let mut out = Vec::new();
        assert!(tokenize(r#"region 1 name "exch"#, &mut out).is_err());
    }

    #[test]
    fn quoting_round_trips_through_tokenize() {
        for text in ["plain", "two words", "", r#"a "b" \c"#, "x#y", "naïve café"] {
            assert_eq!(split(&format!("k {}", quote(text))), ["k", text]);
        }
    }
}
