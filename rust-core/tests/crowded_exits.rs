//! A method that returns and throws with values left below its operand (an
//! int and a long), as the JVM allows and kotlinc does: javac never writes
//! it, so the method is written here with the engine's own assembler into a
//! javac-compiled class, then enhanced and run with a recording monitor
//! under HotSpot's verifier; the splice path and the general path agree.
mod support;

use std::path::Path;
use support::{javac_against, run_verified, tf_runtime_classes};
use tf_core::classfile::Insn;
use tf_core::classfile::{opcodes as op, ClassEditor, ClassFile, Frame, VType};
use tf_core::workspace::Workspace;
use tf_core::enhance::{self, Outcome, Settings};
use tf_core::filter::FilterSpec;
use tf_core::model::{Groups, Selection};
use tf_core::{protocol, scan};

const MAIN: &str = "package fx;
import org.tracingfacility.annotation.Filtered;
import org.tracingfacility.runtime.MethodMonitorRegistry;
public class Crowded {
    /** Replaced: returns 42 if x == 0, else throws, both over [7, 1L]. */
    static int pick(int x) { return 0; }
    public static void main(String[] args) {
        MethodMonitorRegistry.register(Filtered.class, Recorder::new);
        System.out.println(pick(0));
        try { pick(1); } catch (IllegalStateException e) { System.out.println(\"caught\"); }
        Recorder.dump(\"crowded exits\");
    }
}";

/// `pick`'s code: `bipush 7; lconst_1; iload_0; ifeq R; new ISE; dup;
/// invokespecial; athrow; R: bipush 42; ireturn`.
fn write_crowded_pick(classes: &Path) {
    let path = classes.join("fx/Crowded.class");
    let bytes = std::fs::read(&path).unwrap();
    let class = ClassFile::parse(&bytes).unwrap();
    let mut editor = ClassEditor::new(&class);
    let index = class.methods().iter().position(|m| m.name_is("pick")).unwrap();
    let mut code = editor.lift_code(&class, index).unwrap().unwrap();
    let exception = editor.pool.class("java/lang/IllegalStateException").unwrap();
    let init = editor.pool.method_ref("java/lang/IllegalStateException", "<init>", "()V").unwrap();
    let ret = code.new_label();
    code.elements = vec![
        Insn::Push { opcode: op::BIPUSH, value: 7 },
        Insn::Simple(op::LCONST_1),
        Insn::Simple(op::ILOAD_0),
        Insn::Branch { opcode: op::IFEQ, target: ret },
        Insn::Pool { opcode: op::NEW, index: exception },
        Insn::Simple(op::DUP),
        Insn::Pool { opcode: op::INVOKESPECIAL, index: init },
        Insn::Simple(op::ATHROW),
        Insn::Label(ret),
        Insn::Push { opcode: op::BIPUSH, value: 42 },
        Insn::Simple(op::IRETURN),
    ];
    code.frames = vec![(ret, Frame { locals: vec![VType::Integer], stack: vec![VType::Integer, VType::Long] })];
    code.attributes.clear();
    editor.replace_code(index, &code).unwrap();
    std::fs::write(&path, editor.to_bytes().unwrap()).unwrap();
}

const EVENTS: &str = "\
42
caught
# crowded exits
enter Crowded.pick [0]
exit Crowded.pick = 42
enter Crowded.pick [1]
exception Crowded.pick java.lang.IllegalStateException
exit Crowded.pick = null
";

#[test]
fn returns_and_throws_over_a_full_stack_are_monitored_and_both_paths_agree() {
    let work = tempfile::tempdir().unwrap();
    let recorder =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tracegen/Recorder.java"))
            .unwrap();
    let classes = javac_against(
        work.path(),
        "17",
        &[&tf_runtime_classes()],
        &[("fx/Crowded.java", MAIN), ("fx/Recorder.java", &recorder)],
    );
    write_crowded_pick(&classes);
    // Runs unenhanced as written: the JVM discards what lies below.
    assert_eq!(run_verified(&[&classes, &tf_runtime_classes()], "fx.Crowded"), "42\ncaught\n# crowded exits\n");
    let builtin = protocol::FILTERED_GROUP.replace('/', ".");
    let groups = Groups::new([builtin.clone()]);
    let filter = "fx.Crowded::pick";
    let selections = vec![Selection::new(FilterSpec::parse(filter).unwrap(), builtin)];
    let settings = Settings::tracing(&[filter]);
    let file = classes.join("fx/Crowded.class");
    let scanned = scan::scan_class(&file, std::fs::read(&file).unwrap()).unwrap();
    let enhanced = |splicing: bool| {
        let settings = Settings { splice: splicing, ..settings.clone() };
        let run = enhance::Run::new(&groups, &selections, &settings);
        let outcome = enhance::enhance_class(&scanned, &run, &mut Workspace::default());
        let Ok(Outcome::Enhanced { bytes, .. }) = outcome else { panic!("not enhanced: {outcome:?}") };
        bytes
    };
    // Either path writes the same class (a splice declines the crowded
    // return and leaves it to the general path).
    let bytes = enhanced(true);
    assert_eq!(bytes, enhanced(false));
    std::fs::write(&file, bytes).unwrap();
    assert_eq!(run_verified(&[&classes, &tf_runtime_classes()], "fx.Crowded"), EVENTS);
}
