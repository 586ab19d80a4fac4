//! The dialog's text boxes (deny reason, allow note, allow-always pattern), on
//! ratatui-textarea, and what an "allow always" suggests remembering.

use ratatui::style::{Modifier, Style};
use ratatui_textarea::{TextArea, WrapMode};

use crate::core::call::{Call, CallId, ToolKind};
use crate::core::caps::{AllowEffect, Caps, NoteEffect};
use crate::core::classify::Assessment;
use crate::core::prompter::HumanAnswer;
use crate::core::rules::{Pattern, SessionAllow};
use crate::core::shell::Safety;

/// What a box is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoxKind {
    /// Deny with a reason.
    Reason,
    /// Allow with a note.
    Note,
    /// Allow always: the pattern to remember, as a shell prefix, a tool name or a file path.
    Pattern(AllowKind),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AllowKind {
    ShellPrefix,
    Tool,
    Path,
}

impl BoxKind {
    /// The box's title, for what its answer really does where the call came from (`caps`).
    pub fn title(self, caps: &Caps) -> String {
        let allow = match caps.allow {
            AllowEffect::Grant => "allow",
            AllowEffect::Pass => "pass",
        };
        let always = match caps.allow {
            AllowEffect::Grant => "allow always",
            AllowEffect::Pass => "always pass",
        };
        match self {
            BoxKind::Reason if caps.reason => " deny: reason for the model ".into(),
            BoxKind::Reason => {
                " deny: reason for the log (the model only learns it was blocked) ".into()
            }
            BoxKind::Note => match caps.note {
                NoteEffect::Model => format!(" {allow}: note for the model "),
                NoteEffect::AfterTool => {
                    format!(" {allow}: note for the model, arriving after the output ")
                }
                NoteEffect::User => {
                    format!(" {allow}: note for you only (the model never sees it) ")
                }
                NoteEffect::None => format!(" {allow}: note (nothing carries it) "),
            },
            BoxKind::Pattern(AllowKind::ShellPrefix) => {
                format!(" {always}: shell commands starting with ")
            }
            BoxKind::Pattern(AllowKind::Tool) => format!(" {always}: every call of the tool "),
            BoxKind::Pattern(AllowKind::Path) => format!(" {always}: edits of the file "),
        }
    }

    /// What an empty box says it is for.
    fn placeholder(self, caps: &Caps) -> &'static str {
        match self {
            BoxKind::Reason if caps.reason => {
                "why not, and what to do instead (empty: \"denied by user\")"
            }
            BoxKind::Reason => "why not, for the log; the agent gets no reason",
            BoxKind::Note => match caps.note {
                NoteEffect::Model => "a note the model reads after the result",
                NoteEffect::AfterTool => "a note the model reads after the tool's output",
                NoteEffect::User => "a note shown to you, not to the model",
                NoteEffect::None => "nothing carries a note here",
            },
            BoxKind::Pattern(_) => "what to allow for the rest of this session",
        }
    }
}

/// A text box open on one dialog.
pub struct TextBox {
    pub id: CallId,
    pub kind: BoxKind,
    /// What the answer can do where the call came from: words the title.
    pub caps: Caps,
    pub area: TextArea<'static>,
}

impl TextBox {
    pub fn new(id: CallId, kind: BoxKind, caps: Caps, initial: &str) -> TextBox {
        let mut area = TextArea::new(vec![initial.to_string()]);
        area.move_cursor(ratatui_textarea::CursorMove::End);
        area.set_wrap_mode(WrapMode::WordOrGlyph);
        area.set_cursor_line_style(Style::default());
        area.set_cursor_style(Style::default().add_modifier(Modifier::REVERSED));
        area.set_placeholder_text(kind.placeholder(&caps));
        TextBox {
            id,
            kind,
            caps,
            area,
        }
    }

    pub fn title(&self) -> String {
        self.kind.title(&self.caps)
    }

    pub fn text(&self) -> String {
        self.area.lines().join("\n")
    }

    /// The answer this box sends, or `None` when there is nothing to send (an empty pattern).
    pub fn answer(&self) -> Option<HumanAnswer> {
        let text = self.text();
        let trimmed = text.trim();
        match self.kind {
            BoxKind::Reason => Some(HumanAnswer::Deny {
                reason: trimmed.to_string(),
            }),
            BoxKind::Note => Some(HumanAnswer::Allow {
                note: (!trimmed.is_empty()).then(|| trimmed.to_string()),
            }),
            BoxKind::Pattern(kind) => {
                if trimmed.is_empty() {
                    return None;
                }
                let allow = match kind {
                    AllowKind::ShellPrefix => SessionAllow::ShellPrefix(Pattern::new(trimmed)),
                    AllowKind::Tool => SessionAllow::Tool(trimmed.to_string()),
                    AllowKind::Path => SessionAllow::Path(trimmed.to_string()),
                };
                Some(HumanAnswer::AllowAlways { allow, note: None })
            }
        }
    }
}

/// What "allow always" offers to remember for a call: for a shell line, the program and its
/// subcommand of the first command that is not read-only (`cargo build`); for an edit, its
/// file; for anything else, the tool.
pub fn suggest_allow(call: &Call, assessment: &Assessment) -> (AllowKind, String) {
    match &assessment.kind {
        ToolKind::Shell => {
            let words: Vec<String> = assessment
                .shell
                .as_ref()
                .and_then(|s| {
                    s.commands
                        .iter()
                        .find(|c| c.safety != Safety::ReadOnly)
                        .or(s.commands.first())
                })
                .map(|c| c.words.clone())
                .unwrap_or_else(|| {
                    let line = call.shell_line().unwrap_or("");
                    line.split_whitespace().map(str::to_string).collect()
                });
            let mut prefix: Vec<&str> = words.iter().take(1).map(String::as_str).collect();
            if let Some(sub) = words.get(1)
                && sub
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                && !sub.starts_with('-')
            {
                prefix.push(sub);
            }
            (AllowKind::ShellPrefix, prefix.join(" "))
        }
        ToolKind::Edit => (
            AllowKind::Path,
            call.file_path().unwrap_or_default().to_string(),
        ),
        _ => (AllowKind::Tool, call.tool.clone()),
    }
}
