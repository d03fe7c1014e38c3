//! Parses one of the chat bench's prompts a given number of times, for an
//! instruction count that does not depend on the machine's load: the count
//! of `rounds = 13` less the count of `rounds = 3`, over ten parses' bytes,
//! is one parse's instructions per byte (`benches/instructions.sh` does
//! this for every prompt). With `--features upstream-prompty`, `prompty`
//! parses with prompty 2.1.0 instead.
//!
//!     chat_parse_rounds synthetic|prose SIZE strict|non-strict agentfence|prompty ROUNDS

use std::process::ExitCode;

use agentfence::chat::parse;
use agentfence_benches::chat_inputs::{prose_prompt, rendered_prompt};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, size, mode, parser, rounds] = args.as_slice() else {
        eprintln!(
            "usage: chat_parse_rounds synthetic|prose SIZE strict|non-strict agentfence|prompty ROUNDS"
        );
        return ExitCode::from(2);
    };
    let (Ok(size), Ok(rounds)) = (size.parse::<usize>(), rounds.parse::<usize>()) else {
        eprintln!("SIZE and ROUNDS are whole numbers");
        return ExitCode::from(2);
    };
    let (text, context) = match input.as_str() {
        "synthetic" => rendered_prompt(size),
        "prose" => prose_prompt(size),
        other => {
            eprintln!("no prompt {other:?}: synthetic or prose");
            return ExitCode::from(2);
        }
    };
    let strict = match mode.as_str() {
        "strict" => true,
        "non-strict" => false,
        other => {
            eprintln!("no mode {other:?}: strict or non-strict");
            return ExitCode::from(2);
        }
    };
    for _ in 0..rounds {
        match parser.as_str() {
            "agentfence" => {
                std::hint::black_box(parse(&text, strict.then_some(&context)).is_ok());
            }
            #[cfg(feature = "upstream-prompty")]
            "prompty" => {
                use prompty::interfaces::Parser;
                if strict {
                    let agent = prompty::Agent::default();
                    let nonce = serde_json::json!({ "nonce": context.nonce });
                    let parsed = futures::executor::block_on(
                        prompty::parsers::PromptyChatParser.parse(&agent, &text, Some(&nonce)),
                    );
                    std::hint::black_box(parsed.is_ok());
                } else {
                    std::hint::black_box(prompty::parsers::parse_chat(&text));
                }
            }
            other => {
                eprintln!("no parser {other:?} in this build");
                return ExitCode::from(2);
            }
        }
    }
    println!("{}", text.len());
    ExitCode::SUCCESS
}
