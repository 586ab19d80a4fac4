//! The text boxes a decision key opens on the focused dialog (a deny reason, an allow note,
//! an allow-always pattern), and the answer that takes a dialog off the queue.

use super::*;
use crate::core::call::ToolKind;

impl App {
    /// Opens the box an intent needs on the focused dialog, which claims it for the human.
    pub(super) fn open_box(&mut self, intent: Intent) -> Vec<Effect> {
        let others = self.dialogs.len().saturating_sub(1);
        let open = &mut self.dialogs[self.focus];
        let id = open.dialog.id;
        let offer = &open.dialog.offer;
        let plan = open.dialog.assessment.kind == ToolKind::Plan;
        let (kind, initial, always) = match intent {
            // Every allow of a plan is the approve box: a plan is approved once, never always.
            Intent::AllowOnce | Intent::AllowAlways | Intent::AllowWithNote if plan => {
                (BoxKind::Plan, String::new(), None)
            }
            Intent::Deny => (BoxKind::Reason, String::new(), None),
            Intent::AllowWithNote => (BoxKind::Note, String::new(), None),
            Intent::Edit => {
                let line = offer.edit.as_deref().unwrap_or_default();
                (BoxKind::Line, visible(line).into_owned(), None)
            }
            _ => {
                let always = offer.always.clone();
                let initial = visible(&always.pattern).into_owned();
                (BoxKind::Pattern(always.kind), initial, Some(always))
            }
        };
        let mut text_box = TextBox::new(id, kind, offer.caps, &initial);
        text_box.always = always;
        text_box.plan = plan.then(|| (crate::tui::PlanChoice::new(self.mode), others));
        text_box.project = offer
            .project
            .as_ref()
            .map(|root| visible(&root.display().to_string()).into_owned());
        let judge =
            (kind == BoxKind::Line).then(|| Effect::Judge(id, text_box.text().trim().to_string()));
        self.state = DialogState::Writing(Box::new(text_box));
        open.claimed = true;
        // The claim cancels a request in flight.
        if open.classifier == Some(ClassifierState::Asking) {
            open.classifier = None;
        }
        std::iter::once(Effect::Claim(id)).chain(judge).collect()
    }

    /// The console judged an edited line: the box shows it if it is still open on that call.
    pub(super) fn judged(
        &mut self,
        id: CallId,
        judged: crate::core::barrier::EditJudged,
    ) -> Vec<Effect> {
        if let DialogState::Writing(b) = &mut self.state
            && b.id == id
            && b.kind == BoxKind::Line
        {
            b.judged = Some(judged);
        }
        vec![]
    }

    /// Text pasted into the open box, control characters but newlines and tabs left out.
    pub(super) fn paste(&mut self, text: &str) -> Vec<Effect> {
        if self.screen == Screen::Batch {
            self.batch_paste(text);
            return vec![];
        }
        let DialogState::Writing(b) = &mut self.state else {
            return vec![];
        };
        let clean: String = text
            .chars()
            .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
            .collect();
        b.area.insert_str(clean);
        b.edited();
        Self::rejudge(b)
    }

    /// After an edit of an edited line's box: ask for its judgement.
    pub(super) fn rejudge(b: &TextBox) -> Vec<Effect> {
        match b.kind {
            BoxKind::Line => vec![Effect::Judge(b.id, b.text().trim().to_string())],
            _ => vec![],
        }
    }

    /// A key while a text box is open on the focused dialog: `None` when no box is open.
    pub(super) fn writing_key(&mut self, key: KeyEvent) -> Option<Vec<Effect>> {
        let DialogState::Writing(b) = &mut self.state else {
            return None;
        };
        Some(match keymap::box_key(&key) {
            BoxKey::Submit => match b.submit() {
                Submit::Send(answer) => {
                    let id = b.id;
                    self.state = DialogState::Choosing;
                    self.answered(id, answer)
                }
                Submit::Confirm | Submit::Nothing => vec![],
            },
            BoxKey::Newline => {
                b.area.insert_newline();
                b.edited();
                Self::rejudge(b)
            }
            BoxKey::Leave => {
                self.state = DialogState::Choosing;
                vec![]
            }
            BoxKey::Scope => {
                if b.next_scope() {
                    return Some(vec![]);
                }
                b.area.input(key);
                b.edited();
                Self::rejudge(b)
            }
            BoxKey::Lasts => {
                b.next_lasts();
                vec![]
            }
            BoxKey::Edit => {
                b.area.input(key);
                b.edited();
                Self::rejudge(b)
            }
        })
    }

    /// Whether the focused dialog presents a plan: its allow keys open the approve box.
    pub(super) fn plan_focused(&self) -> bool {
        self.focused()
            .is_some_and(|o| o.dialog.assessment.kind == ToolKind::Plan)
    }

    /// The human answered `id`: it leaves the queue now; the barrier's event logs it.
    pub(super) fn answered(&mut self, id: CallId, answer: HumanAnswer) -> Vec<Effect> {
        // The barrier changes the mode once the plan is approved: the console shows it now,
        // as it does after a mode key, and a mode still settling from the keys is dropped.
        if let HumanAnswer::AllowPlan {
            mode: Some(mode), ..
        } = answer
        {
            self.mode = mode;
            self.pending = None;
        }
        self.remove(id);
        vec![Effect::Answer(id, answer)]
    }
}
