//! The constants a template's generated code asks for: recorded against
//! placeholders when the template is made ([`Recorder`]), numbered across a
//! worker's templates and resolved in a class's pool when it is copied
//! ([`Symbols`]).
#![forbid(unsafe_code)]

use crate::classfile::write::pool_builder::{MemberKind, PreparedText};
use crate::classfile::{ClassFileError, ConstantSource, PoolBuilder};
use rustc_hash::FxHashMap;

use crate::classfile::Result;

/// Placeholder pool indexes: `PLACEHOLDER + n` for the `n`th constant asked for.
pub(super) const PLACEHOLDER: u16 = 0xF000;
/// The placeholder of the monitor lookup's `invokedynamic`.
pub(super) const MONITOR: u16 = 0xFFFF;
/// Stand-ins for the names of reference types in a template's signature:
/// the result's class is asked for by frames, a parameter's never.
pub(super) const RESULT_CLASS: &str = "\u{0}result";
pub(super) const PARAMETER_CLASS: &str = "\u{0}parameter";
/// A constant generated code asks for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Request {
    Class(String),
    Integer(i32),
    Field([String; 3]),
    Method([String; 3]),
    InterfaceMethod([String; 3]),
    /// The Class constant of the method's result type.
    ResultClass,
}

/// A [`ConstantSource`] that records what is asked for and answers with placeholders.
#[derive(Default)]
pub(super) struct Recorder {
    pub(super) requests: Vec<Request>,
    /// A request a template cannot serve (a parameter's class).
    pub(super) unusable: bool,
}

impl Recorder {
    pub(super) fn ask(&mut self, request: Request) -> Result<u16> {
        let n = match self.requests.iter().position(|r| *r == request) {
            Some(n) => n,
            None => {
                self.requests.push(request);
                self.requests.len() - 1
            }
        };
        u16::try_from(n)
            .ok()
            .and_then(|n| PLACEHOLDER.checked_add(n))
            .filter(|&p| p < MONITOR)
            .ok_or_else(|| ClassFileError::limit_unlocated("too many constants in a template"))
    }

    pub(super) fn member(owner: &str, name: &str, descriptor: &str) -> [String; 3] {
        [owner.to_string(), name.to_string(), descriptor.to_string()]
    }
}

impl ConstantSource for Recorder {
    fn class(&mut self, internal_name: &str) -> Result<u16> {
        match internal_name {
            RESULT_CLASS => self.ask(Request::ResultClass),
            PARAMETER_CLASS => {
                self.unusable = true;
                self.ask(Request::Class(internal_name.to_string()))
            }
            _ => self.ask(Request::Class(internal_name.to_string())),
        }
    }

    fn integer(&mut self, value: i32) -> Result<u16> {
        self.ask(Request::Integer(value))
    }

    fn field_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<u16> {
        self.ask(Request::Field(Recorder::member(owner, name, descriptor)))
    }

    fn method_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<u16> {
        self.ask(Request::Method(Recorder::member(owner, name, descriptor)))
    }

    fn interface_method_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<u16> {
        self.ask(Request::InterfaceMethod(Recorder::member(owner, name, descriptor)))
    }
}

/// The constants templates ask for, numbered across the templates of a
/// worker, so that a class asks its pool for each only once; and the
/// entries they are made of, numbered alike, so that a class asks for each
/// of those once too (a dozen member references name four owners), each
/// text hashed once for the worker rather than once per class.
pub(crate) struct Symbols {
    pub(super) entries: Vec<Symbol>,
    numbers: FxHashMap<SymbolKey, u32>,
    /// The symbol of each request met, found in one lookup.
    requests: FxHashMap<Request, u32>,
}

/// The pool entry of a symbol, made of the entries of symbols numbered
/// before it.
pub(super) enum Symbol {
    /// The result's class, which differs from method to method.
    ResultClass,
    Utf8(PreparedText),
    Class(u32),
    Integer(i32),
    NameAndType(u32, u32),
    Member(MemberKind, u32, u32),
}

/// What a [`Symbol`] is numbered by.
#[derive(PartialEq, Eq, Hash)]
pub(super) enum SymbolKey {
    ResultClass,
    Utf8(String),
    Class(u32),
    Integer(i32),
    NameAndType(u32, u32),
    Member(MemberKind, u32, u32),
}

/// The symbol of the result's class.
pub(super) const RESULT_SYMBOL: u32 = 0;

impl Default for Symbols {
    fn default() -> Self {
        let numbers = [(SymbolKey::ResultClass, RESULT_SYMBOL)].into_iter().collect();
        Symbols { entries: vec![Symbol::ResultClass], numbers, requests: FxHashMap::default() }
    }
}

impl Symbols {
    /// The number of `request`, given on first sight.
    pub(super) fn number(&mut self, request: Request) -> u32 {
        if let Some(&n) = self.requests.get(&request) {
            return n;
        }
        let n = match request.clone() {
            Request::ResultClass => RESULT_SYMBOL,
            Request::Class(name) => self.class(name),
            Request::Integer(value) => self.numbered(SymbolKey::Integer(value), || Symbol::Integer(value)),
            Request::Field(member) => self.member(MemberKind::Field, member),
            Request::Method(member) => self.member(MemberKind::Method, member),
            Request::InterfaceMethod(member) => self.member(MemberKind::InterfaceMethod, member),
        };
        self.requests.insert(request, n);
        n
    }

    pub(super) fn numbered(&mut self, key: SymbolKey, make: impl FnOnce() -> Symbol) -> u32 {
        if let Some(&n) = self.numbers.get(&key) {
            return n;
        }
        let n = self.entries.len() as u32;
        self.entries.push(make());
        self.numbers.insert(key, n);
        n
    }

    pub(super) fn utf8(&mut self, text: String) -> u32 {
        let prepared = PreparedText::new(&text, Some(crate::protocol::pool_texts()));
        self.numbered(SymbolKey::Utf8(text), || Symbol::Utf8(prepared))
    }

    pub(super) fn class(&mut self, name: String) -> u32 {
        let name = self.utf8(name);
        self.numbered(SymbolKey::Class(name), || Symbol::Class(name))
    }

    /// A member reference, numbered after its parts in the order the pool
    /// is asked for them (see [`PoolBuilder::method_ref`]).
    pub(super) fn member(&mut self, kind: MemberKind, [owner, name, descriptor]: [String; 3]) -> u32 {
        let class = self.class(owner);
        let (name, descriptor) = (self.utf8(name), self.utf8(descriptor));
        let name_and_type =
            self.numbered(SymbolKey::NameAndType(name, descriptor), || Symbol::NameAndType(name, descriptor));
        self.numbered(SymbolKey::Member(kind, class, name_and_type), || Symbol::Member(kind, class, name_and_type))
    }

    /// The pool index of symbol `n`, from `known` (by symbol, 0: not asked
    /// yet) or asked of the pool with its parts, as the pool's own
    /// [`PoolBuilder::method_ref`] and kin ask: the same entries in the
    /// same order.
    pub(super) fn resolve(&self, n: u32, pool: &mut PoolBuilder<'_>, known: &mut [u16]) -> Result<u16> {
        let slot = n as usize;
        if let Some(&index) = known.get(slot).filter(|&&index| index != 0) {
            return Ok(index);
        }
        let index = match self.entries.get(slot) {
            Some(Symbol::Utf8(text)) => pool.prepared_utf8(text)?,
            Some(&Symbol::Class(name)) => {
                let name = self.resolve(name, pool, known)?;
                pool.class_named(name)?
            }
            Some(&Symbol::Integer(value)) => pool.integer(value)?,
            Some(&Symbol::NameAndType(name, descriptor)) => {
                let name = self.resolve(name, pool, known)?;
                let descriptor = self.resolve(descriptor, pool, known)?;
                pool.name_and_type_of(name, descriptor)?
            }
            Some(&Symbol::Member(kind, class, name_and_type)) => {
                let class = self.resolve(class, pool, known)?;
                let name_and_type = self.resolve(name_and_type, pool, known)?;
                pool.member_of(kind, class, name_and_type)?
            }
            Some(Symbol::ResultClass) | None => {
                return Err(ClassFileError::malformed_unlocated("a template's result class asked for alone"))
            }
        };
        if let Some(place) = known.get_mut(slot) {
            *place = index;
        }
        Ok(index)
    }
}
