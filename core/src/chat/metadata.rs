//! A message's metadata: its marker's attributes but the nonce, coerced.
//!
//! Held as a list sorted by key rather than a `BTreeMap`: a marker has a
//! few attributes, and a parse of a long prompt makes one metadata per
//! message, where a map's first node (room for eleven entries, some 600
//! bytes) took most of the time of a parse of 10 MB.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use smallvec::SmallVec;

/// Keys and values in key order, one value per key (a later insert of a
/// key replaces its value, as in a map). Serialized as a JSON object.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metadata {
    /// One entry inline: most authored markers carry one attribute or none.
    entries: SmallVec<[(String, Value); 1]>,
}

impl Metadata {
    pub fn new() -> Metadata {
        Metadata::default()
    }

    /// Room for `entries` without a reallocation.
    pub fn with_capacity(entries: usize) -> Metadata {
        Metadata {
            entries: SmallVec::with_capacity(entries),
        }
    }

    /// Puts `value` under `key`; the value it replaces, if any.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        match self.find(&key) {
            Ok(at) => Some(std::mem::replace(&mut self.entries[at].1, value)),
            Err(at) => {
                self.entries.insert(at, (key, value));
                None
            }
        }
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.find(key).ok().map(|at| &self.entries[at].1)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Value)> {
        self.entries
            .iter()
            .map(|(key, value)| (key.as_str(), value))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &str> {
        self.entries.iter().map(|(key, _)| key.as_str())
    }

    /// The values in key order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> {
        self.entries.iter().map(|(_, value)| value)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.entries
            .binary_search_by(|(other, _)| other.as_str().cmp(key))
    }
}

/// `metadata["name"]`: the value under the key, `null` when there is none
/// (as `serde_json::Value` indexes an object), never a panic.
impl std::ops::Index<&str> for Metadata {
    type Output = Value;

    fn index(&self, key: &str) -> &Value {
        static NULL: Value = Value::Null;
        self.get(key).unwrap_or(&NULL)
    }
}

impl FromIterator<(String, Value)> for Metadata {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(entries: I) -> Metadata {
        let mut metadata = Metadata::new();
        for (key, value) in entries {
            metadata.insert(key, value);
        }
        metadata
    }
}

impl From<Metadata> for BTreeMap<String, Value> {
    fn from(metadata: Metadata) -> BTreeMap<String, Value> {
        metadata.entries.into_iter().collect()
    }
}

impl From<BTreeMap<String, Value>> for Metadata {
    fn from(map: BTreeMap<String, Value>) -> Metadata {
        // A map's entries come in key order, each key once.
        Metadata {
            entries: map.into_iter().collect(),
        }
    }
}

impl Serialize for Metadata {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Metadata {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Metadata, D::Error> {
        BTreeMap::<String, Value>::deserialize(deserializer).map(Metadata::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_keeps_key_order_and_the_last_value_of_a_key() {
        let metadata: Metadata = [("b", 1), ("a", 2), ("b", 3)]
            .into_iter()
            .map(|(key, value)| (key.to_string(), Value::from(value)))
            .collect();
        assert_eq!(
            metadata.iter().collect::<Vec<_>>(),
            [("a", &Value::from(2)), ("b", &Value::from(3))]
        );
        assert_eq!(metadata["b"], 3);
        assert_eq!(metadata["missing"], Value::Null);
        assert!(!metadata.contains_key("c"));
        let json = serde_json::to_string(&metadata).expect("metadata serializes");
        assert_eq!(json, r#"{"a":2,"b":3}"#);
        let back: Metadata = serde_json::from_str(&json).expect("and reads back");
        assert_eq!(back, metadata);
    }
}
