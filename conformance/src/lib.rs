//! Conformance vectors for agentfence's trust boundaries, the runner that
//! drives an implementation through them, and the `agentfence` CLI.
//!
//! Flow: [`loader`] loads files (embedded and from disk) in the format of
//! [`vectors`], checking each against its suite, and [`lint`] checks them
//! further ([`canonical`] is the one form they are written in);
//! [`runner`] feeds each case to an implementation (the
//! in-process [`reference`], or a [`port_process`] speaking [`protocol`]
//! v1) and judges answers with [`outcome`]; [`report`] renders the result
//! (text, JSON, JUnit XML) and [`matrix`] sets several JSON reports side by
//! side (Markdown, HTML). [`differ`] draws generated cases, answers them with
//! the reference and runs them against a port the same way. [`case_list`] reads `--skip` / `--xfail` lists.
//! Each suite is one module under [`suites`]; [`fixture`] serves the HTTP
//! pages the web suite's fetch cases describe.

pub mod canonical;
pub mod case_list;
pub mod cli;
pub mod differ;
pub mod fixture;
pub mod lint;
pub mod loader;
pub mod matrix;
pub mod outcome;
pub mod port_process;
pub mod port_server;
pub mod protocol;
pub mod reference;
pub mod report;
pub mod runner;
pub mod suites;
pub mod vectors;
