//! The scanner behind `tests/layers.rs`: Rust source as tokens (comments, strings and chars
//! dropped), and the module paths each file writes (`use` trees, `crate::`, `super::`, `self::`),
//! each with its line and the module it is written in.

// ---------------------------------------------------------------------------------------------
// Tokens: identifiers, `::` and single punctuation, with comments, strings and chars dropped.

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    Str(String),
    PathSep,
    Punct(char),
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub line: usize,
}

pub fn lex(src: &str) -> Vec<Token> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let ident_start = |ch: char| ch.is_alphabetic() || ch == '_';
    let ident_char = |ch: char| ch.is_alphanumeric() || ch == '_';
    // Skips a string body from its opening quote at `i` (raw with `hashes` #s, or escaped).
    let string = |mut i: usize, raw: Option<usize>, line: &mut usize| -> (usize, String) {
        let start = i + 1;
        i += 1;
        while i < c.len() {
            match (c[i], raw) {
                ('\\', None) => {
                    *line += usize::from(c.get(i + 1) == Some(&'\n'));
                    i += 1;
                }
                ('"', None) => break,
                ('"', Some(h)) if c[i + 1..].iter().take(h).filter(|&&x| x == '#').count() == h => break,
                ('\n', _) => *line += 1,
                _ => {}
            }
            i += 1;
        }
        let text: String = c[start..i.min(c.len())].iter().collect();
        (i + 1 + raw.unwrap_or(0), text)
    };
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied().unwrap_or('\0');
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && next == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
            }
        } else if ch == '"' {
            let at = line;
            let (end, text) = string(i, None, &mut line);
            out.push(Token { tok: Tok::Str(text), line: at });
            i = end;
        } else if ch == '\'' {
            // A char literal ('x', '\n', '\u{1F600}') or a lifetime/label ('a): skip either.
            if next == '\\' {
                i += 3;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if ident_start(ch) {
            let start = i;
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            let at = line;
            let prefix = matches!(word.as_str(), "r" | "b" | "br" | "rb" | "c" | "cr");
            let hashes = c[i..].iter().take_while(|&&x| x == '#').count();
            if prefix && c.get(i + hashes) == Some(&'"') {
                let raw = word.contains('r').then_some(hashes);
                let (end, text) = string(i + hashes, raw, &mut line);
                out.push(Token { tok: Tok::Str(text), line: at });
                i = end;
            } else if word == "b" && c.get(i) == Some(&'\'') {
                // A byte literal: the char rule skips it next.
            } else if word == "r" && hashes == 1 && c.get(i + 1).is_some_and(|&x| ident_start(x)) {
                // A raw identifier, r#gen: the identifier follows.
                i += 1;
            } else {
                out.push(Token { tok: Tok::Ident(word), line: at });
            }
        } else if ch.is_ascii_digit() {
            while i < c.len()
                && (ident_char(c[i]) || (c[i] == '.' && c.get(i + 1).is_some_and(char::is_ascii_digit)))
            {
                i += 1;
            }
        } else if ch == ':' && next == ':' {
            out.push(Token { tok: Tok::PathSep, line });
            i += 2;
        } else {
            out.push(Token { tok: Tok::Punct(ch), line });
            i += 1;
        }
    }
    out
}

pub fn ident(t: Option<&Token>) -> Option<&str> {
    match t.map(|t| &t.tok) {
        Some(Tok::Ident(s)) => Some(s),
        _ => None,
    }
}

pub fn is(t: Option<&Token>, want: &Tok) -> bool {
    t.is_some_and(|t| &t.tok == want)
}

// ---------------------------------------------------------------------------------------------
// References: every path a file writes, with the module it is written in.

/// A path as written (`crate`, `super`, `self` or a name first), each segment with its line, and
/// the module (from the crate root) it is written in.
#[derive(Clone, Debug)]
pub struct Reference {
    pub segments: Vec<(String, usize)>,
    pub module: Vec<String>,
}

impl Reference {
    /// The path from the crate root and the line of its first segment there, if it is
    /// crate-relative (`crate::`, `super::`, `self::`).
    pub fn resolve(&self) -> Option<(Vec<String>, usize)> {
        let first = self.segments.first()?.0.as_str();
        let mut at = self.module.clone();
        let mut rest = &self.segments[..];
        match first {
            "crate" => {
                at.clear();
                rest = &rest[1..];
            }
            "self" => rest = &rest[1..],
            "super" => {
                while rest.first().is_some_and(|s| s.0 == "super") {
                    at.pop()?;
                    rest = &rest[1..];
                }
            }
            _ => return None,
        }
        let line = rest.first().map_or(self.segments[0].1, |s| s.1);
        at.extend(rest.iter().map(|s| s.0.clone()));
        Some((at, line))
    }

    pub fn written(&self) -> String {
        self.segments.iter().map(|s| s.0.as_str()).collect::<Vec<_>>().join("::")
    }
}

/// What a file declares and writes.
#[derive(Debug, Default)]
pub struct FileScan {
    /// `mod NAME;` at the top of the file: (name, `#[path]` if any).
    pub mods: Vec<(String, Option<String>)>,
    pub references: Vec<Reference>,
}

/// A `use` tree from `i` (just after `use`): every leaf path, prefixed; returns the index of its `;`.
pub fn use_tree(
    tokens: &[Token],
    mut i: usize,
    prefix: Vec<(String, usize)>,
    leaves: &mut Vec<Vec<(String, usize)>>,
) -> usize {
    let mut path = prefix;
    loop {
        let t = tokens.get(i);
        match t.map(|t| &t.tok) {
            Some(Tok::Ident(word)) if word == "as" => i += 2,
            Some(Tok::Ident(word)) => {
                path.push((word.clone(), t.unwrap().line));
                i += 1;
            }
            Some(Tok::PathSep) => i += 1,
            Some(Tok::Punct('*')) => i += 1,
            Some(Tok::Punct('{')) => {
                i += 1;
                loop {
                    if is(tokens.get(i), &Tok::Punct('}')) {
                        i += 1;
                        break;
                    }
                    i = use_tree(tokens, i, path.clone(), leaves);
                    if is(tokens.get(i), &Tok::Punct(',')) {
                        i += 1;
                    }
                    if i >= tokens.len() {
                        return i;
                    }
                }
                return i;
            }
            _ => {
                if !path.is_empty() {
                    leaves.push(path);
                }
                return i;
            }
        }
    }
}

pub fn scan(src: &str, module: &[String]) -> FileScan {
    let tokens = lex(src);
    let mut out = FileScan::default();
    // Inline modules: (name, the brace depth inside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut path_attr: Option<String> = None;
    let here = |inline: &[(String, usize)]| -> Vec<String> {
        module.iter().cloned().chain(inline.iter().map(|m| m.0.clone())).collect()
    };
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        match &t.tok {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                if inline.last().is_some_and(|m| m.1 == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            // #[path = "file.rs"]
            Tok::Punct('#')
                if ident(tokens.get(i + 2)) == Some("path") && is(tokens.get(i + 3), &Tok::Punct('=')) =>
            {
                if let Some(Tok::Str(p)) = tokens.get(i + 4).map(|t| &t.tok) {
                    path_attr = Some(p.clone());
                }
            }
            Tok::Ident(w) if w == "mod" => {
                if let Some(name) = ident(tokens.get(i + 1)) {
                    if is(tokens.get(i + 2), &Tok::Punct('{')) {
                        inline.push((name.to_string(), depth + 1));
                    } else if is(tokens.get(i + 2), &Tok::Punct(';')) && inline.is_empty() {
                        out.mods.push((name.to_string(), path_attr.take()));
                    }
                }
                path_attr = None;
            }
            Tok::Ident(w) if w == "use" && !is(tokens.get(i + 1), &Tok::Punct('<')) => {
                let mut leaves = Vec::new();
                let start = if is(tokens.get(i + 1), &Tok::PathSep) { i + 2 } else { i + 1 };
                let external = start == i + 2;
                let end = use_tree(&tokens, start, Vec::new(), &mut leaves);
                if !external {
                    let module = here(&inline);
                    out.references.extend(
                        leaves.into_iter().map(|segments| Reference { segments, module: module.clone() }),
                    );
                }
                i = end.max(i + 1);
                continue;
            }
            Tok::Ident(w)
                if (w == "crate" || w == "super")
                    && is(tokens.get(i + 1), &Tok::PathSep)
                    && !is(tokens.get(i.wrapping_sub(1)), &Tok::PathSep) =>
            {
                let mut segments = vec![(w.clone(), t.line)];
                let mut j = i + 1;
                while is(tokens.get(j), &Tok::PathSep) {
                    let Some(next) = ident(tokens.get(j + 1)) else { break };
                    segments.push((next.to_string(), tokens[j + 1].line));
                    j += 2;
                }
                out.references.push(Reference { segments, module: here(&inline) });
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}
