/// What one request and one connection may cost the server: every line, header block and
/// body is capped, and every request and idle connection has a deadline, so that no client,
/// slow or hostile, holds the server's memory or a connection slot for long.
package struct HTTPLimits: Sendable {
    package init() {}

    /// Bytes in the request line.
    package var requestLine = 8 << 10
    /// Bytes in the request line and header fields together.
    package var headerBlock = 32 << 10
    package var headerFields = 100
    /// Bytes in a body; a longer one is refused from its Content-Length, unread.
    package var body = 1 << 20
    /// Seconds from a request's first byte to its last.
    package var requestSeconds = 10.0
    /// Seconds an open connection may wait for its next request.
    package var idleSeconds = 30.0
    /// Seconds a response may wait for the client to take its next bytes.
    package var writeSeconds = 10.0
    /// Connections open at once; past it, the one idle longest is closed for the newcomer.
    package var connections = 128
}

/// The head of a request read from a connection's bytes, or why it is refused. Pure: the server
/// feeds it what came so far, and it scans each byte once.
package struct HTTPRequestParser {
    package enum Result {
        /// The head is not complete yet.
        case needMore
        /// A head, the bytes it took, and the length of the body that follows it.
        case head(HTTPRequest, headLength: Int, bodyLength: Int)
        /// A request the server answers with this and then closes the connection.
        case refuse(HTTPResponse)
    }

    package let limits: HTTPLimits
    /// How far the search for the head's end has got: a head sent a byte at a time is still
    /// scanned once.
    private var scanned = 0

    package init(limits: HTTPLimits) { self.limits = limits }

    /// Starts over, for the next request on the connection.
    package mutating func reset() { scanned = 0 }

    /// Reads the head from `bytes`, the connection's unread input from its start.
    package mutating func parse(_ bytes: [UInt8]) -> Result {
        let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        var end: Int?
        var i = max(0, scanned - 3)
        while i + 3 < bytes.count {
            if bytes[i + 3] == lf && bytes[i + 2] == cr && bytes[i + 1] == lf && bytes[i] == cr {
                end = i + 4
                break
            }
            i += 1
        }
        scanned = max(scanned, bytes.count)
        guard let end else {
            if (firstLineEnd(bytes) ?? bytes.count) > limits.requestLine {
                return .refuse(.text(414, "refused: a request line over \(limits.requestLine) bytes"))
            }
            if bytes.count > limits.headerBlock {
                return .refuse(.text(431, "refused: request header fields over \(limits.headerBlock) bytes"))
            }
            return .needMore
        }
        if end > limits.headerBlock {
            return .refuse(.text(431, "refused: request header fields over \(limits.headerBlock) bytes"))
        }
        return head(String(decoding: bytes[..<(end - 4)], as: UTF8.self), length: end)
    }

    private func firstLineEnd(_ bytes: [UInt8]) -> Int? {
        bytes.prefix(limits.requestLine + 2).firstIndex(of: UInt8(ascii: "\n"))
    }

    private func head(_ text: String, length: Int) -> Result {
        let lines = text.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard lines[0].utf8.count <= limits.requestLine else {
            return .refuse(.text(414, "refused: a request line over \(limits.requestLine) bytes"))
        }
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && $0.isUppercase }),
            parts[1].hasPrefix("/"), parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0"
        else {
            return .refuse(.text(400, "refused: not an HTTP/1.1 request line"))
        }
        guard lines.count - 1 <= limits.headerFields else {
            return .refuse(.text(431, "refused: more than \(limits.headerFields) header fields"))
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                line[..<colon].allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "\u{0}" })
            else {
                return .refuse(.text(400, "refused: a malformed header field"))
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: [" ", "\t"])
            headers.append(String(line[..<colon]), value)
        }
        if headers["Transfer-Encoding"] != nil {
            return .refuse(.text(501, "refused: a body must be sent whole, with a Content-Length"))
        }
        var bodyLength = 0
        if headers.count(of: "Content-Length") > 0 {
            let values = Set(
                headers.fields.filter { $0.name.lowercased() == "content-length" }.map(\.value))
            guard values.count == 1, let text = values.first, !text.isEmpty, text.utf8.count <= 12,
                text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(text)
            else {
                return .refuse(.text(400, "refused: a malformed Content-Length"))
            }
            guard n <= limits.body else {
                return .refuse(.text(413, "refused: a request body of \(n) bytes; at most \(limits.body)"))
            }
            bodyLength = n
        }
        let (path, query) = HTTPRequest.split(target: String(parts[1]))
        let request = HTTPRequest(
            method: String(parts[0]), path: path, query: query, version: String(parts[2]), headers: headers)
        return .head(request, headLength: length, bodyLength: bodyLength)
    }
}
