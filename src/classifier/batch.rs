//! Batches: when every request slot is busy (several raced dialogs open at once against a
//! model with few slots), the questions that wait are gathered, and the next slot to free up
//! carries up to [`MAX_BATCH`] of them in one request, answered by one array with an
//! assessment per question. A bad item fails alone, as an `unsure` for its question; an
//! answer that is not such an array fails them all. A question whose asker went away (its
//! dialog was answered) is dropped before the request is sent.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{SemaphorePermit, TryAcquireError, oneshot};

use super::answer::assessments_of;
use super::model::{Inner, Warmth};
use super::prompt::Prompt;
use crate::core::advice::Assessment;
use crate::core::classifier::ClassifierError;

/// The most questions one request carries.
pub const MAX_BATCH: usize = 8;

type Reply = oneshot::Sender<Result<Assessment, ClassifierError>>;

/// The questions waiting for a slot, oldest first.
#[derive(Default)]
pub struct Waiting(Mutex<VecDeque<(Prompt, Reply)>>);

impl Waiting {
    fn lock(&self) -> MutexGuard<'_, VecDeque<(Prompt, Reply)>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// What a question gets when it arrives: a slot of its own, or a place in the queue.
enum Turn<'a> {
    Now(SemaphorePermit<'a>),
    Queued(oneshot::Receiver<Result<Assessment, ClassifierError>>),
}

/// A request slot held by one question; freeing it serves the queue.
struct Slot<'a> {
    inner: &'a Arc<Inner>,
    permit: Option<SemaphorePermit<'a>>,
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        drop(self.permit.take());
        self.inner.serve_waiting();
    }
}

impl Inner {
    /// One question, if the breaker allows: sent at once on a free slot, or else queued for
    /// the next slot, which carries every waiting question (up to [`MAX_BATCH`]) at once.
    pub(super) async fn ask(
        self: &Arc<Self>,
        prompt: Prompt,
    ) -> Result<Assessment, ClassifierError> {
        self.breaker.check()?;
        // Under the queue's lock, so a slot freed meanwhile always sees this question.
        let turn = {
            let mut waiting = self.waiting.lock();
            match self.permits.try_acquire() {
                Ok(permit) => Turn::Now(permit),
                Err(TryAcquireError::Closed) => {
                    return Err(ClassifierError("the classifier is shutting down".into()));
                }
                Err(TryAcquireError::NoPermits) => {
                    let (reply, answer) = oneshot::channel();
                    waiting.push_back((prompt.clone(), reply));
                    Turn::Queued(answer)
                }
            }
        };
        match turn {
            Turn::Now(permit) => {
                let _slot = Slot {
                    inner: self,
                    permit: Some(permit),
                };
                self.send(prompt).await
            }
            Turn::Queued(answer) => answer.await.unwrap_or_else(|_| {
                Err(ClassifierError(
                    "the request carrying this call was lost".into(),
                ))
            }),
        }
    }

    /// Sends what waits, batch after batch, on a slot as long as one is free. Whoever frees
    /// a slot calls this, so a queued question is never left without a request to come.
    fn serve_waiting(self: &Arc<Self>) {
        if self.waiting.lock().is_empty() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let inner = self.clone();
        runtime.spawn(async move {
            loop {
                let (permit, batch) = {
                    let mut waiting = inner.waiting.lock();
                    waiting.retain(|(_, reply)| !reply.is_closed());
                    if waiting.is_empty() {
                        return;
                    }
                    // Another slot's holder serves the queue when it is done.
                    let Ok(permit) = inner.permits.try_acquire() else {
                        return;
                    };
                    let n = waiting.len().min(MAX_BATCH);
                    (permit, waiting.drain(..n).collect::<Vec<_>>())
                };
                inner.send_batch(batch).await;
                drop(permit);
            }
        });
    }

    /// One request for `batch`, each asker answered with its own assessment.
    async fn send_batch(&self, mut batch: Vec<(Prompt, Reply)>) {
        if batch.len() == 1 {
            let (prompt, reply) = batch.remove(0);
            let _ = reply.send(self.send(prompt).await);
            return;
        }
        if let Err(err) = self.breaker.check() {
            for (_, reply) in batch {
                let _ = reply.send(Err(err.clone()));
            }
            return;
        }
        let prompts: Vec<Prompt> = batch.iter().map(|(p, _)| p.clone()).collect();
        let prompt = Prompt::batch(&prompts);
        match self
            .endpoint
            .ask(&self.http, &prompt, self.limits.timeout)
            .await
        {
            Ok(raw) => {
                self.set_warmth(Warmth::Warm);
                let items = assessments_of(&raw, batch.len());
                match items.iter().find_map(|item| item.as_ref().err()) {
                    Some(invalid) if items.iter().all(Result::is_err) => {
                        self.breaker.failed(&invalid.to_string());
                    }
                    _ => self.breaker.succeeded(),
                }
                for ((_, reply), item) in batch.into_iter().zip(items) {
                    let assessment =
                        item.unwrap_or_else(|invalid| Assessment::unsure(invalid.to_string()));
                    let _ = reply.send(Ok(assessment));
                }
            }
            Err(err) => {
                let message = err.to_string();
                self.breaker.failed(&message);
                for (_, reply) in batch {
                    let _ = reply.send(Err(ClassifierError(message.clone())));
                }
            }
        }
    }
}
