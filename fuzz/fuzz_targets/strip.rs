#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| agentfence::fuzzing::web::strip(data));
