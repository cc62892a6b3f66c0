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
    // `$TF_JDK17_HOME`, else Debian's OpenJDK 17 where these machines have it.
    let java_home = std::env::var_os("TF_JDK17_HOME").map(PathBuf::from);
    let java_home = java_home.as_deref().unwrap_or(Path::new("/usr/lib/jvm/java-17-openjdk-amd64"));
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

/// What JVMS chapter 6 says of an opcode whose stack effect no constant
/// decides: its length (0 for a switch or `wide`, whose length varies), the
/// slots it pops and the slots it pushes. `None` for the opcodes whose
/// effect a constant decides and for those a class file may not hold.
pub fn jvms(opcode: u8) -> Option<(usize, i32, i32)> {
    Some(match opcode {
        0x00 => (1, 0, 0),                                          // nop
        0x01..=0x08 => (1, 0, 1),                                   // aconst_null, iconst_m1..iconst_5
        0x09 | 0x0a => (1, 0, 2),                                   // lconst_0, lconst_1
        0x0b..=0x0d => (1, 0, 1),                                   // fconst_0..2
        0x0e | 0x0f => (1, 0, 2),                                   // dconst_0, dconst_1
        0x10 => (2, 0, 1),                                          // bipush
        0x11 => (3, 0, 1),                                          // sipush
        0x14 => (3, 0, 2),                                          // ldc2_w
        0x15 | 0x17 | 0x19 => (2, 0, 1),                            // iload, fload, aload
        0x16 | 0x18 => (2, 0, 2),                                   // lload, dload
        0x1a..=0x1d | 0x22..=0x25 | 0x2a..=0x2d => (1, 0, 1),       // iload_n, fload_n, aload_n
        0x1e..=0x21 | 0x26..=0x29 => (1, 0, 2),                     // lload_n, dload_n
        0x2e | 0x30 | 0x32..=0x35 => (1, 2, 1),                     // iaload faload aaload baload caload saload
        0x2f | 0x31 => (1, 2, 2),                                   // laload, daload
        0x36 | 0x38 | 0x3a => (2, 1, 0),                            // istore, fstore, astore
        0x37 | 0x39 => (2, 2, 0),                                   // lstore, dstore
        0x3b..=0x3e | 0x43..=0x46 | 0x4b..=0x4e => (1, 1, 0),       // istore_n, fstore_n, astore_n
        0x3f..=0x42 | 0x47..=0x4a => (1, 2, 0),                     // lstore_n, dstore_n
        0x4f | 0x51 | 0x53..=0x56 => (1, 3, 0),                     // iastore fastore aastore bastore castore sastore
        0x50 | 0x52 => (1, 4, 0),                                   // lastore, dastore
        0x57 => (1, 1, 0),                                          // pop
        0x58 => (1, 2, 0),                                          // pop2
        0x59 => (1, 1, 2),                                          // dup
        0x5a => (1, 2, 3),                                          // dup_x1
        0x5b => (1, 3, 4),                                          // dup_x2
        0x5c => (1, 2, 4),                                          // dup2
        0x5d => (1, 3, 5),                                          // dup2_x1
        0x5e => (1, 4, 6),                                          // dup2_x2
        0x5f => (1, 2, 2),                                          // swap
        // add, sub, mul, div, rem: i, l, f, d in turn.
        0x60..=0x73 if opcode.is_multiple_of(2) => (1, 2, 1),
        0x60..=0x73 => (1, 4, 2),
        0x74 | 0x76 => (1, 1, 1),                                   // ineg, fneg
        0x75 | 0x77 => (1, 2, 2),                                   // lneg, dneg
        0x78 | 0x7a | 0x7c => (1, 2, 1),                            // ishl, ishr, iushr
        0x79 | 0x7b | 0x7d => (1, 3, 2),                            // lshl, lshr, lushr: a long and an int
        0x7e | 0x80 | 0x82 => (1, 2, 1),                            // iand, ior, ixor
        0x7f | 0x81 | 0x83 => (1, 4, 2),                            // land, lor, lxor
        0x84 => (3, 0, 0),                                          // iinc
        0x85 | 0x87 => (1, 1, 2),                                   // i2l, i2d
        0x86 => (1, 1, 1),                                          // i2f
        0x88 | 0x89 => (1, 2, 1),                                   // l2i, l2f
        0x8a => (1, 2, 2),                                          // l2d
        0x8b => (1, 1, 1),                                          // f2i
        0x8c | 0x8d => (1, 1, 2),                                   // f2l, f2d
        0x8e | 0x90 => (1, 2, 1),                                   // d2i, d2f
        0x8f => (1, 2, 2),                                          // d2l
        0x91..=0x93 => (1, 1, 1),                                   // i2b, i2c, i2s
        0x94 => (1, 4, 1),                                          // lcmp
        0x95 | 0x96 => (1, 2, 1),                                   // fcmpl, fcmpg
        0x97 | 0x98 => (1, 4, 1),                                   // dcmpl, dcmpg
        0x99..=0x9e => (3, 1, 0),                                   // if<cond>
        0x9f..=0xa6 => (3, 2, 0),                                   // if_icmp<cond>, if_acmp<cond>
        0xa7 => (3, 0, 0),                                          // goto
        0xa8 => (3, 0, 1),                                          // jsr
        0xa9 => (2, 0, 0),                                          // ret
        0xaa | 0xab => (0, 1, 0),                                   // tableswitch, lookupswitch
        0xac | 0xae | 0xb0 => (1, 1, 0),                            // ireturn, freturn, areturn
        0xad | 0xaf => (1, 2, 0),                                   // lreturn, dreturn
        0xb1 => (1, 0, 0),                                          // return
        0xbb => (3, 0, 1),                                          // new
        0xbc => (2, 1, 1),                                          // newarray
        0xbd => (3, 1, 1),                                          // anewarray
        0xbe => (1, 1, 1),                                          // arraylength
        0xbf => (1, 1, 0),                                          // athrow (then the stack is gone)
        0xc0 | 0xc1 => (3, 1, 1),                                   // checkcast, instanceof
        0xc2 | 0xc3 => (1, 1, 0),                                   // monitorenter, monitorexit
        0xc4 => (0, 0, 0),                                          // wide: the effect of what it modifies
        0xc6 | 0xc7 => (3, 1, 0),                                   // ifnull, ifnonnull
        0xc8 => (5, 0, 0),                                          // goto_w
        0xc9 => (5, 0, 1),                                          // jsr_w
        // ldc, ldc_w, fields, invocations, multianewarray; 0xba..0xff but 0xbb..0xc9: not in a class file.
        _ => return None,
    })
}

/// Opcodes whose operands a constant names and decides the effect of.
pub fn decided_by_a_constant(opcode: u8) -> Option<usize> {
    match opcode {
        0x12 => Some(2),         // ldc
        0x13 => Some(3),         // ldc_w
        0xb2..=0xb8 => Some(3),  // get/put static/field, invokevirtual/special/static
        0xb9 | 0xba => Some(5),  // invokeinterface, invokedynamic
        0xc5 => Some(4),         // multianewarray
        _ => None,
    }
}

/// The length of the instruction at `at` of `code`, as JVMS chapter 6
/// gives it, one opcode at a time; `None` for an opcode no class file holds.
pub fn instruction_length(code: &[u8], at: usize) -> Option<usize> {
    let u32_at = |at: usize| code.get(at..at + 4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
    let opcode = *code.get(at)?;
    // Switch operands start at the next multiple of four from the method's start.
    let operands = (at + 4) & !3;
    Some(match opcode {
        0xaa => {
            let (low, high) = (u32_at(operands + 4)? as i32, u32_at(operands + 8)? as i32);
            operands + 12 + 4 * usize::try_from(i64::from(high) - i64::from(low) + 1).ok()? - at
        }
        0xab => operands + 8 + 8 * usize::try_from(u32_at(operands + 4)? as i32).ok()? - at,
        0xc4 if code.get(at + 1) == Some(&0x84) => 6, // wide iinc
        0xc4 => 4,
        _ => match jvms(opcode) {
            Some((length, _, _)) => length,
            None => decided_by_a_constant(opcode)?,
        },
    })
}

