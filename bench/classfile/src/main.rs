//! Measures parse + write of every class of a JDK runtime image, unchanged,
//! and prints classes/s and MB/s (median of several passes, one thread).
//!
//! Usage: `bench-classfile [CLASS_DIR] [PASSES]`. Without a directory, the JDK 17
//! image is extracted once (`jimage extract`) into `$TMPDIR/tf-bench/jdk17`.
//! A second line measures lifting every method into the code model and
//! assembling it again.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};
use tf_core::classfile::{class_files, ClassEditor, ClassFile, CodeModel, PoolBuilder};

const JDK17: &str = "/usr/lib/jvm/java-17-openjdk-amd64";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = match args.first() {
        Some(dir) => PathBuf::from(dir),
        None => match extracted_jdk17() {
            Ok(dir) => dir,
            Err(e) => {
                eprintln!("bench-classfile: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let passes: usize = args.get(1).and_then(|p| p.parse().ok()).unwrap_or(5);
    let classes = match load(&dir) {
        Ok(classes) => classes,
        Err(e) => {
            eprintln!("bench-classfile: reading {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    };
    let bytes: usize = classes.iter().map(Vec::len).sum();
    println!("{} classes, {:.1} MB from {}", classes.len(), bytes as f64 / 1e6, dir.display());

    match measure(passes, || parse_and_write(&classes)) {
        Ok(time) => report("parse + write", classes.len(), bytes, time),
        Err(e) => {
            eprintln!("bench-classfile: {e}");
            return ExitCode::FAILURE;
        }
    }
    match measure(passes, || lift_and_assemble(&classes)) {
        Ok(time) => report("parse + lift + assemble all code", classes.len(), bytes, time),
        Err(e) => {
            eprintln!("bench-classfile: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn report(what: &str, classes: usize, bytes: usize, time: Duration) {
    let seconds = time.as_secs_f64();
    println!(
        "{what}: median {:.3} s, {:.0} classes/s, {:.0} MB/s",
        seconds,
        classes as f64 / seconds,
        bytes as f64 / 1e6 / seconds
    );
}

/// The median duration of `passes` runs of `work`.
fn measure(passes: usize, mut work: impl FnMut() -> Result<usize, String>) -> Result<Duration, String> {
    let mut times = Vec::with_capacity(passes);
    for _ in 0..passes.max(1) {
        let start = Instant::now();
        let checksum = work()?;
        times.push(start.elapsed());
        std::hint::black_box(checksum);
    }
    times.sort();
    Ok(times[times.len() / 2])
}

fn parse_and_write(classes: &[Vec<u8>]) -> Result<usize, String> {
    let mut written = 0;
    for bytes in classes {
        let class = ClassFile::parse(bytes).map_err(|e| e.to_string())?;
        written += ClassEditor::new(&class).to_bytes().map_err(|e| e.to_string())?.len();
    }
    Ok(written)
}

fn lift_and_assemble(classes: &[Vec<u8>]) -> Result<usize, String> {
    let mut written = 0;
    for bytes in classes {
        let class = ClassFile::parse(bytes).map_err(|e| e.to_string())?;
        let mut pool = PoolBuilder::new(class.constant_pool().clone());
        for method in class.methods() {
            if let Some(model) = CodeModel::lift(&class, method, &mut pool).map_err(|e| e.to_string())? {
                written += model.assemble(&mut pool).map_err(|e| e.to_string())?.len();
            }
        }
    }
    Ok(written)
}

fn load(dir: &Path) -> std::io::Result<Vec<Vec<u8>>> {
    class_files(dir)?.iter().map(std::fs::read).collect()
}

fn extracted_jdk17() -> Result<PathBuf, String> {
    let cache = std::env::temp_dir().join("tf-bench");
    let dir = cache.join("jdk17");
    if dir.is_dir() {
        return Ok(dir);
    }
    std::fs::create_dir_all(&cache).map_err(|e| format!("create {}: {e}", cache.display()))?;
    let partial = cache.join(format!("jdk17.partial.{}", std::process::id()));
    let status = Command::new(Path::new(JDK17).join("bin/jimage"))
        .arg("extract")
        .arg("--dir")
        .arg(&partial)
        .arg(Path::new(JDK17).join("lib/modules"))
        .status()
        .map_err(|e| format!("run jimage: {e}"))?;
    if !status.success() {
        return Err("jimage extract failed".into());
    }
    std::fs::rename(&partial, &dir).map_err(|e| format!("rename {}: {e}", partial.display()))?;
    Ok(dir)
}
