//! What the dialects share in naming tools: a table lookup from an agent's tool name to its
//! [`ToolKind`], and gatehouse's one spelling of an MCP tool, `mcp__<server>__<tool>`, which
//! every dialect renames its MCP tools to (rules and `read_only_tools` use it).

use crate::core::call::ToolKind;

/// The kind of `name` in `table`; an MCP name is [`ToolKind::Mcp`]; anything else is
/// [`ToolKind::Other`].
pub fn kind_in(table: &[(&str, ToolKind)], name: &str) -> ToolKind {
    if let Some((_, kind)) = table.iter().find(|(known, _)| *known == name) {
        return kind.clone();
    }
    match mcp_parts(name) {
        Some((server, tool)) => ToolKind::Mcp {
            server: server.to_string(),
            tool: tool.to_string(),
        },
        None => ToolKind::Other,
    }
}

/// The input key `tool` names its file under, from a dialect's table of its file tools; a
/// tool not in the table has none (the core then reads the first path key present).
pub fn path_key_in(table: &[(&str, &str)], tool: &str) -> Option<String> {
    table
        .iter()
        .find(|(known, _)| *known == tool)
        .map(|(_, key)| (*key).to_string())
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
            kind_in(&[], "mcp__github__create_issue"),
            ToolKind::Mcp {
                server: "github".into(),
                tool: "create_issue".into()
            }
        );
        assert_eq!(
            kind_in(&[], "mcp__a__b__c"),
            ToolKind::Mcp {
                server: "a".into(),
                tool: "b__c".into()
            }
        );
        assert_eq!(kind_in(&[], "mcp____x"), ToolKind::Other);
        assert_eq!(kind_in(&[], "mcp__server"), ToolKind::Other);
    }

    #[test]
    fn a_name_not_in_the_table_is_other() {
        let table = [("Bash", ToolKind::Shell)];
        assert_eq!(kind_in(&table, "Bash"), ToolKind::Shell);
        assert_eq!(kind_in(&table, "bash"), ToolKind::Other);
    }
}
