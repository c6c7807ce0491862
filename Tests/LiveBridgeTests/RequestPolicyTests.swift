import Testing
@testable import LiveBridge

struct RequestPolicyTests {
    let policy = RequestPolicy(port: 8080, token: "abc123", allowedOrigins: ["http://192.168.1.5:8080"])

    @Test(arguments: [
        ("127.0.0.1:8080", true), ("localhost:8080", true), ("[::1]:8080", true), ("192.168.1.5:8080", true),
        ("LOCALHOST:8080", true), ("evil.example:8080", false), ("127.0.0.1:8081", false), ("127.0.0.1", false),
        ("127.0.0.1.nip.io:8080", false), ("", false), ("256.0.0.1:8080", false)
    ])
    func hostNamesThisServerByAddressOrLocalhost(host: String, allowed: Bool) {
        #expect(policy.isAllowedHost(host) == allowed)
    }

    @Test func aMissingHostIsRefused() {
        #expect(!policy.isAllowedHost(nil))
    }

    @Test(arguments: [
        (nil as String?, true), ("http://127.0.0.1:8080", true), ("http://localhost:8080", false),
        ("http://evil.example", false), ("https://127.0.0.1:8080", false), ("http://192.168.1.5:8080", true), ("null", false)
    ])
    func originMustBeThisSameOrigin(origin: String?, allowed: Bool) {
        #expect(policy.isAllowedOrigin(origin, host: "127.0.0.1:8080") == allowed)
    }

    @Test func theTokenGrantsControlAndNothingElseDoes() {
        #expect(policy.admit(path: "/live", token: "abc123", host: "127.0.0.1:8080", origin: nil) == .accept(canControl: true))
        #expect(policy.admit(path: "/live", token: "abc124", host: "127.0.0.1:8080", origin: nil) == .accept(canControl: false))
        #expect(policy.admit(path: "/live", token: "abc12", host: "127.0.0.1:8080", origin: nil) == .accept(canControl: false))
        #expect(policy.admit(path: "/live", token: nil, host: "127.0.0.1:8080", origin: nil) == .accept(canControl: false))
    }

    @Test func upgradesElsewhereOrFromElsewhereAreRejected() {
        guard case .reject(404) = policy.admit(path: "/ws", token: nil, host: "127.0.0.1:8080", origin: nil) else {
            Issue.record("wrong path accepted")
            return
        }
        guard case .reject(403) = policy.admit(path: "/live", token: "abc123", host: "evil.example:8080", origin: nil) else {
            Issue.record("foreign host accepted")
            return
        }
        guard case .reject(403) = policy.admit(path: "/live", token: "abc123", host: "127.0.0.1:8080", origin: "http://evil.example") else {
            Issue.record("foreign origin accepted")
            return
        }
    }
}
