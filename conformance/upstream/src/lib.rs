//! Adapters that make the upstream crates speak the agentfence port
//! protocol, so the conformance suites measure them exactly as they measure
//! any other port. Each adapter is a binary behind a feature of its name.
