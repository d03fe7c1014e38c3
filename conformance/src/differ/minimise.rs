//! Delta debugging on the text of a case: chunks of a string, then single
//! characters, are removed while the disagreement persists, within a
//! budget of tries (each try is one round trip to the port).
//!
//! The input is a JSON value: the items of its arrays are removed where
//! they can be, then every string in it (an object's values, an array's
//! items, at any depth; never a key) is shortened in turn, the others held
//! as they are, and the passes repeat while one of them makes progress.

use serde_json::Value;

/// What is left of a budget of tries; each call of the predicate spends one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub left: usize,
}

impl Budget {
    fn spend(&mut self) -> bool {
        if self.left == 0 {
            false
        } else {
            self.left -= 1;
            true
        }
    }
}

/// The shortest text found that still `keeps` (the predicate is true of
/// `text` itself, or this returns `text`): whole lines first, then
/// characters, each by [`remove_units`].
pub fn minimise_text(
    text: &str,
    budget: &mut Budget,
    keeps: &mut dyn FnMut(&str) -> bool,
) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let text = if lines.len() > 1 {
        remove_units(lines, budget, keeps).concat()
    } else {
        text.to_owned()
    };
    let mut chars = [0u8; 4];
    let units: Vec<String> = text
        .chars()
        .map(|c| c.encode_utf8(&mut chars).to_owned())
        .collect();
    let units: Vec<&str> = units.iter().map(String::as_str).collect();
    remove_units(units, budget, keeps).concat()
}

/// Removes units (lines, characters) of a text while the rest `keeps`:
/// each chunk size from half the units down to one, every chunk in turn;
/// single units are swept again until a sweep removes none.
fn remove_units<'t>(
    mut units: Vec<&'t str>,
    budget: &mut Budget,
    keeps: &mut dyn FnMut(&str) -> bool,
) -> Vec<&'t str> {
    let mut chunk = units.len().div_ceil(2);
    while chunk > 0 && !units.is_empty() {
        let mut removed_any = false;
        let mut start = 0;
        while start < units.len() {
            let end = (start + chunk).min(units.len());
            let candidate: String = units[..start]
                .iter()
                .chain(&units[end..])
                .copied()
                .collect();
            if !budget.spend() {
                return units;
            }
            if keeps(&candidate) {
                units.drain(start..end);
                removed_any = true;
            } else {
                start = end;
            }
        }
        if chunk == 1 {
            if !removed_any {
                break;
            }
        } else {
            chunk = chunk.div_ceil(2).min(units.len().div_ceil(2)).max(1);
        }
    }
    units
}

/// The JSON pointers of every string and every array in `value`, in
/// document order.
fn pointers(value: &Value, at: &str, strings: &mut Vec<String>, arrays: &mut Vec<String>) {
    match value {
        Value::String(_) => strings.push(at.to_owned()),
        Value::Array(items) => {
            arrays.push(at.to_owned());
            for (index, item) in items.iter().enumerate() {
                pointers(item, &format!("{at}/{index}"), strings, arrays);
            }
        }
        Value::Object(object) => {
            for (key, item) in object {
                let escaped = key.replace('~', "~0").replace('/', "~1");
                pointers(item, &format!("{at}/{escaped}"), strings, arrays);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// `best` with items of the array at `pointer` removed, last first, while
/// the whole still `keeps`.
fn remove_items(
    best: &mut Value,
    pointer: &str,
    budget: &mut Budget,
    keeps: &mut dyn FnMut(&Value) -> bool,
) {
    let len = match best.pointer(pointer) {
        Some(Value::Array(items)) => items.len(),
        _ => return,
    };
    for index in (0..len).rev() {
        let mut candidate = best.clone();
        if let Some(Value::Array(items)) = candidate.pointer_mut(pointer) {
            items.remove(index);
        }
        if !budget.spend() {
            return;
        }
        if keeps(&candidate) {
            *best = candidate;
        }
    }
}

/// `input` with its strings shortened while `keeps` holds of the whole
/// input; `keeps` is true of `input` itself.
pub fn minimise_input(
    input: &Value,
    budget: &mut Budget,
    keeps: &mut dyn FnMut(&Value) -> bool,
) -> Value {
    let mut best = input.clone();
    loop {
        let before = best.clone();
        // Taken anew each pass: removing an item renumbers the rest.
        let (mut strings, mut arrays) = (Vec::new(), Vec::new());
        pointers(&best, "", &mut strings, &mut arrays);
        for pointer in arrays.iter().rev() {
            remove_items(&mut best, pointer, budget, keeps);
        }
        strings.clear();
        arrays.clear();
        pointers(&best, "", &mut strings, &mut arrays);
        for pointer in &strings {
            let Some(Value::String(text)) = best.pointer(pointer) else {
                continue;
            };
            let text = text.clone();
            let mut with = |candidate: &str| {
                let mut whole = best.clone();
                if let Some(slot) = whole.pointer_mut(pointer) {
                    *slot = Value::String(candidate.to_owned());
                }
                keeps(&whole)
            };
            let shorter = minimise_text(&text, budget, &mut with);
            if let Some(slot) = best.pointer_mut(pointer) {
                *slot = Value::String(shorter);
            }
        }
        if best == before || budget.left == 0 {
            return best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_shrinks_to_what_the_predicate_needs() {
        let mut budget = Budget { left: 10_000 };
        let shortest = minimise_text(
            "the file 42 was not found on disk 7",
            &mut budget,
            &mut |text| text.contains("42") && text.contains('f'),
        );
        assert!(
            shortest == "f42" || shortest == "42f",
            "{shortest:?} keeps only what the predicate needs"
        );
    }

    #[test]
    fn characters_are_whole_unicode_scalars() {
        let mut budget = Budget { left: 10_000 };
        let shortest = minimise_text("aé‹n›b", &mut budget, &mut |text| text.contains('›'));
        assert_eq!(shortest, "›");
    }

    #[test]
    fn the_budget_bounds_the_tries() {
        let mut tries = 0;
        let mut budget = Budget { left: 5 };
        minimise_text("abcdefghijklmnop", &mut budget, &mut |_| {
            tries += 1;
            false
        });
        assert_eq!((tries, budget.left), (5, 0));
    }

    #[test]
    fn array_items_the_predicate_does_not_need_are_removed() {
        let input = json!({"removed_patterns": ["a", "keep", "b"], "body": "x"});
        let mut budget = Budget { left: 10_000 };
        let shortest = minimise_input(&input, &mut budget, &mut |value| {
            value["removed_patterns"]
                .as_array()
                .is_some_and(|items| items.iter().any(|item| item == "keep"))
        });
        assert_eq!(shortest, json!({"removed_patterns": ["keep"], "body": ""}));
    }

    #[test]
    fn every_string_of_the_input_shrinks_and_keys_stay() {
        let input = json!({
            "template": "{{a}} hello there",
            "values": {"a": "xxxx SYSTEM: yyyy", "b": "zzz"},
            "nonce": "n1",
        });
        let mut budget = Budget { left: 10_000 };
        let shortest = minimise_input(&input, &mut budget, &mut |value| {
            value["template"]
                .as_str()
                .is_some_and(|t| t.contains("{{a}}"))
                && value["values"]["a"]
                    .as_str()
                    .is_some_and(|v| v.contains("SYSTEM"))
        });
        assert_eq!(
            shortest,
            json!({"template": "{{a}}", "values": {"a": "SYSTEM", "b": ""}, "nonce": ""})
        );
    }
}
