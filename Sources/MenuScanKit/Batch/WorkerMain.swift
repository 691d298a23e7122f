import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The worker process's loop (`menuscan _worker`, started by the supervisor):
/// reads the config and then one job at a time on fd 0, runs the pipeline and
/// answers on fd 3. Its engines load once, when it starts. It exits when
/// the supervisor closes the job pipe or goes away.
public enum WorkerMain {
    public static func run(input: Int32 = 0, output: Int32 = 3) -> Int32 {
        // The supervisor handles Ctrl-C; a worker only ends by its decision.
        signal(SIGINT, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        watchParent()
        let reader = FrameReader(fd: input)
        guard case .frame(let first) = reader.next(),
              let config = try? JSONDecoder().decode(WorkerConfig.self, from: first) else { return 70 }
        // Engines load before the first job, so loading never counts against
        // a photo's --timeout; "ready" tells the supervisor.
        let engine: PhotoProcessor
        do {
            engine = try PhotoProcessor(settings: config.settings)
            if config.overlay { engine.overlay = OverlayStyle() }
        } catch {
            Frames.send(WorkerReply(kind: .fatal, error: error), to: output)
            return 69
        }
        guard Frames.send(WorkerReply(kind: .stage, stage: "ready"), to: output) else { return 70 }
        let decoder = JSONDecoder()
        while case .frame(let data) = reader.next() {
            guard let job = try? decoder.decode(WorkerJob.self, from: data) else { return 70 }
            let name = job.photo.url.lastPathComponent
            let hooks = config.hooks
            engine.events = { event in
                switch event {
                case .stage(let stage):
                    Frames.send(WorkerReply(kind: .stage, stage: stage), to: output)
                    if stage == "decode", hooks.crashOn == name { abort() }  // TEST ONLY: a native crash
                    if stage == "decode", hooks.hangOn == name { while true { sleep(60) } }  // TEST ONLY: a hang
                    if stage == "classify", hooks.trapOn == name { trapForTest(name.count) }  // TEST ONLY: a Swift trap after OCR
                    if stage == "ocr", hooks.killOn == name { kill(getpid(), SIGKILL) }  // TEST ONLY: OOM-killed mid-recognition
                case .checkpoint(let result):
                    Frames.send(WorkerReply(kind: .checkpoint, result: result), to: output)
                }
            }
            let result = engine.process(fileAt: job.photo.url, displayPath: job.photo.displayPath, page: job.photo.page)
            engine.events = nil
            let reply = WorkerReply(kind: .result, result: result, overlayPNG: engine.overlayPNG.map { Data($0) })
            guard Frames.send(reply, to: output) else { return 70 }
        }
        return 0
    }

    /// A Swift runtime trap ("Range requires lowerBound <= upperBound"), as the
    /// one issue 14 reported, for the end-to-end test.
    static func trapForTest(_ n: Int) {
        let range = n...(n - 1 - Int(getpid() & 0))
        _ = range.count
    }

    /// A worker whose supervisor died (kill -9) exits rather than finish a
    /// photo nobody reads: the parent is checked twice a second.
    private static func watchParent() {
        let parent = getppid()
        let thread = Thread {
            while true {
                usleep(500_000)
                if getppid() != parent { _exit(71) }
            }
        }
        thread.stackSize = 64 << 10
        thread.start()
    }
}
