import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Native crash isolation. Before a worker starts OCR on a photo it arms its
/// slot with a ready-made journal line (`crash` for that photo). If Tesseract
/// or leptonica then crashes (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
/// SIGTRAP), the handler, running on the crashing thread, appends that line to
/// the journal with `write` + `fsync` (both async-signal-safe), puts the
/// previous handler back and re-raises, so the process still dies as it would
/// have (exit by signal, Swift's backtrace if enabled). kill -9 cannot be
/// caught, so a killed run leaves no crash line: only real crashes count.
/// The next run retries a photo with one crash; after the second it records
/// the photo as `error` MSG-PROC-001 instead of crashing again.
public enum CrashGuard {
    struct Slot {
        var thread: pthread_t = pthread_t()
        var line: UnsafeMutablePointer<UInt8>?
        var length = 0
        var armed: Int32 = 0
    }

    nonisolated(unsafe) static var slots: UnsafeMutablePointer<Slot>?
    nonisolated(unsafe) static var slotCount = 0
    nonisolated(unsafe) static var journalFD: Int32 = -1
    nonisolated(unsafe) static var previous: UnsafeMutablePointer<sigaction>?
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// Gives the run one slot per worker; installs the handlers on first use.
    static func install(workers: Int, journalFD fd: Int32) {
        let s = UnsafeMutablePointer<Slot>.allocate(capacity: workers)
        s.initialize(repeating: Slot(), count: workers)
        slots = s
        slotCount = workers
        journalFD = fd
        guard previous == nil else { return }  // handlers stay installed; later runs only swap slots
        let prev = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        prev.initialize(repeating: sigaction(), count: 65)
        previous = prev
        for sig in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = crashHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_ONSTACK
            sigaction(sig, &action, prev + Int(sig))
        }
    }

    /// Called by each worker thread once: its slot and an alternate signal
    /// stack (so a stack overflow can still be recorded).
    static func registerWorker(_ index: Int) {
        guard let slots, index < slotCount else { return }
        slots[index].thread = pthread_self()
        let size = 256 * 1024
        if let mem = malloc(size) {
            var stack = stack_t(ss_sp: mem, ss_flags: 0, ss_size: size)
            sigaltstack(&stack, nil)
        }
    }

    /// Arms the worker's slot with the line to write if it crashes now.
    static func arm(_ index: Int, line: [UInt8]) {
        guard let slots, index < slotCount else { return }
        disarm(index)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: line.count)
        buffer.initialize(from: line, count: line.count)
        slots[index].line = buffer
        slots[index].length = line.count
        slots[index].armed = 1
    }

    static func disarm(_ index: Int) {
        guard let slots, index < slotCount else { return }
        slots[index].armed = 0
        if let old = slots[index].line {
            slots[index].line = nil
            old.deallocate()
        }
    }
}

private let crashHandler: @convention(c) (Int32) -> Void = { sig in
    if let slots = CrashGuard.slots, CrashGuard.journalFD >= 0 {
        let me = pthread_self()
        for i in 0..<CrashGuard.slotCount where slots[i].armed == 1 && pthread_equal(slots[i].thread, me) != 0 {
            if let line = slots[i].line {
                _ = write(CrashGuard.journalFD, line, slots[i].length)
                _ = fsync(CrashGuard.journalFD)
            }
            slots[i].armed = 0
        }
    }
    if let previous = CrashGuard.previous {
        sigaction(sig, previous + Int(sig), nil)
    } else {
        signal(sig, SIG_DFL)
    }
    // Pending until this handler returns, then handled as before (the process dies).
    raise(sig)
}
