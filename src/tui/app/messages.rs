//! What reaches the console's model ([`Msg`]: keys, the barrier's events, the runner's
//! answers) and what the model asks the runner to do ([`Effect`]).

use std::sync::Arc;
use std::time::Duration;

use ratatui::crossterm::event::KeyEvent;

use super::{Lasting, WebAsk, WebPanel};
use crate::core::call::CallId;
use crate::core::event::{Dialog, Event};
use crate::core::mode::Mode;
use crate::core::prompter::HumanAnswer;
use crate::core::rules::{RuleId, SessionRule};
use crate::preview::Preview;

/// What the console's model is told.
pub enum Msg {
    Key(KeyEvent),
    Paste(String),
    Tick,
    /// A dialog opened, with its preview prepared by the runner.
    Opened(Arc<Dialog>, Preview),
    Barrier(Event),
    /// The classifier's state, as the status bar shows it.
    ClassifierStatus(String),
    /// The session rules, as the barrier has them now.
    Rules(Vec<SessionRule>),
    /// The web console's pairing link and devices, as it answered.
    Web(WebPanel),
    /// The lasting rules and the policy files in force.
    Lasting(Lasting),
    /// Something the runner learned that the human should read (the config was read again).
    Notice(String),
    /// The console's judgement of an edited line (`Effect::Judge`).
    Judged(CallId, crate::core::barrier::EditJudged),
    /// What a batch answer did (`Effect::AnswerBatch`).
    Batched(crate::core::barrier::BatchDone),
}

/// What `update` asks the runner to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Answer(CallId, HumanAnswer),
    Claim(CallId),
    SetMode(Mode),
    SetModeFor(Mode, Duration),
    SetScopeMode(crate::core::mode_scope::ModeScope, Option<Mode>),
    /// A dialog opened: ring the bell or send a notification.
    Notify,
    RearmClassifier,
    /// Ask the classifier for advice on this dialog (it only resolves a dialog that races).
    AskAdvice(CallId),
    /// Judge this line as the dialog's shell line edited (`Msg::Judged` answers).
    Judge(CallId, String),
    /// Read the session rules (the runner answers with `Msg::Rules`).
    ListRules,
    /// Forget a session rule (the runner answers with `Msg::Rules`).
    Revoke(RuleId),
    /// Ask the web console for a link or to unpair (the runner answers with `Msg::Web`).
    Web(WebAsk),
    /// Delete a saved rule by its id (the runner answers with the lists again).
    Unsave(String),
    /// Forget a rule kept in memory until quit, by its id (the runner answers with the lists).
    Forget(String),
    /// Save a rule the console offered from the human's answers.
    SaveRule(crate::core::rule::Rule),
    /// Put this text on the clipboard through the terminal (OSC 52).
    Copy(String),
    /// Show this text in the user's pager, the console suspended meanwhile.
    Page(String),
    /// Answer these calls with one answer, as one batch (the runner notes what it did).
    AnswerBatch(Vec<CallId>, crate::core::batch::BatchAnswer),
    Quit,
}
