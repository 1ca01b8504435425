//! The fences between the library's top-level modules: no two import each other, even through
//! others, and each imports only what the table below allows, so that a new upward import is a
//! decision made here and not an accident.
//!
//! A top-level module is the first path component under `src/` (`exact_cover` for
//! `src/exact_cover/learn/hall.rs`, `generate` for `src/generate.rs` and `src/generate/`).
//! The binary (`src/main.rs`, `src/cli/`) is not the library and is left out, and so is the
//! crate root `src/lib.rs`, which declares and re-exports every module.
//!
//! How a file is read: comments (doc comments included, so doc links such as
//! [`Shape`](crate::sudoku::Shape) do not count), string literals and character literals are
//! dropped; what is left is read as tokens. A module imports another when it names it by a
//! `crate::NAME` path, in a `use` item or in code, with `crate::{a::X, b::Y}` groups read
//! member by member, or by a `super::` path that climbs to the crate root. A name the root
//! re-exports (`crate::Budget`) counts as its module (`budget`), read from `src/lib.rs`.
//! Test code is skipped: the item or statement after `#[cfg(test)]` (a `mod tests { .. }`
//! block, a function, a statement), and the files of a `#[cfg(test)] mod NAME;`
//! (`src/csp/tests.rs`, `src/test_data.rs`). Other `cfg` attributes are ignored, so
//! feature-gated code counts as if the feature were on.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module with the top-level modules it may import. The order is a layering:
/// each module imports only modules listed above it, which keeps the table free of cycles.
/// Adding a name here is a decision about the library's shape; so is adding a module.
// One module a line, so that the table reads as a table.
#[rustfmt::skip]
const ALLOWED: &[(&str, &[&str])] = &[
    // Leaves: the matching kernel, the error type, the restart schedule, the ordered runner.
    ("bipartite", &[]),
    ("error", &[]),
    ("restart", &[]),
    ("runner", &[]),
    // What every search is asked and answers: budgets, requests, counts, stops.
    ("budget", &["restart"]),
    // The board model: groups of cells, for Sudoku and its variants.
    ("board", &["error"]),
    // Exact cover knows nothing of Sudoku, boards or the CSP (see SUDOKU_AND_CSP).
    ("exact_cover", &["bipartite", "budget", "error", "restart"]),
    ("problems", &["error", "exact_cover"]),
    // Sudoku: shapes, grids and their exact-cover encoding; then reading and writing them.
    ("sudoku", &["board", "error", "exact_cover"]),
    ("io", &["board", "error", "exact_cover", "sudoku"]),
    // Shard results, read as every text is (`io::lines`), and the long counts that write them.
    ("merge", &["budget", "error", "io"]),
    ("long_count", &["budget", "error", "exact_cover", "merge"]),
    // The engines over boards, and what is built on them.
    ("csp", &["bipartite", "board", "budget", "error", "restart", "runner", "sudoku"]),
    ("engine", &["board", "budget", "csp", "error", "exact_cover", "restart", "sudoku"]),
    ("logic", &["board", "budget", "engine", "error", "io", "runner", "sudoku"]),
    ("generate", &["board", "budget", "csp", "engine", "error", "exact_cover", "logic", "restart", "sudoku"]),
    ("batch", &["board", "budget", "engine", "error", "exact_cover", "io", "runner", "sudoku"]),
    ("compare", &["batch", "budget", "engine", "error", "io", "restart", "runner", "sudoku"]),
    // The requests that every front end asks: the top, which may import what is below.
    ("request", &[
        "batch", "board", "budget", "compare", "csp", "engine", "error", "exact_cover", "generate", "io", "logic",
        "long_count", "merge",
        "restart", "runner", "sudoku",
    ]),
];

/// What `exact_cover` must never import: it is the general engine that the Sudoku and CSP
/// parts are built on. (The learning search's Hall checks reach the matching kernel in
/// `bipartite`, not the CSP.)
const SUDOKU_AND_CSP: &[&str] = &[
    "batch", "board", "compare", "csp", "engine", "generate", "logic", "sudoku",
];

#[test]
fn no_import_cycle_between_top_level_modules() {
    let graph = Imports::of_the_library();
    let cycles = graph.cycles();
    assert!(
        cycles.is_empty(),
        "import cycles between top-level modules:\n{}",
        cycles
            .iter()
            .map(|(members, cycle)| format!(
                "  {} reach each other; the shortest cycle from {}:\n    {}\n{}",
                members.join(", "),
                cycle[0],
                cycle.join(" -> "),
                graph.where_(cycle)
            ))
            .collect::<String>()
    );
}

#[test]
fn top_level_modules_import_only_what_the_table_allows() {
    let graph = Imports::of_the_library();
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut breaches = Vec::new();
    for (module, imports) in &graph.edges {
        let Some(may) = allowed.get(module.as_str()) else {
            breaches.push(format!(
                "  {module} is a new top-level module: add it to ALLOWED in tests/layering.rs \
                 with what it may import"
            ));
            continue;
        };
        for (import, (file, line)) in imports {
            if !may.contains(&import.as_str()) {
                breaches.push(format!(
                    "  {module} -> {import} (first at {}:{line}) is not in ALLOWED",
                    file.display()
                ));
            }
        }
    }
    assert!(
        breaches.is_empty(),
        "imports between top-level modules that the table in tests/layering.rs does not \
         allow:\n{}",
        breaches.join("\n")
    );
}

#[test]
fn the_table_is_a_layering_and_keeps_exact_cover_general() {
    // Each module may import only modules listed above it, so the table has no cycle.
    for (i, (module, imports)) in ALLOWED.iter().enumerate() {
        for import in *imports {
            let above = ALLOWED[..i].iter().any(|(m, _)| m == import);
            assert!(
                above,
                "{module} may import {import}, which is not listed above it"
            );
        }
    }
    let (_, exact_cover) = ALLOWED.iter().find(|(m, _)| *m == "exact_cover").unwrap();
    for import in *exact_cover {
        assert!(
            !SUDOKU_AND_CSP.contains(import),
            "exact_cover may not import {import}: it knows nothing of Sudoku or the CSP"
        );
    }
}

#[test]
fn the_reader_counts_code_and_skips_comments_strings_and_tests() {
    let text = r##"
//! A doc link [`Shape`](crate::sudoku::Shape) and `crate::logic` in a comment.
use crate::{budget::Budget, error::{Error, Result}, Stop};
/* crate::generate, /* nested */ crate::engine */
fn f<'a>(s: &'a str) -> char {
    let _ = "crate::csp::Config";
    let _ = r#"crate::board"#;
    let _ = crate::exact_cover::Dlx::new;
    '{'
}
mod inner {
    use super::super::io;
}
#[cfg(test)]
mod tests {
    use crate::sudoku::Grid;
    fn g() { let _ = '}'; }
}
#[cfg(test)]
fn helper() -> [u8; 2] { crate::compare::run() }
#[cfg(test)]
mod more;
use crate::merge;
"##;
    let roots = BTreeMap::from([("Stop".to_string(), "budget".to_string())]);
    let mut found = BTreeSet::new();
    let mut test_modules = Vec::new();
    read_imports(
        &lex(text),
        1,
        &mut |name, _line| {
            found.insert(roots.get(&name).cloned().unwrap_or(name));
        },
        &mut |name| test_modules.push(name),
    );
    let expected = ["budget", "error", "exact_cover", "io", "merge"];
    assert_eq!(found, expected.iter().map(|m| m.to_string()).collect());
    assert_eq!(test_modules, ["more"]);
}

/// The imports between the library's top-level modules, each with where it is first seen.
struct Imports {
    edges: BTreeMap<String, BTreeMap<String, (PathBuf, usize)>>,
}

impl Imports {
    /// Reads every library file under `src/`.
    fn of_the_library() -> Imports {
        let root = crate::support::root();
        let src = root.join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        files.retain(|f| f != &src.join("main.rs") && !f.starts_with(src.join("cli")));
        let top_level: BTreeSet<String> = files
            .iter()
            .filter(|f| *f != &src.join("lib.rs"))
            .map(|f| top_level_of(&src, f))
            .collect();

        // First pass: the files that only tests compile, and the root's re-exports.
        let tokens: BTreeMap<&PathBuf, Vec<(Token, usize)>> = files
            .iter()
            .map(|f| (f, lex(&fs::read_to_string(f).unwrap())))
            .collect();
        let mut test_only = Vec::new();
        for (file, tokens) in &tokens {
            let dir = child_dir(&src, file);
            read_imports(
                tokens,
                module_depth(&src, file),
                &mut |_, _| {},
                &mut |name| {
                    test_only.push(dir.join(format!("{name}.rs")));
                    test_only.push(dir.join(name));
                },
            );
        }
        let reexports = reexports(&tokens[&src.join("lib.rs")]);

        // Second pass: the imports.
        let mut edges: BTreeMap<String, BTreeMap<String, (PathBuf, usize)>> = BTreeMap::new();
        let mut unknown = Vec::new();
        for (file, tokens) in &tokens {
            if *file == &src.join("lib.rs") || test_only.iter().any(|t| file.starts_with(t)) {
                continue;
            }
            let module = top_level_of(&src, file);
            let imports = edges.entry(module.clone()).or_default();
            let relative = file.strip_prefix(root).unwrap().to_path_buf();
            let mut import = |name: String, line: usize| {
                let target = match reexports.get(&name) {
                    Some(target) => target.clone(),
                    None if top_level.contains(&name) => name,
                    None => {
                        unknown.push(format!("{}:{line}: crate::{name}", relative.display()));
                        return;
                    }
                };
                if target != module {
                    imports.entry(target).or_insert((relative.clone(), line));
                }
            };
            read_imports(tokens, module_depth(&src, file), &mut import, &mut |_| {});
        }
        assert!(
            unknown.is_empty(),
            "paths the layering test cannot place in a top-level module:\n{}",
            unknown.join("\n")
        );
        Imports { edges }
    }

    /// Every set of modules that reach each other through imports, with the shortest cycle
    /// from its first module.
    fn cycles(&self) -> Vec<(Vec<String>, Vec<String>)> {
        let mut cycles = Vec::new();
        let mut named = BTreeSet::new();
        for start in self.edges.keys() {
            if named.contains(start) {
                continue;
            }
            if let Some(cycle) = self.shortest_path(start, start) {
                let members: Vec<String> = (self.edges.keys())
                    .filter(|m| {
                        self.shortest_path(start, m).is_some()
                            && self.shortest_path(m, start).is_some()
                    })
                    .cloned()
                    .collect();
                named.extend(members.iter().cloned());
                cycles.push((members, cycle));
            }
        }
        cycles
    }

    /// The shortest path of one import or more from `from` to `to`, both ends included.
    fn shortest_path(&self, from: &str, to: &str) -> Option<Vec<String>> {
        let mut parent: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = VecDeque::from([from]);
        while let Some(at) = queue.pop_front() {
            for next in self.edges.get(at).into_iter().flat_map(|m| m.keys()) {
                if next == to {
                    let mut path = vec![to.to_string(), at.to_string()];
                    let mut back = at;
                    while back != from {
                        back = parent[back];
                        path.push(back.to_string());
                    }
                    path.reverse();
                    return Some(path);
                }
                if next != from && !parent.contains_key(next.as_str()) {
                    parent.insert(next, at);
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// Where each import of `cycle` is first seen.
    fn where_(&self, cycle: &[String]) -> String {
        cycle
            .windows(2)
            .map(|pair| {
                let (file, line) = &self.edges[&pair[0]][&pair[1]];
                format!(
                    "    {} -> {} at {}:{line}\n",
                    pair[0],
                    pair[1],
                    file.display()
                )
            })
            .collect()
    }
}

/// Every `.rs` file under `dir`, in order.
fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = (fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The top-level module of a file under `src`: its first path component, without `.rs`.
fn top_level_of(src: &Path, file: &Path) -> String {
    let first = file.strip_prefix(src).unwrap().components().next().unwrap();
    let name = first.as_os_str().to_str().unwrap();
    name.strip_suffix(".rs").unwrap_or(name).to_string()
}

/// How many modules deep a file's module is: 1 for `src/a.rs` and `src/a/mod.rs`, 2 for
/// `src/a/b.rs`; 0 for the root. So many `super::`s reach the crate root.
fn module_depth(src: &Path, file: &Path) -> usize {
    let parts = file.strip_prefix(src).unwrap().components().count();
    match file.file_name().unwrap().to_str().unwrap() {
        "lib.rs" | "mod.rs" => parts - 1,
        _ => parts,
    }
}

/// The directory of a file's child modules: `src/a/` for `src/a.rs` and `src/a/mod.rs`.
fn child_dir(src: &Path, file: &Path) -> PathBuf {
    match file.file_name().unwrap().to_str().unwrap() {
        "lib.rs" => src.to_path_buf(),
        "mod.rs" => file.parent().unwrap().to_path_buf(),
        _ => file.with_extension(""),
    }
}

/// A token of Rust code that survives the reading: comments, strings and characters go.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    Punct(char),
}

/// The tokens of `text`, each with its 1-based line: identifiers (and numbers, which nothing
/// here asks about) and single punctuation characters.
fn lex(text: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let mut tokens = Vec::new();
    let (mut i, mut line) = (0, 1);
    // Skips to just past the `"` that closes a string starting at `i`, counting lines;
    // `hashes` is the number of `#`s after the closing quote of a raw string, or `None`
    // for an ordinary string, where `\` escapes.
    let skip_string = |mut i: usize, hashes: Option<usize>, line: &mut usize| -> usize {
        while i < chars.len() {
            match (chars[i], hashes) {
                ('\n', _) => *line += 1,
                ('\\', None) => {
                    if at(i + 1) == '\n' {
                        *line += 1;
                    }
                    i += 1;
                }
                ('"', None) => return i + 1,
                ('"', Some(n)) if (1..=n).all(|k| at(i + k) == '#') => return i + 1 + n,
                _ => {}
            }
            i += 1;
        }
        i
    };
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == '"' {
            i = skip_string(i + 1, None, &mut line);
        } else if c == '\'' {
            if at(i + 1) == '\\' {
                // An escaped character: past the escape, then to the closing quote.
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3; // A character such as '{'.
            } else {
                i += 1; // A lifetime or a label: its name is read as an identifier.
            }
        } else if c.is_alphanumeric() || c == '_' {
            // A raw or byte string (r"..", r#".."#, b"..", br".."), else an identifier.
            let prefix_end = match (c, at(i + 1)) {
                ('b', 'r') => i + 2,
                ('r', _) => i + 1,
                ('b', '"') => i + 1,
                _ => i,
            };
            let hashes = (prefix_end..).take_while(|&k| at(k) == '#').count();
            if prefix_end > i && at(prefix_end + hashes) == '"' {
                let raw = c == 'r' || at(i + 1) == 'r';
                let end = prefix_end + hashes + 1;
                i = skip_string(end, raw.then_some(hashes), &mut line);
            } else if c == 'b' && at(i + 1) == '\'' {
                i += 1; // A byte character: the quote comes next.
            } else {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                tokens.push((Token::Ident(chars[start..i].iter().collect()), line));
            }
        } else {
            tokens.push((Token::Punct(c), line));
            i += 1;
        }
    }
    tokens
}

/// Reads a file's tokens: calls `import` with the name after each `crate::` (each member's
/// first name in a `crate::{..}` group) and after each `super::` chain that climbs to the
/// crate root from a module `depth` deep, and `test_module` with the name of each
/// `#[cfg(test)] mod NAME;`. Skips the item or statement after each `#[cfg(test)]`.
fn read_imports(
    tokens: &[(Token, usize)],
    depth: usize,
    import: &mut dyn FnMut(String, usize),
    test_module: &mut dyn FnMut(String),
) {
    let is = |i: usize, t: &str| match tokens.get(i) {
        Some((Token::Ident(s), _)) => s == t,
        Some((Token::Punct(c), _)) => t.len() == 1 && t.starts_with(*c),
        None => false,
    };
    let ident = |i: usize| match tokens.get(i) {
        Some((Token::Ident(s), _)) => Some(s.clone()),
        _ => None,
    };
    let path_sep = |i: usize| is(i, ":") && is(i + 1, ":");
    // The brace depth at which each enclosing inline `mod NAME {` opened.
    let mut inline_mods: Vec<usize> = Vec::new();
    let mut braces = 0;
    let mut i = 0;
    while i < tokens.len() {
        let line = tokens[i].1;
        if is(i, "#") && is(i + 1, "[") {
            let end = closing(tokens, i + 1);
            let cfg_test = end == i + 6 && is(i + 2, "cfg") && is(i + 4, "test");
            i = end + 1;
            if cfg_test {
                // Further attributes, a visibility, then the item.
                while is(i, "#") && is(i + 1, "[") {
                    i = closing(tokens, i + 1) + 1;
                }
                let mut j = i;
                if is(j, "pub") {
                    j += 1;
                    if is(j, "(") {
                        j = closing(tokens, j) + 1;
                    }
                }
                if is(j, "mod") && is(j + 2, ";") {
                    test_module(ident(j + 1).unwrap());
                }
                i = end_of_item(tokens, i);
            }
        } else if is(i, "mod") && ident(i + 1).is_some() && is(i + 2, "{") {
            inline_mods.push(braces);
            braces += 1;
            i += 3;
        } else if is(i, "{") {
            braces += 1;
            i += 1;
        } else if is(i, "}") {
            braces -= 1;
            if inline_mods.last() == Some(&braces) {
                inline_mods.pop();
            }
            i += 1;
        } else if is(i, "crate") && path_sep(i + 1) && !(i > 0 && is(i - 1, ":")) {
            i = named_after(tokens, i + 3, line, import);
        } else if is(i, "super") && path_sep(i + 1) && !(i > 0 && is(i - 1, ":")) {
            let mut climbs = 0;
            while is(i, "super") && path_sep(i + 1) {
                climbs += 1;
                i += 3;
            }
            if climbs == depth + inline_mods.len() {
                i = named_after(tokens, i, line, import);
            }
        } else {
            i += 1;
        }
    }
}

/// Calls `import` with the name at `i`, or with the first name of each member of a `{..}`
/// group at `i`; returns the position after it.
fn named_after(
    tokens: &[(Token, usize)],
    i: usize,
    line: usize,
    import: &mut dyn FnMut(String, usize),
) -> usize {
    match &tokens[i].0 {
        Token::Ident(name) => {
            import(name.clone(), line);
            i + 1
        }
        Token::Punct('{') => {
            let end = closing(tokens, i);
            let mut depth = 0;
            for k in i..end {
                match &tokens[k].0 {
                    Token::Punct('{') => depth += 1,
                    Token::Punct('}') => depth -= 1,
                    Token::Ident(name)
                        if depth == 1 && matches!(tokens[k - 1].0, Token::Punct('{' | ',')) =>
                    {
                        import(name.clone(), tokens[k].1);
                    }
                    _ => {}
                }
            }
            end + 1
        }
        _ => i + 1,
    }
}

/// The position of the bracket that closes the one at `open` (`(`, `[` or `{`).
fn closing(tokens: &[(Token, usize)], open: usize) -> usize {
    let mut depth = 0;
    for (k, (token, _)) in tokens.iter().enumerate().skip(open) {
        match token {
            Token::Punct('(' | '[' | '{') => depth += 1,
            Token::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

/// The position after the item or statement at `i`: after its first `;` outside brackets, or
/// after its first `{..}` block, whichever comes first.
fn end_of_item(tokens: &[(Token, usize)], mut i: usize) -> usize {
    while i < tokens.len() {
        match tokens[i].0 {
            Token::Punct(';') => return i + 1,
            Token::Punct('{') => return closing(tokens, i) + 1,
            Token::Punct('(' | '[') => i = closing(tokens, i) + 1,
            _ => i += 1,
        }
    }
    i
}

/// The names the crate root re-exports (`pub use budget::{Budget, Stop};`), each with the
/// top-level module it comes from.
fn reexports(tokens: &[(Token, usize)]) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    let mut i = 0;
    while i + 4 < tokens.len() {
        if let [
            (Token::Ident(p), _),
            (Token::Ident(u), _),
            (Token::Ident(module), _),
        ] = &tokens[i..i + 3]
            && p == "pub"
            && u == "use"
        {
            let end = (i..tokens.len())
                .find(|&k| tokens[k].0 == Token::Punct(';'))
                .unwrap();
            // The last name of each member: `a::{B, c::D}` re-exports B and D.
            for k in i + 3..end {
                if let Token::Ident(name) = &tokens[k].0
                    && matches!(tokens[k + 1].0, Token::Punct(',' | '}' | ';'))
                    && name != "self"
                {
                    names.insert(name.clone(), module.clone());
                }
            }
            i = end;
        }
        i += 1;
    }
    names
}
