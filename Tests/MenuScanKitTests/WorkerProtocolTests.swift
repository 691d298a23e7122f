import Foundation
import Testing
@testable import MenuScanKit
#if canImport(Glibc)
import Glibc
#endif

@Suite struct WorkerProtocolTests {
    /// A job crosses the pipe as one frame and comes back equal, the photo's
    /// every field included (a field added to InputPhoto travels the same way).
    @Test func framesRoundTripInPieces() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let photo = InputPhoto(path: "/in/é menu.jpg", displayPath: "in/é menu.jpg", outputBase: "é menu", relativePath: "é menu.jpg")
        let frame = try #require(Frames.encode(WorkerJob(photo: photo)))
        var fds2: [Int32] = [0, 0]
        #expect(pipe(&fds2) == 0)
        defer { close(fds2[0]); close(fds2[1]) }
        #expect(Frames.send(WorkerReply(kind: .stage, stage: "ocr"), to: fds2[1]))
        guard case .frame(let replyFrame) = FrameReader(fd: fds2[0]).next(deadline: .now + .seconds(5)) else { Issue.record("no reply"); return }
        let second = try #require(Frames.encode(WorkerReply(kind: .stage, stage: "ocr")))
        let split = try #require(Frames.split(replyFrame))
        #expect(split.kind == .stage)
        #expect(try JSONDecoder().decode(WorkerReply.self, from: split.json).stage == "ocr")
        // Written in three pieces, the second frame glued to the first.
        let bytes = frame + second
        for cut in [(0, 3), (3, frame.count + 2), (frame.count + 2, bytes.count)] {
            #expect(Frames.write(Array(bytes[cut.0..<cut.1]), to: fds[1]))
        }
        let reader = FrameReader(fd: fds[0])
        guard case .frame(let a) = reader.next(deadline: .now + .seconds(5)) else { Issue.record("no first frame"); return }
        #expect(try JSONDecoder().decode(WorkerJob.self, from: a).photo == photo)
        guard case .frame(let b) = reader.next(deadline: .now + .seconds(5)) else { Issue.record("no second frame"); return }
        #expect(try JSONDecoder().decode(WorkerReply.self, from: b).stage == "ocr")
    }

    @Test func readerTimesOutAndSeesTheEnd() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let reader = FrameReader(fd: fds[0])
        let start = ContinuousClock.now
        guard case .timedOut = reader.next(deadline: .now + .milliseconds(100)) else { Issue.record("expected a timeout"); return }
        #expect(ContinuousClock.now - start < .seconds(5))
        // Half a frame, then the writer goes away: closed, not a hang.
        Frames.write([0, 0, 0, 9, 1, 2], to: fds[1])
        close(fds[1])
        guard case .closed = reader.next(deadline: .now + .seconds(5)) else { Issue.record("expected the end"); return }
    }

    @Test func oversizedLengthIsAProtocolError() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        Frames.write([0xFF, 0xFF, 0xFF, 0xFF], to: fds[1])
        guard case .closed = FrameReader(fd: fds[0]).next(deadline: .now + .seconds(5)) else { Issue.record("expected a protocol error"); return }
    }

    /// FIFOs are refused without blocking (open itself blocks on a FIFO
    /// without O_NONBLOCK); folders too; regular files open.
    @Test func onlyRegularFilesAreOpened() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("menuscan-regular-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("menu.jpg").path
        #expect(mkfifo(fifo, 0o644) == 0)
        guard case .failure(.notRegular(let kind)) = RegularFile.open(fifo) else { Issue.record("FIFO opened"); return }
        #expect(kind.contains("FIFO"))
        guard case .failure(.notRegular) = RegularFile.open(dir.path) else { Issue.record("folder opened"); return }
        let file = dir.appendingPathComponent("a.png").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data([1, 2, 3])))
        guard case .success(let opened) = RegularFile.open(file) else { Issue.record("file not opened"); return }
        #expect(opened.size == 3)
        close(opened.fd)
        #expect(throws: MenuScanError.self) { try ImageDecoder().decode(fileAt: URL(fileURLWithPath: fifo)) }
    }
}

@Suite struct RecognitionFailureDetailTests {
    /// Issue 14: a 1×40000 PNG that Tesseract refuses at once was reported as
    /// "failed or was stopped at the --timeout of 300 s".
    @Test func aFastFailureIsNotCalledATimeout() {
        let fast = TesseractEngine.failureDetail(seconds: 0.01, limit: 300, width: 1, height: 40000)
        #expect(!fast.contains("--timeout"))
        #expect(fast.contains("1×40000"))
        #expect(TesseractEngine.failureDetail(seconds: 300.2, limit: 300, width: 10, height: 10).contains("--timeout of 300"))
    }
}
