import Foundation
import Glibc
import TestSupport
import Testing

@testable import Studio

/// The request parser's caps, each refused with its status.
@Suite("HTTPRequestParser: every line, header block and body is capped")
struct HTTPRequestParserTests {
    static let limits = HTTPLimits()

    func status(_ text: String) -> Int? {
        var parser = HTTPRequestParser(limits: Self.limits)
        switch parser.parse(Array(text.utf8)) {
        case .needMore: return nil
        case .refuse(let r): return r.status
        case .head: return 200
        }
    }

    @Test(
        "Refused heads, each with its status",
        arguments: [
            ("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n\r\n", 414),
            ("GET /" + String(repeating: "a", count: 9000), 414),
            ("GET / HTTP/1.1\r\nX: " + String(repeating: "b", count: 40000), 431),
            ("GET / HTTP/1.1\r\n" + String(repeating: "X: 1\r\n", count: 101) + "\r\n", 431),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
            ("POST / HTTP/1.1\r\nContent-Length: 1048577\r\n\r\n", 413),
            ("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\n folded: x\r\n\r\n", 400),
            ("GET http://x/ HTTP/1.1\r\n\r\n", 400),
            ("GET / HTTP/2\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: a\r\n\r\n", 200),
        ])
    func refused(text: String, expected: Int) {
        #expect(status(text) == expected)
    }

    @Test("A head sent a byte at a time is read once whole, and a pipelined request is left for next")
    func incremental() throws {
        var parser = HTTPRequestParser(limits: Self.limits)
        let text = Array("GET /api/state?token=a%20b&x=1 HTTP/1.1\r\nHost: h\r\n\r\nGET / HTTP/1.1\r\n\r\n".utf8)
        var result: HTTPRequestParser.Result = .needMore
        for n in 1...text.count {
            result = parser.parse(Array(text.prefix(n)))
            if case .head = result { break }
        }
        guard case .head(let request, let length, let body) = result else {
            Issue.record("no head")
            return
        }
        #expect(request.path == "/api/state" && request.query == ["token": "a b", "x": "1"])
        #expect(request.headers["host"] == "h" && body == 0)
        #expect(length == "GET /api/state?token=a%20b&x=1 HTTP/1.1\r\nHost: h\r\n\r\n".utf8.count)
    }
}

/// The studio's server against hostile clients: each kind 100 times over, then an ordinary
/// request must still be answered. A hung server never answers; the bound is loose because the
/// suite shares two cores and the concurrency pool with every other test (run alone, each
/// answer comes within a second), and latency belongs to the bench.
@Suite("The studio's server survives hostile connections", .serialized)
struct HostileConnectionTests {
    /// A studio with short deadlines, so that the test waits seconds, not minutes.
    static func start() async throws -> (StudioServer, String) {
        let folder = temporaryFolder("hostile")
        let session = try StudioSession(options: StudioOptions(scene: "expanding-view"))
        var limits = HTTPLimits()
        limits.requestSeconds = 1
        limits.idleSeconds = 2
        let server = try StudioServer(session: session, host: "127.0.0.1", port: 0, token: nil, limits: limits)
        try await server.start()
        return (server, folder)
    }

    static func connect(_ port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        // A refused sender stops soon; a reader waits for the answer.
        var send = timeval(tv_sec: 0, tv_usec: 250_000), receive = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &receive, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return fd
    }

    /// Sends as much of `bytes` as the server takes; a server that closes ends it.
    static func push(_ fd: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// Everything the server sends until it closes or goes quiet for the receive timeout.
    static func drain(_ fd: Int32) -> String {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            all += buffer[..<n]
        }
        return String(decoding: all, as: UTF8.self)
    }

    /// Seconds an ordinary state request takes, and its status.
    static func timedState(_ server: StudioServer) async throws -> (Double, Int) {
        let started = Date()
        let r = try await RawHTTP(port: server.port).send(
            "GET", "/api/state?token=\(server.token)", timeout: 5)
        return (Date().timeIntervalSince(started), r.status)
    }

    /// Runs blocking client work on a thread of its own: not the concurrency pool, which the
    /// server's answers need, nor Dispatch's, which other suites running beside this one need.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { c in
            Thread { c.resume(returning: work()) }.start()
        }
    }

    @Test("100 request lines and 100 header blocks of a megabyte: each refused at its cap, the server answers after")
    func longLines() async throws {
        let (server, folder) = try await Self.start()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let port = server.port
        // Made once: the bytes, not the making of a megabyte string each time, are the test.
        let junk = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        let line = Array("GET /".utf8) + junk, header = Array("GET / HTTP/1.1\r\nX-Junk: ".utf8) + junk
        let answers = await Self.offPool { () -> [String] in
            (0..<200).map { i in
                let fd = Self.connect(port)
                defer { close(fd) }
                Self.push(fd, i < 100 ? line : header)
                return Self.drain(fd)
            }
        }
        #expect(answers.prefix(100).allSatisfy { $0.hasPrefix("HTTP/1.1 414 ") || $0.isEmpty })
        #expect(answers.suffix(100).allSatisfy { $0.hasPrefix("HTTP/1.1 431 ") || $0.isEmpty })
        #expect(answers.filter { !$0.isEmpty }.count >= 100)
        let (seconds, status) = try await Self.timedState(server)
        #expect(status == 200 && seconds < 20, "\(seconds) s")
        await server.stop()
    }

    @Test("A refused request's body is never read as a request, and big or chunked bodies are refused unread")
    func bodies() async throws {
        let (server, folder) = try await Self.start()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let port = server.port, token = server.token
        // No token, and a body that is a request with one: one 403, then the end. The bodies
        // are made once: the bytes, not the making of megabyte strings each time, are the test.
        let smuggled = "GET /api/state?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
        let body = Array(smuggled.utf8) + [UInt8](repeating: UInt8(ascii: " "), count: 2 << 20)
        let chunks = Array("5F5E100\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        let answers = await Self.offPool { () -> [String] in
            (0..<100).flatMap { _ -> [String] in
                let forged = Self.connect(port)
                Self.push(
                    forged,
                    Array("POST /api/edit HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 2000000\r\n\r\n".utf8))
                Self.push(forged, body)
                let a = Self.drain(forged)
                close(forged)
                // A token, and a 100 MB chunked body: refused at its head.
                let chunked = Self.connect(port)
                Self.push(
                    chunked,
                    Array(
                        "POST /api/edit HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Flipbook-Token: \(token)\r\nTransfer-Encoding: chunked\r\n\r\n"
                            .utf8))
                Self.push(chunked, chunks)
                let b = Self.drain(chunked)
                close(chunked)
                return [a, b]
            }
        }
        let forged = stride(from: 0, to: answers.count, by: 2).map { answers[$0] }
        let chunked = stride(from: 1, to: answers.count, by: 2).map { answers[$0] }
        #expect(
            forged.allSatisfy { $0.hasPrefix("HTTP/1.1 413 ") && $0.components(separatedBy: "HTTP/1.1").count == 2 })
        #expect(
            chunked.allSatisfy { $0.hasPrefix("HTTP/1.1 501 ") && $0.components(separatedBy: "HTTP/1.1").count == 2 })
        // Under the body cap: the gate refuses the head, and the body is not read after it.
        let small = await Self.offPool { () -> String in
            let fd = Self.connect(port)
            defer { close(fd) }
            let smuggled = "GET /api/state?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
            Self.push(
                fd,
                Array(
                    "POST /api/edit HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(smuggled.utf8.count)\r\n\r\n\(smuggled)"
                        .utf8))
            return Self.drain(fd)
        }
        #expect(small.hasPrefix("HTTP/1.1 403 ") && small.components(separatedBy: "HTTP/1.1").count == 2, "\(small)")
        let (seconds, status) = try await Self.timedState(server)
        #expect(status == 200 && seconds < 20, "\(seconds) s")
        await server.stop()
    }

    @Test("150 connections left half-open or idle: the newcomer is answered, the stale ones time out")
    func halfOpen() async throws {
        let (server, folder) = try await Self.start()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let port = server.port
        let fds = (0..<150).map { i -> Int32 in
            let fd = Self.connect(port)
            if i % 2 == 0 { Self.push(fd, Array("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n".utf8)) }
            return fd
        }
        let (seconds, status) = try await Self.timedState(server)
        #expect(status == 200 && seconds < 20, "\(seconds) s")
        // Past the deadlines every one of them is answered 408 or closed (looked at until a
        // loose bound: the suite shares two cores with every other test).
        var closed = [Bool](repeating: false, count: fds.count)
        let waitingSince = Date()
        while !closed.allSatisfy({ $0 }) && Date().timeIntervalSince(waitingSince) < 20 {
            try await Task.sleep(nanoseconds: 500_000_000)
            closed = await Self.offPool {
                fds.map { fd -> Bool in
                    var byte: UInt8 = 0
                    var n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
                    while n > 0 { n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) }
                    return n == 0
                }
            }
        }
        for fd in fds { close(fd) }
        #expect(closed.allSatisfy { $0 }, "\(closed.filter { !$0 }.count) still open after 20 s")
        let (after, again) = try await Self.timedState(server)
        #expect(again == 200 && after < 20, "\(after) s")
        await server.stop()
    }

    @Test(
        "60 clients that pipeline requests and never read their answers: an ordinary request is answered while they wait"
    )
    func pipelinersThatNeverRead() async throws {
        let folder = temporaryFolder("hostile")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try StudioSession(options: StudioOptions(scene: "expanding-view"))
        var limits = HTTPLimits()
        // Long enough that, had their answers held the server up, it would still be held.
        limits.writeSeconds = 60
        let server = try StudioServer(session: session, host: "127.0.0.1", port: 0, token: nil, limits: limits)
        try await server.start()
        let port = server.port
        let page = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        // Hundreds of pages asked for at once, none read: the socket fills, and stays full.
        let pages = Array([[UInt8]](repeating: page, count: 3000).joined())
        let fds = await Self.offPool {
            (0..<60).map { _ -> Int32 in
                let fd = Self.connect(port)
                Self.push(fd, pages)
                return fd
            }
        }
        let (seconds, status) = try await Self.timedState(server)
        #expect(status == 200, "\(seconds) s")
        // Each of them is still connected and unread, and is answered: the ordinary answer did not
        // wait for theirs. (The server may reach the last few of them just after it, on a
        // loaded machine: each is given up to 10 s to show its first byte.)
        let open = await Self.offPool {
            fds.filter { fd in
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, 10_000)
                var byte: UInt8 = 0
                return recv(fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK)) == 1
            }.count
        }
        #expect(open == 60)
        for fd in fds { close(fd) }
        await server.stop()
    }

    @Test("Out of file descriptors, the studio keeps listening and answers once the load stops")
    func descriptorExhaustion() async throws {
        let flipbook = Self.executable()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "ulimit -n 40; exec \"$0\" studio expanding-view", flipbook]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate() }
        let firstLine = await Self.offPool {
            String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        }
        let url = try #require(
            firstLine.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("http://") }.map(String.init))
        let portText: Substring = url.split(separator: ":")[2].split(separator: "/")[0]
        let port = try #require(UInt16(portText))
        let afterToken: String? = url.components(separatedBy: "token=").last
        let token = try #require(afterToken?.split(separator: "\n").first.map(String.init))
        let fds = (0..<100).map { _ in Self.connect(port) }
        try await Task.sleep(nanoseconds: 300_000_000)
        for fd in fds { close(fd) }
        let started = Date()
        let r = try await RawHTTP(port: port).send("GET", "/api/state?token=\(token)", timeout: 5)
        #expect(r.status == 200 && Date().timeIntervalSince(started) < 20)
        #expect(process.isRunning)
    }

    /// The `flipbook` binary beside the test bundle.
    static func executable() -> String {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("flipbook").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return ".build/debug/flipbook"
    }
}
