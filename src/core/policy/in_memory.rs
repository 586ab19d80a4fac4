//! Rules kept only in memory, until the console quits: an "allow always" for a project or for
//! everyone that the human chose to keep for this run only. They are judged as the saved
//! rules are (a project's only under its root, each until its `expires`), are listed in the
//! rules panel as in-memory rules (`Layer::Memory`), can be deleted there, and are never
//! written anywhere: `gatehouse rules list`, another process, cannot see them.

use std::sync::Arc;

use super::load::{Policy, lock, unique_id};
use super::{Layer, RuleFile, Trust};
use crate::core::rule::Rule;

impl Policy {
    /// Keeps `rule` in memory until the console quits (its id made unique among those kept).
    /// Returns the id it is kept under.
    pub fn keep_until_quit(&self, mut rule: Rule) -> String {
        let mut kept = lock(&self.in_memory);
        let mut rules = kept.as_ref().map_or_else(Vec::new, |f| f.rules.clone());
        rule.id = unique_id(&rule.id, &rules);
        let id = rule.id.clone();
        rules.push(rule);
        *kept = Some(Arc::new(RuleFile::new(
            Layer::Memory,
            None,
            Trust::Own,
            rules,
        )));
        id
    }

    /// Forgets the rule kept in memory as `id`; returns whether one was.
    pub fn forget_kept(&self, id: &str) -> bool {
        let mut kept = lock(&self.in_memory);
        let Some(file) = kept.as_ref() else {
            return false;
        };
        let rules: Vec<Rule> = file.rules.iter().filter(|r| r.id != id).cloned().collect();
        if rules.len() == file.rules.len() {
            return false;
        }
        *kept = Some(Arc::new(RuleFile::new(
            Layer::Memory,
            None,
            Trust::Own,
            rules,
        )));
        true
    }
}
