//! Edits made through the code model produce classes that the HotSpot
//! verifier accepts: the fixtures under `tests/fixtures/classfile/edit` are
//! compiled by the real `javac`, edited here, then loaded and run by
//! `java -Xverify:all`, and the program's output is checked.

use std::path::{Path, PathBuf};
use std::process::Command;
use tf_core::classfile::access::{ACC_PUBLIC, ACC_STATIC};
use tf_core::classfile::opcodes as op;
use tf_core::classfile::{ClassEditor, ClassFile, CodeModel, ErrorKind, Insn, PoolBuilder, VType};

/// Javac-compiled fixtures in a fresh directory.
struct Fixture {
    _dir: tempfile::TempDir,
    classes: PathBuf,
}

fn compile_fixtures() -> Fixture {
    let dir = tempfile::tempdir().expect("temp dir");
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/classfile/edit");
    let many_locals = dir.path().join("ManyLocals.java");
    std::fs::write(&many_locals, many_locals_source(300)).expect("write ManyLocals.java");
    let classes = dir.path().join("classes");
    let mut javac = Command::new("javac");
    javac.args(["--release", "11", "-g", "-d"]).arg(&classes).arg(&many_locals);
    for name in ["Probe", "Subject", "Main"] {
        javac.arg(sources.join(format!("{name}.java")));
    }
    let output = javac.output().expect("run javac");
    assert!(output.status.success(), "javac failed: {}", String::from_utf8_lossy(&output.stderr));
    Fixture { _dir: dir, classes }
}

/// A method with `count` int locals and a branch, so its frames list them all.
fn many_locals_source(count: usize) -> String {
    let mut body = String::from("        int v0 = seed;\n");
    for i in 1..count {
        body.push_str(&format!("        int v{i} = v{} + 1;\n", i - 1));
    }
    let last = count - 1;
    format!(
        "public final class ManyLocals {{\n    public static int spread(int seed) {{\n{body}        if (seed > 0) {{\n            return v{last} + v0;\n        }}\n        return v{last};\n    }}\n}}\n"
    )
}

/// Runs `Main` under the verifier and returns its output.
fn run_verified(classes: &Path) -> String {
    let output =
        Command::new("java").args(["-Xverify:all", "-cp"]).arg(classes).arg("Main").output().expect("run java");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "java failed\nstdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// Rewrites `classes/<name>.class`, letting `edit` change the code of each method.
fn edit_class(classes: &Path, name: &str, mut edit: impl FnMut(&str, u16, &mut CodeModel<'_>, &mut PoolBuilder<'_>)) {
    let path = classes.join(format!("{name}.class"));
    let bytes = std::fs::read(&path).expect("read class");
    let class = ClassFile::parse(&bytes).expect("parse class");
    let mut editor = ClassEditor::new(&class);
    for (index, method) in class.methods().iter().enumerate() {
        let method_name = method.name().expect("method name").into_owned();
        let Some(mut code) = editor.lift_code(&class, index).expect("lift code") else { continue };
        edit(&method_name, method.access_flags, &mut code, &mut editor.pool);
        editor.replace_code(index, &code).unwrap_or_else(|e| panic!("assemble {name}.{method_name}: {e}"));
    }
    let written = editor.to_bytes().expect("write class");
    ClassFile::parse(&written).expect("the written class parses again");
    std::fs::write(&path, written).expect("write class");
}

/// `Probe.hit(text)`.
fn probe(pool: &mut PoolBuilder<'_>, text: &str) -> Vec<Insn> {
    let string = pool.string(text).expect("string constant");
    let hit = pool.method_ref("Probe", "hit", "(Ljava/lang/String;)V").expect("method ref");
    vec![Insn::Ldc { opcode: op::LDC, index: string }, Insn::Pool { opcode: op::INVOKESTATIC, index: hit }]
}

fn insert_before_returns(code: &mut CodeModel<'_>, insns: &[Insn]) {
    for index in code.return_indexes().into_iter().rev() {
        code.insert(index, insns.iter().cloned());
    }
}

/// Index just after the first `invokespecial <init>` (the `super(...)` call in
/// the fixtures' constructors, which create no other object first).
fn after_super_call(code: &CodeModel<'_>, pool: &PoolBuilder<'_>) -> usize {
    code.elements
        .iter()
        .position(|insn| match insn {
            Insn::Pool { opcode: op::INVOKESPECIAL, index } => {
                pool.method_owner_and_name(*index).map(|(_, name)| name == "<init>").unwrap_or(false)
            }
            _ => false,
        })
        .map(|i| i + 1)
        .expect("a constructor calls super")
}

const ORIGINAL_OUTPUT: &str = "TF!\ntf\nanonymous\n4\nzero\nthree\nminus a thousand\na million\nnegative\nmany\n3\n-2147483648\n0\ncaught code 2\n15\nboxed\nnull\n301\n";

#[test]
fn unedited_fixtures_run() {
    let fixture = compile_fixtures();
    assert_eq!(run_verified(&fixture.classes), ORIGINAL_OUTPUT);
}

#[test]
fn probes_at_method_start_and_before_every_return() {
    let fixture = compile_fixtures();
    edit_class(&fixture.classes, "Subject", |name, _, code, pool| {
        // In a constructor this runs before super(): legal, as it does not touch `this`.
        let enter = probe(pool, &format!("enter {name}"));
        code.insert(0, enter);
        let exit = probe(pool, &format!("exit {name}"));
        insert_before_returns(code, &exit);
    });
    let expected = "\
hit enter <init>\nhit exit <init>\n\
hit enter greet\nhit exit greet\nTF!\n\
hit enter greet\nhit exit greet\ntf\n\
hit enter <init>\nhit exit <init>\nhit enter greet\nhit exit greet\nanonymous\n\
hit enter sum\nhit exit sum\n4\n\
hit enter classify\nhit exit classify\nzero\n\
hit enter classify\nhit exit classify\nthree\n\
hit enter classify\nhit exit classify\nminus a thousand\n\
hit enter classify\nhit exit classify\na million\n\
hit enter classify\nhit exit classify\nnegative\n\
hit enter classify\nhit exit classify\nmany\n\
hit enter divide\nhit exit divide\n3\n\
hit enter divide\nhit exit divide\n-2147483648\n\
hit enter fail\nhit exit fail\n0\n\
hit enter fail\ncaught code 2\n\
hit enter alternate\nhit exit alternate\n15\n\
hit enter box\nhit exit box\nboxed\n\
hit enter box\nhit exit box\nnull\n\
301\n";
    assert_eq!(run_verified(&fixture.classes), expected);
}

#[test]
fn catch_all_handler_around_every_body() {
    let fixture = compile_fixtures();
    edit_class(&fixture.classes, "Subject", |name, _, code, pool| {
        // A handler cannot cover super(...) while `this` is uninitialized: start after it.
        let (start_index, mut locals) = if name == "<init>" {
            let mut locals = code.initial_frame.locals.clone();
            locals[0] = VType::Object(code.this_class);
            (after_super_call(code, pool), locals)
        } else {
            (0, code.initial_frame.locals.clone())
        };
        let start = code.bind_label(start_index);
        let end = code.bind_label(code.elements.len());
        let handler = code.new_label();
        let throwable = pool.class("java/lang/Throwable").expect("class");
        let mut handler_code = vec![Insn::Label(handler)];
        handler_code.extend(probe(pool, &format!("threw {name}")));
        handler_code.push(Insn::Simple(op::ATHROW));
        code.insert(code.elements.len(), handler_code);
        // Only what the handler knows: `this`, the parameters, the exception.
        locals.truncate(code.initial_frame.locals.len());
        code.frames.push((handler, tf_core::classfile::Frame { locals, stack: vec![VType::Object(throwable)] }));
        code.handlers.push(tf_core::classfile::Handler { start, end, handler, catch_type: 0 });
    });
    let expected = ORIGINAL_OUTPUT.replace("caught code 2\n", "hit threw fail\ncaught code 2\n");
    assert_eq!(run_verified(&fixture.classes), expected);
}

#[test]
fn a_local_added_to_every_frame_stays_typed_at_every_return() {
    let fixture = compile_fixtures();
    let add_local = |name: &str, access: u16, code: &mut CodeModel<'_>, pool: &mut PoolBuilder<'_>| {
        if access & ACC_STATIC == 0 {
            return;
        }
        let string = pool.class("java/lang/String").expect("class");
        let slot = code.new_local(1).expect("local");
        let mut start = probe(pool, &format!("local {name}"));
        start.truncate(1); // just the ldc
        start.push(Insn::Local { opcode: op::ASTORE, index: slot, wide: false });
        code.insert(0, start);
        code.add_local_to_all_frames(slot, VType::Object(string));
        let hit = pool.method_ref("Probe", "hit", "(Ljava/lang/String;)V").expect("method ref");
        let exit = [
            Insn::Local { opcode: op::ALOAD, index: slot, wide: false },
            Insn::Pool { opcode: op::INVOKESTATIC, index: hit },
        ];
        insert_before_returns(code, &exit);
    };
    edit_class(&fixture.classes, "Subject", add_local);
    edit_class(&fixture.classes, "ManyLocals", |name, access, code, pool| {
        if name == "spread" {
            assert!(code.max_locals > 255, "the fixture must need wide locals");
        }
        add_local(name, access, code, pool);
    });
    let expected = ORIGINAL_OUTPUT
        .replace("4\nzero", "hit local sum\n4\nhit local classify\nzero")
        .replace("\nthree\nminus a thousand\na million\nnegative\nmany\n", "\nhit local classify\nthree\nhit local classify\nminus a thousand\nhit local classify\na million\nhit local classify\nnegative\nhit local classify\nmany\n")
        .replace("\n3\n-2147483648\n0\n", "\nhit local divide\n3\nhit local divide\n-2147483648\nhit local fail\n0\n")
        .replace("15\nboxed\nnull\n301\n", "hit local alternate\n15\nhit local box\nboxed\nhit local box\nnull\nhit local spread\n301\n");
    assert_eq!(run_verified(&fixture.classes), expected);
    // The new local of ManyLocals.spread is beyond 255: its loads and stores are `wide`.
    let bytes = std::fs::read(fixture.classes.join("ManyLocals.class")).expect("read");
    let class = ClassFile::parse(&bytes).expect("parse");
    let spread = class.method("spread", "(I)I").expect("spread");
    let code = class.code(spread).expect("code").expect("has code");
    assert!(code.code.windows(2).any(|w| w == [op::WIDE, op::ASTORE]), "expected a wide astore");
}

#[test]
fn a_method_grown_past_32_kib_gets_wide_jumps() {
    let fixture = compile_fixtures();
    edit_class(&fixture.classes, "Subject", |name, _, code, _| {
        if name != "alternate" {
            return;
        }
        // Grow the if-branch of `i % 2 == 0` (after the loop's second conditional jump)
        // so that the jumps over it and the loop's back edge need 32-bit offsets.
        let conditional = code
            .elements
            .iter()
            .enumerate()
            .filter(|(_, insn)| insn.opcode().is_some_and(op::is_conditional_branch))
            .map(|(i, _)| i)
            .nth(1)
            .expect("two conditional jumps");
        let filler = (0..17_000).flat_map(|_| [Insn::Simple(op::ICONST_0), Insn::Simple(op::POP)]);
        code.insert(conditional + 1, filler);
    });
    assert_eq!(run_verified(&fixture.classes), ORIGINAL_OUTPUT);
    let bytes = std::fs::read(fixture.classes.join("Subject.class")).expect("read");
    let class = ClassFile::parse(&bytes).expect("parse");
    let method = class.method("alternate", "(I)I").expect("alternate");
    let mut pool = PoolBuilder::new(class.constant_pool().clone());
    let model = CodeModel::lift(&class, method, &mut pool).expect("lift").expect("code");
    let goto_w = model.elements.iter().filter(|i| i.opcode() == Some(op::GOTO_W)).count();
    // Both conditionals become an inverted branch over a goto_w, and the back edge a goto_w.
    assert!(goto_w >= 3, "expected at least 3 goto_w, found {goto_w}");
}

#[test]
fn switch_padding_follows_inserted_code() {
    let fixture = compile_fixtures();
    // One to four bytes before the switches: every padding length occurs.
    for (round, count) in [1usize, 2, 3].into_iter().enumerate() {
        edit_class(&fixture.classes, "Subject", |name, _, code, _| {
            if name == "classify" {
                code.insert(0, std::iter::repeat_n(Insn::Simple(op::NOP), count));
            }
        });
        assert_eq!(run_verified(&fixture.classes), ORIGINAL_OUTPUT, "after round {round}");
    }
}

#[test]
fn limits_are_refused_with_clear_errors() {
    let fixture = compile_fixtures();
    let bytes = std::fs::read(fixture.classes.join("Subject.class")).expect("read");
    let class = ClassFile::parse(&bytes).expect("parse");

    let mut editor = ClassEditor::new(&class);
    let error = (0..70_000).try_for_each(|i| editor.pool.string(&format!("s{i}")).map(drop)).expect_err("pool limit");
    assert!(matches!(error.kind, ErrorKind::LimitExceeded(_)), "{error}");
    assert!(error.to_string().contains("65,535"), "{error}");

    let mut editor = ClassEditor::new(&class);
    let index = class.methods().iter().position(|m| m.name_is("greet")).expect("greet");
    let mut code = editor.lift_code(&class, index).expect("lift").expect("code");
    code.insert(0, std::iter::repeat_n(Insn::Simple(op::NOP), 70_000));
    let error = editor.replace_code(index, &code).expect_err("code limit");
    assert!(matches!(error.kind, ErrorKind::LimitExceeded(_)), "{error}");
}

#[test]
fn class_level_additions_field_method_clinit_indy_and_annotation() {
    use tf_core::classfile::{handle_kind, Annotation, BootstrapMethod, ElementValue};
    let fixture = compile_fixtures();
    let path = fixture.classes.join("Subject.class");
    let bytes = std::fs::read(&path).expect("read");
    let class = ClassFile::parse(&bytes).expect("parse");
    assert!(class.method("<clinit>", "()V").is_none(), "the fixture has no static initializer yet");
    let mut editor = ClassEditor::new(&class);
    let this_class = class.this_class_index();

    editor.add_field(ACC_STATIC, "counter", "I").expect("field");
    let counter = editor.pool.field_ref("Subject", "counter", "I").expect("field ref");
    let mut bump = CodeModel::empty(this_class, ACC_STATIC, "bump", "()V", true, &mut editor.pool).expect("code");
    bump.insert(
        0,
        [
            Insn::Pool { opcode: op::GETSTATIC, index: counter },
            Insn::Simple(op::ICONST_0 + 1),
            Insn::Simple(0x60), // iadd
            Insn::Pool { opcode: op::PUTSTATIC, index: counter },
            Insn::Simple(op::RETURN),
        ],
    );
    let bump_code = bump.assemble(&mut editor.pool).expect("assemble bump");
    let code_name = editor.pool.utf8("Code").expect("utf8");
    editor.add_method(ACC_STATIC, "bump", "()V").expect("method").set_attribute("Code", code_name, bump_code);

    // <clinit>: Probe.hit(concat("hello ", "world")) through a new invokedynamic.
    let factory = editor
        .pool
        .method_ref(
            "java/lang/invoke/StringConcatFactory",
            "makeConcatWithConstants",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;[Ljava/lang/Object;)Ljava/lang/invoke/CallSite;",
        )
        .expect("method ref");
    let handle = editor.pool.method_handle(handle_kind::INVOKE_STATIC, factory).expect("handle");
    let recipe = editor.pool.string("hello \u{1}").expect("recipe");
    let bootstrap =
        editor.add_bootstrap_method(BootstrapMethod { method_handle: handle, arguments: vec![recipe] }).expect("bsm");
    let concat =
        editor.pool.invoke_dynamic(bootstrap, "concat", "(Ljava/lang/String;)Ljava/lang/String;").expect("indy");
    let world = editor.pool.string("world").expect("string");
    let hit = editor.pool.method_ref("Probe", "hit", "(Ljava/lang/String;)V").expect("method ref");
    let bump_ref = editor.pool.method_ref("Subject", "bump", "()V").expect("method ref");
    let counter_twice = [
        Insn::Pool { opcode: op::INVOKESTATIC, index: bump_ref },
        Insn::Pool { opcode: op::INVOKESTATIC, index: bump_ref },
    ];
    let mut clinit = CodeModel::empty(this_class, ACC_STATIC, "<clinit>", "()V", true, &mut editor.pool).expect("code");
    clinit.insert(0, counter_twice);
    clinit.insert(
        clinit.elements.len(),
        [
            Insn::Ldc { opcode: op::LDC, index: world },
            Insn::InvokeDynamic { index: concat },
            Insn::Pool { opcode: op::INVOKESTATIC, index: hit },
            Insn::Simple(op::RETURN),
        ],
    );
    let clinit_code = clinit.assemble(&mut editor.pool).expect("assemble clinit");
    editor.add_method(ACC_STATIC, "<clinit>", "()V").expect("method").set_attribute("Code", code_name, clinit_code);

    editor
        .add_class_annotation(&Annotation {
            type_descriptor: "Lorg/tracingfacility/annotation/TFEnhanced;".into(),
            elements: vec![
                ("stage".into(), ElementValue::Int(2)),
                ("fingerprint".into(), ElementValue::String("abc".into())),
            ],
            visible: false,
        })
        .expect("annotation");
    let written = editor.to_bytes().expect("write");
    std::fs::write(&path, &written).expect("write class");

    let reread = ClassFile::parse(&written).expect("parse the written class");
    let annotation = reread
        .annotations()
        .expect("annotations")
        .into_iter()
        .find(|a| a.type_descriptor == "Lorg/tracingfacility/annotation/TFEnhanced;")
        .expect("the added annotation");
    assert_eq!(annotation.element("stage"), Some(&ElementValue::Int(2)));
    assert_eq!(annotation.element("fingerprint"), Some(&ElementValue::String("abc".into())));
    let bump = reread.method("bump", "()V").expect("bump");
    let code = reread.code(bump).expect("code").expect("has code");
    assert_eq!((code.max_stack, code.max_locals), (2, 0), "recomputed max_stack and max_locals");

    assert_eq!(run_verified(&fixture.classes), format!("hit hello world\n{ORIGINAL_OUTPUT}"));
}

#[test]
fn new_parameters_shift_the_locals_of_the_body() {
    let fixture = compile_fixtures();
    // Give `alternate(int)` a leading (long, String) parameter pair and keep
    // the original callable through a bridge: alternate(int) → alternate$(0L, "", int).
    edit_class(&fixture.classes, "Subject", |name, access, code, pool| {
        if name != "alternate" || access & ACC_STATIC == 0 {
            return;
        }
        let string = pool.class("java/lang/String").expect("class");
        code.insert_local_slots(0, &[VType::Long, VType::Object(string)]).expect("shift");
        // The shifted body still reads its int parameter, now at slot 3.
        assert!(code.elements.iter().any(|i| matches!(i, Insn::Local { opcode: op::ILOAD, index: 3, .. })));
        assert_eq!(code.initial_frame.locals, vec![VType::Long, VType::Object(string), VType::Integer]);
    });
    let path = fixture.classes.join("Subject.class");
    let bytes = std::fs::read(&path).expect("read");
    let class = ClassFile::parse(&bytes).expect("parse");
    let mut editor = ClassEditor::new(&class);
    let index = class.methods().iter().position(|m| m.name_is("alternate")).expect("alternate");
    let descriptor = editor.pool.utf8("(JLjava/lang/String;I)I").expect("utf8");
    let renamed = editor.pool.utf8("alternate$").expect("utf8");
    let method = editor.edit_method(index).expect("method");
    method.descriptor_index = descriptor;
    method.name_index = renamed;
    let target = editor.pool.method_ref("Subject", "alternate$", "(JLjava/lang/String;I)I").expect("ref");
    let empty = editor.pool.string("").expect("string");
    let mut bridge =
        CodeModel::empty(class.this_class_index(), ACC_STATIC, "alternate", "(I)I", true, &mut editor.pool)
            .expect("code");
    bridge.insert(
        0,
        [
            Insn::Simple(9), // lconst_0
            Insn::Ldc { opcode: op::LDC, index: empty },
            Insn::Simple(op::ILOAD_0),
            Insn::Pool { opcode: op::INVOKESTATIC, index: target },
            Insn::Simple(op::IRETURN),
        ],
    );
    let data = bridge.assemble(&mut editor.pool).expect("assemble");
    let code_name = editor.pool.utf8("Code").expect("utf8");
    editor.add_method(ACC_STATIC | ACC_PUBLIC, "alternate", "(I)I").expect("method").set_attribute("Code", code_name, data);
    std::fs::write(&path, editor.to_bytes().expect("write")).expect("write class");
    assert_eq!(run_verified(&fixture.classes), ORIGINAL_OUTPUT);
}

#[test]
fn two_frames_never_share_an_offset() {
    let fixture = compile_fixtures();
    let bytes = std::fs::read(fixture.classes.join("Subject.class")).expect("read");
    let class = ClassFile::parse(&bytes).expect("parse");
    let mut editor = ClassEditor::new(&class);
    let index = class.methods().iter().position(|m| m.name_is("alternate")).expect("alternate");
    let mut code = editor.lift_code(&class, index).expect("lift").expect("code");
    let original_frames = code.frames.len();
    // Two different frames bound back to back, at what would be one offset.
    let first = code.bind_label(0);
    let second = code.bind_label(1);
    let mut wider = code.initial_frame.clone();
    wider.set_local(1, VType::Integer);
    code.frames.push((first, code.initial_frame.clone()));
    code.frames.push((second, wider));
    editor.replace_code(index, &code).expect("assemble");
    let written = editor.to_bytes().expect("write");

    let reread = ClassFile::parse(&written).expect("parse");
    let method = reread.method("alternate", "(I)I").expect("alternate");
    let attribute = reread.code(method).expect("code").expect("has code");
    assert_eq!(attribute.code.first(), Some(&op::NOP), "a nop separates the two frames");
    let mut pool = PoolBuilder::new(reread.constant_pool().clone());
    let model = CodeModel::lift(&reread, method, &mut pool).expect("lift").expect("code");
    assert_eq!(model.frames.len(), original_frames + 2);
}
