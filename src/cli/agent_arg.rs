//! The agent named on the command line: any in the registry (`hook`, `uninstall`), or one
//! with a hook to install (`install`), which turns OpenCode away with how it is connected.

use clap::builder::{PossibleValue, PossibleValuesParser};
use gatehouse::agents::registry;

/// The agents' names on the command line, from the registry.
pub fn agent_names() -> PossibleValuesParser {
    PossibleValuesParser::new(registry::all().iter().map(|d| {
        let names = d.names();
        PossibleValue::new(names.cli)
            .aliases(names.aliases.iter().copied())
            .help(names.display)
    }))
}

/// An agent with a hook to install: a registry name, and for OpenCode, which has none, an
/// error that says how it is connected instead.
#[derive(Clone)]
pub struct HookedAgent;

impl clap::builder::TypedValueParser for HookedAgent {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        if value == "opencode" {
            let how = "OpenCode has no hook to install: start `opencode serve`, then run \
                       `gatehouse attach opencode URL` with the address it prints (or put \
                       [[opencode]] url = \"…\" in the config to attach at start)\n";
            let err = clap::Error::raw(clap::error::ErrorKind::InvalidValue, how).with_cmd(cmd);
            return Err(err);
        }
        agent_names().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let names: Vec<PossibleValue> = agent_names().possible_values()?.collect();
        Some(Box::new(names.into_iter()))
    }
}
