//! Case id globs and the skip / expected-failure list files of
//! `agentfence run --skip FILE --xfail FILE`.
//!
//! A list file holds one case id or glob per line (`*` any run of
//! characters, `?` one character); `#` starts a comment, blank lines are
//! ignored. A line that matches no loaded case is an error, so a list does
//! not go stale unnoticed.

use std::fmt;
use std::path::Path;

/// Whether `id` matches `pattern`, where `*` stands for any run of
/// characters (possibly none) and `?` for exactly one.
pub fn glob_matches(pattern: &str, id: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let id: Vec<char> = id.chars().collect();
    // Iterative wildcard matching with backtracking to the last `*`.
    let (mut p, mut i) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while i < id.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, i));
                p += 1;
            }
            Some(&c) if c == '?' || c == id[i] => {
                p += 1;
                i += 1;
            }
            _ => match star {
                Some((star_p, star_i)) => {
                    p = star_p + 1;
                    i = star_i + 1;
                    star = Some((star_p, star_i + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

/// One pattern of a list file and where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListEntry {
    pub pattern: String,
    /// 1-based line number in the file.
    pub line: usize,
}

/// A skip or expected-failure list, as read from a file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaseList {
    /// The file, as given on the command line.
    pub path: String,
    pub entries: Vec<ListEntry>,
}

/// A list line that matches no loaded case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleEntry {
    pub path: String,
    pub line: usize,
    pub pattern: String,
}

impl fmt::Display for StaleEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {:?} matches no case; remove the line",
            self.path, self.line, self.pattern
        )
    }
}

impl CaseList {
    /// Reads a list file.
    pub fn read(path: &Path) -> Result<CaseList, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        Ok(CaseList::parse(&path.display().to_string(), &text))
    }

    /// Parses the text of a list file named `path` (for messages).
    pub fn parse(path: &str, text: &str) -> CaseList {
        let entries = text
            .lines()
            .enumerate()
            .filter_map(|(index, line)| {
                let pattern = line.split('#').next().unwrap_or_default().trim();
                (!pattern.is_empty()).then(|| ListEntry {
                    pattern: pattern.to_string(),
                    line: index + 1,
                })
            })
            .collect();
        CaseList {
            path: path.to_string(),
            entries,
        }
    }

    /// The first entry that matches `id`.
    pub fn matching(&self, id: &str) -> Option<&ListEntry> {
        self.entries
            .iter()
            .find(|entry| glob_matches(&entry.pattern, id))
    }

    /// The entries that match none of `ids`, in file order.
    pub fn stale<'a>(&self, ids: impl IntoIterator<Item = &'a str> + Clone) -> Vec<StaleEntry> {
        self.entries
            .iter()
            .filter(|entry| {
                !ids.clone()
                    .into_iter()
                    .any(|id| glob_matches(&entry.pattern, id))
            })
            .map(|entry| StaleEntry {
                path: self.path.clone(),
                line: entry.line,
                pattern: entry.pattern.clone(),
            })
            .collect()
    }

    /// Where `entry` was written, for a verdict's reason.
    pub fn locate(&self, entry: &ListEntry) -> String {
        format!("{}:{}", self.path, entry.line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_whole_ids() {
        assert!(glob_matches("template-0001", "template-0001"));
        assert!(!glob_matches("template-000", "template-0001"));
        assert!(glob_matches("template-00*", "template-0012"));
        assert!(!glob_matches("template-00*", "template-0112"));
        assert!(glob_matches("chat-0*", "chat-0"));
        assert!(glob_matches("*-0?01", "chat-0101"));
        assert!(glob_matches("*", ""));
        assert!(glob_matches("a*b*c", "aXbYbZc"));
        assert!(!glob_matches("a*b*c", "aXbYbZ"));
        assert!(!glob_matches("?", ""));
    }

    #[test]
    fn comments_and_blank_lines_are_ignored() {
        let list = CaseList::parse(
            "skip.txt",
            "# header\n\ntemplate-0001  # trailing\n   \nchat-0*\n",
        );
        assert_eq!(
            list.entries,
            vec![
                ListEntry {
                    pattern: "template-0001".into(),
                    line: 3
                },
                ListEntry {
                    pattern: "chat-0*".into(),
                    line: 5
                },
            ]
        );
    }

    #[test]
    fn stale_lines_are_named_by_file_and_line() {
        let list = CaseList::parse("skip.txt", "template-0001\ntemplate-77*\n");
        let stale = list.stale(["template-0001", "template-0002"]);
        assert_eq!(stale.len(), 1);
        assert_eq!(
            stale[0].to_string(),
            "skip.txt:2: \"template-77*\" matches no case; remove the line"
        );
    }
}
