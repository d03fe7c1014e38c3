#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| agentfence::fuzzing::differential::diff_chat(
    data,
    agentfence_fuzz_upstream::prompty_parse
));
