import Foundation
import Testing
import FlowGen
@testable import FlowKit

@Suite("Did-you-mean suggestions")
struct SuggestionsTests {
    @Test func aPrefixIsSuggested() {
        #expect(Suggestions.closest(to: "begin", in: ["amount", "beginning", "done"]) == "beginning")
        #expect(Suggestions.closest(to: "beginning", in: ["begin", "done"]) == "begin", "the other way round too")
    }

    @Test func aPrefixMustBeAtLeastThreeCharactersAndHalfTheName() {
        #expect(Suggestions.closest(to: "beg", in: ["beginning"]) == nil)
        #expect(Suggestions.closest(to: "ab", in: ["abc"]) == nil)
    }

    @Test func oneEditPerThreeCharactersIsATypo() {
        #expect(Suggestions.closest(to: "tarifs", in: ["amount", "tariffs"]) == "tariffs")
        #expect(Suggestions.closest(to: "eror", in: ["error", "retry"]) == "error")
        #expect(Suggestions.closest(to: "confrim", in: ["confirm"]) == "confirm", "a swap of adjacent characters is one edit")
        #expect(Suggestions.closest(to: "tarfs", in: ["tariffs"]) == nil, "two edits in five characters are too many")
    }

    @Test func noSillySuggestionsForShortNames() {
        #expect(Suggestions.closest(to: "a", in: ["b"]) == nil)
        #expect(Suggestions.closest(to: "ab", in: ["ac", "ba", "b"]) == nil)
        #expect(Suggestions.closest(to: "x", in: ["xy"]) == nil)
        #expect(Suggestions.closest(to: "A", in: ["a"]) == "a", "a difference in case alone is always close")
    }

    @Test func fewerEditsWinThenPrefixesThenFileOrder() {
        #expect(Suggestions.closest(to: "tarif", in: ["tariffs", "tariff"]) == "tariff")
        #expect(Suggestions.closest(to: "begin", in: ["beginning", "begins"]) == "begins", "an edit beats a prefix")
        #expect(Suggestions.closest(to: "pay", in: ["paying", "payed"]) == "payed", "the closer prefix wins")
        #expect(Suggestions.closest(to: "cat", in: ["bat", "cut"]) == "bat", "a tie goes to the first name")
        #expect(SuggestionIndex(["bat", "cut"]).closest(to: "cat") == "bat")
    }

    @Test func theIndexAgreesWithTheDirectAnswer() {
        let names = ["amount", "tariffs", "tariff", "confirm", "beginning", "begins", "done", "cancelled", "alert", "a", "ab"]
        let index = SuggestionIndex(names)
        for word in ["tarifs", "begin", "confrim", "dne", "canceled", "alrt", "b", "Amount", "zzz", "beginnings"] {
            #expect(index.closest(to: word) == Suggestions.closest(to: word, in: names), "\(word)")
        }
    }

    @Test func theBandedDistanceEqualsTheFullOptimalStringAlignment() {
        var generator = SplitMix64(seed: 11)
        let alphabet = Array("abcd".unicodeScalars)
        for _ in 0..<2_000 {
            let a = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let b = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let full = Self.optimalStringAlignment(a, b)
            for limit in 0...4 {
                #expect(Suggestions.editDistance(a, b, limit: limit) == min(full, limit + 1), "\(a) \(b) limit \(limit)")
            }
        }
    }

    @Test func aHugeNameIsNeitherComparedNorSuggested() {
        let huge = String(repeating: "a", count: 1 << 20)
        let started = Date()
        #expect(Suggestions.closest(to: huge, in: ["aaa", huge + "b"]) == nil)
        #expect(Suggestions.closest(to: "aaa", in: [huge]) == nil)
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test func theWorkBudgetBoundsAnIndex() {
        let index = SuggestionIndex(["tariffs"], workBudget: 3)
        #expect(index.closest(to: "tarifs") == nil)
        #expect(SuggestionIndex(["tariffs"]).closest(to: "tarifs") == "tariffs")
    }

    /// The textbook optimal string alignment distance, for comparison.
    static func optimalStringAlignment(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        guard !a.isEmpty, !b.isEmpty else { return d[a.count][b.count] }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
