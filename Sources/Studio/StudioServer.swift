import FileInput
import Flipbook
import FlyingFox
import FlyingSocks
import Foundation

/// The studio's HTTP server: the page, its JSON API, frames as PNG and an event stream.
///
/// Safe by default: it listens on 127.0.0.1 unless told otherwise; a request whose Host is
/// not this server, or whose Origin is another site's, is refused (DNS rebinding); every API
/// request carries the token printed in the page's URL; the only file it writes is the one
/// the session saves into; and no request path is ever looked up on the file system: the
/// routes are a fixed list.
public final class StudioServer: Sendable {
    public let session: StudioSession
    public let host: String
    /// The secret every API request carries (`?token=` or the `X-Flipbook-Token` header).
    public let token: String
    let page: StudioPage
    private let server: HTTPServer
    private let watcher: FileWatcher

    /// A server for `session` on `host:port` (port 0: any free port); `start()` listens.
    public init(session: StudioSession, host: String = "127.0.0.1", port: UInt16 = 0, token: String? = nil) throws {
        self.session = session
        self.host = host
        self.token = token ?? Self.newToken()
        page = try StudioPage.load()
        let address: any SocketAddress
        do {
            address =
                host.contains(":")
                ? try sockaddr_in6.inet6(ip6: host, port: port) : try sockaddr_in.inet(ip4: host, port: port)
        } catch {
            throw StudioError("--host \(host): expected an IP address such as 127.0.0.1 or ::1")
        }
        server = HTTPServer(config: HTTPServer.Configuration(address: address, timeout: 60, logger: .disabled))
        watcher = FileWatcher(paths: []) { [weak session] _ in session?.reload() }
        watcher.watch(session.inputFiles)
    }

    /// Listens, and returns once connections are accepted.
    public func start() async throws {
        await server.appendRoute("*", to: Router(server: self))
        let task = Task { try await server.run() }
        do {
            try await server.waitUntilListening(timeout: 5)
        } catch {
            task.cancel()
            if case .failure(let e) = await task.result {
                throw StudioError("cannot listen on \(host): \(e.localizedDescription)")
            }
            throw error
        }
    }

    /// Stops listening, ends the event streams and the file watcher.
    public func stop() async {
        watcher.stop()
        session.events.finish()
        await server.stop(timeout: 1)
    }

    /// The port it listens on.
    public var port: UInt16 {
        get async {
            switch await server.listeningAddress {
            case .ip4(_, let port)?, .ip6(_, let port)?: return port
            default: return 0
            }
        }
    }

    /// The page's address, with its token.
    public var url: String {
        get async {
            let name = host.contains(":") ? "[\(host)]" : host
            return "http://\(name):\(await port)/?token=\(token)"
        }
    }

    /// Watches the files the session reads now (after a load that named other images).
    func rewatch() { watcher.watch(session.inputFiles) }

    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }.joined()
    }
}

/// Refuses what the server must not answer, then routes the rest.
struct Router: HTTPHandler {
    let server: StudioServer

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let port = await server.port
        if let refusal = Gate(host: server.host, port: port, token: server.token).check(request) {
            return refusal
        }
        let api = StudioAPI(server: server)
        switch (request.method, request.path) {
        case (.GET, "/"), (.GET, "/index.html"): return server.page.response(.html)
        case (.GET, "/studio.js"): return server.page.response(.script)
        case (.GET, "/studio.css"): return server.page.response(.style)
        case (.GET, "/api/state"): return api.state()
        case (.GET, "/api/frame"): return await api.frame(request)
        case (.GET, "/api/frames"): return await api.frames(request)
        case (.GET, "/api/picture"): return await api.picture(request)
        case (.GET, "/api/events"): return api.events()
        case (.POST, "/api/edit"): return try await api.edit(request)
        case (.POST, "/api/view"): return try await api.view(request)
        case (.POST, "/api/save"): return await api.save()
        case (.POST, "/api/revert"): return await api.revert()
        case (.POST, "/api/export"): return await api.export(request)
        default:
            return .text(.notFound, "no such page: \(request.path)")
        }
    }
}

/// The checks every request passes before it is routed.
struct Gate {
    let host: String
    let port: UInt16
    let token: String

    /// Whether the server was told to listen on every address (`--host 0.0.0.0` or `::`),
    /// not one of its own.
    var listensEverywhere: Bool { host == "0.0.0.0" || host == "::" }

    /// The hosts this server answers to by name, with its port: the loopback names and the
    /// address it listens on.
    var allowedHosts: Set<String> {
        var names = ["127.0.0.1", "localhost", "[::1]"]
        if !listensEverywhere { names.append(host.contains(":") ? "[\(host)]" : host) }
        return Set(names.map { "\($0):\(port)" })
    }

    /// Whether `header` names this server. Listening everywhere, its addresses are not all
    /// known, so any IP literal with this port is taken; a DNS name never is (but
    /// `localhost`), since a name is what a rebinding attack points at this machine.
    func isThisServer(_ header: String) -> Bool {
        if allowedHosts.contains(header) { return true }
        guard listensEverywhere, header.hasSuffix(":\(port)") else { return false }
        let address = String(header.dropLast(":\(port)".count))
        if address.hasPrefix("[") && address.hasSuffix("]") {
            return address.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        let parts = address.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }

    /// A response refusing the request, or nil to let it through.
    func check(_ request: HTTPRequest) -> HTTPResponse? {
        guard let hostHeader = request.headers[.host]?.lowercased(), isThisServer(hostHeader) else {
            return .text(
                .forbidden,
                "refused: the Host header is not this server (\(allowedHosts.sorted().joined(separator: ", ")))")
        }
        if let origin = request.headers[HTTPHeader("Origin")], origin != "null" || request.method != .GET {
            let allowed = allowedHosts.union([hostHeader]).map { "http://\($0)" }
            guard allowed.contains(origin.lowercased()) else {
                return .text(.forbidden, "refused: requests from \(origin) are not this studio's")
            }
        }
        if request.path.hasPrefix("/api/") {
            let given = request.headers[HTTPHeader("X-Flipbook-Token")] ?? request.query["token"] ?? ""
            guard Self.equal(given, token) else {
                return .text(.forbidden, "refused: a missing or wrong token (open the URL the studio printed)")
            }
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > 1 << 20 {
            return .text(.contentTooLarge, "refused: a request body of \(length) bytes; at most 1 MiB")
        }
        return nil
    }

    /// Compares in time that does not depend on where the strings differ.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension HTTPResponse {
    /// A response whose body goes out in one write, not in 4 KB pieces.
    init(statusCode: HTTPStatusCode, headers: HTTPHeaders, whole body: Data) {
        self.init(
            statusCode: statusCode, headers: headers,
            body: HTTPBodySequence(data: body, suggestedBufferSize: max(4096, body.count)))
    }

    static func text(_ status: HTTPStatusCode, _ message: String) -> HTTPResponse {
        HTTPResponse(
            statusCode: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            whole: Data((message + "\n").utf8))
    }

    static func json(_ text: String, status: HTTPStatusCode = .ok) -> HTTPResponse {
        HTTPResponse(
            statusCode: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            whole: Data(text.utf8))
    }

    static func png(_ bytes: [UInt8], headers extra: [HTTPHeader: String] = [:], cache: Bool = false) -> HTTPResponse {
        var headers: HTTPHeaders = [
            .contentType: "image/png", .cacheControl: cache ? "private, max-age=600" : "no-store",
        ]
        for (k, v) in extra { headers[k] = v }
        return HTTPResponse(statusCode: .ok, headers: headers, whole: Data(bytes))
    }
}

extension HTTPStatusCode {
    static let contentTooLarge = HTTPStatusCode(413, phrase: "Content Too Large")
    static let gone = HTTPStatusCode(410, phrase: "Gone")
    static let unprocessable = HTTPStatusCode(422, phrase: "Unprocessable Content")
}
