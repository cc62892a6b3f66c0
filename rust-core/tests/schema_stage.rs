//! Stage 1 alone (`tracegen = false`) on javac output, checked by the HotSpot
//! verifier and by reflection against the real tf-runtime.
mod support;

use std::path::Path;
use support::{files_under, javac_against, run_verified, tf_runtime_classes};
use tf_core::pipeline;
use tf_core::request::EnhanceRequest;

const SOURCES: &[(&str, &str)] = &[
    ("com/ex/IO.java",
     "package com.ex; import java.lang.annotation.*; import org.tracingfacility.annotation.MethodMonitorGroup;
      @Retention(RetentionPolicy.RUNTIME) @MethodMonitorGroup({Write.class}) public @interface IO {}"),
    ("com/ex/Write.java",
     "package com.ex; import java.lang.annotation.*; @Retention(RetentionPolicy.RUNTIME) public @interface Write {}"),
    // No <clinit> of its own; info methods with every kind of parameter.
    ("com/ex/Stream.java",
     "package com.ex; import org.tracingfacility.annotation.*; import org.tracingfacility.runtime.TimingPointType;
      @IO @Write public class Stream {
        @InfoMethod(tpType = TimingPointType.ENTER, tpName = \"io\") private void note(String s, long l, double d) {}
        @InfoMethod private <T> void generic(java.util.List<T> list) {}
        @IO int read(int x) { note(\"read\", 1L, 2.0); note(null, 0L, 0.0); return x + 1; }
        @Write void write(int x) { generic(java.util.List.of(x)); }
        public static void main(String[] a) throws Exception { Check.main(a); }
      }"),
    // Has a <clinit> already: registration goes first in it.
    ("com/ex/Counter.java",
     "package com.ex; @IO public class Counter {
        static final java.util.List<String> LOG = new java.util.ArrayList<>();
        static { LOG.add(\"static init ran\"); }
        @IO int next(int i) { return b(i) ? i : -i; }
        private static boolean b(int i) { return i > 0; }
      }"),
    ("com/ex/Plain.java", "package com.ex; public class Plain { int x() { return 1; } }"),
    ("com/ex/Check.java",
     "package com.ex; import org.tracingfacility.runtime.*; import java.lang.reflect.*;
      public class Check { public static void main(String[] a) throws Exception {
        System.out.println(new Stream().read(41));
        new Stream().write(3);
        System.out.println(new Counter().next(-5) + \" \" + Counter.LOG);
        for (int i = 0; i < 4; i++) System.out.println(i + \"=\" + MethodMonitorRegistry.methodName(Stream.class, i));
        System.out.println(MethodMonitorRegistry.methodIdentifier(Counter.class, \"next\"));
        Method note = Stream.class.getDeclaredMethod(\"note\", String.class, long.class, double.class, MethodMonitor.class, int.class);
        System.out.println(note);
        Method generic = Stream.class.getDeclaredMethod(\"generic\", java.util.List.class, MethodMonitor.class, int.class);
        System.out.println(generic.toGenericString());
        for (Field f : Stream.class.getDeclaredFields()) System.out.println(Modifier.toString(f.getModifiers()) + \" \" + f.getGenericType().getTypeName() + \" \" + f.getName() + \" synthetic=\" + f.isSynthetic());
        org.tracingfacility.annotation.TFEnhanced e = Stream.class.getAnnotation(org.tracingfacility.annotation.TFEnhanced.class);
        System.out.println(\"stage \" + e.stage() + \" fingerprint \" + e.fingerprint().length());
        System.out.println(MethodMonitorRegistry.monitor(Stream.class, IO.class));
      } }"),
];

fn enhance_schema_only(classes: &Path) -> tf_core::request::EnhanceReport {
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.tracegen = false;
    request.classpath = vec![tf_runtime_classes().display().to_string()];
    pipeline::run(&request)
}

fn compiled(work: &Path, release: &str) -> std::path::PathBuf {
    javac_against(work, release, &[&tf_runtime_classes()], SOURCES)
}

#[test]
fn schema_stage_verifies_registers_and_reshapes_info_methods() {
    for release in ["11", "17"] {
        let work = tempfile::tempdir().unwrap();
        let classes = compiled(work.path(), release);
        let plain_before = std::fs::read(classes.join("com/ex/Plain.class")).unwrap();
        let report = enhance_schema_only(&classes);
        assert!(report.ok, "{report:?}");
        assert_eq!(report.classes_enhanced, 2, "Stream and Counter");
        assert_eq!(std::fs::read(classes.join("com/ex/Plain.class")).unwrap(), plain_before, "Plain is untouched");

        let out = run_verified(&[&classes, &tf_runtime_classes()], "com.ex.Stream");
        assert_eq!(
            out,
            "42\n\
             5 [static init ran]\n\
             0=generic\n1=note\n2=read\n3=write\n\
             0\n\
             private void com.ex.Stream.note(java.lang.String,long,double,org.tracingfacility.runtime.MethodMonitor,int)\n\
             private <T> void com.ex.Stream.generic(java.util.List<T>,org.tracingfacility.runtime.MethodMonitor,int)\n\
             private static final org.tracingfacility.runtime.support.SynchronizedHolder<org.tracingfacility.runtime.MethodMonitor> __tf$holder$0 synthetic=true\n\
             private static final org.tracingfacility.runtime.support.SynchronizedHolder<org.tracingfacility.runtime.MethodMonitor> __tf$holder$1 synthetic=true\n\
             stage 1 fingerprint 24\n\
             null\n",
            "release {release}"
        );
    }
}

#[test]
fn a_second_run_changes_nothing_and_dryrun_and_newout_write_nothing_in_place() {
    let work = tempfile::tempdir().unwrap();
    let classes = compiled(work.path(), "11");
    let snapshot = |d: &Path| -> Vec<(String, Vec<u8>)> {
        files_under(d).into_iter().map(|f| (f.clone(), std::fs::read(d.join(&f)).unwrap())).collect()
    };
    let original = snapshot(&classes);

    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.tracegen = false;
    request.classpath = vec![tf_runtime_classes().display().to_string()];
    request.dry_run = true;
    let dry = pipeline::run(&request);
    assert!(dry.ok && dry.classes_enhanced == 2, "{dry:?}");
    assert!(dry.messages.iter().any(|m| m.starts_with("dry run: would enhance com.ex.Stream")));
    assert_eq!(snapshot(&classes), original, "dry run writes nothing");

    request.dry_run = false;
    request.new_out = true;
    let newout = pipeline::run(&request);
    assert!(newout.ok, "{newout:?}");
    let after_newout = snapshot(&classes);
    let new_files: Vec<&String> = after_newout.iter().map(|(f, _)| f).filter(|f| f.ends_with(".new")).collect();
    assert_eq!(new_files, ["com/ex/Counter.class.new", "com/ex/Stream.class.new"]);
    for (f, bytes) in &original {
        if !f.starts_with("META-INF") {
            assert_eq!(&std::fs::read(classes.join(f)).unwrap(), bytes, "{f} unchanged with -newout");
        }
    }

    let _ = std::fs::remove_file(classes.join("com/ex/Counter.class.new"));
    let _ = std::fs::remove_file(classes.join("com/ex/Stream.class.new"));
    request.new_out = false;
    assert_eq!(pipeline::run(&request).classes_enhanced, 2);
    let enhanced = snapshot(&classes);
    let again = pipeline::run(&request);
    assert!(again.ok && again.classes_enhanced == 0, "{again:?}");
    assert_eq!(snapshot(&classes), enhanced, "enhanced classes are left alone");

    request.filters = vec!["com.ex.Plain".into()];
    let other = pipeline::run(&request);
    assert!(!other.ok);
    assert_eq!(other.errors[0].rule, "enhanced-with-other-settings");
}

#[test]
fn debug_describes_what_tf_made_of_each_class() {
    let work = tempfile::tempdir().unwrap();
    let classes = compiled(work.path(), "11");
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.classpath = vec![tf_runtime_classes().display().to_string()];
    request.debug = true;
    let report = pipeline::run(&request);
    assert!(report.ok, "{report:#?}");
    assert!(report.messages.contains(&"debug: MM annotations: [\"com.ex.IO\", \"com.ex.Write\"]".to_string()), "{:#?}", report.messages);
    assert!(
        report.messages.contains(
            &"debug: com.ex.Stream: groups [com.ex.IO, com.ex.Write]; 0=generic (info, NONE) 1=note (info, ENTER) 2=read (monitored, com.ex.IO) 3=write (monitored, com.ex.Write)"
                .to_string()
        ),
        "{:#?}",
        report.messages
    );
}
