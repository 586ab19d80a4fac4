//! The server's memory bound: every open connection is charged for what it holds, and a
//! connection that cannot be charged is not served in full.
//!
//! A connection costs [`CONNECTION_BYTES`] from accept (its task, buffers and bookkeeping) plus
//! the room its request line takes while it arrives; that charge stays while the call is open,
//! since the call holds about as much. Idle peers therefore cost a small, fixed amount each, and
//! the bound is a figure of memory (`max_pending_mib` in the config), not a count.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// What one connection costs before it has sent anything.
pub const CONNECTION_BYTES: usize = 8 * 1024;

/// Bytes the server may hold for open connections. Cheap to clone; clones share the bound.
#[derive(Debug, Clone)]
pub struct Budget {
    free: Arc<Semaphore>,
    total: u32,
}

/// What one connection is charged; given back when dropped.
#[derive(Debug)]
pub struct Charge {
    permit: OwnedSemaphorePermit,
    free: Arc<Semaphore>,
}

impl Budget {
    /// A bound of `bytes` (at most `u32::MAX`, and at least one connection).
    pub fn new(bytes: usize) -> Budget {
        let total = u32::try_from(bytes.max(CONNECTION_BYTES)).unwrap_or(u32::MAX);
        Budget {
            free: Arc::new(Semaphore::new(total as usize)),
            total,
        }
    }

    /// The bound, in bytes.
    pub fn total(&self) -> usize {
        self.total as usize
    }

    /// Charges `bytes`, or `None` when the bound would be passed.
    pub fn try_charge(&self, bytes: usize) -> Option<Charge> {
        let n = u32::try_from(bytes).ok()?;
        let permit = self.free.clone().try_acquire_many_owned(n).ok()?;
        Some(Charge {
            permit,
            free: self.free.clone(),
        })
    }

    /// Waits until every charge is given back, or the budget is closed.
    pub async fn all_returned(&self) {
        let _ = self.free.acquire_many(self.total).await;
    }
}

impl Charge {
    /// What this charge holds, in bytes.
    pub fn bytes(&self) -> usize {
        self.permit.num_permits()
    }

    /// Charges `more` bytes on top; `false` (and nothing charged) when the bound would be
    /// passed.
    pub fn grow(&mut self, more: usize) -> bool {
        let Ok(n) = u32::try_from(more) else {
            return false;
        };
        match self.free.clone().try_acquire_many_owned(n) {
            Ok(permit) => {
                self.permit.merge(permit);
                true
            }
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_stay_within_the_bound_and_come_back_when_dropped() {
        let budget = Budget::new(3 * CONNECTION_BYTES);
        let mut a = budget.try_charge(CONNECTION_BYTES).unwrap();
        let b = budget.try_charge(CONNECTION_BYTES).unwrap();
        assert!(a.grow(CONNECTION_BYTES));
        assert_eq!(a.bytes(), 2 * CONNECTION_BYTES);
        assert!(budget.try_charge(1).is_none(), "the bound is reached");
        assert!(!a.grow(1));
        drop(b);
        assert!(budget.try_charge(CONNECTION_BYTES).is_some());
        assert_eq!(budget.total(), 3 * CONNECTION_BYTES);
    }
}
