import Dispatch
import Foundation
import Glibc
import Synchronization

/// A small HTTP/1.1 server on POSIX sockets, for the studio's page and API on this machine.
///
/// Its rules, which hold whatever a client sends or withholds:
/// - one thread waits on every connection that is reading a request, so an idle or slow
///   client costs a file descriptor, never a thread;
/// - every request line, header block and body is capped (`HTTPLimits`) and each is scanned
///   once; a head is checked (`headCheck`) before its body is read, and a refused request is
///   answered and its connection closed, so an unread body is never read as a request;
/// - a request must arrive within `requestSeconds` of its first byte, an idle connection closes
///   after `idleSeconds`, and a response waits at most `writeSeconds` for a client to read;
/// - a response the socket does not take at once is finished by the loop's thread as the
///   client reads, so a client that never reads holds no thread and delays no other;
/// - past `connections`, the connection idle longest is closed for the newcomer; when the
///   process runs out of file descriptors, a reserved one lets it accept and close, and it
///   goes on listening.
/// Bodies are whole (a Content-Length); chunked requests are refused.
final class HTTPServer: Sendable {
    typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse
    /// The checks a request's head passes before its body is read: a response refuses it.
    typealias HeadCheck = @Sendable (HTTPRequest) -> HTTPResponse?

    let limits: HTTPLimits
    /// The port it listens on (the one the system chose, for port 0).
    let port: UInt16
    private let listener: Int32
    private let wakeRead: Int32, wakeWrite: Int32
    private let headCheck: HeadCheck
    private let handler: Handler
    /// Connections handed back by their responses, to read their next request.
    private let returning = Mutex<[Connection]>([])
    /// Responses that met a full socket, for the loop to finish as their clients read.
    private let outgoing = Mutex<[PendingWrite]>([])
    /// Connections whose responses are being made or written.
    private let busy = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Listens on `host` (an IPv4 or IPv6 address) and `port` (0: any free port).
    init(
        host: String, port: UInt16, limits: HTTPLimits = HTTPLimits(), headCheck: @escaping HeadCheck,
        handler: @escaping Handler
    ) throws {
        self.limits = limits
        self.headCheck = headCheck
        self.handler = handler
        (listener, self.port) = try Self.listen(host: host, port: port)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(listener)
            throw StudioError("cannot make the server's wake-up pipe: \(String(cString: strerror(errno)))")
        }
        (wakeRead, wakeWrite) = (fds[0], fds[1])
        for fd in fds { Self.configure(fd) }
    }

    /// Starts the thread that accepts and reads connections.
    func start() {
        let thread = Thread { [self] in
            var loop = EventLoop(server: self)
            loop.run()
            finished.signal()
        }
        thread.name = "studio-http"
        thread.start()
    }

    /// Stops listening and closes every connection that is reading; responses under way end
    /// with their streams.
    func stop() {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        wake()
        finished.wait()
        for connection in returning.withLock({ list in
            defer { list = [] }
            return list
        }) { close(connection.fd) }
        for write in outgoing.withLock({ list in
            defer { list = [] }
            return list
        }) { write.done.resume(returning: false) }
    }

    deinit { close(wakeWrite) }

    /// Non-blocking, and not inherited by the processes the studio starts.
    static func configure(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    // MARK: The event loop

    /// A connection and what has come on it; owned by one party at a time: the loop while it
    /// reads, the response's task while it answers.
    final class Connection: @unchecked Sendable {
        let fd: Int32
        var input: [UInt8] = []
        var parser: HTTPRequestParser
        /// The head read, waiting for its body.
        var head: (request: HTTPRequest, bodyLength: Int)?
        /// When the request under way started (its first byte), or when the connection went idle.
        var since: Double
        var reading = false

        init(fd: Int32, limits: HTTPLimits, now: Double) {
            self.fd = fd
            parser = HTTPRequestParser(limits: limits)
            since = now
        }
    }

    /// A response's bytes not yet taken by its socket, and who waits for them to be.
    final class PendingWrite: @unchecked Sendable {
        let fd: Int32
        let bytes: [UInt8]
        var offset: Int
        /// When to give up on a client that has stopped reading.
        var deadline: Double
        let done: CheckedContinuation<Bool, Never>

        init(fd: Int32, bytes: [UInt8], offset: Int, deadline: Double, done: CheckedContinuation<Bool, Never>) {
            (self.fd, self.bytes, self.offset, self.deadline, self.done) = (fd, bytes, offset, deadline, done)
        }
    }

    /// How far a write got.
    enum WriteProgress {
        case done, blocked, failed
    }

    /// Writes `bytes` from `offset` to the non-blocking socket `fd` until it is all taken, the
    /// socket is full, or it fails.
    static func writeSome(_ bytes: [UInt8], from offset: inout Int, to fd: Int32) -> WriteProgress {
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                offset += n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            return n < 0 && errno == EAGAIN ? .blocked : .failed
        }
        return .done
    }

    private struct EventLoop {
        let server: HTTPServer
        var connections: [Int32: Connection] = [:]
        /// Responses waiting for their clients to read, by socket.
        var writers: [Int32: PendingWrite] = [:]
        /// A descriptor held back to accept and close a connection when the process has no other.
        var spare: Int32 = open("/dev/null", O_RDONLY | O_CLOEXEC)

        init(server: HTTPServer) { self.server = server }

        mutating func run() {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while !server.stopping.load(ordering: .sequentiallyConsistent) {
                var polls = [
                    pollfd(fd: server.listener, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: server.wakeRead, events: Int16(POLLIN), revents: 0),
                ]
                let order = Array(connections.keys)
                polls += order.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                let writing = Array(writers.keys)
                polls += writing.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
                _ = poll(&polls, nfds_t(polls.count), 250)
                if polls[1].revents != 0 { takeReturning() }
                for (i, fd) in order.enumerated() where polls[i + 2].revents != 0 {
                    guard let connection = connections[fd] else { continue }
                    read(connection, into: &buffer)
                }
                for (i, fd) in writing.enumerated() where polls[i + 2 + order.count].revents != 0 {
                    guard let pending = writers[fd] else { continue }
                    let before = pending.offset
                    switch HTTPServer.writeSome(pending.bytes, from: &pending.offset, to: fd) {
                    case .done: finish(pending, true)
                    case .failed: finish(pending, false)
                    case .blocked:
                        if pending.offset > before { pending.deadline = Self.now() + server.limits.writeSeconds }
                    }
                }
                if polls[0].revents != 0 { accept() }
                expire()
            }
            close(server.listener)
            for connection in connections.values { close(connection.fd) }
            connections = [:]
            for pending in Array(writers.values) { finish(pending, false) }
            if spare >= 0 { close(spare) }
            close(server.wakeRead)
        }

        static func now() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_MONOTONIC, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }

        mutating func accept() {
            for _ in 0..<64 {
                let fd = Glibc.accept(server.listener, nil, nil)
                if fd < 0 {
                    if errno == EMFILE || errno == ENFILE {
                        // Out of descriptors: take the connection with the one held back and
                        // close it, so the listener is not woken for it forever.
                        if spare >= 0 { close(spare) }
                        let dropped = Glibc.accept(server.listener, nil, nil)
                        if dropped >= 0 { close(dropped) }
                        spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
                        evictIdlest()
                    }
                    return
                }
                HTTPServer.configure(fd)
                var on: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                if connections.count + server.busy.load(ordering: .relaxed) >= server.limits.connections {
                    evictIdlest()
                }
                connections[fd] = Connection(fd: fd, limits: server.limits, now: Self.now())
            }
        }

        /// Closes the reading connection that has waited longest.
        mutating func evictIdlest() {
            guard let oldest = connections.values.min(by: { $0.since < $1.since }) else { return }
            drop(oldest)
        }

        mutating func drop(_ connection: Connection) {
            connections[connection.fd] = nil
            close(connection.fd)
        }

        /// Hands a pending response's outcome to whoever waits for it.
        mutating func finish(_ pending: PendingWrite, _ written: Bool) {
            writers[pending.fd] = nil
            pending.done.resume(returning: written)
        }

        mutating func takeReturning() {
            var sink = [UInt8](repeating: 0, count: 64)
            while Glibc.read(server.wakeRead, &sink, sink.count) > 0 {}
            for pending in server.outgoing.withLock({ list -> [PendingWrite] in
                defer { list = [] }
                return list
            }) { writers[pending.fd] = pending }
            let back = server.returning.withLock { list -> [Connection] in
                defer { list = [] }
                return list
            }
            for connection in back {
                connection.since = Self.now()
                // Bytes of the next request already here start its deadline; none, the idle one.
                connection.reading = !connection.input.isEmpty
                connections[connection.fd] = connection
                // A request that came with the last one (pipelined) is read now.
                if !connection.input.isEmpty { process(connection) }
            }
        }

        mutating func read(_ connection: Connection, into buffer: inout [UInt8]) {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(connection.fd, $0.baseAddress!, $0.count) }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
            if n <= 0 {
                drop(connection)
                return
            }
            if !connection.reading {
                connection.reading = true
                connection.since = Self.now()
            }
            connection.input += buffer[..<n]
            process(connection)
        }

        /// Reads a head, checks it, reads its body, and hands the whole request on.
        mutating func process(_ connection: Connection) {
            if connection.head == nil {
                switch connection.parser.parse(connection.input) {
                case .needMore: return
                case .refuse(let response):
                    refuse(connection, response)
                    return
                case .head(let request, let headLength, let bodyLength):
                    connection.input.removeFirst(headLength)
                    if let refusal = server.headCheck(request) {
                        refuse(connection, refusal)
                        return
                    }
                    connection.head = (request, bodyLength)
                }
            }
            guard let (head, length) = connection.head, connection.input.count >= length else { return }
            var request = head
            request.body = Array(connection.input.prefix(length))
            connection.input.removeFirst(length)
            connection.head = nil
            connection.parser.reset()
            connections[connection.fd] = nil
            server.answer(request, on: connection)
        }

        /// Answers with `response` as far as the socket takes it at once, and closes.
        mutating func refuse(_ connection: Connection, _ response: HTTPResponse) {
            var bytes = response.head(keepAlive: false)
            if case .whole(let body) = response.body { bytes += body }
            _ = bytes.withUnsafeBytes { Glibc.send(connection.fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            drop(connection)
        }

        /// Closes connections past their deadlines: a request not whole in time is answered 408,
        /// and a response its client has not read for `writeSeconds` is given up.
        mutating func expire() {
            let now = Self.now()
            for pending in Array(writers.values) where now > pending.deadline { finish(pending, false) }
            for connection in Array(connections.values) {
                if connection.reading && now - connection.since > server.limits.requestSeconds {
                    refuse(connection, .text(408, "refused: the request did not arrive in time"))
                } else if !connection.reading && now - connection.since > server.limits.idleSeconds {
                    drop(connection)
                }
            }
        }
    }

    // MARK: Answering

    /// Makes the response off the loop's thread, writes it, and hands the connection back to
    /// the loop for its next request, or closes it.
    private func answer(_ request: HTTPRequest, on connection: Connection) {
        busy.add(1, ordering: .relaxed)
        Task {
            let response = await handler(request)
            var keepAlive = request.keepsAlive && response.status < 400
            var written = false
            switch response.body {
            case .whole(let body):
                keepAlive = keepAlive && !stopping.load(ordering: .relaxed)
                written = await send(response.head(keepAlive: keepAlive) + body, to: connection.fd)
            case .stream(let stream):
                keepAlive = false
                if await send(response.head(keepAlive: false), to: connection.fd) {
                    for await chunk in stream {
                        guard await send(chunk, to: connection.fd) else { break }
                    }
                }
                response.onClose?()
            }
            busy.add(-1, ordering: .relaxed)
            if written && keepAlive && !stopping.load(ordering: .sequentiallyConsistent) {
                returning.withLock { $0.append(connection) }
                wake()
            } else {
                close(connection.fd)
            }
        }
    }

    /// Writes `bytes` whole, waiting at most `writeSeconds` each time the client stops reading.
    /// What the socket takes at once is written here; the rest, by the event loop as the client
    /// reads, so that no thread waits on a client.
    private func send(_ bytes: [UInt8], to fd: Int32) async -> Bool {
        var offset = 0
        switch Self.writeSome(bytes, from: &offset, to: fd) {
        case .done: return true
        case .failed: return false
        case .blocked:
            return await withCheckedContinuation { done in
                let pending = PendingWrite(
                    fd: fd, bytes: bytes, offset: offset, deadline: EventLoop.now() + limits.writeSeconds, done: done)
                let accepted = outgoing.withLock { list -> Bool in
                    guard !stopping.load(ordering: .sequentiallyConsistent) else { return false }
                    list.append(pending)
                    return true
                }
                if accepted { wake() } else { done.resume(returning: false) }
            }
        }
    }

    // MARK: Listening

    private static func listen(host: String, port: UInt16) throws -> (Int32, UInt16) {
        // Either family's address, in storage that holds any.
        func stored<Address>(_ address: Address) -> (sockaddr_storage, socklen_t) {
            var storage = sockaddr_storage()
            withUnsafeBytes(of: address) { src in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: src) } }
            return (storage, socklen_t(MemoryLayout<Address>.size))
        }
        var storage: sockaddr_storage
        let length: socklen_t
        let family: Int32
        if host.contains(":") {
            var a = sockaddr_in6()
            a.sin6_family = sa_family_t(AF_INET6)
            a.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &a.sin6_addr) == 1 else { throw badHost(host) }
            ((storage, length), family) = (stored(a), AF_INET6)
        } else {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &a.sin_addr) == 1 else { throw badHost(host) }
            ((storage, length), family) = (stored(a), AF_INET)
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StudioError("cannot listen on \(host): \(String(cString: strerror(errno)))") }
        configure(fd)
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, Glibc.listen(fd, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw StudioError("cannot listen on \(host) port \(port): \(reason)")
        }
        var actual = sockaddr_storage()
        var actualLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
        }
        let chosen = withUnsafeBytes(of: actual) { raw -> UInt16 in
            family == AF_INET6
                ? UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
                : UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
        }
        return (fd, chosen)
    }

    private static func badHost(_ host: String) -> StudioError {
        StudioError("host \(host): \(expectedHost)")
    }

    /// What a host to listen on must be.
    static let expectedHost = "expected an IP address such as 127.0.0.1 or ::1"

    /// Whether `host` is an address the server can listen on.
    static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
