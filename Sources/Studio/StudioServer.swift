import FileInput
import Flipbook
import Foundation
import Synchronization

/// The studio's HTTP server: the page, its JSON API, frames as PNG and an event stream.
///
/// Safe by default: it listens on 127.0.0.1 unless told otherwise; a request whose Host is
/// not this server, or whose Origin is another site's, is refused (DNS rebinding); every API
/// request carries the token printed in the page's URL; the only file it writes is the one
/// the session saves into; and no request path is ever looked up on the file system: the
/// routes are a fixed list. Lines, headers, bodies and slow clients are bounded by
/// `HTTPServer`'s limits.
public final class StudioServer: Sendable {
    /// What a host to listen on must be: an IP address.
    public static let expectedHost = HTTPServer.expectedHost

    /// Whether `host` is an IP address the studio can listen on.
    public static func isAddress(_ host: String) -> Bool { HTTPServer.isAddress(host) }

    public let session: StudioSession
    public let host: String
    /// The secret every API request carries (`?token=` or the `X-Flipbook-Token` header).
    public let token: String
    let page: StudioPage
    private let server: Mutex<HTTPServer?>
    private let address: (host: String, port: UInt16)
    private let limits: HTTPLimits
    private let watcher: FileWatcher

    /// A server for `session` on `host:port` (port 0: any free port); `start()` listens.
    public convenience init(
        session: StudioSession, host: String = "127.0.0.1", port: UInt16 = 0, token: String? = nil
    ) throws {
        try self.init(session: session, host: host, port: port, token: token, limits: HTTPLimits())
    }

    init(session: StudioSession, host: String, port: UInt16, token: String?, limits: HTTPLimits) throws {
        self.session = session
        self.host = host
        self.token = token ?? Self.newToken()
        self.limits = limits
        page = try StudioPage.load()
        address = (host, port)
        server = Mutex(nil)
        watcher = FileWatcher(paths: []) { [weak session] _ in session?.reload() }
        watcher.watch(session.inputFiles)
    }

    /// Whether `host` is every address of the machine (`0.0.0.0` or `::`): the page, its token
    /// and the scene's values then cross the network in clear.
    public var listensEverywhere: Bool { Gate.listensEverywhere(host) }

    /// Listens, and returns once connections are accepted.
    public func start() async throws {
        let http = try HTTPServer(
            host: address.host, port: address.port, limits: limits,
            // Weak: a connection may still be answered after the studio that made it is gone
            // (stopped, or released without a stop); it is then refused, never read freed.
            headCheck: { [weak self] request in
                guard let self else { return Self.gone }
                return Gate(host: host, port: port, token: token).check(request)
            },
            handler: { [weak self] request in
                guard let self else { return Self.gone }
                return await Router(server: self).route(request)
            })
        server.withLock { $0 = http }
        http.start()
    }

    /// The answer to a request that arrives after the studio is gone.
    static let gone = HTTPResponse.text(503, "the studio has stopped")

    /// Stops listening, ends the event streams and the file watcher, and stops rendering.
    public func stop() async {
        watcher.stop()
        session.events.finish()
        session.close()
        let http = server.withLock { $0 }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                http?.stop()
                c.resume()
            }
        }
    }

    /// The port it listens on.
    public var port: UInt16 { server.withLock { $0?.port ?? 0 } }

    /// The page's address, with its token.
    public var url: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return "http://\(name):\(port)/?token=\(token)"
    }

    /// Watches the files the session reads now (after a load that named other images).
    func rewatch() { watcher.watch(session.inputFiles) }

    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }.joined()
    }
}

/// Routes a request that passed the gate.
struct Router {
    let server: StudioServer

    func route(_ request: HTTPRequest) async -> HTTPResponse {
        let api = StudioAPI(server: server)
        if request.method == "GET", let part = StudioPage.Part(rawValue: String(request.path.dropFirst())) {
            return server.page.response(part)
        }
        switch (request.method, request.path) {
        case ("GET", "/"): return server.page.response(.html)
        case ("GET", "/api/state"): return api.state()
        case ("GET", "/api/frame"): return await api.frame(request)
        case ("GET", "/api/frames"): return await api.frames(request)
        case ("GET", "/api/picture"): return await api.picture(request)
        case ("GET", "/api/score"): return await api.score(request)
        case ("GET", "/api/timeline"): return await api.timeline(request)
        case ("GET", "/api/events"): return api.events()
        case ("GET", "/api/command"): return api.command(request)
        case ("POST", "/api/edit"): return await api.edit(request)
        case ("POST", "/api/view"): return await api.view(request)
        case ("POST", "/api/timing"): return await api.timing(request)
        case ("POST", "/api/save"): return await api.save()
        case ("POST", "/api/revert"): return await api.revert()
        case ("POST", "/api/settle"): return await api.settle(request)
        case ("POST", "/api/export"): return await api.export(request)
        default:
            return .text(404, "no such page: \(request.path)")
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
    var listensEverywhere: Bool { Self.listensEverywhere(host) }

    static func listensEverywhere(_ host: String) -> Bool { host == "0.0.0.0" || host == "::" }

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

    /// A response refusing the request, or nil to let it through: run on its head, before its
    /// body is read.
    func check(_ request: HTTPRequest) -> HTTPResponse? {
        guard let hostHeader = request.headers["Host"]?.lowercased(), isThisServer(hostHeader) else {
            return .text(
                403,
                "refused: the Host header is not this server (\(allowedHosts.sorted().joined(separator: ", ")))")
        }
        if let origin = request.headers["Origin"], origin != "null" || request.method != "GET" {
            let allowed = allowedHosts.union([hostHeader]).map { "http://\($0)" }
            guard allowed.contains(origin.lowercased()) else {
                return .text(403, "refused: requests from \(origin) are not this studio's")
            }
        }
        if request.path.hasPrefix("/api/") {
            let given = request.headers["X-Flipbook-Token"] ?? request.query["token"] ?? ""
            guard Self.equal(given, token) else {
                return .text(403, "refused: a missing or wrong token (open the URL the studio printed)")
            }
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
