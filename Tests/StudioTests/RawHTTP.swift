import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A bare HTTP/1.1 client over a socket, for tests that must send what a browser would not
/// (another Host, no token, a path with `..`) and read a stream as it comes. Its blocking reads
/// run on threads of their own: the server in the same process keeps the concurrency pool's
/// few threads, and a read never waits for Dispatch's pool, which other suites fill.
struct RawHTTP: Sendable {
    let port: UInt16

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends one request (the Host header is this server's unless `headers` gives one) and
    /// reads the whole response.
    func send(
        _ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = [], timeout: Double = 60
    ) async throws -> Response {
        try await offPool { try sendBlocking(method, target, headers: headers, body: body, timeout: timeout) }
    }

    /// Opens a GET of an event stream and reads it until `until` holds of what came, or the
    /// timeout; `opened` runs once the stream's first event (its `retry:`) has come.
    func stream(
        _ target: String, timeout: Double = 10, opened: @escaping @Sendable () -> Void = {},
        until: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        try await offPool { try streamBlocking(target, timeout: timeout, opened: opened, until: until) }
    }

    private func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { c in
            Thread { c.resume(with: Result { try work() }) }.start()
        }
    }

    private func sendBlocking(
        _ method: String, _ target: String, headers: [String: String], body: [UInt8], timeout: Double
    ) throws -> Response {
        let fd = try connect()
        defer { close(fd) }
        try write(fd, request(method, target, headers: headers, body: body))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let start = Date()
        var ending = "the deadline passed"
        while Date() < start.addingTimeInterval(timeout) {
            if let r = try? parse(received), r.complete { return r.response }
            let n = read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                ending = n == 0 ? "the server closed" : "read failed: \(String(cString: strerror(errno)))"
                break
            }
            received += buffer[..<n]
        }
        guard let r = try parse(received) as (response: Response, complete: Bool)?, r.complete else {
            // How it ended, and when, tells a slow client from a closed connection.
            throw TestFailure(
                "no whole response to \(method) \(target) (\(received.count) bytes; \(ending) after \(String(format: "%.2f", Date().timeIntervalSince(start))) s)"
            )
        }
        return r.response
    }

    private func streamBlocking(
        _ target: String, timeout: Double, opened: () -> Void, until: (String) -> Bool
    ) throws -> String {
        let fd = try connect()
        defer { close(fd) }
        try write(fd, request("GET", target, headers: [:], body: []))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(timeout)
        var tv = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var isOpen = false
        while Date() < deadline {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { received += buffer[..<n] }
            if n == 0 { break }
            let text = String(decoding: received, as: UTF8.self)
            if !isOpen && text.contains("retry:") {
                isOpen = true
                opened()
            }
            if until(text) { return text }
        }
        return String(decoding: received, as: UTF8.self)
    }

    private func request(_ method: String, _ target: String, headers: [String: String], body: [UInt8]) -> [UInt8] {
        var all = ["Host": "127.0.0.1:\(port)", "Connection": "close"]
        for (k, v) in headers { all[k] = v }
        if !body.isEmpty { all["Content-Length"] = "\(body.count)" }
        var head = "\(method) \(target) HTTP/1.1\r\n"
        for (k, v) in all.sorted(by: { $0.key < $1.key }) { head += "\(k): \(v)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    private func connect() throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard ok == 0 else {
            close(fd)
            throw TestFailure("cannot connect to port \(port)")
        }
        return fd
    }

    private func write(_ fd: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw TestFailure("write failed") }
            sent += n
        }
    }

    /// The response in `bytes`, and whether all of it has come (by Content-Length or chunks).
    private func parse(_ bytes: [UInt8]) throws -> (response: Response, complete: Bool) {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else {
            throw TestFailure("no header yet")
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if let length = headers["content-length"].flatMap(Int.init) {
            let complete = body.count >= length
            body = Array(body.prefix(length))
            return (Response(status: status, headers: headers, body: body), complete)
        }
        if headers["transfer-encoding"] == "chunked" {
            var out: [UInt8] = []
            var i = 0
            while let lineEnd = (i..<max(i, body.count - 1)).first(where: { body[$0] == 13 && body[$0 + 1] == 10 }) {
                let size = Int(String(decoding: body[i..<lineEnd], as: UTF8.self), radix: 16) ?? 0
                if size == 0 { return (Response(status: status, headers: headers, body: out), true) }
                guard lineEnd + 2 + size <= body.count else { break }
                out += body[(lineEnd + 2)..<(lineEnd + 2 + size)]
                i = lineEnd + 4 + size
            }
            return (Response(status: status, headers: headers, body: out), false)
        }
        return (Response(status: status, headers: headers, body: body), false)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
