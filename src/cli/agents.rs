//! `gatehouse agents`: the doctor. For every agent in the registry, whether it is installed
//! (and its version), whether gatehouse's hook is in place and active, and what a decision
//! can do on each of its events.

use anyhow::Result;

/// `gatehouse agents [--markdown]`.
pub fn agents(markdown: bool) -> Result<()> {
    let table = gatehouse::agents::doctor::capability_table();
    if markdown {
        print!("{table}");
        return Ok(());
    }
    let project = std::env::current_dir()?;
    print!("{}", gatehouse::agents::doctor::report(&project));
    println!();
    println!(
        "`gatehouse agents --markdown` prints what each answer does on every agent's events, \
         as a table."
    );
    Ok(())
}
