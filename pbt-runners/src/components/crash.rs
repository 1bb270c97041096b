//! The crash handler: faults that end the process leave the case in flight
//! behind, as fuzzers do.
//!
//! While a runner is supervised ([`super::supervise`]), its watches are
//! *armed* here. When the process then dies of a signal — `abort` (a double
//! panic, an allocation failure, `std::process::abort`), a stack overflow or
//! another `SIGSEGV`/`SIGBUS`, `SIGILL` — or calls `std::process::exit`
//! while a test is running, the handler appends the in-flight case to the
//! regressions file and prints it with the run seed, so the next run replays
//! it first; an `exit(0)` there becomes exit status 101 (glibc), so the
//! test binary fails. The handler uses async-signal-safe calls only (`open`, `fstat`,
//! `pread`, `write`, `close`, `sigaction`, `raise`), formatting in a stack
//! buffer from the run's plan (arming a run formats nothing: it costs a
//! start-up nothing but a slot); it allocates nothing. It then
//! hands the signal to whichever handler was there before (Rust's own stack
//! overflow message still appears).
//!
//! The cost on the hot path is nothing: the handler reads the atomics the
//! watch keeps anyway. Unix only; elsewhere arming does nothing.

use super::cases::Plan;
use super::watch::Watch;

/// An armed run; disarmed when dropped.
#[derive(Debug)]
pub(crate) struct Armed {
    #[cfg(unix)]
    slot: Option<usize>,
}

/// Arm the crash handler for a run of `plan` over `watches` (the watches
/// must outlive the returned guard). Without a regressions file the handler
/// still prints the case.
pub(crate) fn arm(plan: &Plan, watches: &[Watch]) -> Armed {
    #[cfg(unix)]
    {
        Armed {
            slot: imp::arm(plan, watches),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (plan, watches);
        Armed {}
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(slot) = self.slot {
            imp::disarm(slot);
        }
    }
}

/// Ready the calling thread for the crash handler: give it an alternate
/// signal stack large enough to handle a stack overflow on (the one Rust
/// gives each thread is too small for the handler in a debug build, and a
/// fault on it kills the process with nothing saved). [`super::supervise`]
/// does this for the runner's thread; a runner that tests on threads of its
/// own calls it at the start of each (the parallel runner's pool does).
/// Once per thread; later calls cost a thread-local check.
///
/// ```
/// std::thread::spawn(|| {
///     pbt_runners::components::guard_thread();
///     // … test cases of a supervised run here …
/// })
/// .join()
/// .unwrap();
/// ```
pub fn guard_thread() {
    #[cfg(unix)]
    imp::ensure_alt_stack();
}

/// Mark the process's death as reported already (the watchdog, which saves
/// a hanging case itself, calls this before it exits): the handler then
/// records nothing more.
pub(crate) fn recorded() {
    #[cfg(unix)]
    imp::RECORDED.store(true, std::sync::atomic::Ordering::SeqCst);
}

#[cfg(unix)]
#[allow(unsafe_code)]
mod imp {
    use crate::components::cases::Plan;
    use crate::components::found::{CaseSeed, Found};
    use crate::components::watch::Watch;
    use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering::SeqCst};
    use std::sync::Once;

    /// One armed run: its plan (the test's name, the run seed, the
    /// regressions file: the handler writes them out itself, so arming
    /// formats nothing) and its watches.
    struct Slot {
        plan: *const Plan,
        watches: *const Watch,
        n: usize,
        thread: libc::pthread_t,
    }

    const SLOTS: usize = 64;
    #[allow(clippy::declare_interior_mutable_const)]
    const EMPTY: AtomicPtr<Slot> = AtomicPtr::new(std::ptr::null_mut());
    static ARMED: [AtomicPtr<Slot>; SLOTS] = [EMPTY; SLOTS];
    /// Set by the handler before it reads a slot: a disarmed slot is then
    /// leaked rather than freed under it.
    static CRASHING: AtomicBool = AtomicBool::new(false);
    /// Set once the death is recorded (by the handler, or by the watchdog).
    pub(super) static RECORDED: AtomicBool = AtomicBool::new(false);
    const SIGNALS: [libc::c_int; 4] = [libc::SIGABRT, libc::SIGSEGV, libc::SIGBUS, libc::SIGILL];
    /// The handlers that were there before ours, per signal.
    static mut PREVIOUS: [Option<libc::sigaction>; 4] = [None; 4];

    /// An alternate signal stack of this thread, larger than the one Rust
    /// gives each thread (a few KiB, too little for the handler in a debug
    /// build): a stack overflow is handled on it.
    struct AltStack(Box<[u8]>);

    thread_local! {
        static ALT_STACK: std::cell::RefCell<Option<AltStack>> = const { std::cell::RefCell::new(None) };
    }

    pub(super) fn ensure_alt_stack() {
        let _ = ALT_STACK.try_with(|alt| {
            let mut alt = alt.borrow_mut();
            if alt.is_some() {
                return;
            }
            let mut mem = vec![0u8; 256 * 1024].into_boxed_slice();
            let stack = libc::stack_t {
                ss_sp: mem.as_mut_ptr().cast(),
                ss_flags: 0,
                ss_size: mem.len(),
            };
            // SAFETY: `mem` stays alive, unmoved (a boxed slice), until the
            // thread-local drops it, and its Drop uninstalls it first.
            if unsafe { libc::sigaltstack(&stack, std::ptr::null_mut()) } == 0 {
                *alt = Some(AltStack(mem));
            }
        });
    }

    impl Drop for AltStack {
        fn drop(&mut self) {
            // SAFETY: sigaltstack only reads and writes the stack_t values
            // passed; a zeroed stack_t is valid.
            unsafe {
                let mut current: libc::stack_t = std::mem::zeroed();
                libc::sigaltstack(std::ptr::null(), &mut current);
                if current.ss_sp == self.0.as_mut_ptr().cast() {
                    let mut off: libc::stack_t = std::mem::zeroed();
                    off.ss_flags = libc::SS_DISABLE;
                    libc::sigaltstack(&off, std::ptr::null_mut());
                }
            }
        }
    }

    pub(super) fn arm(plan: &Plan, watches: &[Watch]) -> Option<usize> {
        static INSTALL: Once = Once::new();
        INSTALL.call_once(install);
        ensure_alt_stack();
        let slot = Box::into_raw(Box::new(Slot {
            plan,
            watches: watches.as_ptr(),
            n: watches.len(),
            // SAFETY: pthread_self has no preconditions.
            thread: unsafe { libc::pthread_self() },
        }));
        for (i, cell) in ARMED.iter().enumerate() {
            if cell
                .compare_exchange(std::ptr::null_mut(), slot, SeqCst, SeqCst)
                .is_ok()
            {
                return Some(i);
            }
        }
        // More than 64 runs at once: this one goes unrecorded.
        // SAFETY: `slot` came from Box::into_raw above and was never shared.
        drop(unsafe { Box::from_raw(slot) });
        None
    }

    pub(super) fn disarm(i: usize) {
        let slot = ARMED[i].swap(std::ptr::null_mut(), SeqCst);
        if !slot.is_null() && !CRASHING.load(SeqCst) {
            // SAFETY: the slot was taken out of ARMED before CRASHING was
            // read as false, so no handler can be reading it (a handler sets
            // CRASHING before it loads a slot); it came from Box::into_raw.
            drop(unsafe { Box::from_raw(slot) });
        }
    }

    fn install() {
        for (k, &sig) in SIGNALS.iter().enumerate() {
            // SAFETY: a zeroed sigaction is a valid value to fill in; the
            // handler has the SA_SIGINFO signature; PREVIOUS is written
            // here, once (under INSTALL), before any handler of ours can run.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = handler as *const () as usize;
                // A stack overflow can only be handled on the alternate
                // signal stack (which Rust gives every thread it starts).
                action.sa_flags = match sig {
                    libc::SIGSEGV | libc::SIGBUS => libc::SA_SIGINFO | libc::SA_ONSTACK,
                    _ => libc::SA_SIGINFO,
                };
                libc::sigemptyset(&mut action.sa_mask);
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, &action, &mut old) == 0 {
                    PREVIOUS[k] = Some(old);
                }
            }
        }
        // glibc's `on_exit` tells the handler the exit status; elsewhere
        // `atexit` does not.
        // SAFETY: the handlers are `extern "C"` functions that never unwind.
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        unsafe {
            on_exit(at_exit_with_status, std::ptr::null_mut());
        }
        #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
        unsafe {
            libc::atexit(at_exit);
        }
    }

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    unsafe extern "C" {
        /// glibc: run `f(status, arg)` when the process calls `exit`.
        fn on_exit(
            f: extern "C" fn(libc::c_int, *mut libc::c_void),
            arg: *mut libc::c_void,
        ) -> libc::c_int;
    }

    /// `exit(status)` while a test runs: recorded as below; and a status
    /// of 0 becomes 101, a failure, as a panicking test's. A check that
    /// calls `exit(0)` otherwise ends the test binary "successfully":
    /// `cargo test` reports no failure (and skips every test not yet run)
    /// while the saved case makes every later run exit the same way.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    extern "C" fn at_exit_with_status(status: libc::c_int, _: *mut libc::c_void) {
        if at_exit_recorded() && status == 0 {
            // SAFETY: `_exit` ends the process at once (the handlers
            // registered before ours, and stdio buffers Rust flushed
            // already, are what it skips).
            unsafe { libc::_exit(101) };
        }
    }

    extern "C" fn handler(sig: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        if !RECORDED.swap(true, SeqCst) {
            record(signal_name(sig), false);
        }
        let k = SIGNALS.iter().position(|&s| s == sig).unwrap_or(0);
        // SAFETY: PREVIOUS was written before our handler was installed
        // and is only read after; sigaction and raise are async-signal-safe;
        // `info` is the kernel's siginfo for this signal.
        unsafe {
            let previous = std::ptr::addr_of!(PREVIOUS[k]).read();
            match previous {
                Some(old) => libc::sigaction(sig, &old, std::ptr::null_mut()),
                None => libc::signal(sig, libc::SIG_DFL) as libc::c_int,
            };
            // A fault re-occurs when we return, now to the previous handler
            // (Rust's prints "has overflowed its stack"); a signal sent by
            // raise/kill/abort must be raised again.
            if info.is_null() || (*info).si_code <= 0 {
                libc::raise(sig);
            }
        }
    }

    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    extern "C" fn at_exit() {
        at_exit_recorded();
    }

    /// Record the case of a test running when the process calls `exit`:
    /// whether this call recorded one.
    fn at_exit_recorded() -> bool {
        if RECORDED.load(SeqCst) {
            return false;
        }
        let running = |slot: &Slot| watches(slot).iter().any(Watch::is_running);
        if any_slot(running) && !RECORDED.swap(true, SeqCst) {
            record("exit() was called", true);
            return true;
        }
        false
    }

    fn signal_name(sig: libc::c_int) -> &'static str {
        match sig {
            libc::SIGABRT => "SIGABRT: an abort, a double panic or an allocation failure",
            libc::SIGSEGV => "SIGSEGV: a stack overflow or an invalid memory access",
            libc::SIGBUS => "SIGBUS: an invalid memory access",
            libc::SIGILL => "SIGILL: an illegal instruction (an intrinsic abort)",
            _ => "a fatal signal",
        }
    }

    fn watches(slot: &Slot) -> &[Watch] {
        // SAFETY: the watches outlive the armed slot (the guard is dropped
        // before them, in supervise_all).
        unsafe { std::slice::from_raw_parts(slot.watches, slot.n) }
    }

    fn plan(slot: &Slot) -> &Plan {
        // SAFETY: the plan outlives the armed slot (supervise_all borrows
        // it for longer than the guard lives).
        unsafe { &*slot.plan }
    }

    /// Whether some armed slot satisfies `f`.
    fn any_slot(f: impl Fn(&Slot) -> bool) -> bool {
        CRASHING.store(true, SeqCst);
        ARMED.iter().any(|cell| {
            let p = cell.load(SeqCst);
            // SAFETY: CRASHING is set, so a slot loaded now is not freed.
            !p.is_null() && f(unsafe { &*p })
        })
    }

    /// Write the in-flight case of every armed run on this thread (or of
    /// every armed run, when the fault is on a thread no run is on).
    fn record(what: &str, only_running: bool) {
        CRASHING.store(true, SeqCst);
        // SAFETY: pthread_self and pthread_equal have no preconditions.
        let me = unsafe { libc::pthread_self() };
        let mine = any_slot(|s| unsafe { libc::pthread_equal(s.thread, me) } != 0);
        for cell in &ARMED {
            let p = cell.load(SeqCst);
            if p.is_null() {
                continue;
            }
            // SAFETY: CRASHING is set, so the slot is not freed under us.
            let slot = unsafe { &*p };
            // SAFETY: as above.
            if mine && unsafe { libc::pthread_equal(slot.thread, me) } == 0 {
                continue;
            }
            let all = watches(slot);
            let running = all.iter().filter(|w| w.is_running()).count();
            for watch in all {
                if (only_running || running > 0) && !watch.is_running() {
                    continue;
                }
                let saved = watch.is_saved();
                watch.with_in_flight(|found| write_record(plan(slot), found, what, saved));
                if running == 0 {
                    break;
                }
            }
        }
    }

    /// A line in a stack buffer, flushed with one write when full or done.
    struct Line<'a> {
        buf: [u8; 1024],
        len: usize,
        fd: &'a [libc::c_int],
    }

    impl Line<'_> {
        fn put(&mut self, bytes: &[u8]) {
            for chunk in bytes.chunks(self.buf.len()) {
                if self.len + chunk.len() > self.buf.len() {
                    self.flush();
                }
                self.buf[self.len..self.len + chunk.len()].copy_from_slice(chunk);
                self.len += chunk.len();
            }
        }

        fn hex(&mut self, mut x: u64, prefix: bool) {
            let mut digits = [0u8; 18];
            let mut i = digits.len();
            loop {
                i -= 1;
                digits[i] = b"0123456789abcdef"[(x & 15) as usize];
                x >>= 4;
                if x == 0 {
                    break;
                }
            }
            if prefix {
                self.put(b"0x");
            }
            self.put(&digits[i..]);
        }

        fn dec(&mut self, mut x: u64) {
            let mut digits = [0u8; 20];
            let mut i = digits.len();
            loop {
                i -= 1;
                digits[i] = b'0' + (x % 10) as u8;
                x /= 10;
                if x == 0 {
                    break;
                }
            }
            self.put(&digits[i..]);
        }

        fn list(&mut self, xs: &[u64]) {
            for (i, &x) in xs.iter().enumerate() {
                if i > 0 {
                    self.put(b",");
                }
                self.hex(x, false);
            }
        }

        /// What `regressions::encode` writes, without allocating.
        fn found(&mut self, found: &Found) {
            match found {
                Found::Case(case) => self.case(case),
                Found::Choices { choices, size } => {
                    self.put(b"cx ");
                    self.dec(*size as u64);
                    self.put(b" ");
                    self.list(choices);
                }
                Found::Mutated { base, steps } => {
                    self.put(b"cm ");
                    self.list(steps);
                    self.put(b" ");
                    self.found(base);
                }
                Found::Shrunk { base, path } => {
                    self.put(b"cs ");
                    self.list(path);
                    self.put(b" ");
                    self.found(base);
                }
            }
        }

        fn case(&mut self, case: &CaseSeed) {
            self.put(b"cc ");
            self.hex(case.seed, true);
            self.put(b" ");
            self.dec(case.size as u64);
        }

        fn flush(&mut self) {
            for &fd in self.fd {
                let mut at = 0;
                while at < self.len {
                    // SAFETY: buf[at..len] is initialised; fd is open.
                    let n =
                        unsafe { libc::write(fd, self.buf[at..].as_ptr().cast(), self.len - at) };
                    if n <= 0 {
                        break;
                    }
                    at += n as usize;
                }
            }
            self.len = 0;
        }
    }

    /// The longest regressions file path the handler can open (it is
    /// copied into a stack buffer to add the NUL `open` needs).
    const MAX_PATH: usize = 4096;

    /// Append `found` to the regressions file of `plan` (unless it came
    /// from there: `saved`) and tell stderr. Formats on the stack: a crash
    /// record allocates nothing.
    fn write_record(plan: &Plan, found: &Found, what: &str, saved: bool) {
        let input = |line: &mut Line| line.found(found);
        let path = plan
            .regressions
            .as_ref()
            .map(|f| f.path().as_os_str().as_encoded_bytes());
        let written = match path {
            Some(path) if !saved => append(path, |line| {
                input(line);
                line.put(b" @ ");
                line.put(plan.test.as_bytes());
                line.put(b" # the process died (");
                line.put(what.as_bytes());
                line.put(b")\n");
            }),
            _ => false,
        };
        let fds = [libc::STDERR_FILENO];
        let mut line = Line {
            buf: [0; 1024],
            len: 0,
            fd: &fds,
        };
        line.put(b"\npbt: ");
        line.put(plan.name.as_bytes());
        line.put(b": the process is dying (");
        line.put(what.as_bytes());
        line.put(b") while testing the input `");
        input(&mut line);
        line.put(b"` (as its regressions line)");
        match (saved, path) {
            (true, Some(path)) => {
                line.put(b" (a saved case: it was replayed from ");
                line.put(path);
                line.put(b", which keeps it).");
            }
            (true, None) => {
                line.put(b" (a saved case: it was replayed from the regressions file).");
            }
            (false, _) => {
                line.put(b" (run seed ");
                line.hex(plan.seed, true);
                line.put(b": PBT_SEED=");
                line.hex(plan.seed, true);
                line.put(b" replays the run); ");
                match path {
                    Some(path) if written => {
                        line.put(b"saved to ");
                        line.put(path);
                        line.put(b"; the next run replays it first.");
                    }
                    Some(path) => {
                        line.put(b"could not save it to ");
                        line.put(path);
                        line.put(b".");
                    }
                    None => line.put(b"not saved: the regressions file is off."),
                }
            }
        }
        line.put(
            b" Run the test isolated (PBT_ISOLATE=1, #[property_test(isolated)] or \
              Config::isolated) to have such a fault reported as a failure and shrunk.\n",
        );
        line.flush();
    }

    /// Append the line `write` puts to the file at `path` (after a newline
    /// when the file does not end in one); whether the file could be opened.
    fn append(path: &[u8], write: impl FnOnce(&mut Line)) -> bool {
        let mut name = [0u8; MAX_PATH + 1];
        if path.len() > MAX_PATH || path.contains(&0) {
            return false;
        }
        name[..path.len()].copy_from_slice(path);
        // SAFETY: `name` is NUL-terminated (zeroed past the path); open,
        // fstat, pread, write and close are async-signal-safe.
        unsafe {
            let fd = libc::open(
                name.as_ptr().cast(),
                libc::O_RDWR | libc::O_APPEND | libc::O_CREAT | libc::O_CLOEXEC,
                0o644,
            );
            if fd < 0 {
                return false;
            }
            let mut st: libc::stat = std::mem::zeroed();
            let mut last = [b'\n'];
            if libc::fstat(fd, &mut st) == 0 && st.st_size > 0 {
                libc::pread(fd, last.as_mut_ptr().cast(), 1, st.st_size - 1);
            }
            let fds = [fd];
            let mut line = Line {
                buf: [0; 1024],
                len: 0,
                fd: &fds,
            };
            if last[0] != b'\n' {
                line.put(b"\n");
            }
            write(&mut line);
            line.flush();
            libc::close(fd);
        }
        true
    }
}
