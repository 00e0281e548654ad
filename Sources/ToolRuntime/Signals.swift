import Foundation

/// What SIGINT and SIGTERM must undo: staging folders and temporary files being written, and
/// child processes (gnuplot, sbatch, valgrind: every one started by ``Subprocess``) that would
/// otherwise outlive the run and keep writing. Reference §11: the run exits 128 + the signal
/// (130 for SIGINT, 143 for SIGTERM) with one line on stderr.
public final class Cleanup: @unchecked Sendable {
    public static let shared = Cleanup()
    private let lock = NSLock()
    private var paths = Set<String>()
    private var children = Set<Int32>()
    private var interruptedNote = "springtune: interrupted; nothing was written"
    /// The exit code for a stop by signal when a command asked for one (a server that Ctrl-C
    /// stops as its normal end: `studio` exits 0), else 128 + the signal.
    private var stopCode: Int32?
    /// What a command asked to do when stopped by a signal, before the exit (the studio closes
    /// its session so that one file holds it).
    private var stopAction: (@Sendable () -> Void)?
    private var finishing = false

    /// SIGINT and SIGTERM are blocked in the calling thread and every thread it starts later,
    /// and one thread takes them with `sigwait`. Call ``install()`` first thing in `main`,
    /// before any other thread exists. (A libdispatch signal source, used before, crashed the
    /// process now and then in the dispatch manager thread.)
    private init() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let signals = set
        let waiter = Thread { [unowned self] in
            var wanted = signals, caught: Int32 = 0
            while sigwait(&wanted, &caught) != 0 {}
            self.finish(signal: caught)
        }
        waiter.start()
    }

    /// Sets up the signal handling (see the initialiser).
    public func install() {}

    public func register(_ path: String) { lock.lock(); paths.insert(path); lock.unlock() }
    public func unregister(_ path: String) { lock.lock(); paths.remove(path); lock.unlock() }
    public func register(child pid: Int32) { lock.lock(); children.insert(pid); lock.unlock() }
    public func unregister(child pid: Int32) { lock.lock(); children.remove(pid); lock.unlock() }
    /// The line printed when interrupted, for a command that has already done something lasting.
    public func setInterruptedNote(_ text: String) { lock.lock(); interruptedNote = text; lock.unlock() }

    /// Makes SIGINT and SIGTERM the command's normal end: run `action`, then exit `code` after
    /// printing `note`.
    public func setStopExit(_ code: Int32, note: String, before action: (@Sendable () -> Void)? = nil) {
        lock.lock(); stopCode = code; interruptedNote = note; stopAction = action; lock.unlock()
    }

    /// Parks the calling thread for good when a signal is being handled: a child killed by
    /// ``finish(signal:)`` must not be reported as the tool failing (SIGTERM while gnuplot drew
    /// said "gnuplot failed (exit 9)" and exited 70 before the signal thread exited 143).
    public func parkIfInterrupted() {
        lock.lock()
        let parked = finishing
        lock.unlock()
        while parked { sleep(3600) }
    }

    /// Stops the children, removes the staging folders, and exits 128 + signal (or the code
    /// ``setStopExit(_:note:)`` gave).
    private func finish(signal sig: Int32) {
        lock.lock()
        finishing = true
        let code = stopCode ?? 128 + sig
        for pid in children { kill(pid, SIGKILL) }   // the children inherit our ignored SIGINT/SIGTERM
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
        let note = interruptedNote, action = stopAction
        lock.unlock()
        action?()
        // On a terminal the line starts below the "^C" it echoed; elsewhere it is one line.
        StandardStreams.error((isatty(2) == 1 ? "\n" : "") + note + "\n")
        _exit(code)
    }
}

/// Flushes the output and ends the process without running exit-time destructors; a run
/// that succeeded but could not write its stdout ends 74 with one line instead of its own code. With
/// other threads still alive (the signal thread that cleans up on Ctrl-C, libdispatch's
/// workers), the C library's destructors raced them and crashed the process on exit now and
/// then (SIGILL in ICU's _fini, seen while libdispatch signal sources were in use).
public func finishProcess(_ code: Int32) -> Never {
    Cleanup.shared.parkIfInterrupted()
    if let error = StandardStreams.flushOutput(), code == 0 {
        StandardStreams.error("springtune: \(error.message)\n")
        _exit(error.code.rawValue)
    }
    _exit(code)
}
