fn main() -> std::process::ExitCode {
    agentfence_conformance::cli::main()
}
