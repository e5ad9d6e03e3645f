import TestSupport
import Testing

@testable import Build

@Suite("SHA-256")
struct SHA256Tests {
    /// FIPS 180-4's examples and the empty message.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func knownDigests(message: String, digest: String) {
        var hash = SHA256()
        hash.update(Array(message.utf8))
        #expect(hash.hex() == digest)
    }

    @Test func aMillionAs() {
        var hash = SHA256()
        hash.update([UInt8](repeating: 0x61, count: 1_000_000))
        #expect(hash.hex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Fed in pieces of any size, the digest is the one of the whole.
    @Test func piecesGiveTheWholesDigest() {
        var random = SeededRandom(seed: 7)
        let bytes = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &random) }
        var whole = SHA256()
        whole.update(bytes)
        let expected = whole.hex()
        for _ in 0..<20 {
            var pieces = SHA256()
            var at = 0
            while at < bytes.count {
                let n = min(bytes.count - at, Int.random(in: 0...200, using: &random))
                pieces.update(bytes[at..<(at + n)])
                at += n
            }
            #expect(pieces.hex() == expected)
        }
    }

    /// Fields cannot run into each other: ("ab", "c") and ("a", "bc") differ.
    @Test func fieldsAreSeparated() {
        var a = SHA256(), b = SHA256()
        a.update(field: "ab")
        a.update(field: "c")
        b.update(field: "a")
        b.update(field: "bc")
        #expect(a.hex() != b.hex())
    }
}
