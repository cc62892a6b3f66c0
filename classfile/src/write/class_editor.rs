//! Writing a class: a parsed class, possibly edited. Whatever is not edited
//! (the original pool entries, untouched members and attributes) is written as
//! its original bytes, so an unedited class comes out byte-identical.
#![forbid(unsafe_code)]

use crate::read::annotations::Annotation;
use crate::write::annotations::encode_annotation;
use crate::read::attribute::{name, Attribute};
use crate::read::class_file::{ClassFile, Member, MAGIC};
use crate::code::code_model::{CodeModel, Detail, Lifter};
use crate::code::encode::{count16, Put};
use crate::read::error::{ClassFileError, Result};
use crate::write::pool_builder::PoolBuilder;
use crate::read::reader::Reader;

/// An attribute to write: the original, or new content under a name.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // an attribute as read, or a new one's name index and content
pub enum AttributeEntry<'a> {
    Original(Attribute<'a>),
    New { name_index: u16, data: Vec<u8> },
}

impl AttributeEntry<'_> {
    /// The bytes [`AttributeEntry::write`] writes.
    fn len(&self) -> usize {
        match self {
            AttributeEntry::Original(attribute) => attribute.raw.len(),
            AttributeEntry::New { data, .. } => 6 + data.len(),
        }
    }

    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        match self {
            AttributeEntry::Original(attribute) => out.extend_from_slice(attribute.raw),
            AttributeEntry::New { name_index, data } => {
                let len = u32::try_from(data.len())
                    .map_err(|_| ClassFileError::limit_unlocated("an attribute longer than 4 GiB"))?;
                out.u16(*name_index);
                out.u32(len);
                out.extend_from_slice(data);
            }
        }
        Ok(())
    }
}

/// A field or method to write.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // a member as read, or one being edited
pub enum MemberEntry<'a> {
    /// Written as its original bytes. Borrowed from the class read: a
    /// class's members are most of its parse, and copying each one's list of
    /// attributes for an editor that writes most of them unchanged cost an
    /// allocation per member.
    Original(&'a Member<'a>),
    Edited(MemberBuilder<'a>),
}

/// A new or changed field or method.
#[derive(Debug, Clone, PartialEq, Eq)]
// Fields as JVMS 4.5 and 4.6 name them.
#[allow(missing_docs)]
pub struct MemberBuilder<'a> {
    pub access_flags: u16,
    pub name_index: u16,
    pub descriptor_index: u16,
    pub attributes: Vec<AttributeEntry<'a>>,
}

impl<'a> MemberBuilder<'a> {
    /// An editable copy of an existing member, its attributes still original.
    pub fn from_member(member: &Member<'a>) -> Self {
        MemberBuilder {
            access_flags: member.access_flags,
            name_index: member.name_index,
            descriptor_index: member.descriptor_index,
            attributes: member.attributes.iter().map(|a| AttributeEntry::Original(*a)).collect(),
        }
    }

    /// Replaces the attribute with `name_index`'s name, or appends it.
    pub fn set_attribute(&mut self, attribute_name: &str, name_index: u16, data: Vec<u8>) {
        let entry = AttributeEntry::New { name_index, data };
        let existing = self.attributes.iter().position(|a| match a {
            AttributeEntry::Original(original) => original.is(attribute_name),
            AttributeEntry::New { name_index: i, .. } => *i == name_index,
        });
        match existing {
            Some(i) => {
                if let Some(slot) = self.attributes.get_mut(i) {
                    *slot = entry;
                }
            }
            None => self.attributes.push(entry),
        }
    }

    /// The bytes [`MemberBuilder::write`] writes.
    fn len(&self) -> usize {
        8 + self.attributes.iter().map(AttributeEntry::len).sum::<usize>()
    }

    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        out.u16(self.access_flags);
        out.u16(self.name_index);
        out.u16(self.descriptor_index);
        write_attributes(&self.attributes, out)
    }
}

fn write_attributes(attributes: &[AttributeEntry<'_>], out: &mut Vec<u8>) -> Result<()> {
    let count = u16::try_from(attributes.len()).map_err(|_| ClassFileError::limit_unlocated("more than 65,535 attributes"))?;
    out.u16(count);
    attributes.iter().try_for_each(|a| a.write(out))
}

/// One bootstrap method: a MethodHandle constant and its static arguments.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
// Fields as JVMS 4.7.23 names them.
#[allow(missing_docs)]
pub struct BootstrapMethod {
    pub method_handle: u16,
    pub arguments: Vec<u16>,
}

/// A class being written.
#[derive(Debug, Clone)]
// Fields as JVMS 4.1 names them.
#[allow(missing_docs)]
pub struct ClassEditor<'a> {
    pub minor_version: u16,
    pub major_version: u16,
    pub pool: PoolBuilder<'a>,
    pub access_flags: u16,
    pub this_class: u16,
    pub super_class: u16,
    pub interfaces: Vec<u16>,
    pub fields: Vec<MemberEntry<'a>>,
    pub methods: Vec<MemberEntry<'a>>,
    pub attributes: Vec<AttributeEntry<'a>>,
    /// The BootstrapMethods table once something was added to it, with the
    /// pool index of its name, added to the pool then so that writing never
    /// has to add to the pool.
    bootstrap_methods: Option<(u16, Vec<BootstrapMethod>)>,
    /// The pool index of the name `Code` once a method's code was set: every
    /// method of the class asks for it, and looking it up was most of setting it.
    code_name: Option<u16>,
}

impl<'a> ClassEditor<'a> {
    /// Starts from `class`, everything original (and borrowed from it).
    pub fn new(class: &'a ClassFile<'a>) -> Self {
        ClassEditor {
            minor_version: class.minor_version(),
            major_version: class.major_version(),
            pool: PoolBuilder::new(class.constant_pool().clone()),
            access_flags: class.access_flags(),
            this_class: class.this_class_index(),
            super_class: class.super_class_index(),
            interfaces: class.interface_indexes().to_vec(),
            fields: class.fields().iter().map(MemberEntry::Original).collect(),
            methods: class.methods().iter().map(MemberEntry::Original).collect(),
            attributes: class.attributes().iter().map(|a| AttributeEntry::Original(*a)).collect(),
            bootstrap_methods: None,
            code_name: None,
        }
    }

    /// An editable form of method `index`; later edits go to the returned builder.
    pub fn edit_method(&mut self, index: usize) -> Option<&mut MemberBuilder<'a>> {
        edit_member(&mut self.methods, index)
    }

    /// The code of method `index` of `class` (the class this editor was made
    /// from) as an editable model; `None` for abstract and native methods.
    pub fn lift_code(&mut self, class: &ClassFile<'a>, index: usize) -> Result<Option<CodeModel<'a>>> {
        self.lift_code_with(class, index, Detail::Instructions, &mut Lifter::default())
    }

    /// [`ClassEditor::lift_code`] at the given level of detail, by `lifter`.
    pub fn lift_code_with(
        &mut self,
        class: &ClassFile<'a>,
        index: usize,
        detail: Detail,
        lifter: &mut Lifter,
    ) -> Result<Option<CodeModel<'a>>> {
        let method = class
            .methods()
            .get(index)
            .ok_or_else(|| ClassFileError::malformed_unlocated(format!("the class has no method #{index}")))?;
        lifter.lift(class, method, &mut self.pool, detail)
    }

    /// Assembles `code` and makes it the Code attribute of method `index`.
    pub fn replace_code(&mut self, index: usize, code: &CodeModel<'a>) -> Result<()> {
        self.set_code(index, code.clone())
    }

    /// [`ClassEditor::replace_code`], consuming `code` (no copy of its instructions).
    pub fn set_code(&mut self, index: usize, code: CodeModel<'a>) -> Result<()> {
        let data = code.assemble_owned(&mut self.pool)?;
        self.set_code_bytes(index, data)
    }

    /// Makes `data` (a Code attribute's content) the Code attribute of method `index`.
    pub fn set_code_bytes(&mut self, index: usize, data: Vec<u8>) -> Result<()> {
        // Asked of the pool the first time only, so it is added (if the pool
        // lacks it) exactly when it was before.
        let name_index = match self.code_name {
            Some(index) => index,
            None => *self.code_name.insert(self.pool.utf8(name::CODE)?),
        };
        let method = self
            .edit_method(index)
            .ok_or_else(|| ClassFileError::malformed_unlocated(format!("the class has no method #{index}")))?;
        method.set_attribute(name::CODE, name_index, data);
        Ok(())
    }

    /// Field `index` to edit, if there is one.
    pub fn edit_field(&mut self, index: usize) -> Option<&mut MemberBuilder<'a>> {
        edit_member(&mut self.fields, index)
    }

    /// Adds a field (its name and descriptor to the pool) and gives it to edit.
    pub fn add_field(&mut self, access_flags: u16, name: &str, descriptor: &str) -> Result<&mut MemberBuilder<'a>> {
        let member = self.new_member(access_flags, name, descriptor)?;
        self.fields.push(MemberEntry::Edited(member));
        last_builder(&mut self.fields)
    }

    /// Adds a method (its name and descriptor to the pool) and gives it to edit.
    pub fn add_method(&mut self, access_flags: u16, name: &str, descriptor: &str) -> Result<&mut MemberBuilder<'a>> {
        let member = self.new_member(access_flags, name, descriptor)?;
        self.methods.push(MemberEntry::Edited(member));
        last_builder(&mut self.methods)
    }

    fn new_member(&mut self, access_flags: u16, name: &str, descriptor: &str) -> Result<MemberBuilder<'a>> {
        Ok(MemberBuilder {
            access_flags,
            name_index: self.pool.utf8(name)?,
            descriptor_index: self.pool.utf8(descriptor)?,
            attributes: Vec::new(),
        })
    }

    /// Replaces the class attribute called `attribute_name`, or appends it.
    pub fn set_attribute(&mut self, attribute_name: &str, data: Vec<u8>) -> Result<()> {
        let name_index = self.pool.utf8(attribute_name)?;
        let entry = AttributeEntry::New { name_index, data };
        let existing = self.attributes.iter().position(|a| match a {
            AttributeEntry::Original(original) => original.is(attribute_name),
            AttributeEntry::New { name_index: i, .. } => *i == name_index,
        });
        match existing.and_then(|i| self.attributes.get_mut(i)) {
            Some(slot) => *slot = entry,
            None => self.attributes.push(entry),
        }
        Ok(())
    }

    /// Adds `annotation` to the class's Runtime(In)VisibleAnnotations
    /// (by `annotation.visible`), creating the attribute if needed.
    pub fn add_class_annotation(&mut self, annotation: &Annotation<'_>) -> Result<()> {
        let attribute_name =
            if annotation.visible { name::RUNTIME_VISIBLE_ANNOTATIONS } else { name::RUNTIME_INVISIBLE_ANNOTATIONS };
        let existing = self.attributes.iter().find_map(|a| match a {
            AttributeEntry::Original(original) if original.is(attribute_name) => Some(original.data().to_vec()),
            AttributeEntry::New { name_index, data }
                if self.pool.text(*name_index).is_ok_and(|n| n == attribute_name) =>
            {
                Some(data.clone())
            }
            _ => None,
        });
        let mut data = existing.unwrap_or_else(|| vec![0, 0]);
        let count = data.get(..2).map_or(0, |c| u16::from_be_bytes([c[0], c[1]]));
        let count =
            count.checked_add(1).ok_or_else(|| ClassFileError::limit_unlocated("more than 65,535 annotations on a class"))?;
        if let Some(slot) = data.get_mut(..2) {
            slot.copy_from_slice(&count.to_be_bytes());
        }
        encode_annotation(annotation, &mut self.pool, &mut data)?;
        self.set_attribute(attribute_name, data)
    }

    /// The index of a bootstrap method equal to `method`, adding it if needed.
    pub fn add_bootstrap_method(&mut self, method: BootstrapMethod) -> Result<u16> {
        let table = match &mut self.bootstrap_methods {
            Some((_, table)) => table,
            None => {
                let table = self.read_bootstrap_methods()?;
                let name_index = self.pool.utf8(name::BOOTSTRAP_METHODS)?;
                &mut self.bootstrap_methods.insert((name_index, table)).1
            }
        };
        if let Some(i) = table.iter().position(|m| *m == method) {
            return Ok(i as u16);
        }
        if table.len() >= usize::from(u16::MAX) {
            return Err(ClassFileError::limit_unlocated("more than 65,535 bootstrap methods"));
        }
        table.push(method);
        Ok((table.len() - 1) as u16)
    }

    fn read_bootstrap_methods(&self) -> Result<Vec<BootstrapMethod>> {
        let original = self.attributes.iter().find_map(|a| match a {
            AttributeEntry::Original(a) if a.is(name::BOOTSTRAP_METHODS) => Some(*a),
            _ => None,
        });
        let Some(attribute) = original else {
            return Ok(Vec::new());
        };
        let mut r: Reader<'_> = attribute.reader();
        let count = r.count(4)?;
        let mut table = Vec::with_capacity(count);
        for _ in 0..count {
            let method_handle = r.u16()?;
            let arguments_count = r.count(2)?;
            let arguments = (0..arguments_count).map(|_| r.u16()).collect::<Result<_>>()?;
            table.push(BootstrapMethod { method_handle, arguments });
        }
        r.finish()?;
        Ok(table)
    }

    /// The class file's bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        // The edited BootstrapMethods table replaces the original attribute,
        // or is appended; the other attributes are written as they are.
        let bootstrap = self.bootstrap_methods.as_ref().map(|(name_index, table)| {
            let mut data = Vec::with_capacity(2 + table.len() * 6);
            data.u16(table.len() as u16);
            for method in table {
                data.u16(method.method_handle);
                data.u16(method.arguments.len() as u16);
                method.arguments.iter().for_each(|&a| data.u16(a));
            }
            AttributeEntry::New { name_index: *name_index, data }
        });
        let replaced = bootstrap.as_ref().and_then(|_| {
            self.attributes
                .iter()
                .position(|a| matches!(a, AttributeEntry::Original(o) if o.is(name::BOOTSTRAP_METHODS)))
        });
        let appended = bootstrap.as_ref().filter(|_| replaced.is_none());
        let attributes = self.attributes.iter().enumerate().map(|(i, a)| match &bootstrap {
            Some(table) if Some(i) == replaced => table,
            _ => a,
        });
        // The exact size, or a little more for the pool's additions: the
        // class is written without the buffer growing (and being copied).
        let members: usize = [&self.fields, &self.methods]
            .into_iter()
            .flatten()
            .map(|m| match m {
                MemberEntry::Original(m) => m.raw.len(),
                MemberEntry::Edited(m) => m.len(),
            })
            .sum();
        let attributes_len: usize = attributes.clone().chain(appended).map(AttributeEntry::len).sum();
        let pool = self.pool.original().raw_bytes().len() + self.pool.added_len_hint();
        let capacity = 10 + pool + 8 + 2 * self.interfaces.len() + 4 + members + 2 + attributes_len;
        let mut out = Vec::with_capacity(capacity);
        out.u32(MAGIC);
        out.u16(self.minor_version);
        out.u16(self.major_version);
        self.pool.write(&mut out);
        out.u16(self.access_flags);
        out.u16(self.this_class);
        out.u16(self.super_class);
        out.u16(count16(self.interfaces.len(), "interfaces")?);
        self.interfaces.iter().for_each(|&i| out.u16(i));
        for members in [&self.fields, &self.methods] {
            let count =
                u16::try_from(members.len()).map_err(|_| ClassFileError::limit_unlocated("more than 65,535 members"))?;
            out.u16(count);
            for member in members {
                match member {
                    MemberEntry::Original(m) => out.extend_from_slice(m.raw),
                    MemberEntry::Edited(m) => m.write(&mut out)?,
                }
            }
        }
        let count = self.attributes.len() + usize::from(appended.is_some());
        out.u16(count16(count, "attributes")?);
        for attribute in attributes.chain(appended) {
            attribute.write(&mut out)?;
        }
        Ok(out)
    }
}

fn edit_member<'m, 'a>(members: &'m mut [MemberEntry<'a>], index: usize) -> Option<&'m mut MemberBuilder<'a>> {
    let entry = members.get_mut(index)?;
    if let MemberEntry::Original(member) = entry {
        *entry = MemberEntry::Edited(MemberBuilder::from_member(member));
    }
    match entry {
        MemberEntry::Edited(builder) => Some(builder),
        MemberEntry::Original(_) => None,
    }
}

fn last_builder<'m, 'a>(members: &'m mut [MemberEntry<'a>]) -> Result<&'m mut MemberBuilder<'a>> {
    match members.last_mut() {
        Some(MemberEntry::Edited(builder)) => Ok(builder),
        _ => Err(ClassFileError::malformed_unlocated("the member just added is missing")),
    }
}
