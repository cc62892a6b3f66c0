//! The pre-write check on real class files (tests/fixtures/realworld): it
//! rejects the output HotSpot rejects, naming the rule, and accepts the code
//! compilers wrote (every method of java.base, kotlinc's, groovyc's).
mod support;

use std::path::PathBuf;
use tf_core::classfile::check::{check_method, Offence, Rule};
use tf_core::classfile::{ClassFile, PoolBuilder};

fn fixture(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/realworld").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Each method's `name(descriptor)` and the check's verdict.
fn check_all(bytes: &[u8]) -> Vec<(String, Result<(), Offence>)> {
    let class = ClassFile::parse(bytes).expect("a class file");
    let mut pool = PoolBuilder::new(class.constant_pool().clone());
    class
        .methods()
        .iter()
        .map(|m| {
            let name = format!("{}{}", m.name().unwrap(), m.descriptor().unwrap());
            (name, check_method(&class, m, &mut pool))
        })
        .collect()
}

fn failures(bytes: &[u8]) -> Vec<(String, Offence)> {
    check_all(bytes).into_iter().filter_map(|(name, verdict)| verdict.err().map(|o| (name, o))).collect()
}

/// The class with its major version set to `major` (its frames are then
/// ignored: the check follows the code by data flow).
fn with_version(bytes: &[u8], major: u16) -> Vec<u8> {
    let mut copy = bytes.to_vec();
    copy[6..8].copy_from_slice(&major.to_be_bytes());
    copy
}

const KOTLIN: &str = "kotlin-SequencesKt__SequencesKt$ifEmpty$1.class";
const KOTLIN_ENHANCED: &str = "kotlin-SequencesKt__SequencesKt$ifEmpty$1.enhanced-46ca795.class";
const GROOVY: &str = "groovy-CliBuilderException.class";
const GROOVY_ENHANCED: &str = "groovy-CliBuilderException.enhanced-46ca795.class";

#[test]
fn kotlin_invoke_suspend_returning_with_values_on_the_stack_is_caught() {
    assert_eq!(failures(&fixture(KOTLIN)), [], "kotlinc's own code passes");
    let found = failures(&fixture(KOTLIN_ENHANCED));
    let [(method, offence)] = found.as_slice() else { panic!("one failing method expected: {found:?}") };
    assert_eq!(method, "invokeSuspend(Ljava/lang/Object;)Ljava/lang/Object;");
    assert_eq!(offence.rule, Rule::StackDepth);
    // Where HotSpot sees it: the goto at 155 to the exit block at 241.
    assert_eq!(offence.offset, Some(155));
    assert_eq!(
        offence.message,
        "the operand stack holds 1 slot(s) where the stack map frame at offset 241 declares 0"
    );
}

#[test]
fn groovy_constructor_with_the_monitor_local_unset_on_a_path_is_caught() {
    assert_eq!(failures(&fixture(GROOVY)), [], "groovyc's own code passes");
    let found = failures(&fixture(GROOVY_ENHANCED));
    let names: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(names, ["<init>(Ljava/lang/String;)V", "<init>(Ljava/lang/Throwable;)V"]);
    for (_, offence) in &found {
        assert_eq!(offence.rule, Rule::FrameTypes);
        // HotSpot: "Type top (current frame, locals[4]) is not assignable to 'MethodMonitor'", at the switch at 31.
        assert_eq!(offence.offset, Some(31));
        assert_eq!(offence.message, "local 4 holds top (no value) where the stack map frame at offset 268 declares a reference");
    }
}

#[test]
fn without_frames_data_flow_finds_the_same_fault() {
    // As a version-49 class the frames are ignored: the paths into the exit
    // block meet with stacks of different depths.
    assert_eq!(failures(&with_version(&fixture(KOTLIN), 49)), [], "the original still passes");
    let found = failures(&with_version(&fixture(KOTLIN_ENHANCED), 49));
    let [(method, offence)] = found.as_slice() else { panic!("one failing method expected: {found:?}") };
    assert_eq!(method, "invokeSuspend(Ljava/lang/Object;)Ljava/lang/Object;");
    assert_eq!(offence.rule, Rule::StackDepth, "{offence}");
    assert!(offence.message.starts_with("paths meet with operand stacks of"), "{offence}");
}

/// `bytes` with the Code attribute of method `name(descriptor)` changed by `edit(max_stack, max_locals)`.
fn with_limits(bytes: &[u8], method: &str, edit: impl Fn(u16, u16) -> (u16, u16)) -> Vec<u8> {
    let class = ClassFile::parse(bytes).unwrap();
    let member = class
        .methods()
        .iter()
        .find(|m| format!("{}{}", m.name().unwrap(), m.descriptor().unwrap()) == method)
        .expect("the method");
    let code = class.code(member).unwrap().expect("code");
    let at = code.attribute.offset + 6;
    let (stack, locals) = edit(code.max_stack, code.max_locals);
    let mut copy = bytes.to_vec();
    copy[at..at + 2].copy_from_slice(&stack.to_be_bytes());
    copy[at + 2..at + 4].copy_from_slice(&locals.to_be_bytes());
    copy
}

#[test]
fn max_stack_and_max_locals_are_checked() {
    let constructor = "<init>(Ljava/lang/Throwable;)V";
    let rules = |bytes: Vec<u8>| failures(&bytes).into_iter().map(|(m, o)| (m, o.rule)).collect::<Vec<_>>();
    assert_eq!(rules(with_limits(&fixture(GROOVY), constructor, |s, l| (s, l))), []);
    assert_eq!(rules(with_limits(&fixture(GROOVY), constructor, |s, l| (s - 1, l))), [(constructor.to_string(), Rule::MaxStack)]);
    assert_eq!(rules(with_limits(&fixture(GROOVY), constructor, |s, l| (s, l - 1))), [(constructor.to_string(), Rule::MaxLocals)]);
}

#[test]
fn uninitialized_this_may_not_escape_before_the_chaining_call() {
    // groovyc's constructor builds the arguments of super(...) before calling
    // it: `createPojoWrapper(t, Throwable.class)` at 17, the class loaded by
    // `ldc` at 15. Loading `this` there instead (`aload_0; nop`) passes the
    // uninitialized object to a method; pushing `null` for the `this` that
    // super(...) is called on (`aload_0` at 29) breaks the frames that carry it.
    let bytes = fixture(GROOVY);
    let class = ClassFile::parse(&bytes).unwrap();
    let member = class.methods().iter().find(|m| m.descriptor().unwrap() == "(Ljava/lang/Throwable;)V").unwrap();
    let start = class.code(member).unwrap().unwrap().code_offset;
    assert_eq!(bytes[start + 15..start + 17], [0x12, 0x3b], "ldc #59");
    assert_eq!(bytes[start + 29], 0x2a, "aload_0");

    let mut escapes = bytes.clone();
    escapes[start + 15..start + 17].copy_from_slice(&[0x2a, 0x00]);
    let found = failures(&escapes);
    let [(_, offence)] = found.as_slice() else { panic!("one failing method expected: {found:?}") };
    assert_eq!((offence.rule, offence.offset), (Rule::UninitializedThis, Some(17)), "{offence}");
    assert_eq!(offence.message, "expects a reference on the operand stack, finds uninitializedThis");

    let mut never_initialized = bytes.clone();
    never_initialized[start + 29] = 0x01; // aconst_null
    let found = failures(&never_initialized);
    let [(_, offence)] = found.as_slice() else { panic!("one failing method expected: {found:?}") };
    assert_eq!((offence.rule, offence.offset), (Rule::FrameTypes, Some(31)), "{offence}");
    assert_eq!(offence.message, "stack slot 1 holds null where the stack map frame at offset 205 declares uninitializedThis");
}

#[test]
fn every_method_of_java_base_passes() {
    // The image the round-trip test extracts (shared through the target directory).
    let image = support::extracted_image(&support::jdk17_home(), "jdk17");
    let base = image.join("java.base");
    let mut checked = 0usize;
    let mut failed = Vec::new();
    for file in support::files_under(&base).into_iter().filter(|f| f.ends_with(".class")) {
        let bytes = std::fs::read(base.join(&file)).unwrap();
        for (method, verdict) in check_all(&bytes) {
            checked += 1;
            if let Err(offence) = verdict {
                failed.push(format!("{file} {method}: {offence} [{}]", offence.rule.id()));
            }
        }
    }
    assert!(checked > 50_000, "only {checked} methods checked");
    assert_eq!(failed, Vec::<String>::new());
}
