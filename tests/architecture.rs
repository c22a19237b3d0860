//! The layers of `ARCHITECTURE.md` hold in the code: every top-level module of `src/` is in
//! its table with the layer its `//!` doc names, no `crate::` (or `super::`) path in non-test
//! code points to a peer or a higher layer, and the modules inside one top-level module do not
//! import each other in a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `(module, layer)` from the table of `ARCHITECTURE.md` (`| 3 | analytic | ... |`).
fn documented_layers() -> BTreeMap<String, u32> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut layers = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() >= 4
            && let Ok(layer) = cells[1].parse::<u32>()
        {
            layers.insert(cells[2].to_string(), layer);
        }
    }
    layers
}

/// The top-level modules of the library: `src/x.rs` and `src/x/` except the crate roots and
/// the binary's `cli/`.
fn top_level_modules() -> BTreeSet<String> {
    std::fs::read_dir(root().join("src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| {
            let name = p.file_stem()?.to_str()?.to_string();
            let keep = if p.is_dir() {
                true
            } else {
                p.extension().is_some_and(|e| e == "rs") && name != "lib" && name != "main"
            };
            keep.then_some(name)
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src/` (`src/a/b.rs` and `src/a/b/mod.rs` are `[a, b]`).
fn module_path(file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(root().join("src")).unwrap();
    let mut segments: Vec<String> = relative
        .iter()
        .map(|s| s.to_str().unwrap().trim_end_matches(".rs").to_string())
        .collect();
    if segments.last().is_some_and(|s| s == "mod") {
        segments.pop();
    }
    segments
}

/// The code of a file without comments and without `#[cfg(test)]` modules (braces inside
/// strings and character literals are skipped when the module's end is found).
fn non_test_code(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut code = String::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        if line.starts_with("#[cfg(test)]") {
            // Skip the attribute and the item it guards: to the end of its braces, or its `;`.
            let mut depth = 0i64;
            let mut opened = false;
            i += 1;
            while i < lines.len() {
                let l = lines[i];
                if !opened && l.trim_end().ends_with(';') && !l.contains('{') {
                    i += 1;
                    break;
                }
                let mut chars = l.chars().peekable();
                let mut in_string = false;
                while let Some(c) = chars.next() {
                    match c {
                        '\\' if in_string => {
                            chars.next();
                        }
                        '"' => in_string = !in_string,
                        '\'' if !in_string => {
                            // A character literal such as '{' or '\''.
                            let rest: String = chars.clone().take(3).collect();
                            if rest.starts_with('\\') {
                                chars.nth(2);
                            } else if rest.chars().nth(1) == Some('\'') {
                                chars.nth(1);
                            }
                        }
                        '/' if !in_string && chars.peek() == Some(&'/') => break,
                        '{' if !in_string => {
                            depth += 1;
                            opened = true;
                        }
                        '}' if !in_string => depth -= 1,
                        _ => {}
                    }
                }
                i += 1;
                if opened && depth == 0 {
                    break;
                }
            }
            continue;
        }
        if !line.starts_with("//") {
            code.push_str(lines[i]);
            code.push('\n');
        }
        i += 1;
    }
    code
}

/// The absolute module paths (`[analytic, dgame, ...]`) that `code` of module `module` names
/// through `crate::` or `super::`.
fn referenced_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let bytes = code.as_bytes();
    let word = |i: usize| i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
    let segments_from = |mut i: usize| {
        let mut segments = Vec::new();
        loop {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            if start == i {
                break;
            }
            segments.push(code[start..i].to_string());
            if code[i..].starts_with("::") {
                i += 2;
            } else {
                break;
            }
        }
        segments
    };
    for (i, _) in code.match_indices("crate::") {
        if word(i) {
            paths.push(segments_from(i + "crate::".len()));
        }
    }
    // A file `a/b.rs` is module a::b, whose `super` is a; `a/b/mod.rs` is a::b too.
    for (i, _) in code.match_indices("super::") {
        if !word(i) || code[..i].ends_with("super::") {
            continue;
        }
        let mut base: Vec<String> = module.to_vec();
        let mut j = i;
        while code[j..].starts_with("super::") {
            base.pop();
            j += "super::".len();
        }
        base.extend(segments_from(j));
        paths.push(base);
    }
    paths
}

#[test]
fn architecture_table_lists_every_top_level_module_with_its_documented_layer() {
    let layers = documented_layers();
    let modules = top_level_modules();
    let listed: BTreeSet<String> = layers.keys().cloned().collect();
    assert_eq!(
        listed, modules,
        "ARCHITECTURE.md's table and the top-level modules of src/ differ"
    );
    for (module, layer) in &layers {
        // `src/x.rs` (its submodules may sit in `src/x/`), or `src/x/mod.rs`.
        let file = if root().join("src").join(format!("{module}.rs")).exists() {
            root().join("src").join(format!("{module}.rs"))
        } else {
            root().join("src").join(module).join("mod.rs")
        };
        let text = std::fs::read_to_string(&file).unwrap();
        let first = text.lines().next().unwrap_or("");
        assert!(
            first.starts_with(&format!("//! **Layer {layer}")),
            "{}: its doc must start by naming its layer (`//! **Layer {layer}, ...`), found {first:?}",
            file.display()
        );
    }
}

#[test]
fn no_module_imports_a_peer_or_a_higher_layer() {
    let layers = documented_layers();
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut violations = Vec::new();
    // Edges between the second-level modules of one top-level module (a::b -> a::c).
    let mut inner: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in &files {
        let module = module_path(file);
        let Some(top) = module.first() else { continue };
        if top == "lib" || top == "main" {
            continue;
        }
        // Files that are whole test modules (`#[cfg(test)] mod tests;`).
        if module.last().is_some_and(|m| m == "tests") {
            continue;
        }
        let own_layer = layers[top];
        let text = std::fs::read_to_string(file).unwrap();
        let code = non_test_code(&text);
        for path in referenced_paths(&code, &module) {
            let Some(target) = path.first() else { continue };
            let Some(&target_layer) = layers.get(target) else {
                continue; // a crate-root item such as `crate::Error`
            };
            if target != top && target_layer >= own_layer {
                violations.push(format!(
                    "{} (layer {own_layer}) names crate::{} (layer {target_layer})",
                    file.strip_prefix(root()).unwrap().display(),
                    path.join("::")
                ));
            }
            // Sibling modules at any depth (a::b::c -> a::b::d): the first place where the
            // two paths part, when both sides are modules there.
            let common = module.iter().zip(&path).take_while(|(a, b)| a == b).count();
            if common >= 1 && common < module.len() && common < path.len() {
                let dir = module[..common]
                    .iter()
                    .fold(root().join("src"), |d, m| d.join(m));
                let is_module =
                    |name: &str| dir.join(name).is_dir() || dir.join(format!("{name}.rs")).exists();
                if is_module(&path[common]) {
                    inner
                        .entry(module[..common].join("::"))
                        .or_default()
                        .entry(module[common].clone())
                        .or_default()
                        .insert(path[common].clone());
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "upward or sideways imports:\n{}",
        violations.join("\n")
    );
    for (top, graph) in &inner {
        if let Some(cycle) = find_cycle(graph) {
            panic!("import cycle inside {top}: {}", cycle.join(" -> "));
        }
    }
}

/// A cycle of `graph`, if it has one (depth-first search).
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()).copied().unwrap_or(0) {
                1 => {
                    let start = stack.iter().position(|n| n == next).unwrap();
                    let mut cycle = stack[start..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(next, graph, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node.as_str()).copied().unwrap_or(0) == 0 {
            let mut stack = Vec::new();
            if let Some(c) = visit(node, graph, &mut state, &mut stack) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn the_checker_sees_what_it_must() {
    // Test code, comments and strings with braces are skipped; `super` resolves upward.
    let code = non_test_code(
        "use crate::a::b;\n// crate::x::y\n#[cfg(test)]\nmod tests {\n    let s = \"}\";\n    use crate::z::w;\n}\nuse crate::c::d;\n",
    );
    let module = vec!["m".to_string(), "n".to_string()];
    let paths = referenced_paths(&code, &module);
    assert_eq!(
        paths,
        vec![
            vec!["a".to_string(), "b".to_string()],
            vec!["c".to_string(), "d".to_string()]
        ]
    );
    let up = referenced_paths("use super::super::q::r;\n", &module);
    assert_eq!(up, vec![vec!["q".to_string(), "r".to_string()]]);
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a".to_string(), BTreeSet::from(["b".to_string()])),
        ("b".to_string(), BTreeSet::from(["a".to_string()])),
    ]
    .into();
    assert!(find_cycle(&graph).is_some());
}

/// No source file of the library is over 1,200 lines (a module that grows
/// gets a folder; unit tests may live in a `tests.rs` beside it).
#[test]
fn no_source_file_is_over_1200_lines() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let lines = std::fs::read_to_string(f).unwrap().lines().count();
            (lines > 1200).then(|| format!("{} ({lines} lines)", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}
