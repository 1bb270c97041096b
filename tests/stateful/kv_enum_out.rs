// The leaky key-value store of kv.rs behind a machine whose output is an
// enum, with a variant named like a command's (`Get`): a reproducer must
// name the output's variants so that it compiles. Shared by
// tests/stateful.rs and the reproducer it builds (`include!`d there, so no
// inner attributes).

include!("kv.rs");

/// What a step of [`KvOutMachine`] returns.
#[derive(Clone, Debug, PartialEq)]
pub enum KvOut {
    /// An insert's number of keys after it.
    Len(usize),
    /// A get's or remove's value.
    Get(Option<u8>),
}

#[derive(Debug)]
pub struct KvOutMachine;

impl StateMachine for KvOutMachine {
    type Model = BTreeMap<u8, u8>;
    type System = LeakyKv;
    type Command = Cmd;
    type Output = KvOut;

    fn init_model(&self) -> Self::Model {
        BTreeMap::new()
    }
    fn init_system(&self) -> LeakyKv {
        LeakyKv::default()
    }
    fn commands<'a>(&'a self, model: &'a Self::Model) -> impl Gen<Value = Cmd> + 'a {
        KvMachine.commands(model)
    }
    fn precondition(&self, model: &Self::Model, cmd: &Cmd) -> bool {
        KvMachine.precondition(model, cmd)
    }
    fn apply_model(&self, model: &mut Self::Model, cmd: &Cmd) -> KvOut {
        let value = KvMachine.apply_model(model, cmd);
        match cmd {
            Cmd::Insert(..) => KvOut::Len(model.len()),
            _ => KvOut::Get(value),
        }
    }
    fn apply_system(&self, kv: &mut LeakyKv, cmd: &Cmd) -> KvOut {
        let value = KvMachine.apply_system(kv, cmd);
        match cmd {
            Cmd::Insert(..) => KvOut::Len(kv.map.len()),
            _ => KvOut::Get(value),
        }
    }
}
