//! Loads vector files for the suites this runner knows: the format comes
//! from [`crate::vectors`], the per-suite checks from [`crate::suites`].
//!
//! A file loads when its `suite` is one of the registry's, every case's
//! `op` is one of that suite's operations, and the suite can build its
//! `config` from the header (reading the files it names, the template
//! vocabulary say). Faults are reported in file order, so a broken file
//! names its first fault, whether of the format or of its suite.

use std::path::Path;

use thiserror::Error;

use crate::suites::SuiteRegistry;
use crate::vectors::{
    FormatError, ResourceDir, UncheckedFile, VectorFile, VectorSet, VectorSource,
};

/// A vector file that cannot be used.
#[derive(Debug, Error)]
pub enum LoadError {
    #[error("{file}: cannot read: {error}")]
    Read { file: String, error: std::io::Error },
    #[error("{file}: holds no *.json vector file")]
    EmptyDir { file: String },
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error("{file}: unknown suite {suite:?}; this runner knows {known}")]
    UnknownSuite {
        file: String,
        suite: String,
        known: String,
    },
    #[error("{file}: suite header: {message}")]
    Config { file: String, message: String },
}

/// Parses one vector file and checks it against its suite; `resources` is
/// where the paths in its header are resolved.
pub fn parse(
    text: &str,
    source: VectorSource,
    resources: &ResourceDir,
    registry: &SuiteRegistry,
) -> Result<VectorFile, LoadError> {
    let unchecked = UncheckedFile::parse(text, source)?;
    let file = unchecked.source().to_string();
    let suite = registry
        .find(unchecked.suite())
        .ok_or_else(|| LoadError::UnknownSuite {
            file: file.clone(),
            suite: unchecked.suite().to_owned(),
            known: registry.names().collect::<Vec<_>>().join(", "),
        })?;

    let mut cases = Vec::with_capacity(unchecked.case_count());
    for index in 0..unchecked.case_count() {
        let case = unchecked.case(index)?;
        if !suite.operations().contains(&case.op.as_str()) {
            return Err(unchecked
                .case_error(
                    index,
                    format!("cases[{index}].op"),
                    format!(
                        "operation {:?} is not one of suite {}'s ({})",
                        case.op,
                        suite.name(),
                        suite.operations().join(", ")
                    ),
                )
                .into());
        }
        cases.push(case);
    }

    let config = suite
        .config(unchecked.header(), resources)
        .map_err(|error| LoadError::Config {
            file,
            message: error.to_string(),
        })?;
    Ok(unchecked.into_file(cases, config))
}

/// Reads and parses a vector file from disk; the paths in its header are
/// resolved in its directory.
pub fn read(path: &Path, registry: &SuiteRegistry) -> Result<VectorFile, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|error| LoadError::Read {
        file: path.display().to_string(),
        error,
    })?;
    let dir = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    parse(
        &text,
        VectorSource::File(path.to_owned()),
        &ResourceDir::Dir(dir.to_owned()),
        registry,
    )
}

/// Every embedded vector file (`*.json` at the top of `vectors/`).
pub fn embedded(registry: &SuiteRegistry) -> Result<VectorSet, LoadError> {
    let mut files = Vec::new();
    for (path, text) in VectorSet::embedded_texts() {
        files.push(parse(
            text,
            VectorSource::Embedded(path),
            &ResourceDir::Embedded,
            registry,
        )?);
    }
    Ok(VectorSet { files })
}

/// Adds the vector files at `path` to `set`: the file itself, or every
/// `*.json` directly in the directory, in name order. A file named like
/// one already in the set replaces it (see [`VectorSet::insert`]).
pub fn add_path(
    set: &mut VectorSet,
    path: &Path,
    registry: &SuiteRegistry,
) -> Result<(), LoadError> {
    let read_error = |error| LoadError::Read {
        file: path.display().to_string(),
        error,
    };
    let metadata = std::fs::metadata(path).map_err(read_error)?;
    if !metadata.is_dir() {
        let file = read(path, registry)?;
        set.insert(file);
        return Ok(());
    }
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(path).map_err(read_error)? {
        let entry_path = entry.map_err(read_error)?.path();
        if entry_path.extension().is_some_and(|ext| ext == "json") && entry_path.is_file() {
            paths.push(entry_path);
        }
    }
    if paths.is_empty() {
        return Err(LoadError::EmptyDir {
            file: path.display().to_string(),
        });
    }
    paths.sort();
    for file_path in paths {
        let file = read(&file_path, registry)?;
        set.insert(file);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn load(value: Value) -> Result<VectorFile, LoadError> {
        parse(
            &value.to_string(),
            VectorSource::File("test.json".into()),
            &ResourceDir::Embedded,
            &SuiteRegistry::standard(),
        )
    }

    fn file_with_cases(cases: Value) -> Value {
        json!({
            "suite": "template",
            "version": "1.0.0",
            "description": "d",
            "vocabulary": "vocabulary/template-v1.txt",
            "cases": cases,
        })
    }

    #[test]
    fn operation_of_another_suite_is_rejected() {
        let error = load(file_with_cases(json!([{
            "id": "template-0003", "description": "d", "op": "chat_parse",
            "input": {}, "result": "valid", "expected": {},
        }])))
        .expect_err("chat_parse is not a template operation");
        let text = error.to_string();
        assert!(text.contains("chat_parse"), "{text}");
        assert!(text.contains("template-0003 (at cases[0].op)"), "{text}");
    }

    #[test]
    fn first_fault_in_file_order_is_reported() {
        // Case 0 has another suite's operation, case 1 breaks the format:
        // the loader checks each case against the suite before reading the
        // next, so case 0's fault is the one named.
        let error = load(file_with_cases(json!([
            {"id": "template-0003", "description": "d", "op": "chat_parse",
             "input": {}, "result": "valid", "expected": {}},
            {"id": "template-0004", "description": "d", "op": "template",
             "input": {}, "result": "valid"},
        ])))
        .expect_err("both cases are broken");
        assert!(error.to_string().contains("template-0003"), "{error}");
    }

    #[test]
    fn unknown_suite_lists_the_known_ones() {
        let mut file = file_with_cases(json!([]));
        file["suite"] = json!("nope");
        let error = load(file).expect_err("no suite is called nope");
        assert!(matches!(error, LoadError::UnknownSuite { .. }), "{error}");
        assert!(error.to_string().contains("template"), "{error}");
    }

    #[test]
    fn missing_vocabulary_file_is_a_config_error() {
        let mut file = file_with_cases(json!([]));
        file["vocabulary"] = json!("vocabulary/none.txt");
        let error = load(file).expect_err("the vocabulary does not exist");
        assert!(matches!(error, LoadError::Config { .. }), "{error}");
        assert!(error.to_string().contains("none.txt"), "{error}");
    }

    #[test]
    fn embedded_vectors_load() {
        let set = embedded(&SuiteRegistry::standard());
        assert!(
            set.as_ref().is_ok_and(|set| !set.files.is_empty()),
            "{set:?}"
        );
    }
}
