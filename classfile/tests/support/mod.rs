//! What the crate's integration tests share: class files assembled by hand
//! (JVMS chapter 4, byte for byte, so that nothing of the crate writes the
//! input it is tested on), the Code attribute read back from the
//! assembler's output, and the classes of the JDK 17 image.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A class file assembled by hand: a constant pool interned as it is asked
/// for, then methods with the code given as bytes.
#[derive(Default)]
pub struct ClassBytes {
    pool: Vec<u8>,
    count: u16,
    interned: HashMap<(u8, Vec<u8>), u16>,
    methods: Vec<u8>,
    method_count: u16,
}

/// A method of a [`ClassBytes`].
pub struct MethodBytes<'m> {
    pub access: u16,
    pub name: &'m str,
    pub descriptor: &'m str,
    pub max_stack: u16,
    pub max_locals: u16,
    pub code: &'m [u8],
    /// start_pc, end_pc, handler_pc, catch_type.
    pub handlers: &'m [[u16; 4]],
    /// Attributes of the Code attribute: name and content.
    pub attributes: &'m [(&'m str, Vec<u8>)],
}

impl ClassBytes {
    pub fn new() -> Self {
        let mut class = ClassBytes { count: 1, ..ClassBytes::default() };
        // #2 this class, #4 its super class, whatever a test asks next.
        class.class("T");
        class.class("java/lang/Object");
        class
    }

    fn entry(&mut self, tag: u8, body: Vec<u8>, slots: u16) -> u16 {
        if let Some(&index) = self.interned.get(&(tag, body.clone())) {
            return index;
        }
        let index = self.count;
        self.pool.push(tag);
        self.pool.extend_from_slice(&body);
        self.count += slots;
        self.interned.insert((tag, body), index);
        index
    }

    pub fn utf8(&mut self, text: &str) -> u16 {
        let mut body = (text.len() as u16).to_be_bytes().to_vec();
        body.extend_from_slice(text.as_bytes());
        self.entry(1, body, 1)
    }

    pub fn integer(&mut self, value: i32) -> u16 {
        self.entry(3, value.to_be_bytes().to_vec(), 1)
    }

    pub fn long(&mut self, value: i64) -> u16 {
        self.entry(5, value.to_be_bytes().to_vec(), 2)
    }

    pub fn class(&mut self, name: &str) -> u16 {
        let name = self.utf8(name);
        self.entry(7, name.to_be_bytes().to_vec(), 1)
    }

    pub fn string(&mut self, text: &str) -> u16 {
        let text = self.utf8(text);
        self.entry(8, text.to_be_bytes().to_vec(), 1)
    }

    fn name_and_type(&mut self, name: &str, descriptor: &str) -> u16 {
        let (name, descriptor) = (self.utf8(name), self.utf8(descriptor));
        self.entry(12, [name.to_be_bytes(), descriptor.to_be_bytes()].concat(), 1)
    }

    fn member_ref(&mut self, tag: u8, owner: &str, name: &str, descriptor: &str) -> u16 {
        let (owner, nat) = (self.class(owner), self.name_and_type(name, descriptor));
        self.entry(tag, [owner.to_be_bytes(), nat.to_be_bytes()].concat(), 1)
    }

    pub fn field_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> u16 {
        self.member_ref(9, owner, name, descriptor)
    }

    pub fn method_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> u16 {
        self.member_ref(10, owner, name, descriptor)
    }

    pub fn interface_method_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> u16 {
        self.member_ref(11, owner, name, descriptor)
    }

    pub fn method(&mut self, m: &MethodBytes<'_>) -> &mut Self {
        let (name, descriptor, code_name) = (self.utf8(m.name), self.utf8(m.descriptor), self.utf8("Code"));
        let mut code = Vec::new();
        code.extend_from_slice(&m.max_stack.to_be_bytes());
        code.extend_from_slice(&m.max_locals.to_be_bytes());
        code.extend_from_slice(&(m.code.len() as u32).to_be_bytes());
        code.extend_from_slice(m.code);
        code.extend_from_slice(&(m.handlers.len() as u16).to_be_bytes());
        for handler in m.handlers {
            handler.iter().for_each(|v| code.extend_from_slice(&v.to_be_bytes()));
        }
        code.extend_from_slice(&(m.attributes.len() as u16).to_be_bytes());
        for (attribute, data) in m.attributes {
            let index = self.utf8(attribute);
            code.extend_from_slice(&index.to_be_bytes());
            code.extend_from_slice(&(data.len() as u32).to_be_bytes());
            code.extend_from_slice(data);
        }
        for v in [m.access, name, descriptor, 1, code_name] {
            self.methods.extend_from_slice(&v.to_be_bytes());
        }
        self.methods.extend_from_slice(&(code.len() as u32).to_be_bytes());
        self.methods.extend_from_slice(&code);
        self.method_count += 1;
        self
    }

    /// The class file, of version `major`: `T extends java.lang.Object`.
    pub fn finish(&self, major: u16) -> Vec<u8> {
        let mut out = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0];
        out.extend_from_slice(&major.to_be_bytes());
        out.extend_from_slice(&self.count.to_be_bytes());
        out.extend_from_slice(&self.pool);
        // public super; this #2, super #4; no interface, no field.
        for v in [0x0021u16, 2, 4, 0, 0, self.method_count] {
            out.extend_from_slice(&v.to_be_bytes());
        }
        out.extend_from_slice(&self.methods);
        out.extend_from_slice(&0u16.to_be_bytes());
        out
    }
}

/// A static method `descriptor` named `m` with `code`, nothing else.
pub fn one_method<'m>(descriptor: &'m str, max_stack: u16, max_locals: u16, code: &'m [u8]) -> MethodBytes<'m> {
    MethodBytes { access: 0x0009, name: "m", descriptor, max_stack, max_locals, code, handlers: &[], attributes: &[] }
}

/// The content of a Code attribute (what `CodeModel::assemble` returns),
/// read back field by field.
#[derive(Debug, PartialEq, Eq)]
pub struct CodeBody {
    pub max_stack: u16,
    pub max_locals: u16,
    pub code: Vec<u8>,
    pub handlers: Vec<[u16; 4]>,
    /// Name index and content of each attribute.
    pub attributes: Vec<(u16, Vec<u8>)>,
}

impl CodeBody {
    pub fn read(data: &[u8]) -> CodeBody {
        let u16_at = |at: usize| u16::from_be_bytes([data[at], data[at + 1]]);
        let u32_at = |at: usize| u32::from_be_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]);
        let code_len = u32_at(4) as usize;
        let code = data[8..8 + code_len].to_vec();
        let mut at = 8 + code_len;
        let handlers = (0..u16_at(at))
            .map(|i| {
                let h = at + 2 + 8 * usize::from(i);
                [u16_at(h), u16_at(h + 2), u16_at(h + 4), u16_at(h + 6)]
            })
            .collect::<Vec<_>>();
        at += 2 + 8 * handlers.len();
        let count = u16_at(at);
        at += 2;
        let mut attributes = Vec::new();
        for _ in 0..count {
            let len = u32_at(at + 2) as usize;
            attributes.push((u16_at(at), data[at + 6..at + 6 + len].to_vec()));
            at += 6 + len;
        }
        assert_eq!(at, data.len(), "the Code attribute ends after its attributes");
        CodeBody { max_stack: u16_at(0), max_locals: u16_at(2), code, handlers, attributes }
    }
}

/// The classes of the JDK 17 image's java.base module, extracted on first
/// use (beside the whole images the tf-core tests extract).
pub fn java_base() -> PathBuf {
    let java_home = Path::new("/usr/lib/jvm/java-17-openjdk-amd64");
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("jdk-images");
    let dir = cache.join("jdk17-java.base");
    if !dir.is_dir() {
        std::fs::create_dir_all(&cache).expect("create the image cache");
        // Extracted beside the final name and renamed, so that an interrupted
        // run never leaves a partial image that a later run would trust.
        let partial = cache.join(format!("jdk17-java.base.partial.{}", std::process::id()));
        let status = Command::new(java_home.join("bin/jimage"))
            .args(["extract", "--include", "regex:/java.base/.*", "--dir"])
            .arg(&partial)
            .arg(java_home.join("lib/modules"))
            .status()
            .expect("run jimage");
        assert!(status.success(), "jimage extract failed");
        if std::fs::rename(&partial, &dir).is_err() {
            let _ = std::fs::remove_dir_all(&partial);
        }
    }
    dir.join("java.base")
}

/// Every class file of java.base, read.
pub fn java_base_classes() -> Vec<(PathBuf, Vec<u8>)> {
    let files = tf_classfile::class_files(&java_base()).expect("list java.base");
    assert!(files.len() > 5_000, "java.base has {} classes", files.len());
    files.into_iter().map(|f| (f.clone(), std::fs::read(&f).expect("read a class"))).collect()
}
