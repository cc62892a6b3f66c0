//! tf-core: the class-file work of TF, the Tracing Facility.
//!
//! The data path, one module per stage:
//! request → [`inventory`] (with the [`cache`]) → [`scan`] → validate → schema →
//! tracegen → writes, cache and [`metadata`] → report.
//! The JNI and C entry points in [`ffi`] and the `tf-enhance` CLI all call [`run`], which
//! hands a class directory to [`pipeline::run`] and one class in memory (the agent's) to
//! [`in_memory::run`]; neither of the two names the other (what both need is in
//! [`report`] and [`model`]).
#![deny(unsafe_code)]
// Every public item documented; `scripts/test.sh`'s clippy `-D warnings` makes a miss an error.
#![warn(missing_docs)]

// The global allocator of the cdylib (JNI, C ABI) and of `tf-enhance`, which
// are this crate; a Rust user of the rlib keeps its own by turning the
// `mimalloc` feature off (`default-features = false`, see Cargo.toml).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: allocator::MiMalloc = allocator::MiMalloc;

#[cfg(feature = "mimalloc")]
mod allocator;

pub mod cache;
/// The class-file engine, a crate of its own (`classfile/`); re-exported so
/// that tf-core's users keep one dependency.
pub use tf_classfile as classfile;
pub mod classpath;
pub mod cli;
pub mod codegen;
pub mod enhance;
pub mod ffi;
pub mod filter;
pub mod hierarchy;
pub mod in_memory;
pub mod inventory;
pub mod metadata;
pub mod model;
mod output;
pub mod pipeline;
pub mod protocol;
pub mod report;
pub mod request;
pub mod rule;
pub mod runtime;
pub mod scan;
pub mod schema;
pub mod skip;
pub mod tracegen;
pub mod validate;
pub mod workspace;

use request::{EnhanceReport, EnhanceRequest};

/// Runs `request` to completion, whichever its kind: one class in memory
/// ([`EnhanceRequest::class`]) goes to [`in_memory::run`], a class directory
/// to [`pipeline::run`]. Failures are in the report, never panics.
pub fn run(request: &EnhanceRequest) -> EnhanceReport {
    match &request.class {
        Some(class) => in_memory::run(request, class),
        None => pipeline::run(request),
    }
}
