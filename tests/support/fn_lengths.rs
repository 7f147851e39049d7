//! How long each function is: from the line of its `fn` keyword to the line of its closing
//! brace. Declarations without a body (trait methods, `extern` blocks) and `fn` pointer types
//! are not functions here; a nested `fn` is measured by itself (and within its parent).

use std::collections::BTreeMap;

use crate::rust_paths::{Tok, Token, ident, is, lex};

/// A function's name, the line of its `fn` and its length in lines.
#[derive(Debug, PartialEq)]
pub struct FnSpan {
    pub name: String,
    pub line: usize,
    pub lines: usize,
}

pub fn function_spans(src: &str) -> Vec<FnSpan> {
    let tokens = lex(src);
    let mut spans = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if ident(Some(t)) != Some("fn") {
            continue;
        }
        let Some(name) = ident(tokens.get(i + 1)) else { continue };
        let Some(open) = body_start(&tokens, i + 2) else { continue };
        let Some(close) = matching_brace(&tokens, open) else { continue };
        spans.push(FnSpan { name: name.to_string(), line: t.line, lines: tokens[close].line - t.line + 1 });
    }
    spans
}

/// The `{` that opens the body, skipping the signature's parentheses and brackets (`[u8; 4]`);
/// `None` at a `;` first (no body).
fn body_start(tokens: &[Token], from: usize) -> Option<usize> {
    let mut nesting = 0i32;
    for (j, t) in tokens.iter().enumerate().skip(from) {
        match t.tok {
            Tok::Punct('(' | '[') => nesting += 1,
            Tok::Punct(')' | ']') => nesting -= 1,
            Tok::Punct(';') if nesting <= 0 => return None,
            Tok::Punct('{') if nesting <= 0 => return Some(j),
            _ => {}
        }
    }
    None
}

fn matching_brace(tokens: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, t) in tokens.iter().enumerate().skip(open) {
        if is(Some(t), &Tok::Punct('{')) {
            depth += 1;
        } else if is(Some(t), &Tok::Punct('}')) {
            depth -= 1;
            if depth == 0 {
                return Some(j);
            }
        }
    }
    None
}

/// `file:line: fn NAME is N lines (over LIMIT)` for every function longer than `limit`.
pub fn long_functions(files: &BTreeMap<String, String>, limit: usize) -> Vec<String> {
    let mut found = Vec::new();
    for (file, src) in files {
        for span in function_spans(src).into_iter().filter(|s| s.lines > limit) {
            found.push(format!(
                "{file}:{}: fn {} is {} lines (over {limit})",
                span.line, span.name, span.lines
            ));
        }
    }
    found
}
