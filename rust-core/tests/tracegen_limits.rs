//! Methods at the edges of the class-file format, generated as Java source:
//! more than 255 locals (TF's own locals need `wide`), 30 parameters, code near 64 KiB (branches
//! beyond 32 KiB), and code that enhancement would push past 64 KiB (the run
//! fails naming the method and leaves the file as it was).
mod support;

use std::fmt::Write;
use support::{javac_against, run_verified, tf_runtime_classes};
use tf_core::pipeline;
use tf_core::request::EnhanceRequest;

const TRACED: (&str, &str) = (
    "fx/Traced.java",
    "package fx; @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
     @org.tracingfacility.annotation.MethodMonitorGroup public @interface Traced {}",
);

const PRINTER: &str = "
    static final class Printer implements org.tracingfacility.runtime.MethodMonitor {
        final Class<?> c; Printer(Class<?> c) { this.c = c; }
        String n(int id) { return org.tracingfacility.runtime.MethodMonitorRegistry.methodName(c, id); }
        public Class<?> myClass() { return c; }
        public void enter(int id, Object... a) { System.out.println(\"enter \" + n(id) + \" \" + java.util.Arrays.toString(a)); }
        public void info(Object[] a, int c, int s, org.tracingfacility.runtime.TimingPointType t) {}
        public void exit(int id) { System.out.println(\"exit \" + n(id)); }
        public void exit(int id, Object r) { System.out.println(\"exit \" + n(id) + \" = \" + r); }
        public void exception(int id, Throwable t) { System.out.println(\"exception \" + n(id) + \" \" + t); }
        public void clear() {}
    }";

/// `static int name(int x)` whose body is `statements` times `x += k;`, 6 bytes each.
fn long_method(name: &str, statements: usize, guarded: bool) -> String {
    let mut body = String::new();
    if guarded {
        // A branch over the whole body: its offset needs goto_w once it passes 32 KiB.
        body.push_str("if (x < 0) return -1;\n");
    }
    for i in 0..statements {
        let _ = writeln!(body, "x += {};", 200 + i % 30000);
    }
    format!("@Traced static int {name}(int x) {{ {body} return x; }}\n")
}

/// `static int many(int p1, ..., int p30)`, their sum: more parameters than
/// a shape that the enhancer keeps a template of (its code is generated
/// for the method alone).
fn many_parameters_method() -> (String, String) {
    let parameters: Vec<String> = (1..=30).map(|i| format!("int p{i}")).collect();
    let sum: Vec<String> = (1..=30).map(|i| format!("p{i}")).collect();
    let arguments: Vec<String> = (1..=30).map(|i| i.to_string()).collect();
    let method = format!("@Traced static int many({}) {{ return {}; }}\n", parameters.join(", "), sum.join(" + "));
    (method, format!("many({})", arguments.join(", ")))
}

fn wide_locals_method() -> String {
    let mut body = String::from("int v0 = x;\n");
    for i in 1..300 {
        let _ = writeln!(body, "int v{i} = v{} + 1;", i - 1);
    }
    format!("@Traced static int wide(int x) {{ {body} return v299; }}\n")
}

#[test]
fn wide_locals_and_code_near_64k_verify_and_report() {
    let (many, many_call) = many_parameters_method();
    let source = format!(
        "package fx; @Traced public class Big {{ {PRINTER}
           {wide}
           {near}
           {many}
           public static void main(String[] a) {{
             org.tracingfacility.runtime.MethodMonitorRegistry.register(Traced.class, Printer::new);
             System.out.println(wide(1) + \" \" + near(1) + \" \" + near(-5));
             System.out.println({many_call});
           }} }}",
        wide = wide_locals_method(),
        near = long_method("near", 10_000, true),
    );
    let work = tempfile::tempdir().unwrap();
    let runtime = tf_runtime_classes();
    let classes = javac_against(work.path(), "11", &[&runtime], &[TRACED, ("fx/Big.java", &source)]);
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.classpath = vec![runtime.display().to_string()];
    let report = pipeline::run(&request);
    assert!(report.ok, "{report:#?}");
    let out = run_verified(&[&classes, &runtime], "fx.Big");
    let sum: i64 = (0..10_000).map(|i| 200 + i % 30000).sum::<i64>() + 1;
    assert_eq!(
        out,
        format!(
            "enter wide [1]\nexit wide = 300\nenter near [1]\nexit near = {sum}\nenter near [-5]\nexit near = -1\n300 {sum} -1\n\
             enter many [{arguments}]\nexit many = 465\n465\n",
            arguments = (1..=30).map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
        )
    );
}

#[test]
fn growing_past_64k_fails_naming_the_method_and_writes_nothing() {
    // 6 bytes a statement: 10,915 statements make 65,492 bytes, under javac's
    // limit; TF's prologue and exit block cannot fit in what is left.
    let source = format!("package fx; @Traced public class Huge {{ {} }}", long_method("huge", 10_915, false));
    let work = tempfile::tempdir().unwrap();
    let runtime = tf_runtime_classes();
    let classes = javac_against(work.path(), "11", &[&runtime], &[TRACED, ("fx/Huge.java", &source)]);
    let before = std::fs::read(classes.join("fx/Huge.class")).unwrap();
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.classpath = vec![runtime.display().to_string()];
    let report = pipeline::run(&request);
    assert!(!report.ok);
    assert_eq!(report.errors.len(), 1, "{:#?}", report.errors);
    let error = &report.errors[0];
    assert_eq!(error.class.as_deref(), Some("fx.Huge"));
    assert_eq!(error.method.as_deref(), Some("huge(I)I"));
    assert_eq!(error.rule, "enhance");
    assert!(error.message.contains("65535") || error.message.contains("65,535"), "{}", error.message);
    assert!(error.file.as_deref().unwrap().ends_with("fx/Huge.class"));
    assert_eq!(std::fs::read(classes.join("fx/Huge.class")).unwrap(), before, "the class file is untouched");
    assert!(!classes.join("META-INF").exists(), "a failed run writes no annotation list either");
}
