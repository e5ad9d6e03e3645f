import Foundation

/// Header fields, looked up by name without regard to case.
package struct HTTPHeaders: Sendable, ExpressibleByDictionaryLiteral {
    private(set) var fields: [(name: String, value: String)] = []

    package init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { fields.append((name, value)) }
    }

    /// The first field named `name`; setting replaces every field of that name.
    package subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
        set {
            fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            if let newValue { fields.append((name, newValue)) }
        }
    }

    /// How many fields are named `name`.
    func count(of name: String) -> Int {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.count
    }

    mutating func append(_ name: String, _ value: String) { fields.append((name, value)) }
}

/// A request as the studio's routes see it: its head, and its body once read whole.
package struct HTTPRequest: Sendable {
    var method: String
    /// The target's path, without the query.
    var path: String
    /// The query's parameters, percent-decoded (the last of a repeated name wins).
    var query: [String: String]
    var version: String
    var headers: HTTPHeaders
    var body: [UInt8] = []

    var bodyData: Data { Data(body) }

    /// Whether the client keeps the connection open after the response.
    var keepsAlive: Bool {
        let connection = headers["Connection"]?.lowercased() ?? ""
        return version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
    }

    /// Splits a request target into its path and its decoded query.
    static func split(target: String) -> (path: String, query: [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (s: Substring) in
                s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
            }
            query[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return (String(target[..<mark]), query)
    }
}

/// A response: a status, header fields and a body sent whole, or a stream of chunks sent as
/// they come until the stream ends (the connection then closes).
package struct HTTPResponse: Sendable {
    package enum Body: Sendable {
        case whole([UInt8])
        case stream(AsyncStream<[UInt8]>)
    }

    var status: Int
    var headers: HTTPHeaders
    var body: Body
    /// Called once a streamed body's connection has ended, however it ended.
    var onClose: (@Sendable () -> Void)?

    init(status: Int, headers: HTTPHeaders = [:], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = .whole(body)
    }

    init(
        status: Int, headers: HTTPHeaders = [:], stream: AsyncStream<[UInt8]>,
        onClose: (@Sendable () -> Void)? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = .stream(stream)
        self.onClose = onClose
    }

    static func text(_ status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"],
            body: Array((message + "\n").utf8))
    }

    static func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: Array(text.utf8))
    }

    static func png(_ bytes: [UInt8], headers extra: [String: String] = [:], cache: Bool = false) -> HTTPResponse {
        var headers: HTTPHeaders = [
            "Content-Type": "image/png", "Cache-Control": cache ? "private, max-age=600" : "no-store",
        ]
        for (k, v) in extra { headers[k] = v }
        return HTTPResponse(status: 200, headers: headers, body: bytes)
    }

    /// The status line and header block, with the length of a whole body and whether the
    /// connection stays open.
    func head(keepAlive: Bool) -> [UInt8] {
        var lines = ["HTTP/1.1 \(status) \(Self.reason(status))"]
        var headers = self.headers
        switch body {
        case .whole(let bytes): headers["Content-Length"] = "\(bytes.count)"
        case .stream: headers["Content-Length"] = nil
        }
        headers["Connection"] = keepAlive ? "keep-alive" : "close"
        for field in headers.fields { lines.append("\(field.name): \(field.value)") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 411: return "Length Required"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 422: return "Unprocessable Content"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
