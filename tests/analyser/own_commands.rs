//! gatehouse's own commands against its real command line: every agent `install` and
//! `uninstall` take is known, however gatehouse is spelled.

use gatehouse::agents::registry;
use gatehouse::core::shell::{Safety, analyse};

#[test]
fn installing_or_removing_the_hook_of_any_agent_tampers_by_any_spelling() {
    for dialect in registry::all() {
        let names = dialect.names();
        for name in std::iter::once(&names.cli).chain(names.aliases) {
            for verb in ["install", "uninstall"] {
                for program in [
                    "gatehouse",
                    "./target/debug/gatehouse",
                    "$G",
                    "cargo run --",
                ] {
                    let line = format!("{program} {verb} {name}");
                    let analysis = analyse(&line);
                    assert_eq!(
                        analysis.safety,
                        Safety::Tamper,
                        "{line}: {}",
                        analysis.explanation()
                    );
                }
            }
        }
    }
}
