//! What the dialects share in naming tools: an agent's tools listed by what each does, the key
//! each file tool names its file under, and gatehouse's one spelling of an MCP tool,
//! `mcp__<server>__<tool>`, which every dialect renames its MCP tools to (rules and
//! `read_only_tools` use it).

use crate::core::call::ToolKind;

/// The tools an agent's calls carry (after its dialect renamed them) that gatehouse knows, by
/// what each does. Any other is [`ToolKind::Other`], never read-only, an MCP name aside.
#[derive(Debug)]
pub struct Tools {
    pub shell: &'static [&'static str],
    pub read: &'static [&'static str],
    pub edit: &'static [&'static str],
    pub web: &'static [&'static str],
    /// The tool that presents the agent's plan for the human's approval and leaves its plan
    /// mode (Claude Code's `ExitPlanMode`), where the agent has one.
    pub plan: &'static [&'static str],
    /// The agent's own bookkeeping, which the config's `internal_tools` lists by default (by
    /// its name alone a tool is never internal: the core decides that from the config).
    pub internal: &'static [&'static str],
    /// The input key each file tool names its file under, and the tools that do. A tool not
    /// listed has none: the core then reads the first path key present.
    pub paths: &'static [(&'static str, &'static [&'static str])],
}

impl Tools {
    /// No tools, for a table to fill in with `..Tools::NONE`.
    pub const NONE: Tools = Tools {
        shell: &[],
        read: &[],
        edit: &[],
        web: &[],
        plan: &[],
        internal: &[],
        paths: &[],
    };

    /// Each tool with its kind, in the order shell, read, edit, web, plan.
    pub fn kinds(&self) -> Vec<(&'static str, ToolKind)> {
        let lists = [
            (self.shell, ToolKind::Shell),
            (self.read, ToolKind::Read),
            (self.edit, ToolKind::Edit),
            (self.web, ToolKind::Web),
            (self.plan, ToolKind::Plan),
        ];
        let each = lists
            .into_iter()
            .flat_map(|(names, kind)| names.iter().map(move |name| (*name, kind.clone())));
        each.collect()
    }

    /// The kind of `name`: from the lists, `mcp__<server>__<tool>` an MCP tool, anything else
    /// [`ToolKind::Other`].
    pub fn kind_of(&self, name: &str) -> ToolKind {
        let listed = |names: &[&str]| names.contains(&name);
        if listed(self.shell) {
            ToolKind::Shell
        } else if listed(self.read) {
            ToolKind::Read
        } else if listed(self.edit) {
            ToolKind::Edit
        } else if listed(self.web) {
            ToolKind::Web
        } else if listed(self.plan) {
            ToolKind::Plan
        } else {
            mcp_kind(name)
        }
    }

    /// The input key the tool `name` names its file under, if [`Tools::paths`] lists it.
    pub fn path_key(&self, name: &str) -> Option<String> {
        let mut paths = self.paths.iter();
        let (key, _) = paths.find(|(_, tools)| tools.contains(&name))?;
        Some((*key).to_string())
    }
}

/// The kind of a tool no table lists: an MCP tool by its name, else [`ToolKind::Other`].
pub fn mcp_kind(name: &str) -> ToolKind {
    match mcp_parts(name) {
        Some((server, tool)) => ToolKind::Mcp {
            server: server.to_string(),
            tool: tool.to_string(),
        },
        None => ToolKind::Other,
    }
}

/// Splits `mcp__<server>__<tool>` into its server and tool; both must be non-empty.
pub fn mcp_parts(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = rest.split_once("__")?;
    (!server.is_empty() && !tool.is_empty()).then_some((server, tool))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcp_names_give_server_and_tool() {
        assert_eq!(
            mcp_kind("mcp__github__create_issue"),
            ToolKind::Mcp {
                server: "github".into(),
                tool: "create_issue".into()
            }
        );
        assert_eq!(
            mcp_kind("mcp__a__b__c"),
            ToolKind::Mcp {
                server: "a".into(),
                tool: "b__c".into()
            }
        );
        assert_eq!(mcp_kind("mcp____x"), ToolKind::Other);
        assert_eq!(mcp_kind("mcp__server"), ToolKind::Other);
    }

    #[test]
    fn a_name_not_in_the_lists_is_other_and_only_listed_file_tools_have_a_path_key() {
        let tools = Tools {
            shell: &["Bash"],
            read: &["Read"],
            paths: &[("file_path", &["Read"])],
            ..Tools::NONE
        };
        assert_eq!(tools.kind_of("Bash"), ToolKind::Shell);
        assert_eq!(tools.kind_of("bash"), ToolKind::Other);
        assert_eq!(tools.kind_of("Read"), ToolKind::Read);
        assert_eq!(tools.path_key("Read").as_deref(), Some("file_path"));
        assert_eq!(tools.path_key("Bash"), None);
    }
}
