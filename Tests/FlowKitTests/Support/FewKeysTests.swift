import FlowGen
import Testing
@testable import FlowKit

/// Looking a key up, or replacing its value, by comparing keys gives what hashing gives, for dictionaries on both
/// sides of the size where the search stops comparing and starts hashing, keys present and absent, short names and
/// long ones.
@Suite("Few keys")
struct FewKeysTests {
    static let names = ["v", "w", "total", "amount", "a_rather_long_state_key_name", "a_rather_long_state_key_namf", "é", "e\u{301}"]

    static func randomDictionary(_ rng: inout SplitMix64) -> [String: Value] {
        var dictionary: [String: Value] = [:]
        for _ in 0..<Int.random(in: 0...8, using: &rng) {
            dictionary[names.randomElement(using: &rng)!] = .int(Int64.random(in: -5...5, using: &rng))
        }
        return dictionary
    }

    @Test func lookupsAgreeWithHashing() {
        var rng = SplitMix64(seed: 16)
        var compared = 0
        for _ in 0..<5_000 {
            let dictionary = Self.randomDictionary(&rng)
            if dictionary.count <= [String: Value].fewKeys { compared += 1 }
            for name in Self.names {
                #expect(dictionary.value(comparingKeys: name) == dictionary[name], "\(dictionary) \(name)")
            }
        }
        // Both ways of finding a key were exercised.
        #expect(compared > 500 && compared < 4_500)
    }

    @Test func updatesAgreeWithHashing() {
        var rng = SplitMix64(seed: 61)
        for _ in 0..<5_000 {
            var compared = Self.randomDictionary(&rng)
            var hashed = compared
            let name = Self.names.randomElement(using: &rng)!
            let value = Value.int(Int64.random(in: -5...5, using: &rng))
            #expect(compared.updateValue(value, comparingKeys: name) == hashed.updateValue(value, forKey: name))
            #expect(compared == hashed)
        }
    }
}
