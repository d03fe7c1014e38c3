//! The inputs the benches share with the examples that count their
//! instructions (`benches/instructions.sh`), so both measure one text.

pub mod chat_inputs {
    //! Rendered prompts for the chat parse: a synthetic one of prose, code
    //! and blank lines, and real prose, this repository's Markdown files as
    //! turns.

    use agentfence::chat::{ChatError, Context, parse};

    pub const NONCE: &str = "5f0c2e9a81d3b7e4";

    /// A rendered prompt of about `size` bytes: a system message, then user and
    /// assistant turns of prose, code and blank lines, every marker carrying
    /// the nonce and an author attribute as a pre-rendered template's do.
    pub fn rendered_prompt(size: usize) -> (String, Context) {
        let mut text = String::with_capacity(size + 512);
        text.push_str(&format!(
            "system[nonce=\"{NONCE}\"]:\nYou are a careful assistant. Answer briefly.\n\n"
        ));
        let mut markers = 1;
        let mut turn = 0usize;
        while text.len() < size {
            let role = if turn.is_multiple_of(2) {
                "user"
            } else {
                "assistant"
            };
            text.push_str(&format!("{role}[nonce=\"{NONCE}\", turn={turn}]:\n"));
            markers += 1;
            for line in 0..6 {
                text.push_str(&format!(
                    "Line {line} of turn {turn}: the report says: results are in; see section {line}.\n"
                ));
            }
            text.push_str("\n```rust\nfn main() { println!(\"user: not a marker\"); }\n```\n\n");
            turn += 1;
        }
        let context = Context {
            nonce: NONCE.to_string(),
            markers,
        };
        (text, context)
    }

    /// A rendered prompt of real prose: this repository's own Markdown files,
    /// forty lines a turn, each turn under a marker with the nonce, repeated to
    /// about `size` bytes. Documentation quotes role markers (`user:` lines in
    /// the protocol's examples); such a line would end a strict parse at once,
    /// so the lines a strict parse refuses are left out until it reads the
    /// whole text.
    pub fn prose_prompt(size: usize) -> (String, Context) {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        for dir in [".", "conformance", "docs", "fuzz", "corpus/injection"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            files.extend(
                entries
                    .filter_map(Result::ok)
                    .map(|entry| entry.path())
                    .filter(|path| path.extension().is_some_and(|ext| ext == "md")),
            );
        }
        files.sort();
        let mut lines: Vec<String> = files
            .iter()
            .filter_map(|path| std::fs::read_to_string(path).ok())
            .flat_map(|text| text.lines().map(str::to_owned).collect::<Vec<_>>())
            .collect();
        assert!(
            !lines.is_empty(),
            "the repository's Markdown files are readable"
        );
        loop {
            let mut text = format!("system[nonce=\"{NONCE}\"]:\nYou are a careful assistant.\n");
            let mut markers = 1;
            let mut turn = 0usize;
            while text.len() < size {
                for chunk in lines.chunks(40) {
                    let role = if turn.is_multiple_of(2) {
                        "user"
                    } else {
                        "assistant"
                    };
                    text.push_str(&format!("{role}[nonce=\"{NONCE}\"]:\n"));
                    markers += 1;
                    turn += 1;
                    for line in chunk {
                        text.push_str(line);
                        text.push('\n');
                    }
                    if text.len() >= size {
                        break;
                    }
                }
            }
            let context = Context {
                nonce: NONCE.to_string(),
                markers,
            };
            match parse(&text, Some(&context)) {
                Ok(_) => return (text, context),
                Err(error) => {
                    let refused = text.lines().nth(error_line(&error) - 1).map(str::to_owned);
                    let before = lines.len();
                    lines.retain(|line| Some(line) != refused.as_ref());
                    assert!(lines.len() < before, "the strict parse refuses {error}");
                }
            }
        }
    }

    /// The line a strict parse refused.
    fn error_line(error: &ChatError) -> usize {
        use ChatError;
        match error {
            ChatError::NonceMismatch { line } | ChatError::DuplicateNonce { line } => *line,
            other => panic!("the prose prompt is refused as a whole: {other}"),
        }
    }
}
