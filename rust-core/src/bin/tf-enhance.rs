//! `tf-enhance`: the command-line face of tf-core (see `tf_core::cli`).
#![forbid(unsafe_code)]

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = tf_core::cli::main(&args, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}
