//! The dialog's text boxes (deny reason, allow note, allow-always pattern, edited line), on
//! ratatui-textarea. What an "allow always" suggests, and which patterns are broad, the core
//! worked out on the dialog ([`crate::core::offer`]).

use ratatui::style::{Modifier, Style};
use ratatui_textarea::{TextArea, WrapMode};

use crate::core::barrier::{EditEnd, EditJudged};
use crate::core::call::CallId;
use crate::core::caps::{AllowEffect, Caps, NoteEffect};
use crate::core::offer::{ALWAYS_WHILES, AllowKind, Always};
use crate::core::prompter::{HumanAnswer, Keeping, SavedScope};
use crate::core::rules::SessionAllow;

/// What a box is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoxKind {
    /// Deny with a reason.
    Reason,
    /// Allow with a note.
    Note,
    /// Allow always: the pattern to remember, as a shell prefix, a tool name or a file path.
    Pattern(AllowKind),
    /// The shell line edited before approving: allowed once as typed, judged afresh.
    Line,
    /// A plan approved, with a note for the model and the mode to move to (Tab).
    Plan,
}

/// What pressing Enter in a box does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Submit {
    /// Send this answer.
    Send(HumanAnswer),
    /// The pattern is broad: the box now asks for Enter once more.
    Confirm,
    /// Nothing to send (an empty pattern).
    Nothing,
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
            BoxKind::Reason => " deny: reason for the log only ".into(),
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
            BoxKind::Pattern(AllowKind::Shell) => {
                format!(" {always} (Tab: where; ^T: how long; * prefix) ")
            }
            BoxKind::Pattern(AllowKind::Tool) => {
                format!(" {always}: every call of the tool (Tab: where; ^T: how long) ")
            }
            BoxKind::Pattern(AllowKind::Path) => format!(" {always}: edits of the file "),
            BoxKind::Pattern(AllowKind::Host) => {
                format!(" {always}: fetches from the host (Tab: where; ^T: how long) ")
            }
            BoxKind::Line => format!(" edit the command, then {allow} the edited line once "),
            BoxKind::Plan => " approve the plan: note for the model (Tab: mode after) ".into(),
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
            BoxKind::Pattern(_) => "what to allow always",
            BoxKind::Line => "the command to run instead",
            BoxKind::Plan => "a note the model reads with the approval (optional)",
        }
    }
}

/// How long an "allow always" lasts, chosen with Tab in its box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    /// This agent session, while the console runs (the default).
    #[default]
    Session,
    /// A saved rule for the call's project.
    Project,
    /// A saved rule for every project.
    Everyone,
}

impl Scope {
    /// Where the rule lasts, in words; `project` is the call's project root, if any.
    pub fn words(self, project: Option<&str>) -> String {
        match (self, project) {
            (Scope::Session, Some(_)) => "for this session".into(),
            (Scope::Session, None) => {
                "for this session (this folder is in no project, so Tab offers this session or \
                 everywhere)"
                    .into()
            }
            (Scope::Project, Some(root)) => format!("in this project ({root}), saved"),
            (Scope::Project, None) => "in this project, saved".into(),
            (Scope::Everyone, _) => "everywhere, saved".into(),
        }
    }

    /// The next scope; "this project" only where the call is in one.
    fn next(self, in_project: bool) -> Scope {
        match self {
            Scope::Session if in_project => Scope::Project,
            Scope::Session | Scope::Project => Scope::Everyone,
            Scope::Everyone => Scope::Session,
        }
    }
}

/// How long an allow-always lasts, chosen with Ctrl+T: always (for a session, while the
/// console runs), or a while of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lasts {
    #[default]
    Always,
    Hour,
    Quarter,
    /// Kept in this console's memory only, never written, until it quits (a saved scope's).
    UntilQuit,
}

impl Lasts {
    /// The duration, `None` for always.
    pub fn duration(self) -> Option<std::time::Duration> {
        match self {
            Lasts::Always | Lasts::UntilQuit => None,
            Lasts::Hour => Some(ALWAYS_WHILES[1]),
            Lasts::Quarter => Some(ALWAYS_WHILES[0]),
        }
    }

    fn words(self) -> &'static str {
        match self {
            Lasts::Always => "",
            Lasts::Hour => ", for 1 h",
            Lasts::Quarter => ", for 15 min",
            Lasts::UntilQuit => {
                ", until gatehouse quits (kept in its memory only, not written to rules.toml)"
            }
        }
    }

    /// The next while; until the console quits only for a saved scope (a session's always
    /// lasts that long).
    fn next(self, saved: bool) -> Lasts {
        match self {
            Lasts::Always => Lasts::Quarter,
            Lasts::Quarter => Lasts::Hour,
            Lasts::Hour if saved => Lasts::UntilQuit,
            Lasts::Hour | Lasts::UntilQuit => Lasts::Always,
        }
    }

    /// Whether the rule is written to the saved rules or kept in memory.
    pub fn keeping(self) -> Keeping {
        match self {
            Lasts::UntilQuit => Keeping::UntilQuit,
            Lasts::Always | Lasts::Hour | Lasts::Quarter => Keeping::Saved,
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
    /// For an allow-always box: what the dialog offers to remember, which reads the text and
    /// says when it is broad.
    pub always: Option<Always>,
    /// The broad pattern the human was warned about; Enter on the same text sends it.
    confirming: Option<String>,
    /// Where an allow-always lasts.
    pub scope: Scope,
    /// How long a saved one lasts.
    pub lasts: Lasts,
    /// The call's project root, shown; `None`: no project scope is offered.
    pub project: Option<String>,
    /// For an edited line: the console's judgement of it, once it has come.
    pub judged: Option<EditJudged>,
    /// For a plan's approve box: the mode after, and how many other dialogs are open.
    pub plan: Option<(super::PlanChoice, usize)>,
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
            always: None,
            confirming: None,
            scope: Scope::Session,
            lasts: Lasts::Always,
            project: None,
            judged: None,
            plan: None,
        }
    }

    /// Tab: the next scope, for a shell or tool pattern (an edit is only ever for the session).
    pub fn next_scope(&mut self) -> bool {
        match self.kind {
            BoxKind::Pattern(AllowKind::Shell | AllowKind::Tool | AllowKind::Host) => {
                self.scope = self.scope.next(self.project.is_some());
                if self.scope == Scope::Session && self.lasts == Lasts::UntilQuit {
                    self.lasts = Lasts::Always;
                }
                self.confirming = None;
                true
            }
            BoxKind::Plan => self
                .plan
                .as_mut()
                .map(|(choice, _)| choice.next())
                .is_some(),
            _ => false,
        }
    }

    /// Ctrl+T: how long the pattern lasts (15 min, 1 h, always: for a session, always is
    /// while the console runs). Returns whether it applied.
    pub fn next_lasts(&mut self) -> bool {
        match self.kind {
            BoxKind::Pattern(AllowKind::Shell | AllowKind::Tool | AllowKind::Host) => {
                self.lasts = self.lasts.next(self.scope != Scope::Session);
                true
            }
            _ => false,
        }
    }

    /// The session allow the box's text means, for a pattern box.
    pub fn allow(&self) -> Option<SessionAllow> {
        self.always.as_ref()?.allow(&self.text())
    }

    /// For a pattern box, what its text will match, in words; a warning when it is broad.
    pub fn meaning(&self) -> Option<String> {
        match self.kind {
            BoxKind::Pattern(_) => {}
            BoxKind::Line => return Some(self.line_meaning()),
            BoxKind::Plan => return self.plan.as_ref().map(|(c, open)| c.words(*open)),
            BoxKind::Reason | BoxKind::Note => return None,
        }
        Some(match self.allow() {
            None => " matches nothing: type a pattern ".to_string(),
            Some(allow) if self.confirming.as_deref() == Some(self.text().trim()) => format!(
                " BROAD: {} — {}. Enter again to allow it, or edit ",
                allow.describe(),
                self.scope.words(self.project.as_deref())
            ),
            Some(allow) => format!(
                " will allow {} — {}{}{} ",
                allow.describe(),
                self.scope.words(self.project.as_deref()),
                self.lasts.words(),
                match self.always.as_ref().and_then(|a| a.caveat) {
                    Some(caveat) => format!(". NOTE: {caveat}"),
                    None => String::new(),
                }
            ),
        })
    }

    /// For an edited line: its class and what Enter does, or that it is being judged.
    fn line_meaning(&self) -> String {
        let text = self.text();
        match &self.judged {
            _ if text.trim().is_empty() => " type the command to run instead ".to_string(),
            Some(judged) if judged.line == text.trim() => {
                let refused = match judged.end {
                    EditEnd::Refused => "REFUSED ",
                    EditEnd::RunsInstead | EditEnd::DeniedWithLine => "",
                };
                format!(
                    " {refused}{}: {} — {} ",
                    judged.class.name(),
                    judged.explanation,
                    judged.end.words()
                )
            }
            _ => " judging the edited line… ".to_string(),
        }
    }

    /// The text changed: a warning given about a broad pattern no longer stands.
    pub fn edited(&mut self) {
        self.confirming = None;
    }

    /// Enter: the answer to send, or a second confirmation first for a broad pattern.
    pub fn submit(&mut self) -> Submit {
        let Some(answer) = self.answer() else {
            return Submit::Nothing;
        };
        // An edited line is sent only once the human has seen its judgement.
        if self.kind == BoxKind::Line
            && self.judged.as_ref().map(|j| j.line.as_str()) != Some(self.text().trim())
        {
            return Submit::Nothing;
        }
        let allow = match &answer {
            HumanAnswer::AllowAlways { allow, .. } | HumanAnswer::AllowSaved { allow, .. } => {
                Some(allow)
            }
            _ => None,
        };
        // A saved rule lasts beyond the session: any prefix asks twice there.
        let lasting = self.scope != Scope::Session;
        let broad = allow
            .zip(self.always.as_ref())
            .is_some_and(|(allow, always)| always.needs_confirming(allow, lasting));
        if broad {
            let text = self.text().trim().to_string();
            if self.confirming.as_deref() != Some(text.as_str()) {
                self.confirming = Some(text);
                return Submit::Confirm;
            }
        }
        Submit::Send(answer)
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
            BoxKind::Line => (!trimmed.is_empty()).then(|| HumanAnswer::AllowEdited {
                line: trimmed.to_string(),
            }),
            BoxKind::Plan => Some(HumanAnswer::AllowPlan {
                mode: self.plan.as_ref().and_then(|(choice, _)| choice.chosen()),
                note: (!trimmed.is_empty()).then(|| trimmed.to_string()),
            }),
            BoxKind::Pattern(_) => self.allow().map(|allow| match self.scope {
                Scope::Session => HumanAnswer::AllowAlways {
                    allow,
                    note: None,
                    lasts: self.lasts.duration(),
                },
                Scope::Project => HumanAnswer::AllowSaved {
                    allow,
                    scope: SavedScope::Project,
                    note: None,
                    lasts: self.lasts.duration(),
                    kept: self.lasts.keeping(),
                },
                Scope::Everyone => HumanAnswer::AllowSaved {
                    allow,
                    scope: SavedScope::Everyone,
                    note: None,
                    lasts: self.lasts.duration(),
                    kept: self.lasts.keeping(),
                },
            }),
        }
    }
}
