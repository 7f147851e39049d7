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
#[derive(Clone, Debug, Default)]
pub struct Reference {
    pub segments: Vec<(String, usize)>,
    pub module: Vec<String>,
    /// Written in test code: a `#[cfg(test)]` item or module, or a `use` under one.
    pub in_test: bool,
    /// A leaf of a `pub use` (any `pub(…)` too): a re-export, passed through to its users.
    pub reexport: bool,
    /// For a `use` leaf written at the top of the file (not in an inline module or a body): the
    /// name it brings in (its alias, or its last segment).
    pub top_level_name: Option<String>,
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
    /// `mod NAME;` at the top of the file.
    pub mods: Vec<ModDecl>,
    pub references: Vec<Reference>,
    /// Names the file's own module declares (fn, struct, enum, trait, type, const, static,
    /// union, mod, macro_rules!), `use` excluded: bodies and inline modules are not read.
    pub items: Vec<String>,
}

/// A `mod NAME;` declaration: the file it names is another file of the tree.
#[derive(Debug, Default)]
pub struct ModDecl {
    pub name: String,
    /// Its `#[path = "…"]`, if any.
    pub path: Option<String>,
    /// Under `#[cfg(test)]` (or in test code): the module is a test module.
    pub test: bool,
}

/// One leaf of a `use` tree: its path, and its `as` name if any.
#[derive(Clone, Debug, Default)]
pub struct UseLeaf {
    pub path: Vec<(String, usize)>,
    pub alias: Option<String>,
}

impl UseLeaf {
    /// The name the leaf brings into scope: its alias, else its last segment (`a::{self}` is `a`).
    pub fn name(&self) -> Option<String> {
        if self.alias.is_some() {
            return self.alias.clone();
        }
        let mut names = self.path.iter().rev().map(|s| s.0.as_str()).filter(|s| *s != "self");
        names.next().map(String::from)
    }
}

/// A `use` tree from `i` (just after `use`): every leaf path, prefixed; returns the index of its `;`.
pub fn use_tree(
    tokens: &[Token],
    mut i: usize,
    prefix: Vec<(String, usize)>,
    leaves: &mut Vec<UseLeaf>,
) -> usize {
    let mut path = prefix;
    let mut alias = None;
    loop {
        let t = tokens.get(i);
        match t.map(|t| &t.tok) {
            Some(Tok::Ident(word)) if word == "as" => {
                alias = ident(tokens.get(i + 1)).map(String::from);
                i += 2;
            }
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
                    leaves.push(UseLeaf { path, alias });
                }
                return i;
            }
        }
    }
}

/// Keywords that declare a name in their module (`macro_rules!` is handled beside them).
const ITEM_KEYWORDS: &[&str] = &["fn", "struct", "enum", "trait", "type", "const", "static", "union", "mod"];

/// Where the scan stands: inline modules, brace depth, pending attributes, test code.
#[derive(Default)]
struct ScanState {
    /// Inline modules: (name, the brace depth inside them).
    inline: Vec<(String, usize)>,
    depth: usize,
    path_attr: Option<String>,
    /// A `#[cfg(test)]` was read and its item has not started yet.
    cfg_test: bool,
    /// The brace depth inside the test item being read, if any.
    test_depth: Option<usize>,
}

impl ScanState {
    fn in_test(&self) -> bool {
        self.cfg_test || self.test_depth.is_some()
    }

    fn at_top(&self) -> bool {
        self.depth == 0
    }

    fn here(&self, module: &[String]) -> Vec<String> {
        module.iter().cloned().chain(self.inline.iter().map(|m| m.0.clone())).collect()
    }

    fn open_brace(&mut self) {
        self.depth += 1;
        if std::mem::take(&mut self.cfg_test) && self.test_depth.is_none() {
            self.test_depth = Some(self.depth);
        }
    }

    fn close_brace(&mut self) {
        if self.inline.last().is_some_and(|m| m.1 == self.depth) {
            self.inline.pop();
        }
        if self.test_depth == Some(self.depth) {
            self.test_depth = None;
        }
        self.depth = self.depth.saturating_sub(1);
    }
}

/// True when the `use` at `i` is written `pub use` or `pub(…) use`.
fn is_pub_use(tokens: &[Token], i: usize) -> bool {
    let before = |k: usize| i.checked_sub(k).and_then(|j| tokens.get(j));
    if ident(before(1)) == Some("pub") {
        return true;
    }
    if !is(before(1), &Tok::Punct(')')) {
        return false;
    }
    let open = (2..8).find(|&k| is(before(k), &Tok::Punct('(')));
    open.is_some_and(|k| ident(before(k + 1)) == Some("pub"))
}

/// The name an item keyword at `i` declares, if it declares one.
fn declared_name(tokens: &[Token], i: usize) -> Option<String> {
    let word = ident(tokens.get(i))?;
    if word == "macro_rules" && is(tokens.get(i + 1), &Tok::Punct('!')) {
        return ident(tokens.get(i + 2)).map(String::from);
    }
    if !ITEM_KEYWORDS.contains(&word) {
        return None;
    }
    let mut next = i + 1;
    if word == "static" && ident(tokens.get(next)) == Some("mut") {
        next += 1;
    }
    let name = ident(tokens.get(next))?;
    // `const fn f`, `unsafe fn`: the keyword that follows declares the name.
    (!ITEM_KEYWORDS.contains(&name) && name != "unsafe" && name != "extern" && name != "async")
        .then(|| name.to_string())
}

pub fn scan(src: &str, module: &[String]) -> FileScan {
    let tokens = lex(src);
    let mut out = FileScan::default();
    let mut st = ScanState::default();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        if st.at_top() {
            out.items.extend(declared_name(&tokens, i));
        }
        match &t.tok {
            Tok::Punct('{') => st.open_brace(),
            Tok::Punct('}') => st.close_brace(),
            Tok::Punct(';') => st.cfg_test = false,
            // #[path = "file.rs"], #[cfg(test)]
            Tok::Punct('#')
                if ident(tokens.get(i + 2)) == Some("path") && is(tokens.get(i + 3), &Tok::Punct('=')) =>
            {
                if let Some(Tok::Str(p)) = tokens.get(i + 4).map(|t| &t.tok) {
                    st.path_attr = Some(p.clone());
                }
            }
            Tok::Punct('#')
                if ident(tokens.get(i + 2)) == Some("cfg")
                    && ident(tokens.get(i + 4)) == Some("test")
                    && is(tokens.get(i + 5), &Tok::Punct(')')) =>
            {
                st.cfg_test = true;
            }
            Tok::Ident(w) if w == "mod" => {
                if let Some(name) = ident(tokens.get(i + 1)) {
                    if is(tokens.get(i + 2), &Tok::Punct('{')) {
                        st.inline.push((name.to_string(), st.depth + 1));
                    } else if is(tokens.get(i + 2), &Tok::Punct(';')) && st.inline.is_empty() {
                        let path = st.path_attr.take();
                        out.mods.push(ModDecl { name: name.to_string(), path, test: st.in_test() });
                    }
                }
                st.path_attr = None;
            }
            Tok::Ident(w) if w == "use" && !is(tokens.get(i + 1), &Tok::Punct('<')) => {
                i = scan_use(&tokens, i, module, &st, &mut out.references);
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
                let module = st.here(module);
                out.references.push(Reference {
                    segments,
                    module,
                    in_test: st.in_test(),
                    ..Reference::default()
                });
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The `use` at `i`: its crate-relative leaves as references; returns the index after it.
fn scan_use(
    tokens: &[Token],
    i: usize,
    module: &[String],
    st: &ScanState,
    out: &mut Vec<Reference>,
) -> usize {
    let mut leaves = Vec::new();
    let start = if is(tokens.get(i + 1), &Tok::PathSep) { i + 2 } else { i + 1 };
    let external = start == i + 2;
    let end = use_tree(tokens, start, Vec::new(), &mut leaves);
    if !external {
        let here = st.here(module);
        let reexport = is_pub_use(tokens, i);
        out.extend(leaves.into_iter().map(|leaf| Reference {
            top_level_name: if st.at_top() { leaf.name() } else { None },
            segments: leaf.path,
            module: here.clone(),
            in_test: st.in_test(),
            reexport,
        }));
    }
    end.max(i + 1)
}
