//! Real `tf-enhance` processes on one class directory with a cache:
//! - killed with SIGKILL at moments spread over a run, a run leaves every class
//!   file either as it was before or as the run would have left it (never
//!   half-written), and the next run ends exactly where a clean build does,
//!   with no temporary file left behind;
//! - two runs started together take turns on the cache's file lock: each
//!   finishes, and the directory is what one of them gives alone, never a mix.
mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::{files_under, javac, with_tf_api};

type Tree = BTreeMap<String, Vec<u8>>;

const CLASSES: usize = 200;
/// When to kill, as fractions of an uninterrupted run's wall time: spread over
/// the run, and denser towards its end, where the writes are.
const KILL_AT: [f64; 9] = [0.1, 0.25, 0.4, 0.55, 0.65, 0.75, 0.82, 0.88, 0.94];
/// A setting that changes every class's output: every method of every class monitored.
const EVERY_METHOD: &str = "fx.**";

fn tree(dir: &Path) -> Tree {
    files_under(dir).into_iter().map(|f| (f.clone(), std::fs::read(dir.join(&f)).unwrap())).collect()
}

fn write_tree(dir: &Path, files: &Tree) {
    let _ = std::fs::remove_dir_all(dir);
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

/// `CLASSES` classes in ten packages, half of their methods in the TF group `fx.IO`.
fn compile(work: &Path) -> Tree {
    let mut sources = vec![(
        "fx/IO.java".to_string(),
        "package fx; import java.lang.annotation.*; import org.tracingfacility.annotation.MethodMonitorGroup;
         @Retention(RetentionPolicy.RUNTIME) @MethodMonitorGroup public @interface IO {}"
            .to_string(),
    )];
    for i in 0..CLASSES {
        let mut body = String::new();
        for m in 0..8 {
            let marker = if m % 2 == 0 { "@IO " } else { "" };
            body.push_str(&format!(
                "{marker}public long m{m}(int n, String s, long[] a) {{
                     long total = n;
                     for (int i = 0; i < n; i++) {{ total += s.length() * i + (a.length > 0 ? a[i % a.length] : 0); }}
                     if (total < 0) throw new IllegalStateException(s);
                     return total;
                 }}\n"
            ));
        }
        sources.push((format!("fx/p{}/C{i}.java", i % 10), format!("package fx.p{}; import fx.IO; @IO public class C{i} {{ {body} }}", i % 10)));
    }
    let sources: Vec<(&str, &str)> = sources.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let out = javac(&work.join("javac"), "17", &with_tf_api(&sources));
    tree(&out).into_iter().filter(|(f, _)| f.starts_with("fx/")).collect()
}

fn tf_enhance(classes: &Path, cache: Option<&Path>, filter: Option<&str>) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tf-enhance"));
    command.arg("-dir").arg(classes).stdout(Stdio::null()).stderr(Stdio::piped());
    if let Some(cache) = cache {
        command.arg("-cache").arg(cache);
    }
    if let Some(filter) = filter {
        command.args(["-filter", filter]);
    }
    command
}

fn run_to_the_end(mut command: Command) {
    let output = command.output().unwrap();
    assert!(output.status.success(), "tf-enhance failed:\n{}", String::from_utf8_lossy(&output.stderr));
}

/// What a clean build gives: `javac_output` enhanced without a cache.
fn clean_build(work: &Path, javac_output: &Tree, filter: Option<&str>) -> Tree {
    let dir = work.join(format!("clean-{}", filter.is_some()));
    write_tree(&dir, javac_output);
    run_to_the_end(tf_enhance(&dir, None, filter));
    tree(&dir)
}

struct Scenario<'a> {
    work: &'a Path,
    javac: &'a Tree,
    /// The tree before the killed run (a previous run's result, or javac's output).
    before: &'a Tree,
    /// The cache the previous run left (copied for each attempt), if any.
    before_cache: Option<&'a Path>,
    filter: Option<&'a str>,
    /// What the killed run would have produced: a clean build with its settings.
    after: &'a Tree,
}

impl Scenario<'_> {
    fn prepare(&self, attempt: usize) -> (PathBuf, PathBuf) {
        let (classes, cache) = (self.work.join(format!("classes-{attempt}")), self.work.join(format!("cache-{attempt}")));
        write_tree(&classes, self.before);
        let _ = std::fs::remove_dir_all(&cache);
        if let Some(before_cache) = self.before_cache {
            write_tree(&cache, &tree(before_cache));
        }
        (classes, cache)
    }

    /// The wall time of the run, uninterrupted (the median of three).
    fn duration(&self) -> Duration {
        let mut times: Vec<Duration> = (0..3)
            .map(|_| {
                let (classes, cache) = self.prepare(0);
                let start = Instant::now();
                run_to_the_end(tf_enhance(&classes, Some(&cache), self.filter));
                start.elapsed()
            })
            .collect();
        times.sort();
        times[1]
    }

    /// Kills the run at the moments of `KILL_AT`; checks each file after the
    /// kill and after the next run. A kill that finds the run already over
    /// (the machine got faster than the measured run) is repeated with a
    /// shorter estimate of the run's time. Returns how many kills caught the
    /// process running.
    fn kill_and_recover(&self, name: &str) -> usize {
        let mut estimate = self.duration();
        let mut caught_running = 0;
        let mut pending = KILL_AT.iter().copied().peekable();
        for attempt in 1..=3 * KILL_AT.len() {
            let Some(&fraction) = pending.peek() else { break };
            let (classes, cache) = self.prepare(attempt);
            let mut child: Child = tf_enhance(&classes, Some(&cache), self.filter).spawn().unwrap();
            std::thread::sleep(estimate.mul_f64(fraction));
            if child.try_wait().unwrap().is_none() {
                caught_running += 1;
                pending.next();
            } else {
                estimate = estimate.mul_f64(0.7);
            }
            let _ = child.kill(); // SIGKILL: no destructor, no clean-up runs
            child.wait().unwrap();

            let step = format!("{name}, killed at {fraction} of a run");
            let (mut old, mut new) = (0, 0);
            for (file, bytes) in tree(&classes) {
                let leaf = file.rsplit('/').next().unwrap_or(&file);
                if leaf.starts_with(".tf-") && leaf.ends_with(".tmp") {
                    continue; // a temporary file: the next run must remove it
                }
                let (was, will_be) = (self.before.get(&file) == Some(&bytes), self.after.get(&file) == Some(&bytes));
                assert!(was || will_be, "{step}: {file} is neither what it was nor what the run would have written");
                old += usize::from(was && !will_be);
                new += usize::from(will_be && !was);
            }
            println!("{step}: {old} files as before, {new} as the run leaves them");
            for file in self.javac.keys() {
                assert!(classes.join(file).is_file(), "{step}: {file} is gone");
            }

            run_to_the_end(tf_enhance(&classes, Some(&cache), self.filter));
            let recovered = tree(&classes);
            assert_eq!(
                recovered.keys().collect::<Vec<_>>(),
                self.after.keys().collect::<Vec<_>>(),
                "{step}, then run again: other files than a clean build's (a temporary file left?)"
            );
            for (file, bytes) in self.after {
                assert!(recovered.get(file) == Some(bytes), "{step}, then run again: {file} differs from a clean build's");
            }
        }
        caught_running
    }
}

#[test]
fn a_killed_run_leaves_whole_files_and_the_next_run_finishes_its_work() {
    let work = tempfile::tempdir().unwrap();
    let work = work.path();
    let javac_output = compile(work);
    let (enhanced, every_method) = (clean_build(work, &javac_output, None), clean_build(work, &javac_output, Some(EVERY_METHOD)));
    assert_ne!(enhanced, javac_output);
    assert_ne!(every_method, enhanced);

    // The first run on a project: every class enhanced, every original kept.
    let first = Scenario { work, javac: &javac_output, before: &javac_output, before_cache: None, filter: None, after: &enhanced };
    let caught_first = first.kill_and_recover("first run");

    // A settings change: every class enhanced again from the originals in the cache.
    let (built, built_cache) = (work.join("built"), work.join("built-cache"));
    write_tree(&built, &javac_output);
    run_to_the_end(tf_enhance(&built, Some(&built_cache), None));
    let change = Scenario {
        work,
        javac: &javac_output,
        before: &enhanced,
        before_cache: Some(&built_cache),
        filter: Some(EVERY_METHOD),
        after: &every_method,
    };
    let caught_change = change.kill_and_recover("settings changed");

    // Kills that all landed after the run ended would test nothing.
    let all = KILL_AT.len();
    assert_eq!(caught_first, all, "only {caught_first} kills caught the first run running");
    assert_eq!(caught_change, all, "only {caught_change} kills caught the second run running");
}

#[test]
fn two_processes_on_one_directory_take_turns() {
    let work = tempfile::tempdir().unwrap();
    let work = work.path();
    let javac_output = compile(work);
    let enhanced = clean_build(work, &javac_output, None);
    let every_method = clean_build(work, &javac_output, Some(EVERY_METHOD));
    let (classes, cache) = (work.join("classes"), work.join("cache"));

    // Two first builds at once.
    write_tree(&classes, &javac_output);
    let runs = [tf_enhance(&classes, Some(&cache), None).spawn().unwrap(), tf_enhance(&classes, Some(&cache), None).spawn().unwrap()];
    for run in runs {
        let output = run.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
    assert_eq!(tree(&classes), enhanced, "two first builds at once");

    // Two builds with different settings at once: the directory is what the
    // one that ran second gives, whole.
    for round in 0..4 {
        let filters = if round % 2 == 0 { [None, Some(EVERY_METHOD)] } else { [Some(EVERY_METHOD), None] };
        let runs = filters.map(|f| tf_enhance(&classes, Some(&cache), f).spawn().unwrap());
        for run in runs {
            let output = run.wait_with_output().unwrap();
            assert!(output.status.success(), "round {round}: {}", String::from_utf8_lossy(&output.stderr));
        }
        let result = tree(&classes);
        assert!(
            result == enhanced || result == every_method,
            "round {round}: the class directory mixes the two runs' outputs"
        );
    }
}
