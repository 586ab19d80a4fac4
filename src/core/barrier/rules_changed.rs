//! When the lasting rules change under open dialogs: a human's "allow always" saved for a
//! project or everyone, or a rule the console added or removed. The epoch moves on (advice
//! asked under the old rules is stale) and every open dialog is judged again: one the new rules
//! deny is refused, one they list is allowed where the mode allows listed calls.

use std::sync::Arc;

use super::prompter::{Keeping, SavedScope};
use super::settle::Settle;
use super::{Shared, State};
use crate::core::call::CallId;
use crate::core::classify::assess;
use crate::core::decision::{Decider, Decision};
use crate::core::policy::load::Policy;
use crate::core::route::{Route, Row};
use crate::core::rule::Rule;
use crate::core::rules::{Rules, SessionAllow};

impl Shared {
    /// The rules in force now: a call is judged under one set from start to end.
    pub(in crate::core) fn rules(&self) -> Arc<Rules> {
        self.rules
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// Puts `rules` in force (the config was read again) and judges the open dialogs again.
    pub(in crate::core) fn set_rules(&self, rules: Rules) {
        *self
            .rules
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Arc::new(rules);
        self.rules_changed();
    }

    pub(in crate::core) fn policy(&self) -> Arc<Policy> {
        self.rules().policy.clone()
    }

    /// The human allowed dialog `id` and asked to keep `allow` as a saved rule. The call is
    /// allowed whether or not the rule can be written; the audit record says which.
    pub(super) fn answer_saving(
        self: &Arc<Self>,
        id: CallId,
        (allow, scope, lasts, kept): (
            SessionAllow,
            SavedScope,
            Option<std::time::Duration>,
            super::prompter::Keeping,
        ),
        decision: Decision,
        device: Option<Arc<str>>,
    ) -> bool {
        let Some(call) = self.lock().pending.get(id).map(|p| p.dialog.call.clone()) else {
            return false;
        };
        let kind = call.kind(&self.rules().internal_tools);
        let project = match scope {
            SavedScope::Everyone => None,
            // A remote call's folder is not on this disk: it is in no project here.
            SavedScope::Project if call.remote.is_some() => None,
            SavedScope::Project => self.rules().policy.in_force(&call.cwd).root,
        };
        let host = call.remote.as_ref().map(|r| r.host.clone());
        let saved = match (scope, &project) {
            (SavedScope::Project, None) => Err("the call is in no project (no git root)".into()),
            _ => match Rule::of_allow(&allow, &kind, project.clone(), host) {
                None => Err("an edit can only be allowed for the session".to_string()),
                Some(mut rule) => {
                    rule.learned.call = Some(id.0);
                    rule.expires = lasts.map(|d| std::time::SystemTime::now() + d);
                    match kept {
                        Keeping::Saved => self.rules().policy.save(rule).map_err(|e| e.to_string()),
                        Keeping::UntilQuit => Ok(self.rules().policy.keep_until_quit(rule)),
                    }
                }
            },
        };
        let file = match kept {
            Keeping::Saved => self.rules().policy.paths().saved.clone(),
            Keeping::UntilQuit => None,
        };
        let place = match (&project, file) {
            (Some(root), Some(file)) => format!(" in {} for {}", file.display(), root.display()),
            (None, Some(file)) => format!(" in {} for every project", file.display()),
            (_, None) => String::new(),
        };
        let note = match &saved {
            Ok(rule) => {
                let lasting = match (kept, lasts) {
                    (Keeping::UntilQuit, _) => {
                        " until gatehouse quits (kept in memory only)".into()
                    }
                    (Keeping::Saved, Some(d)) => format!(" for {}", humantime::format_duration(d)),
                    (Keeping::Saved, None) => String::new(),
                };
                format!("saved rule {rule}{place}{lasting}: {}", allow.text())
            }
            Err(why) => format!("not saved ({why}): {}", allow.text()),
        };
        let won = self.resolve(
            id,
            |_| true,
            Settle::new(decision, Decider::Human)
                .noting(note)
                .answered_from(device),
        );
        if won && saved.is_ok() {
            self.rules_changed();
        }
        won
    }

    /// Moves the epoch on and judges every open dialog again under the rules now in force.
    pub(in crate::core) fn rules_changed(&self) {
        let open = {
            let mut state = self.lock();
            state.epoch += 1;
            let epoch = state.epoch;
            let mut open = Vec::new();
            let State {
                pending, allows, ..
            } = &mut *state;
            for pending in pending.iter_mut() {
                pending.epoch = epoch;
                let call = pending.dialog.call.clone();
                let session = allows.of(&call.agent, &call.session).to_vec();
                open.push((pending.dialog.id, call, session));
            }
            open.into_iter()
                .map(|(id, call, session)| (id, state.applied(&call).mode, call, session))
                .collect::<Vec<_>>()
        };
        for (id, mode, call, session) in open {
            let fresh = assess(&call, &self.rules(), &session);
            match (fresh.row, fresh.route(mode)) {
                (Row::Denied, _) => {
                    let reason = format!("gatehouse: {}", fresh.refusal());
                    self.resolve(
                        id,
                        |_| true,
                        Settle::new(Decision::deny(reason), Decider::Rule),
                    );
                }
                (Row::Listed, Route::Allow) => {
                    let settle = Settle::new(Decision::allow(), fresh.allow_decider());
                    let settle = match &fresh.rule {
                        Some(hit) => settle.noting(hit.describe()),
                        None => settle,
                    };
                    self.resolve(id, |_| true, settle);
                }
                _ => {}
            }
        }
    }
}
