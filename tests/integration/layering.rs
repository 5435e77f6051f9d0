//! House rules checked on every `cargo test`, over every folder of `src/` (and `js/`; a test
//! checks that no folder of `src/` is skipped, `src/backend/wasm/**` included): modules
//! import only from lower layers (the order of `ARCHITECTURE.md`), `rules` and `backend` never
//! import each other, only `api` uses `#[wasm_bindgen]`, and no source file (Rust or
//! TypeScript) is over 600 lines.

use std::fs;
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 600;

fn layer(module: &str) -> Option<u32> {
    Some(match module {
        "util" => 0,
        "core" => 1,
        "kernel" => 2,
        "rules" | "backend" => 3,
        "lower" => 4,
        "transform" => 5,
        "library" => 6,
        "api" => 7,
        _ => return None,
    })
}

/// Every file under `dir` (recursively) whose name ends in `ext`, except generated code: the
/// wasm-bindgen glue the build writes to `js/wasm/`, and `node_modules/`.
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            let generated =
                path.ends_with("js/wasm") || path.file_name().is_some_and(|n| n == "node_modules");
            if !generated {
                files(&path, ext, out);
            }
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

fn rust_sources() -> Vec<(String, PathBuf)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, "rs", &mut all);
    all.into_iter()
        .filter_map(|p| {
            let rel = p.strip_prefix(&src).unwrap();
            let top = rel.components().next()?.as_os_str().to_str()?.to_string();
            let top = top.trim_end_matches(".rs").to_string();
            Some((top, p))
        })
        .collect()
}

/// The top-level modules named by `crate::X` paths in `text`.
fn crate_imports(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + 7..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        found.push(name);
    }
    found
}

#[test]
fn modules_import_only_from_lower_layers() {
    let mut violations = Vec::new();
    for (module, path) in rust_sources() {
        let Some(own) = layer(&module) else { continue };
        let text = fs::read_to_string(&path).unwrap();
        for used in crate_imports(&text) {
            let Some(theirs) = layer(&used) else { continue };
            let sibling = (module == "rules" && used == "backend")
                || (module == "backend" && used == "rules");
            if used != module && (theirs >= own || sibling) {
                violations.push(format!(
                    "{} ({module}) imports crate::{used}",
                    path.display()
                ));
            }
        }
        if module != "api" && text.contains("#[wasm_bindgen") {
            violations.push(format!(
                "{} uses #[wasm_bindgen] outside src/api",
                path.display()
            ));
        }
    }
    assert!(
        violations.is_empty(),
        "layering violations:\n{}",
        violations.join("\n")
    );
}

/// Every folder below `dir` that holds a file, walked without any exclusion.
fn folders_with_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut has_file = false;
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            folders_with_files(&path, out);
        } else {
            has_file = true;
        }
    }
    if has_file {
        out.push(dir.to_path_buf());
    }
}

#[test]
fn every_folder_of_src_is_checked() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut folders = Vec::new();
    folders_with_files(&src, &mut folders);
    assert!(folders.contains(&src.join("backend/wasm/emit")));
    let checked: Vec<PathBuf> = rust_sources()
        .into_iter()
        .filter(|(module, _)| layer(module).is_some())
        .map(|(_, p)| p.parent().unwrap().to_path_buf())
        .collect();
    let missed: Vec<String> = folders
        .iter()
        .filter(|f| **f != src && !checked.contains(f))
        .map(|f| f.display().to_string())
        .collect();
    assert!(missed.is_empty(), "folders the layering check skips:\n{}", missed.join("\n"));
}

#[test]
fn the_layering_check_catches_an_upward_import() {
    assert_eq!(
        crate_imports("use crate::transform::eval;"),
        vec!["transform"]
    );
    assert!(layer("transform") > layer("kernel"));
}

#[test]
fn source_files_stay_under_600_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    files(&root.join("src"), "rs", &mut all);
    files(&root.join("js"), "ts", &mut all);
    let long: Vec<String> = all
        .iter()
        .filter_map(|p| {
            let n = fs::read_to_string(p).unwrap().lines().count();
            (n > MAX_LINES).then(|| format!("{}: {n} lines", p.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines:\n{}",
        long.join("\n")
    );
}
