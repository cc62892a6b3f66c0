//! The pool builder finds an equal entry through its own hash index (and
//! skips the lookup for an entry naming the one added last, and the
//! encoding of a text it knows); its plain version, a map from each
//! constant to the first index holding it, must give the same index for
//! every entry of every pool of java.base, and for new entries added among
//! them, whether added as constants or as texts.

mod support;

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::LazyLock;
use tf_classfile::{mutf8, ClassFile, Constant, ConstantPool, KnownTexts, PoolBuilder};

/// Texts most pools of java.base hold, and texts none does, as an
/// instrumenter knows its own names.
static KNOWN: LazyLock<KnownTexts> = LazyLock::new(|| {
    KnownTexts::new([
        "java/lang/Object",
        "<init>",
        "()V",
        "Code",
        "StackMapTable",
        "java/lang/String",
        "Ljava/lang/String;",
        "LineNumberTable",
        "org/example/tf/NotInAnyPool",
        "(Ljava/lang/Object;)Lorg/example/tf/NotInAnyPool;",
    ])
});

/// The plain pool: the first index of each constant, and the next index.
struct Plain<'a> {
    first: HashMap<Constant<'a>, u16>,
    count: u16,
}

impl<'a> Plain<'a> {
    /// The plain map of an original pool, and its entries in pool order,
    /// each as `convert` makes it.
    fn of_original<'p>(original: &ConstantPool<'p>, convert: impl Fn(Constant<'p>) -> Constant<'a>) -> (Self, Vec<Constant<'a>>) {
        let mut plain = Plain { first: HashMap::new(), count: 1 };
        let mut originals = Vec::new();
        let mut index = 1u16;
        while u32::from(index) < u32::from(original.count()) {
            let constant = convert(original.get(index).expect("an entry"));
            // A pool may hold an entry twice: the first one is found.
            plain.first.entry(constant.clone()).or_insert(index);
            index += if matches!(constant, Constant::Long(_) | Constant::Double(_)) { 2 } else { 1 };
            plain.count = index;
            originals.push(constant);
        }
        (plain, originals)
    }

    fn add(&mut self, constant: Constant<'a>) -> u16 {
        if let Some(&index) = self.first.get(&constant) {
            return index;
        }
        let index = self.count;
        self.count += if matches!(constant, Constant::Long(_) | Constant::Double(_)) { 2 } else { 1 };
        self.first.insert(constant, index);
        index
    }
}

#[test]
fn every_entry_is_found_where_a_plain_map_finds_it_on_java_base() {
    let mut entries = 0usize;
    for (n, (path, bytes)) in support::java_base_classes().into_iter().enumerate() {
        let class = ClassFile::parse(&bytes).expect("parse");
        let original = class.constant_pool();
        let (mut plain, originals) = Plain::of_original(original, |constant| constant);
        // Every other class adds its texts knowing some.
        let knowing = n % 2 == 1;
        let mut pool = PoolBuilder::new(original.clone());
        if knowing {
            pool.set_known_texts(&KNOWN);
        }
        let name = path.display();
        for constant in &originals {
            assert_eq!(pool.add(constant.clone()).expect("add"), plain.add(constant.clone()), "{name}: {constant:?}");
            // A text too, as its string, encoded to modified UTF-8 again
            // (but for the few that decode with a lone surrogate replaced).
            let Constant::Utf8(bytes) = constant else { continue };
            let Some(text) = mutf8::decode(bytes).filter(|text| mutf8::encode(text) == *bytes) else { continue };
            let expected = plain.add(constant.clone());
            assert_eq!(pool.utf8(&text).expect("utf8"), expected, "{name}: a text of {} bytes", bytes.len());
        }
        assert!(!pool.is_modified(), "{name}: an original entry added again");
        // Texts no pool holds, known or not: added once, then found.
        for text in ["org/example/tf/NotInAnyPool", "org/example/tf/NotKnown", "nul\0and\u{10400}"] {
            let constant = Constant::Utf8(Cow::Owned(mutf8::encode(text).into_owned()));
            let expected = plain.add(constant.clone());
            assert_eq!(pool.utf8(text).expect("utf8"), expected, "{name}: {text:?}");
            assert_eq!(pool.utf8(text).expect("utf8"), expected, "{name}: {text:?} again");
            assert_eq!(pool.add(constant).expect("add"), expected, "{name}: {text:?} as a constant");
        }
        // New entries, each followed by one naming it (the lookup skipped)
        // and by itself again (found through the index).
        for constant in &originals {
            let Constant::Class { name: class_name } = constant else { continue };
            let Ok(Constant::Utf8(text)) = original.get(*class_name) else { continue };
            let renamed = Constant::Utf8(Cow::Owned([text.as_ref(), b"$TF"].concat()));
            let text_index = pool.add(renamed.clone()).expect("add");
            assert_eq!(text_index, plain.add(renamed.clone()), "{name}");
            let class_entry = Constant::Class { name: text_index };
            assert_eq!(pool.add(class_entry.clone()).expect("add"), plain.add(class_entry), "{name}");
            assert_eq!(pool.add(renamed.clone()).expect("add"), plain.add(renamed), "{name}");
            let string = Constant::String { value: *class_name };
            assert_eq!(pool.add(string.clone()).expect("add"), plain.add(string), "{name}");
        }
        assert_eq!(pool.count(), u32::from(plain.count), "{name}");
        entries += originals.len();
    }
    assert!(entries > 500_000, "{entries} entries");
}

/// The plain reading of entry `index` of `pool`: decoded, then followed.
fn decoded<'a>(pool: &tf_classfile::ConstantPool<'a>, index: u16) -> Option<Constant<'a>> {
    pool.get(index).ok()
}

fn decoded_text(pool: &tf_classfile::ConstantPool<'_>, index: u16) -> Option<String> {
    match decoded(pool, index)? {
        Constant::Utf8(bytes) => mutf8::decode(&bytes).map(Cow::into_owned),
        _ => None,
    }
}

fn decoded_descriptor(pool: &tf_classfile::ConstantPool<'_>, index: u16) -> Option<String> {
    let name_and_type = match decoded(pool, index)? {
        Constant::Fieldref { name_and_type, .. }
        | Constant::Methodref { name_and_type, .. }
        | Constant::InterfaceMethodref { name_and_type, .. }
        | Constant::Dynamic { name_and_type, .. }
        | Constant::InvokeDynamic { name_and_type, .. } => name_and_type,
        _ => return None,
    };
    match decoded(pool, name_and_type)? {
        Constant::NameAndType { descriptor, .. } => decoded_text(pool, descriptor),
        _ => None,
    }
}

fn decoded_owner_and_name(pool: &tf_classfile::ConstantPool<'_>, index: u16) -> Option<(u16, String)> {
    let (class, name_and_type) = match decoded(pool, index)? {
        Constant::Methodref { class, name_and_type } | Constant::InterfaceMethodref { class, name_and_type } => {
            (class, name_and_type)
        }
        _ => return None,
    };
    match decoded(pool, name_and_type)? {
        Constant::NameAndType { name, .. } => Some((class, decoded_text(pool, name)?)),
        _ => None,
    }
}

/// The builder reads an original entry from its bytes (no entry decoded):
/// every index of every pool of java.base reads as the decoded entries say,
/// an entry of another kind (or past the pool) as an error or nothing.
#[test]
fn every_entry_reads_as_its_decoded_value_on_java_base() {
    let mut read = [0usize; 4];
    for (path, bytes) in support::java_base_classes() {
        let class = ClassFile::parse(&bytes).expect("parse");
        let original = class.constant_pool();
        let pool = PoolBuilder::new(original.clone());
        let name = path.display();
        // Past the pool too: no entry there.
        for index in 0..original.count().saturating_add(2) {
            let text = pool.text(index).ok().map(Cow::into_owned);
            assert_eq!(text, decoded_text(original, index), "{name}: text #{index}");
            let class_name = pool.class_name(index).ok().map(Cow::into_owned);
            let expected = match decoded(original, index) {
                Some(Constant::Class { name }) => decoded_text(original, name),
                _ => None,
            };
            assert_eq!(class_name, expected, "{name}: class #{index}");
            let descriptor = pool.reference_descriptor(index).ok().map(Cow::into_owned);
            assert_eq!(descriptor, decoded_descriptor(original, index), "{name}: descriptor #{index}");
            let ascii = pool.with_ascii_reference_descriptor(index, str::to_owned);
            let expected = decoded_descriptor(original, index).filter(|d| d.is_ascii());
            assert_eq!(ascii, expected, "{name}: ASCII descriptor #{index}");
            let owner_and_name = pool.method_owner_and_name(index).ok().map(|(c, n)| (c, n.into_owned()));
            assert_eq!(owner_and_name, decoded_owner_and_name(original, index), "{name}: member #{index}");
            let found = [text.is_some(), class_name.is_some(), descriptor.is_some(), owner_and_name.is_some()];
            for (count, found) in read.iter_mut().zip(found) {
                *count += usize::from(found);
            }
        }
    }
    assert!(read.iter().all(|&n| n > 10_000), "{read:?} of each read");
}

/// Entries naming additions, added before any original entry is looked up,
/// hide none of them: every original entry is found where a plain map finds
/// it, and every addition again where it was added.
#[test]
fn entries_naming_additions_first_then_the_originals_are_found_as_a_plain_map_finds_them() {
    for (path, bytes) in support::java_base_classes().into_iter().step_by(5) {
        let class = ClassFile::parse(&bytes).expect("parse");
        let original = class.constant_pool();
        let (mut plain, originals) = Plain::of_original(original, |constant| match constant {
            Constant::Utf8(text) => Constant::Utf8(Cow::Owned(text.into_owned())),
            other => other.try_into_static().expect("no text"),
        });
        let name = path.display().to_string();
        let mut pool = PoolBuilder::new(original.clone());
        let mut add = |pool: &mut PoolBuilder<'_>, constant: Constant<'static>| {
            let expected = plain.add(constant.clone());
            assert_eq!(pool.add(constant.clone()).expect("add"), expected, "{name}: {constant:?}");
            expected
        };
        let text = add(&mut pool, Constant::Utf8(Cow::Borrowed(b"org/example/tf/New")));
        let mut added = vec![Constant::Class { name: text }, Constant::String { value: text }, Constant::MethodType { descriptor: text }];
        for constant in &originals {
            let Constant::Class { name: class_name } = *constant else { continue };
            let nat = Constant::NameAndType { name: class_name, descriptor: text };
            let nat_index = add(&mut pool, nat.clone());
            added.push(nat);
            added.push(Constant::Methodref { class: class_name, name_and_type: nat_index });
            added.push(Constant::Fieldref { class: class_name, name_and_type: nat_index });
        }
        for constant in added.iter().chain(&originals).chain(&added) {
            add(&mut pool, constant.clone());
        }
    }
}

/// The constants that borrow nothing, but for Utf8 (made owned by the caller).
trait TryIntoStatic {
    fn try_into_static(self) -> Option<Constant<'static>>;
}

impl TryIntoStatic for Constant<'_> {
    fn try_into_static(self) -> Option<Constant<'static>> {
        Some(match self {
            Constant::Utf8(_) => return None,
            Constant::Integer(v) => Constant::Integer(v),
            Constant::Float(v) => Constant::Float(v),
            Constant::Long(v) => Constant::Long(v),
            Constant::Double(v) => Constant::Double(v),
            Constant::Class { name } => Constant::Class { name },
            Constant::String { value } => Constant::String { value },
            Constant::Fieldref { class, name_and_type } => Constant::Fieldref { class, name_and_type },
            Constant::Methodref { class, name_and_type } => Constant::Methodref { class, name_and_type },
            Constant::InterfaceMethodref { class, name_and_type } => Constant::InterfaceMethodref { class, name_and_type },
            Constant::NameAndType { name, descriptor } => Constant::NameAndType { name, descriptor },
            Constant::MethodHandle { kind, reference } => Constant::MethodHandle { kind, reference },
            Constant::MethodType { descriptor } => Constant::MethodType { descriptor },
            Constant::Dynamic { bootstrap_method, name_and_type } => Constant::Dynamic { bootstrap_method, name_and_type },
            Constant::InvokeDynamic { bootstrap_method, name_and_type } => {
                Constant::InvokeDynamic { bootstrap_method, name_and_type }
            }
            Constant::Module { name } => Constant::Module { name },
            Constant::Package { name } => Constant::Package { name },
        })
    }
}
