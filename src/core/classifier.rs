//! The classifier as the core sees it: something that gives an advisory verdict on a call.
//! The HTTP providers implement this trait elsewhere; tests implement it with a script.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::call::Call;
use super::decision::Verdict;

/// A boxed, sendable future, as the trait's method returns.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// Why no verdict came: the message is shown to the human on the dialog.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ClassifierError(pub String);

/// Gives an opinion on whether a call changes any state. It is only ever asked about calls whose
/// route is `race`, and only a `ReadOnly` verdict can resolve a dialog.
pub trait Classifier: Send + Sync + 'static {
    fn classify(&self, call: Arc<Call>) -> BoxFuture<Result<Verdict, ClassifierError>>;
}
