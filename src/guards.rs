//! What gatehouse guards, gathered from where its files live: the core's [`Guards`] built from
//! the config's folder, the state folder, the floor, the agents' hook files (from the registry)
//! and the config's `sensitive_paths`.

use std::path::Path;

use crate::agents::dialect::Scope;
use crate::core::guard::{Guards, OwnFiles};
use crate::core::shell::Secrets;
use crate::plumbing::paths;

/// The guards for a config read from `source` (or the defaults), writing its audit to
/// `audit_log`, with `sensitive` patterns added to the built-in credentials.
pub fn of(source: Option<&Path>, audit_log: &Path, sensitive: &[String]) -> Guards {
    let mut own = OwnFiles::default();
    fn add(own: &mut OwnFiles, path: &Path, what: &str) {
        if let Some(text) = path.to_str() {
            own.add(text, what);
        }
    }
    let config = source.map(Path::to_path_buf).or_else(paths::config_file);
    if let Some(config) = &config {
        add(&mut own, config, "gatehouse's config");
    }
    let policy = crate::config::policy_paths(source);
    if let Some(saved) = &policy.saved {
        add(&mut own, saved, "gatehouse's saved rules (rules.toml)");
    }
    if let Some(trust) = &policy.trust {
        add(
            &mut own,
            trust,
            "the projects gatehouse trusts (trusted.toml)",
        );
    }
    if let Some(floor) = &policy.floor {
        add(&mut own, floor, "the machine's floor policy");
    }
    add(&mut own, audit_log, "gatehouse's audit log");
    let state = paths::state_dir();
    add(
        &mut own,
        &state.join("web-devices.json"),
        "the paired web devices",
    );
    for dialect in crate::agents::registry::all() {
        let table = dialect.table();
        let what = format!("{}'s hook settings", table.names.display);
        for (scope, file) in table.hooks.files {
            match scope {
                Scope::User => {
                    if let Some(dir) = table.hooks.home.dir() {
                        add(&mut own, &dir.join(file), &what);
                    }
                    // Where it is when its variable is not set, in any home.
                    own.add(
                        &format!("{}/{file}", table.hooks.home.default),
                        what.clone(),
                    );
                }
                Scope::Project | Scope::Local => own.add(file, what.clone()),
            }
        }
        // Claude Code reads its user settings from either name.
        if let Some(dir) = table.hooks.home.dir()
            && table.hooks.files.iter().any(|(_, f)| *f == "settings.json")
        {
            add(&mut own, &dir.join("settings.local.json"), &what);
        }
    }
    let mut secrets = Secrets::default();
    for pattern in sensitive {
        secrets.add(pattern);
    }
    Guards {
        own,
        secrets,
        home: paths::home(),
        read_keys: READ_KEYS.iter().map(|k| k.to_string()).collect(),
    }
}

/// The keys, beside the path keys, under which the agents' read tools take what they read or
/// search: Gemini CLI's `dir_path` (`list_directory`, `glob`, `search_file_content`) and
/// `paths`/`include` (`read_many_files`), a search's `glob` file filter (Claude Code's and
/// Crush's `Grep`), and `directory`/`file_paths` of other dialects' listers and readers.
const READ_KEYS: &[&str] = &[
    "dir_path",
    "directory",
    "glob",
    "paths",
    "file_paths",
    "include",
];
