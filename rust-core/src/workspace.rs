//! A worker's workspace: what enhancing keeps from one class to the next on
//! one worker (remembered generated code, lift buffers) and what it counts.
//! The pipeline makes one per rayon worker and hands it down with each class
//! ([`map_per_worker`]); nothing of it is shared or kept in thread-locals.
#![forbid(unsafe_code)]

use crate::classfile::check::Verifier;
use crate::tracegen::check_scope::CheckCounts;
use crate::classfile::Lifter;
use crate::schema::RegistrationVerdicts;
use crate::tracegen;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One worker's state. Output never depends on it (a fresh one gives the
/// same bytes), only speed.
#[derive(Default)]
pub struct Workspace {
    /// Tracegen's templates and stack depths by method shape.
    pub(crate) generated: tracegen::Memory,
    /// Stage 1's registration code by shape, with its check's verdict.
    pub(crate) registrations: RegistrationVerdicts,
    /// Lifts code into the code model, in buffers kept from class to class.
    pub(crate) lifter: Lifter,
    /// The pre-write check, with the method descriptors it has read.
    pub(crate) verifier: Verifier,
    /// What the classes enhanced here came to.
    pub(crate) statistics: Statistics,
}

/// Counts of how methods were enhanced, summed over the classes a workspace
/// took (failed attempts included): for the tests and benchmarks that
/// compare the paths.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Statistics {
    /// Methods whose code was spliced rather than lifted.
    pub spliced_methods: u64,
    /// Methods given generated code copied from a template.
    pub templated_methods: u64,
    /// Changed methods by the pre-write check they took.
    pub checks: CheckCounts,
}

impl Workspace {
    /// The counts so far, summed over the classes the workspace took.
    pub fn statistics(&self) -> Statistics {
        Statistics { templated_methods: self.generated.templated_methods(), ..self.statistics }
    }

    /// Forgets the generated code remembered, as a new worker has none (a
    /// first build); the counts stay.
    pub fn forget_generated_code(&mut self) {
        self.generated.forget();
        self.registrations = RegistrationVerdicts::default();
    }
}

/// `f` of each item on the current rayon pool, results in input order: one
/// task per worker, each with its own workspace from `workspaces` (at least
/// one), taking the next item until none is left.
pub fn map_per_worker<'i, T: Sync, R: Send>(
    items: &'i [T],
    workspaces: &mut [Workspace],
    f: impl Fn(&mut Workspace, &'i T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(items.len()));
    rayon::scope(|scope| {
        for workspace in workspaces.iter_mut() {
            let (next, done, f) = (&next, &done, &f);
            scope.spawn(move |_| {
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    mine.push((i, f(workspace, item)));
                }
                // A poisoned lock: another task panicked, and the scope
                // re-raises that panic; these results go with it.
                if let Ok(mut done) = done.lock() {
                    done.extend(mine);
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    done.sort_unstable_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// One workspace per worker of the current rayon pool.
pub fn per_worker() -> Vec<Workspace> {
    (0..rayon::current_num_threads().max(1)).map(|_| Workspace::default()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_input_order_and_every_workspace_takes_items() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().expect("pool");
        let items: Vec<u64> = (0..1000).collect();
        let mut workspaces = pool.install(per_worker);
        assert_eq!(workspaces.len(), 3);
        // Each workspace's first item waits for the other two workspaces'
        // first items: every worker takes items, interleaved.
        let all_started = std::sync::Barrier::new(3);
        let squares = pool.install(|| {
            map_per_worker(&items, &mut workspaces, |w, &i| {
                if w.statistics.spliced_methods == 0 {
                    all_started.wait();
                }
                w.statistics.spliced_methods += 1;
                i * i
            })
        });
        assert_eq!(squares, items.iter().map(|i| i * i).collect::<Vec<_>>());
        let taken: Vec<u64> = workspaces.iter().map(|w| w.statistics.spliced_methods).collect();
        assert!(taken.iter().all(|&n| n > 0), "a workspace took nothing: {taken:?}");
        assert_eq!(taken.iter().sum::<u64>(), 1000, "each item went to exactly one workspace");
    }
}
