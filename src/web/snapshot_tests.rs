//! The page's state pinned as JSON: a shell line, an edit and an MCP call, each with what the
//! page draws from it (the preview, the caps, the pattern an "always" would remember).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use serde_json::json;

use super::*;
use crate::core::call::{Agent, Call, Stage, ToolKind};
use crate::core::caps::Caps;
use crate::core::classify::assess;
use crate::core::route::{Route, route};
use crate::core::rules::Rules;

fn dialog(
    id: u64,
    agent: &str,
    tool: &str,
    kind: ToolKind,
    input: Value,
    now: Instant,
) -> Arc<Dialog> {
    let call = Call {
        agent: Agent::new(agent),
        session: "session-1".into(),
        cwd: "/project".into(),
        tool: tool.into(),
        input,
        kind: Some(kind),
        tool_use_id: None,
        subagent: None,
        stage: Stage::Question,
        caps: Caps::FULL,
        transcript_path: None,
        path_key: None,
        remote: None,
        hook_timeout_secs: None,
    };
    let assessment = assess(&call, &Rules::default(), &[]);
    let routed = route(Mode::AllowRead, assessment.row);
    Arc::new(Dialog::new(
        CallId(id),
        Arc::new(call),
        assessment,
        routed,
        now,
    ))
}

#[test]
fn the_page_state_of_a_shell_line_an_edit_and_an_mcp_call() {
    let now = Instant::now();
    let mut gemini_caps = Caps::FULL;
    gemini_caps.allow = AllowEffect::Pass;
    gemini_caps.note = NoteEffect::AfterTool;
    let edit = dialog(
        2,
        "claude-code",
        "Edit",
        ToolKind::Edit,
        json!({"file_path": "/project/missing.txt", "old_string": "a", "new_string": "b"}),
        now,
    );
    let mut mcp_call = (*dialog(
        3,
        "gemini-cli",
        "mcp__github__create_issue",
        ToolKind::Mcp {
            server: "github".into(),
            tool: "create_issue".into(),
        },
        json!({"title": "crash \u{1b}[31m on start"}),
        now,
    )
    .call)
        .clone();
    mcp_call.caps = gemini_caps;
    let mcp_assessment = assess(&mcp_call, &Rules::default(), &[]);
    let mcp = Arc::new(Dialog::new(
        CallId(3),
        Arc::new(mcp_call),
        mcp_assessment,
        Route::Ask,
        now,
    ));
    let dialogs = [
        dialog(
            1,
            "claude-code",
            "Bash",
            ToolKind::Shell,
            json!({"command": "git status && rm -rf build"}),
            now,
        ),
        edit,
        mcp,
    ];
    let state = snapshot(
        Mode::AllowRead,
        "phone",
        &dialogs,
        &mut Previews::default(),
        &HashMap::new(),
        Clock {
            now,
            ask_timeout: std::time::Duration::from_secs(540),
        },
    );
    insta::assert_snapshot!(serde_json::to_string_pretty(&state).unwrap());
}
