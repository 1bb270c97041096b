// Twelve state machines with interacting steps and a planted bug each, whose
// failing programs shrink through local minima: a step that must go
// together with another, a step to replace by a simpler one, two steps in
// the wrong order. Used by tests/stateful_minimum.rs, which computes each
// machine's minimal failing length exhaustively over its finite command
// alphabet ([`Finite::alphabet`], every command its generator can make)
// and checks that the default shrinker reaches it.

use pbt::generators::{int, just, map, one_of, Gen};
use pbt::stateful::StateMachine;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// A machine whose generator draws from a finite set of commands.
pub trait Finite: StateMachine {
    /// Every command [`StateMachine::commands`] can draw, in any state.
    fn alphabet(&self) -> Vec<Self::Command>;
}

/// Whether `cmds` is a valid program of `m` (every precondition holds)
/// that fails: a postcondition or invariant breaks at some step. `None`
/// when a precondition fails.
pub fn fails<M: StateMachine>(m: &M, cmds: &[M::Command]) -> Option<bool> {
    let (mut model, mut system) = (m.init_model(), m.init_system());
    for c in cmds {
        if !m.precondition(&model, c) {
            return None;
        }
        let expected = m.apply_model(&mut model, c);
        let actual = m.apply_system(&mut system, c);
        if !m.postcondition(c, &expected, &actual) || m.invariant(&model, &system).is_err() {
            return Some(true);
        }
    }
    Some(false)
}

/// The length of the shortest valid failing program of `m`, searched
/// exhaustively over its alphabet up to `max` commands.
pub fn minimum<M: Finite>(m: &M, max: usize) -> Option<usize> {
    let alphabet = m.alphabet();
    let mut frontier: Vec<Vec<M::Command>> = vec![Vec::new()];
    for len in 1..=max {
        let mut next = Vec::new();
        for p in &frontier {
            for c in &alphabet {
                let mut q = p.clone();
                q.push(c.clone());
                match fails(m, &q) {
                    Some(true) => return Some(len),
                    Some(false) => next.push(q),
                    None => {}
                }
            }
        }
        frontier = next;
    }
    None
}

fn pick<T: Clone + Send + Sync + 'static>(xs: Vec<T>) -> impl Gen<Value = T> {
    let n = xs.len();
    map(int(0..n), move |i| xs[i].clone())
}

// 1. LRU cache eviction ---------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub enum Lru {
    Put(u8),
    Get(u8),
}

/// A cache of two keys that evicts the least recently used one; the
/// system's `Get` forgets to refresh the key it reads, so it evicts by
/// insertion order. Minimum 5: `Put(0) Put(1) Get(0) Put(2) Get(0)`.
#[derive(Debug)]
pub struct LruCache;

fn lru(order: &mut Vec<u8>, cmd: &Lru, refresh_on_get: bool) -> Option<bool> {
    match *cmd {
        Lru::Put(k) => {
            order.retain(|&x| x != k);
            if order.len() == 2 {
                order.remove(0);
            }
            order.push(k);
            None
        }
        Lru::Get(k) => {
            let hit = order.contains(&k);
            if hit && refresh_on_get {
                order.retain(|&x| x != k);
                order.push(k);
            }
            Some(hit)
        }
    }
}

impl StateMachine for LruCache {
    type Model = Vec<u8>;
    type System = Vec<u8>;
    type Command = Lru;
    type Output = Option<bool>;
    fn init_model(&self) -> Vec<u8> {
        Vec::new()
    }
    fn init_system(&self) -> Vec<u8> {
        Vec::new()
    }
    fn commands<'a>(&'a self, _: &'a Vec<u8>) -> impl Gen<Value = Lru> + 'a {
        one_of(vec![
            map(int(0..=2u8), Lru::Put).boxed(),
            map(int(0..=2u8), Lru::Get).boxed(),
        ])
    }
    fn apply_model(&self, m: &mut Vec<u8>, c: &Lru) -> Option<bool> {
        lru(m, c, true)
    }
    fn apply_system(&self, s: &mut Vec<u8>, c: &Lru) -> Option<bool> {
        lru(s, c, false)
    }
}

impl Finite for LruCache {
    fn alphabet(&self) -> Vec<Lru> {
        (0..=2).flat_map(|k| [Lru::Put(k), Lru::Get(k)]).collect()
    }
}

// 2. Capacity and overwrite -------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub enum Bounded {
    Put(u8, u8),
    Get(u8),
}

/// A map of at most two keys, evicting the oldest; overwriting a key in a
/// full system evicts as if the key were new. Minimum 4:
/// `Put(0, 0) Put(1, 0) Put(1, 0) Get(0)`.
#[derive(Debug)]
pub struct BoundedMap;

fn bounded(m: &mut Vec<(u8, u8)>, cmd: &Bounded, evict_on_overwrite: bool) -> Option<u8> {
    match *cmd {
        Bounded::Put(k, v) => {
            let at = m.iter().position(|&(x, _)| x == k);
            if m.len() == 2 && (at.is_none() || evict_on_overwrite) {
                m.remove(0);
            }
            match m.iter_mut().find(|(x, _)| *x == k) {
                Some(slot) => slot.1 = v,
                None => m.push((k, v)),
            }
            None
        }
        Bounded::Get(k) => m.iter().find(|&&(x, _)| x == k).map(|&(_, v)| v),
    }
}

impl StateMachine for BoundedMap {
    type Model = Vec<(u8, u8)>;
    type System = Vec<(u8, u8)>;
    type Command = Bounded;
    type Output = Option<u8>;
    fn init_model(&self) -> Self::Model {
        Vec::new()
    }
    fn init_system(&self) -> Self::System {
        Vec::new()
    }
    fn commands<'a>(&'a self, _: &'a Self::Model) -> impl Gen<Value = Bounded> + 'a {
        one_of(vec![
            map((int(0..=2u8), int(0..=1u8)), |(k, v)| Bounded::Put(k, v)).boxed(),
            map(int(0..=2u8), Bounded::Get).boxed(),
        ])
    }
    fn apply_model(&self, m: &mut Self::Model, c: &Bounded) -> Option<u8> {
        bounded(m, c, false)
    }
    fn apply_system(&self, s: &mut Self::System, c: &Bounded) -> Option<u8> {
        bounded(s, c, true)
    }
}

impl Finite for BoundedMap {
    fn alphabet(&self) -> Vec<Bounded> {
        let puts = (0..=2).flat_map(|k| (0..=1).map(move |v| Bounded::Put(k, v)));
        puts.chain((0..=2).map(Bounded::Get)).collect()
    }
}

// 3. Reordering: a ring buffer whose tail forgets the head ------------------

#[derive(Clone, Debug, PartialEq)]
pub enum RingCmd {
    Push(u8),
    Pop,
}

/// A ring of two slots, back at slot 0 whenever it empties, that puts a
/// pushed value at `len % 2` instead of `(head + len) % 2`: wrong only
/// once the head has moved and a value sits behind it (an interleaving of
/// pushes and pops). Minimum 5:
/// `Push(0) Push(1) Pop Push(0) Pop`.
#[derive(Debug)]
pub struct WrappingRing;

#[derive(Default)]
pub struct Slots {
    slots: [Option<u8>; 2],
    head: usize,
    len: usize,
}

impl StateMachine for WrappingRing {
    type Model = VecDeque<u8>;
    type System = Slots;
    type Command = RingCmd;
    type Output = Option<u8>;
    fn init_model(&self) -> VecDeque<u8> {
        VecDeque::new()
    }
    fn init_system(&self) -> Slots {
        Slots::default()
    }
    fn commands<'a>(&'a self, _: &'a VecDeque<u8>) -> impl Gen<Value = RingCmd> + 'a {
        one_of(vec![
            map(int(0..=1u8), RingCmd::Push).boxed(),
            just(RingCmd::Pop).boxed(),
        ])
    }
    fn precondition(&self, m: &VecDeque<u8>, c: &RingCmd) -> bool {
        match c {
            RingCmd::Push(_) => m.len() < 2,
            RingCmd::Pop => !m.is_empty(),
        }
    }
    fn apply_model(&self, m: &mut VecDeque<u8>, c: &RingCmd) -> Option<u8> {
        match *c {
            RingCmd::Push(x) => {
                m.push_back(x);
                None
            }
            RingCmd::Pop => m.pop_front(),
        }
    }
    fn apply_system(&self, s: &mut Slots, c: &RingCmd) -> Option<u8> {
        match *c {
            RingCmd::Push(x) => {
                // The planted bug: the head is left out.
                s.slots[s.len % 2] = Some(x);
                s.len += 1;
                None
            }
            RingCmd::Pop => {
                let x = s.slots[s.head].take();
                s.head = (s.head + 1) % 2;
                s.len -= 1;
                // Emptied, the ring starts again at slot 0.
                if s.len == 0 {
                    s.head = 0;
                }
                x
            }
        }
    }
}

impl Finite for WrappingRing {
    fn alphabet(&self) -> Vec<RingCmd> {
        vec![RingCmd::Push(0), RingCmd::Push(1), RingCmd::Pop]
    }
}

// 4. A counter that skips a value ------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub enum CounterCmd {
    Read,
    Inc,
    Dec,
}

/// A counter whose `Dec` from 3 lands on 1. Minimum 5:
/// `Inc Inc Inc Dec Read`.
#[derive(Debug)]
pub struct SkippingCounter;

impl StateMachine for SkippingCounter {
    type Model = u8;
    type System = u8;
    type Command = CounterCmd;
    type Output = Option<u8>;
    fn init_model(&self) -> u8 {
        0
    }
    fn init_system(&self) -> u8 {
        0
    }
    fn commands<'a>(&'a self, _: &'a u8) -> impl Gen<Value = CounterCmd> + 'a {
        pick(vec![CounterCmd::Read, CounterCmd::Inc, CounterCmd::Dec])
    }
    fn precondition(&self, n: &u8, c: &CounterCmd) -> bool {
        match c {
            CounterCmd::Dec => *n > 0,
            CounterCmd::Inc => *n < 5,
            CounterCmd::Read => true,
        }
    }
    fn apply_model(&self, n: &mut u8, c: &CounterCmd) -> Option<u8> {
        match c {
            CounterCmd::Read => return Some(*n),
            CounterCmd::Inc => *n += 1,
            CounterCmd::Dec => *n -= 1,
        }
        None
    }
    fn apply_system(&self, n: &mut u8, c: &CounterCmd) -> Option<u8> {
        match c {
            CounterCmd::Read => return Some(*n),
            CounterCmd::Inc => *n += 1,
            CounterCmd::Dec if *n == 3 => *n = 1,
            CounterCmd::Dec => *n = n.saturating_sub(1),
        }
        None
    }
}

impl Finite for SkippingCounter {
    fn alphabet(&self) -> Vec<CounterCmd> {
        vec![CounterCmd::Read, CounterCmd::Inc, CounterCmd::Dec]
    }
}

// 5. A set whose remove takes the next key too ------------------------------

#[derive(Clone, Debug, PartialEq)]
pub enum SetCmd {
    Insert(u8),
    Remove(u8),
    Contains(u8),
}

/// A set of keys `0..=3` whose `Remove(k)` of a present key also removes
/// `k + 1`. Minimum 4: `Insert(0) Insert(1) Remove(0) Contains(1)`.
#[derive(Debug)]
pub struct GreedySet;

impl StateMachine for GreedySet {
    type Model = BTreeSet<u8>;
    type System = BTreeSet<u8>;
    type Command = SetCmd;
    type Output = Option<bool>;
    fn init_model(&self) -> BTreeSet<u8> {
        BTreeSet::new()
    }
    fn init_system(&self) -> BTreeSet<u8> {
        BTreeSet::new()
    }
    fn commands<'a>(&'a self, _: &'a BTreeSet<u8>) -> impl Gen<Value = SetCmd> + 'a {
        one_of(vec![
            map(int(0..=3u8), SetCmd::Insert).boxed(),
            map(int(0..=3u8), SetCmd::Remove).boxed(),
            map(int(0..=3u8), SetCmd::Contains).boxed(),
        ])
    }
    fn precondition(&self, m: &BTreeSet<u8>, c: &SetCmd) -> bool {
        !matches!(c, SetCmd::Remove(k) if !m.contains(k))
    }
    fn apply_model(&self, m: &mut BTreeSet<u8>, c: &SetCmd) -> Option<bool> {
        match *c {
            SetCmd::Insert(k) => {
                m.insert(k);
                None
            }
            SetCmd::Remove(k) => {
                m.remove(&k);
                None
            }
            SetCmd::Contains(k) => Some(m.contains(&k)),
        }
    }
    fn apply_system(&self, s: &mut BTreeSet<u8>, c: &SetCmd) -> Option<bool> {
        if let SetCmd::Remove(k) = *c {
            s.remove(&(k + 1));
        }
        self.apply_model(s, c)
    }
}

impl Finite for GreedySet {
    fn alphabet(&self) -> Vec<SetCmd> {
        (0..=3)
            .flat_map(|k| [SetCmd::Insert(k), SetCmd::Remove(k), SetCmd::Contains(k)])
            .collect()
    }
}

// 6. Undo one too many ---------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub enum UndoCmd {
    Set(u8),
    Undo,
    Get,
}

/// A register with undo; with two or more edits to undo, the system's
/// `Undo` goes back two. Minimum 4: `Set(0) Set(0) Undo Get` is not it
/// (the values must differ): `Set(1) Set(0) Undo Get`.
#[derive(Debug)]
pub struct DoubleUndo;

impl StateMachine for DoubleUndo {
    type Model = Vec<u8>;
    type System = Vec<u8>;
    type Command = UndoCmd;
    type Output = Option<u8>;
    fn init_model(&self) -> Vec<u8> {
        vec![0]
    }
    fn init_system(&self) -> Vec<u8> {
        vec![0]
    }
    fn commands<'a>(&'a self, _: &'a Vec<u8>) -> impl Gen<Value = UndoCmd> + 'a {
        one_of(vec![
            map(int(0..=2u8), UndoCmd::Set).boxed(),
            just(UndoCmd::Undo).boxed(),
            just(UndoCmd::Get).boxed(),
        ])
    }
    fn precondition(&self, h: &Vec<u8>, c: &UndoCmd) -> bool {
        !matches!(c, UndoCmd::Undo if h.len() < 2)
    }
    fn apply_model(&self, h: &mut Vec<u8>, c: &UndoCmd) -> Option<u8> {
        match *c {
            UndoCmd::Set(v) => h.push(v),
            UndoCmd::Undo => {
                h.pop();
            }
            UndoCmd::Get => return h.last().copied(),
        }
        None
    }
    fn apply_system(&self, h: &mut Vec<u8>, c: &UndoCmd) -> Option<u8> {
        if matches!(c, UndoCmd::Undo) && h.len() > 2 {
            h.pop();
        }
        self.apply_model(h, c)
    }
}

impl Finite for DoubleUndo {
    fn alphabet(&self) -> Vec<UndoCmd> {
        let sets = (0..=2).map(UndoCmd::Set);
        sets.chain([UndoCmd::Undo, UndoCmd::Get]).collect()
    }
}

// 7. Two counters that interfere ------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub enum PairCmd {
    IncA,
    IncB,
    Sum,
}

/// Two counters whose sum the system misreports when `a == 2` and
/// `b == 1`. Minimum 4: `IncA IncA IncB Sum`, in any order of the
/// increments.
#[derive(Debug)]
pub struct PairedCounters;

impl StateMachine for PairedCounters {
    type Model = (u8, u8);
    type System = (u8, u8);
    type Command = PairCmd;
    type Output = Option<u8>;
    fn init_model(&self) -> (u8, u8) {
        (0, 0)
    }
    fn init_system(&self) -> (u8, u8) {
        (0, 0)
    }
    fn commands<'a>(&'a self, _: &'a (u8, u8)) -> impl Gen<Value = PairCmd> + 'a {
        pick(vec![PairCmd::Sum, PairCmd::IncA, PairCmd::IncB])
    }
    fn precondition(&self, &(a, b): &(u8, u8), _: &PairCmd) -> bool {
        a < 6 && b < 6
    }
    fn apply_model(&self, (a, b): &mut (u8, u8), c: &PairCmd) -> Option<u8> {
        match c {
            PairCmd::IncA => *a += 1,
            PairCmd::IncB => *b += 1,
            PairCmd::Sum => return Some(*a + *b),
        }
        None
    }
    fn apply_system(&self, s: &mut (u8, u8), c: &PairCmd) -> Option<u8> {
        let out = self.apply_model(s, c);
        match (c, *s) {
            (PairCmd::Sum, (2, 1)) => Some(0),
            _ => out,
        }
    }
}

impl Finite for PairedCounters {
    fn alphabet(&self) -> Vec<PairCmd> {
        vec![PairCmd::Sum, PairCmd::IncA, PairCmd::IncB]
    }
}

// 8. Versions not bumped on an unchanged write -----------------------------

#[derive(Clone, Debug, PartialEq)]
pub enum VersionCmd {
    Put(u8, u8),
    Version(u8),
}

/// A versioned store whose version stays put when a key is overwritten
/// with its own value. Minimum 3: `Put(0, 0) Put(0, 0) Version(0)`.
#[derive(Debug)]
pub struct VersionedStore;

type Versions = BTreeMap<u8, (u8, u32)>;

impl StateMachine for VersionedStore {
    type Model = Versions;
    type System = Versions;
    type Command = VersionCmd;
    type Output = Option<u32>;
    fn init_model(&self) -> Versions {
        Versions::new()
    }
    fn init_system(&self) -> Versions {
        Versions::new()
    }
    fn commands<'a>(&'a self, _: &'a Versions) -> impl Gen<Value = VersionCmd> + 'a {
        one_of(vec![
            map((int(0..=1u8), int(0..=1u8)), |(k, v)| VersionCmd::Put(k, v)).boxed(),
            map(int(0..=1u8), VersionCmd::Version).boxed(),
        ])
    }
    fn apply_model(&self, m: &mut Versions, c: &VersionCmd) -> Option<u32> {
        match *c {
            VersionCmd::Put(k, v) => {
                let e = m.entry(k).or_insert((v, 0));
                *e = (v, e.1 + 1);
                None
            }
            VersionCmd::Version(k) => Some(m.get(&k).map_or(0, |e| e.1)),
        }
    }
    fn apply_system(&self, s: &mut Versions, c: &VersionCmd) -> Option<u32> {
        match *c {
            VersionCmd::Put(k, v) if s.get(&k).is_some_and(|e| e.0 == v) => None,
            _ => self.apply_model(s, c),
        }
    }
}

impl Finite for VersionedStore {
    fn alphabet(&self) -> Vec<VersionCmd> {
        let puts = (0..=1).flat_map(|k| (0..=1).map(move |v| VersionCmd::Put(k, v)));
        puts.chain((0..=1).map(VersionCmd::Version)).collect()
    }
}

// 9. A write-back cache that drops dirty lines -----------------------------

#[derive(Clone, Debug, PartialEq)]
pub enum LineCmd {
    Write(u8, u8),
    Read(u8),
}

/// A one-line write-back cache over a store of two addresses; evicting a
/// dirty line forgets to write it back. Minimum 3:
/// `Write(0, 1) Write(1, 0) Read(0)`.
#[derive(Debug)]
pub struct WriteBack;

/// The store, and the cached line (address, value, dirty).
#[derive(Default)]
pub struct Cached {
    store: [u8; 2],
    line: Option<(u8, u8, bool)>,
}

impl Cached {
    fn load(&mut self, a: u8) {
        if self.line.is_some_and(|(at, _, _)| at == a) {
            return;
        }
        // The planted bug: a dirty line is dropped, not written back.
        self.line = Some((a, self.store[a as usize], false));
    }
}

impl StateMachine for WriteBack {
    type Model = [u8; 2];
    type System = Cached;
    type Command = LineCmd;
    type Output = Option<u8>;
    fn init_model(&self) -> [u8; 2] {
        [0, 0]
    }
    fn init_system(&self) -> Cached {
        Cached::default()
    }
    fn commands<'a>(&'a self, _: &'a [u8; 2]) -> impl Gen<Value = LineCmd> + 'a {
        one_of(vec![
            map((int(0..=1u8), int(0..=1u8)), |(a, v)| LineCmd::Write(a, v)).boxed(),
            map(int(0..=1u8), LineCmd::Read).boxed(),
        ])
    }
    fn apply_model(&self, m: &mut [u8; 2], c: &LineCmd) -> Option<u8> {
        match *c {
            LineCmd::Write(a, v) => {
                m[a as usize] = v;
                None
            }
            LineCmd::Read(a) => Some(m[a as usize]),
        }
    }
    fn apply_system(&self, s: &mut Cached, c: &LineCmd) -> Option<u8> {
        match *c {
            LineCmd::Write(a, v) => {
                s.load(a);
                s.line = Some((a, v, true));
                None
            }
            LineCmd::Read(a) => {
                s.load(a);
                s.line.map(|(_, v, _)| v)
            }
        }
    }
}

impl Finite for WriteBack {
    fn alphabet(&self) -> Vec<LineCmd> {
        let writes = (0..=1).flat_map(|a| (0..=1).map(move |v| LineCmd::Write(a, v)));
        writes.chain((0..=1).map(LineCmd::Read)).collect()
    }
}

// 10. A min-queue whose cached minimum goes stale --------------------------

#[derive(Clone, Debug, PartialEq)]
pub enum MinCmd {
    Push(u8),
    PopMin,
}

/// A priority queue that caches its minimum and, after a pop, takes the
/// last pushed value for the new minimum instead of searching. Minimum 5:
/// three pushes with the smallest not last, a pop, another pop:
/// `Push(0) Push(1) Push(2) PopMin PopMin`.
#[derive(Debug)]
pub struct StaleMin;

#[derive(Default)]
pub struct MinQueue {
    items: Vec<u8>,
    min: Option<u8>,
}

impl StateMachine for StaleMin {
    type Model = Vec<u8>;
    type System = MinQueue;
    type Command = MinCmd;
    type Output = Option<u8>;
    fn init_model(&self) -> Vec<u8> {
        Vec::new()
    }
    fn init_system(&self) -> MinQueue {
        MinQueue::default()
    }
    fn commands<'a>(&'a self, _: &'a Vec<u8>) -> impl Gen<Value = MinCmd> + 'a {
        one_of(vec![
            map(int(0..=2u8), MinCmd::Push).boxed(),
            just(MinCmd::PopMin).boxed(),
        ])
    }
    fn precondition(&self, m: &Vec<u8>, c: &MinCmd) -> bool {
        match c {
            MinCmd::Push(_) => m.len() < 4,
            MinCmd::PopMin => !m.is_empty(),
        }
    }
    fn apply_model(&self, m: &mut Vec<u8>, c: &MinCmd) -> Option<u8> {
        match *c {
            MinCmd::Push(x) => {
                m.push(x);
                None
            }
            MinCmd::PopMin => {
                let i = (0..m.len()).min_by_key(|&i| m[i])?;
                Some(m.remove(i))
            }
        }
    }
    fn apply_system(&self, q: &mut MinQueue, c: &MinCmd) -> Option<u8> {
        match *c {
            MinCmd::Push(x) => {
                q.items.push(x);
                q.min = Some(q.min.map_or(x, |m| m.min(x)));
                None
            }
            MinCmd::PopMin => {
                let m = q.min?;
                let i = q.items.iter().position(|&x| x == m)?;
                q.items.remove(i);
                // The planted bug: the last pushed value, not the minimum.
                q.min = q.items.last().copied();
                Some(m)
            }
        }
    }
}

impl Finite for StaleMin {
    fn alphabet(&self) -> Vec<MinCmd> {
        let pushes = (0..=2).map(MinCmd::Push);
        pushes.chain([MinCmd::PopMin]).collect()
    }
}

// 11. An editor whose edit keeps the redo stack ------------------------------

#[derive(Clone, Debug, PartialEq)]
pub enum EditCmd {
    Set(u8),
    Undo,
    Redo,
    Get,
}

/// An editor's register with undo and redo, whose `Set` forgets to clear
/// the redo stack, so a `Redo` after an edit brings back a value the edit
/// replaced. Minimum 5, one interleaving of four steps and a read:
/// `Set(0) Undo Set(1) Redo Get`.
#[derive(Debug)]
pub struct StaleRedo;

/// The history (never empty: the first value cannot be undone) and the
/// redo stack.
pub type Editor = (Vec<u8>, Vec<u8>);

fn edit(e: &mut Editor, c: &EditCmd, clear_redo: bool) -> Option<u8> {
    let (history, redo) = e;
    match *c {
        EditCmd::Set(v) => {
            history.push(v);
            if clear_redo {
                redo.clear();
            }
        }
        EditCmd::Undo if history.len() > 1 => redo.extend(history.pop()),
        EditCmd::Undo => {}
        EditCmd::Redo => history.extend(redo.pop()),
        EditCmd::Get => return history.last().copied(),
    }
    None
}

impl StateMachine for StaleRedo {
    type Model = Editor;
    type System = Editor;
    type Command = EditCmd;
    type Output = Option<u8>;
    fn init_model(&self) -> Editor {
        (vec![0], Vec::new())
    }
    fn init_system(&self) -> Editor {
        (vec![0], Vec::new())
    }
    fn commands<'a>(&'a self, _: &'a Editor) -> impl Gen<Value = EditCmd> + 'a {
        one_of(vec![
            map(int(0..=2u8), EditCmd::Set).boxed(),
            just(EditCmd::Undo).boxed(),
            just(EditCmd::Redo).boxed(),
            just(EditCmd::Get).boxed(),
        ])
    }
    fn precondition(&self, (history, _): &Editor, c: &EditCmd) -> bool {
        !matches!(c, EditCmd::Undo if history.len() < 2)
    }
    fn apply_model(&self, e: &mut Editor, c: &EditCmd) -> Option<u8> {
        edit(e, c, true)
    }
    fn apply_system(&self, e: &mut Editor, c: &EditCmd) -> Option<u8> {
        edit(e, c, false)
    }
}

impl Finite for StaleRedo {
    fn alphabet(&self) -> Vec<EditCmd> {
        let sets = (0..=2).map(EditCmd::Set);
        sets.chain([EditCmd::Undo, EditCmd::Redo, EditCmd::Get])
            .collect()
    }
}

// 12. A browser history whose back button skips a page -----------------------

#[derive(Clone, Debug, PartialEq)]
pub enum PageCmd {
    Visit(u8),
    Back,
    Current,
}

/// A browser history, empty at first, whose `Back` goes back two pages
/// once three or more are open. Minimum 5, pages that differ in one
/// interleaving: `Visit(0) Visit(1) Visit(0) Back Current`. Its local
/// minimum is one step longer and needs no page to differ:
/// `Visit(0) Visit(0) Visit(0) Back Back Current` (the system's history
/// is empty one `Back` early). No single deletion of it still fails: to
/// reach the minimum, a `Back` goes and a page is raised.
#[derive(Debug)]
pub struct SkippingBack;

impl StateMachine for SkippingBack {
    type Model = Vec<u8>;
    type System = Vec<u8>;
    type Command = PageCmd;
    type Output = Option<u8>;
    fn init_model(&self) -> Vec<u8> {
        Vec::new()
    }
    fn init_system(&self) -> Vec<u8> {
        Vec::new()
    }
    fn commands<'a>(&'a self, _: &'a Vec<u8>) -> impl Gen<Value = PageCmd> + 'a {
        one_of(vec![
            map(int(0..=2u8), PageCmd::Visit).boxed(),
            just(PageCmd::Back).boxed(),
            just(PageCmd::Current).boxed(),
        ])
    }
    fn precondition(&self, pages: &Vec<u8>, c: &PageCmd) -> bool {
        !matches!(c, PageCmd::Back if pages.is_empty())
    }
    fn apply_model(&self, pages: &mut Vec<u8>, c: &PageCmd) -> Option<u8> {
        match *c {
            PageCmd::Visit(p) => pages.push(p),
            PageCmd::Back => {
                pages.pop();
            }
            PageCmd::Current => return pages.last().copied(),
        }
        None
    }
    fn apply_system(&self, pages: &mut Vec<u8>, c: &PageCmd) -> Option<u8> {
        if matches!(c, PageCmd::Back) && pages.len() >= 3 {
            pages.pop();
        }
        self.apply_model(pages, c)
    }
}

impl Finite for SkippingBack {
    fn alphabet(&self) -> Vec<PageCmd> {
        let visits = (0..=2).map(PageCmd::Visit);
        visits.chain([PageCmd::Back, PageCmd::Current]).collect()
    }
}
