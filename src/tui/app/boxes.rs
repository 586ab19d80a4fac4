//! The text boxes a decision key opens on the focused dialog (a deny reason, an allow note,
//! an allow-always pattern), and the answer that takes a dialog off the queue.

use super::*;

impl App {
    /// Opens the box an intent needs on the focused dialog, which claims it for the human.
    pub(super) fn open_box(&mut self, intent: Intent) -> Vec<Effect> {
        let open = &mut self.dialogs[self.focus];
        let id = open.dialog.id;
        let offer = &open.dialog.offer;
        let (kind, initial, always) = match intent {
            Intent::Deny => (BoxKind::Reason, String::new(), None),
            Intent::AllowWithNote => (BoxKind::Note, String::new(), None),
            _ => {
                let always = offer.always.clone();
                let initial = visible(&always.pattern).into_owned();
                (BoxKind::Pattern(always.kind), initial, Some(always))
            }
        };
        let mut text_box = TextBox::new(id, kind, offer.caps, &initial);
        text_box.always = always;
        text_box.project = offer
            .project
            .as_ref()
            .map(|root| visible(&root.display().to_string()).into_owned());
        self.state = DialogState::Writing(Box::new(text_box));
        open.claimed = true;
        // The claim cancels a request in flight.
        if open.classifier == Some(ClassifierState::Asking) {
            open.classifier = None;
        }
        vec![Effect::Claim(id)]
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
                vec![]
            }
            BoxKey::Leave => {
                self.state = DialogState::Choosing;
                vec![]
            }
            BoxKey::Scope => {
                if !b.next_scope() {
                    b.area.input(key);
                    b.edited();
                }
                vec![]
            }
            BoxKey::Edit => {
                b.area.input(key);
                b.edited();
                vec![]
            }
        })
    }

    /// The human answered `id`: it leaves the queue now; the barrier's event logs it.
    pub(super) fn answered(&mut self, id: CallId, answer: HumanAnswer) -> Vec<Effect> {
        self.remove(id);
        vec![Effect::Answer(id, answer)]
    }
}
