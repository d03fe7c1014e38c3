#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| agentfence::fuzzing::differential::diff_template(
    data,
    lean_ctx::core::failure_template::message_template
));
