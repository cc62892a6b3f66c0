//! The pool builder finds an equal entry through its own hash index (and
//! skips the lookup for an entry naming the one added last); its plain
//! version, a map from each constant to the first index holding it, must
//! give the same index for every entry of every pool of java.base, and for
//! new entries added among them.

mod support;

use std::borrow::Cow;
use std::collections::HashMap;
use tf_classfile::{ClassFile, Constant, PoolBuilder};

/// The plain pool: the first index of each constant, and the next index.
struct Plain<'a> {
    first: HashMap<Constant<'a>, u16>,
    count: u16,
}

impl<'a> Plain<'a> {
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
    for (path, bytes) in support::java_base_classes() {
        let class = ClassFile::parse(&bytes).expect("parse");
        let original = class.constant_pool();
        let mut plain = Plain { first: HashMap::new(), count: 1 };
        let mut originals = Vec::new();
        let mut index = 1u16;
        while u32::from(index) < u32::from(original.count()) {
            let constant = original.get(index).expect("an entry");
            // A pool may hold an entry twice: the first one is found.
            plain.first.entry(constant.clone()).or_insert(index);
            index += if matches!(constant, Constant::Long(_) | Constant::Double(_)) { 2 } else { 1 };
            plain.count = index;
            originals.push(constant);
        }
        let mut pool = PoolBuilder::new(original.clone());
        let name = path.display();
        for constant in &originals {
            assert_eq!(pool.add(constant.clone()).expect("add"), plain.add(constant.clone()), "{name}: {constant:?}");
        }
        assert!(!pool.is_modified(), "{name}: an original entry added again");
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
