//! `tf-enhance-bench DIR [--passes N] [--threads 1,2] [--filter F] [--dump OUT] [--general] [--cold] [--paced]`:
//! TF's enhancement throughput on every class file under DIR, in memory.
//! With `--dump OUT` it times nothing: it writes every enhanced class under
//! OUT (same relative paths), to compare two versions of TF with `diff -r`.
//! With `--general` it also times the general path alone (no method spliced:
//! `Settings::splice` off), one thread, after the other runs.
//! With `--cold` it also times one thread with the generated code remembered
//! across classes (tracegen's templates and depths) forgotten before every
//! pass, as in a first build; the other runs keep it, as a build daemon does.
//!
//! Per thread count: one warm-up pass (page faults, allocator, caches), then N
//! timed passes; prints the median classes/s and MB/s (MB = 10^6 bytes of
//! input class files) and one `RESULT` line per thread count for `run.sh`.
//! With `--paced` each timed pass waits for a line on standard input, after
//! `READY` is printed once the warm-up is done, and prints `PASS ms=…`: so
//! that `run.sh` can alternate TF's passes with the ASM baseline's, each pair
//! run within a second on a machine whose speed drifts over seconds.
#![forbid(unsafe_code)]

mod corpus;
mod enhancer;

use corpus::Corpus;
use enhancer::{Job, Tally};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use tf_core::workspace;
use std::time::{Duration, Instant};

struct Options {
    dir: PathBuf,
    passes: usize,
    threads: Vec<usize>,
    filter: String,
    dump: Option<PathBuf>,
    /// Also time the general path alone (splicing off), one thread.
    general: bool,
    /// Also time one thread that starts every pass without templates.
    cold: bool,
    /// Wait for a line on standard input before each timed pass.
    paced: bool,
}

fn parse_options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut options =
        Options { dir: PathBuf::new(), passes: 7, threads: vec![1, 2], filter: "**".into(), dump: None, general: false, cold: false, paced: false };
    let mut dir = None;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--passes" => options.passes = value("--passes")?.parse().map_err(|e| format!("--passes: {e}"))?,
            "--filter" => options.filter = value("--filter")?,
            "--dump" => options.dump = Some(PathBuf::from(value("--dump")?)),
            "--general" => options.general = true,
            "--cold" => options.cold = true,
            "--paced" => options.paced = true,
            "--threads" => {
                options.threads = value("--threads")?
                    .split(',')
                    .map(|t| t.parse().map_err(|e| format!("--threads: {e}")))
                    .collect::<Result<_, _>>()?
            }
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}")),
            _ => dir = Some(PathBuf::from(arg)),
        }
    }
    options.dir = dir.ok_or("usage: tf-enhance-bench DIR [--passes N] [--threads 1,2] [--filter F] [--dump OUT] [--general] [--cold] [--paced]")?;
    if options.passes == 0 || options.threads.contains(&0) {
        return Err("--passes and every --threads value must be at least 1".into());
    }
    Ok(options)
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tf-enhance-bench: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let options = parse_options()?;
    let corpus = Corpus::load(&options.dir).map_err(|e| format!("{}: {e}", options.dir.display()))?;
    if corpus.classes.is_empty() {
        return Err(format!("no class files under {}", options.dir.display()));
    }
    let job = |splicing: bool| Job::for_filter(&options.filter).map(|j| j.splicing(splicing)).map_err(|e| e.to_string());
    let megabytes = corpus.total_bytes() as f64 / 1e6;
    if let Some(out) = &options.dump {
        let tally = enhancer::dump_all(&corpus, &job(true)?, &options.dir, out).map_err(|e| format!("{}: {e}", out.display()))?;
        println!(
            "dumped {} enhanced classes to {} ({} untouched, {} failed)",
            tally.enhanced,
            out.display(),
            tally.untouched,
            tally.failed
        );
        for failure in &tally.first_failures {
            println!("  failed: {failure}");
        }
        return Ok(());
    }
    println!("TF: {} classes, {megabytes:.1} MB, filter '{}'", corpus.classes.len(), options.filter);

    let mut runs: Vec<(usize, Run)> = options.threads.iter().map(|&t| (t, Run::Spliced)).collect();
    if options.general {
        runs.push((1, Run::General));
    }
    if options.cold {
        runs.push((1, Run::Cold));
    }
    for (threads, run) in runs {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("could not start {threads} threads: {e}"))?;
        let job = job(run != Run::General)?;
        let mut workspaces = pool.install(workspace::per_worker);
        let mut pass = || {
            if run == Run::Cold {
                workspaces.iter_mut().for_each(workspace::Workspace::forget_generated_code);
            }
            pool.install(|| enhancer::enhance_all(&corpus, &job, &mut workspaces))
        };
        let warm_up = pass();
        if options.paced {
            tell_the_driver("READY")?;
        }
        let mut times = Vec::with_capacity(options.passes);
        for _ in 0..options.passes {
            if options.paced {
                wait_for_a_line()?;
            }
            let start = Instant::now();
            let tally = pass();
            let time = start.elapsed();
            times.push(time);
            if options.paced {
                tell_the_driver(&format!("PASS ms={:.1}", time.as_secs_f64() * 1e3))?;
            }
            if tally != warm_up {
                return Err(format!("pass results differ: {tally:?} vs {warm_up:?}"));
            }
        }
        report(threads, run, &corpus, megabytes, &warm_up, &mut times);
    }
    Ok(())
}

/// A line `run.sh` waits for (`--paced`), sent now rather than when a buffer fills.
fn tell_the_driver(line: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}").and_then(|()| out.flush()).map_err(|e| format!("standard output: {e}"))
}

/// Blocks until standard input gives a line (`--paced`); its end is an error.
fn wait_for_a_line() -> Result<(), String> {
    match std::io::stdin().lock().read_line(&mut String::new()) {
        Ok(0) => Err("--paced: standard input ended before the last pass".into()),
        Ok(_) => Ok(()),
        Err(e) => Err(format!("--paced: standard input: {e}")),
    }
}

/// What a timed run measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Run {
    /// As the pipeline runs, templates kept from pass to pass (and from the warm-up).
    Spliced,
    /// Splicing off: every method on the general path.
    General,
    /// Templates forgotten before every pass, as in a first build.
    Cold,
}

fn report(threads: usize, run: Run, corpus: &Corpus, megabytes: f64, tally: &Tally, times: &mut [Duration]) {
    times.sort();
    let median = times[times.len() / 2].as_secs_f64();
    let (fastest, slowest) = (times[0].as_secs_f64(), times[times.len() - 1].as_secs_f64());
    let classes_per_s = corpus.classes.len() as f64 / median;
    let mb_per_s = megabytes / median;
    let (label, result) = match run {
        Run::Spliced => ("TF", "tf"),
        Run::General => ("TF general path", "tf-general"),
        Run::Cold => ("TF without templates at start", "tf-cold"),
    };
    println!(
        "{label} {threads} thread(s): median {:.1} ms ({:.1}..{:.1}) over {} passes: {classes_per_s:.0} classes/s, \
         {mb_per_s:.1} MB/s; {} enhanced, {} untouched, {} failed, {:.1} MB out",
        median * 1e3,
        fastest * 1e3,
        slowest * 1e3,
        times.len(),
        tally.enhanced,
        tally.untouched,
        tally.failed,
        tally.output_bytes as f64 / 1e6,
    );
    for failure in &tally.first_failures {
        println!("  failed: {failure}");
    }
    println!(
        "RESULT {result} threads={threads} classes={} enhanced={} skipped={} failed={} median_ms={:.1} classes_per_s={classes_per_s:.0} mb_per_s={mb_per_s:.1}",
        corpus.classes.len(),
        tally.enhanced,
        tally.untouched,
        tally.failed,
        median * 1e3,
    );
}
