//! Templates every harvested tool error a given number of times, for an
//! instruction count that does not depend on the machine's load: the count
//! of `rounds = 13` less the count of `rounds = 3`, over ten rounds'
//! messages, is one message's instructions (`benches/instructions.sh`
//! does this). With `--features upstream-lean-ctx`, `lean-ctx` templates
//! with lean-ctx 3.12.0's `message_template` instead. Round 0 prints the
//! message count.
//!
//!     template_rounds agentfence|lean-ctx ROUNDS

use std::process::ExitCode;

use agentfence::template::Scrubber;
use agentfence_benches::template_inputs::harvested_messages;

/// One implementation's failure template of a message.
type Templater = Box<dyn Fn(&str) -> Option<String>>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [implementation, rounds] = args.as_slice() else {
        eprintln!("usage: template_rounds agentfence|lean-ctx ROUNDS");
        return ExitCode::from(2);
    };
    let Ok(rounds) = rounds.parse::<usize>() else {
        eprintln!("ROUNDS is a whole number");
        return ExitCode::from(2);
    };
    let messages = harvested_messages();
    let template: Templater = match implementation.as_str() {
        "agentfence" => {
            let scrubber = Scrubber::new();
            Box::new(move |message| scrubber.template(message))
        }
        #[cfg(feature = "upstream-lean-ctx")]
        "lean-ctx" => Box::new(lean_ctx::core::failure_template::message_template),
        other => {
            eprintln!(
                "no implementation {other:?}: agentfence, or lean-ctx when built with \
                 --features upstream-lean-ctx"
            );
            return ExitCode::from(2);
        }
    };
    // Both build their tables on first use: one message before the rounds
    // puts that in the count of every run alike.
    if let Some(first) = messages.first() {
        std::hint::black_box(template(first));
    }
    for _ in 0..rounds {
        for message in &messages {
            std::hint::black_box(template(std::hint::black_box(message)));
        }
    }
    if rounds == 0 {
        println!("{}", messages.len());
    }
    ExitCode::SUCCESS
}
