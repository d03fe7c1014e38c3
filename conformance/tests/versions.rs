//! The versions of the vector set and of its suites keep the rules written
//! at the top of `conformance/CHANGELOG.md`, and no retired id comes back.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use agentfence_conformance::vectors::parse_retired_ids;
use serde_json::Value;

fn conformance_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    let path = conformance_dir().join(relative);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Version(u64, u64, u64);

impl Version {
    fn parse(text: &str) -> Option<Version> {
        let mut parts = text.split('.');
        let mut next = || -> Option<u64> {
            let part = parts.next()?;
            let canonical = part == "0" || !part.starts_with('0');
            if part.is_empty() || !canonical || !part.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            part.parse().ok()
        };
        let version = Version(next()?, next()?, next()?);
        parts.next().is_none().then_some(version)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// How much a version grew: nothing, patch, minor or major.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Bump {
    None,
    Patch,
    Minor,
    Major,
}

fn bump(from: Version, to: Version) -> Bump {
    if to.0 != from.0 {
        Bump::Major
    } else if to.1 != from.1 {
        Bump::Minor
    } else if to.2 != from.2 {
        Bump::Patch
    } else {
        Bump::None
    }
}

/// One `## X.Y.Z` section of the changelog and its `Suites:` line.
#[derive(Debug)]
struct Release {
    version: Version,
    suites: BTreeMap<String, Version>,
}

fn parse_changelog(text: &str) -> Result<Vec<Release>, String> {
    let mut releases: Vec<Release> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let at = format!("CHANGELOG.md:{}", index + 1);
        if let Some(heading) = line.strip_prefix("## ") {
            let version = heading.split_whitespace().next().unwrap_or_default();
            let version = Version::parse(version)
                .ok_or_else(|| format!("{at}: a section heading is `## X.Y.Z`"))?;
            if let Some(last) = releases.last()
                && last.suites.is_empty()
            {
                return Err(format!(
                    "{at}: section {} has no Suites: line",
                    last.version
                ));
            }
            releases.push(Release {
                version,
                suites: BTreeMap::new(),
            });
        } else if let Some(list) = line.strip_prefix("Suites:") {
            let release = releases
                .last_mut()
                .ok_or_else(|| format!("{at}: a Suites: line outside a section"))?;
            if !release.suites.is_empty() {
                return Err(format!("{at}: a second Suites: line"));
            }
            for entry in list.split(',') {
                let (name, version) = entry
                    .trim()
                    .split_once(' ')
                    .and_then(|(name, version)| Some((name, Version::parse(version)?)))
                    .ok_or_else(|| format!("{at}: {entry:?} is not `SUITE X.Y.Z`"))?;
                if release.suites.insert(name.to_owned(), version).is_some() {
                    return Err(format!("{at}: suite {name} is listed twice"));
                }
            }
        }
    }
    match releases.last() {
        None => Err("CHANGELOG.md has no `## X.Y.Z` section".into()),
        Some(last) if last.suites.is_empty() => {
            Err(format!("section {} has no Suites: line", last.version))
        }
        Some(_) => Ok(releases),
    }
}

/// Whether the releases, newest first, keep rule 3 of the changelog.
fn check_history(releases: &[Release]) -> Result<(), String> {
    for pair in releases.windows(2) {
        let (newer, older) = (&pair[0], &pair[1]);
        if newer.version <= older.version {
            return Err(format!(
                "section {} is above {} but not newer",
                newer.version, older.version
            ));
        }
        let mut needed = Bump::Patch;
        let mut why = String::from("every release changes something");
        for (suite, before) in &older.suites {
            let (change, reason) = match newer.suites.get(suite) {
                None => (Bump::Major, format!("suite {suite} was removed")),
                Some(after) if after < before => {
                    return Err(format!(
                        "suite {suite} goes down from {before} to {after} in {}",
                        newer.version
                    ));
                }
                Some(after) => (
                    bump(*before, *after),
                    format!("suite {suite} went from {before} to {after}"),
                ),
            };
            if change > needed {
                (needed, why) = (change, reason);
            }
        }
        for suite in newer.suites.keys() {
            if !older.suites.contains_key(suite) && Bump::Minor > needed {
                (needed, why) = (Bump::Minor, format!("suite {suite} was added"));
            }
        }
        let got = bump(older.version, newer.version);
        if got < needed {
            return Err(format!(
                "the set goes from {} to {}, a {got:?} bump, but {why}: that needs at least a {needed:?} bump",
                older.version, newer.version
            ));
        }
    }
    Ok(())
}

/// Each suite's version, from the `version` of its files in `vectors/`.
fn suite_versions_of_the_files() -> BTreeMap<String, Version> {
    let mut versions: BTreeMap<String, (Version, String)> = BTreeMap::new();
    for (name, file) in vector_files() {
        let suite = file["suite"].as_str().unwrap_or_default().to_owned();
        let version = file["version"]
            .as_str()
            .and_then(Version::parse)
            .unwrap_or_else(|| panic!("{name}: version is not X.Y.Z"));
        if let Some((other, first)) = versions.get(&suite) {
            assert_eq!(
                *other, version,
                "{name} says suite {suite} is at {version}, {first} says {other}; every file of a suite has its version"
            );
        } else {
            versions.insert(suite, (version, name));
        }
    }
    versions
        .into_iter()
        .map(|(suite, (version, _))| (suite, version))
        .collect()
}

fn vector_files() -> Vec<(String, Value)> {
    let mut files: Vec<(String, Value)> = std::fs::read_dir(conformance_dir().join("vectors"))
        .expect("conformance/vectors exists")
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .map(|path| {
            let name = path
                .file_name()
                .expect("a file name")
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&path).expect("readable");
            let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, value)
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
}

#[test]
fn version_file_is_the_newest_release() {
    let text = read("vectors/VERSION");
    let version = text
        .strip_suffix('\n')
        .and_then(Version::parse)
        .unwrap_or_else(|| panic!("vectors/VERSION is not one X.Y.Z line: {text:?}"));
    let releases = parse_changelog(&read("CHANGELOG.md")).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        releases[0].version, version,
        "vectors/VERSION says {version}, the newest section of CHANGELOG.md is {}",
        releases[0].version
    );
}

#[test]
fn newest_release_lists_the_suite_versions_of_the_files() {
    let releases = parse_changelog(&read("CHANGELOG.md")).unwrap_or_else(|error| panic!("{error}"));
    let files = suite_versions_of_the_files();
    let listed = &releases[0].suites;
    assert_eq!(
        listed, &files,
        "the Suites: line of {} differs from the files' versions; bump the set and add a section",
        releases[0].version
    );
}

#[test]
fn each_release_bumps_the_set_as_much_as_its_suites() {
    let releases = parse_changelog(&read("CHANGELOG.md")).unwrap_or_else(|error| panic!("{error}"));
    check_history(&releases).unwrap_or_else(|error| panic!("CHANGELOG.md: {error}"));
}

#[test]
fn history_rules_catch_a_short_bump() {
    let changelog = |text: &str| parse_changelog(text).expect("well-formed");
    let ok = "## 2.0.0\nSuites: a 2.0.0\n## 1.1.0\nSuites: a 1.1.0, b 1.0.0\n## 1.0.0\nSuites: a 1.0.0\n";
    assert_eq!(check_history(&changelog(ok)), Ok(()));
    for (text, message) in [
        (
            "## 1.1.0\nSuites: a 2.0.0\n## 1.0.0\nSuites: a 1.0.0\n",
            "suite a went from 1.0.0 to 2.0.0",
        ),
        (
            "## 1.0.1\nSuites: a 1.0.0, b 1.0.0\n## 1.0.0\nSuites: a 1.0.0\n",
            "suite b was added",
        ),
        (
            "## 1.1.0\nSuites: a 1.0.0\n## 1.0.0\nSuites: a 1.0.0, b 1.0.0\n",
            "suite b was removed",
        ),
        (
            "## 1.0.0\nSuites: a 1.0.0\n## 1.0.0\nSuites: a 1.0.0\n",
            "is above 1.0.0 but not newer",
        ),
        (
            "## 2.0.0\nSuites: a 1.0.0\n## 1.0.0\nSuites: a 1.1.0\n",
            "goes down",
        ),
    ] {
        let error = check_history(&changelog(text)).expect_err(text);
        assert!(error.contains(message), "{text}: {error}");
    }
    for broken in [
        "## 1.0\nSuites: a 1.0.0\n",
        "## 1.0.0\n",
        "## 1.0.0\nSuites: a\n",
        "## 1.0.0\nSuites: a 1.0.0, a 1.0.0\n",
        "## 1.0.1\n## 1.0.0\nSuites: a 1.0.0\n",
    ] {
        assert!(parse_changelog(broken).is_err(), "{broken:?} was accepted");
    }
}

#[test]
fn no_retired_id_is_used_and_no_id_twice() {
    let retired = parse_retired_ids(&read("vectors/retired-ids.txt"))
        .unwrap_or_else(|error| panic!("vectors/retired-ids.txt: {error}"));
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for (name, file) in vector_files() {
        for case in file["cases"].as_array().into_iter().flatten() {
            let id = case["id"].as_str().unwrap_or_default().to_owned();
            if let Some(entry) = retired.iter().find(|entry| entry.id == id) {
                panic!(
                    "{name}: {id} was retired (retired-ids.txt line {}: {}); give the case a new id",
                    entry.line, entry.reason
                );
            }
            if let Some(earlier) = seen.insert(id.clone(), name.clone()) {
                panic!("{name}: {id} is already used in {earlier}");
            }
        }
    }
}
