#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| agentfence::fuzzing::differential::diff_strip(
    data,
    agentfence_fuzz_upstream::agentsec_strip
));
