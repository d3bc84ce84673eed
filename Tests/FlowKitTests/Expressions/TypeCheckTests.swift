import Testing
@testable import FlowKit

@Suite("Type check")
struct TypeCheckTests {
    typealias F = ExprFixture

    static let tariff = F.type(.enumeration(["economy", "business"]))

    func coerced(_ value: Value, _ type: TypeRef) -> Value? {
        try? TypeCheck.coerce(value, to: type).get()
    }

    func mismatch(_ value: Value, _ type: TypeRef) -> String? {
        if case .failure(let mismatch) = TypeCheck.coerce(value, to: type) { return mismatch.message }
        return nil
    }

    @Test func ints() {
        #expect(coerced(.int(5), F.type(.int)) == .int(5))
        #expect(mismatch(.number(2.5), F.type(.int)) == "expected an int, found the number 2.5")
        #expect(mismatch(.number(2), F.type(.int)) == "expected an int, found the number 2.0")
        #expect(mismatch(.string("5"), F.type(.int)) == "expected an int, found the string '5'")
        #expect(mismatch(.null, F.type(.int)) == "expected an int, found null (the type is not optional)")
    }

    @Test func numbers() {
        #expect(coerced(.int(250), F.type(.number)) == .number(250.0))
        #expect(coerced(.number(1.5), F.type(.number)) == .number(1.5))
        #expect(mismatch(.bool(true), F.type(.number)) == "expected a number, found the bool true")
        #expect(mismatch(.number(.infinity), F.type(.number)) == "expected a finite number, found inf")
    }

    @Test func stringsAndBools() {
        #expect(coerced(.string("a"), F.type(.string)) == .string("a"))
        #expect(mismatch(.int(1), F.type(.string)) == "expected a string, found the int 1")
        #expect(coerced(.bool(false), F.type(.bool)) == .bool(false))
        #expect(mismatch(.string("true"), F.type(.bool)) == "expected a bool, found the string 'true'")
        #expect(mismatch(.object([:]), F.type(.bool)) == "expected a bool, found an object")
    }

    @Test func optionals() {
        #expect(coerced(.null, F.type(.int, optional: true)) == .null)
        #expect(coerced(.int(7), F.type(.int, optional: true)) == .int(7))
        #expect(coerced(.int(7), F.type(.number, optional: true)) == .number(7))
        #expect(coerced(.null, F.type(.enumeration(["a"]), optional: true)) == .null)
        #expect(mismatch(.number(1.5), F.type(.int, optional: true)) == "expected an int, found the number 1.5")
        #expect(mismatch(.null, F.type(.string)) == "expected a string, found null (the type is not optional)")
    }

    @Test func enums() {
        #expect(coerced(.string("economy"), Self.tariff) == .string("economy"))
        #expect(mismatch(.string("vip"), Self.tariff) == "'vip' is not one of 'economy', 'business'")
        #expect(mismatch(.string("busines"), Self.tariff) == "'busines' is not one of 'economy', 'business'; did you mean 'business'?")
        #expect(mismatch(.int(1), Self.tariff) == "expected one of 'economy', 'business', found the int 1")
        #expect(mismatch(.null, Self.tariff) == "expected one of 'economy', 'business', found null (the type is not optional)")
    }

    @Test func objects() {
        let shape = F.type(.object([
            F.field("name", F.type(.string)),
            F.field("score", F.type(.number)),
            F.field("nick", F.type(.string, optional: true)),
            F.field("plan", F.type(.object([F.field("tier", Self.tariff), F.field("seats", F.type(.int))]))),
        ]))
        let good: Value = .object(["name": .string("a"), "score": .int(3), "plan": .object(["tier": .string("business"), "seats": .int(2)])])
        #expect(coerced(good, shape) == .object(["name": .string("a"), "score": .number(3), "plan": .object(["tier": .string("business"), "seats": .int(2)])]))
        let withNull: Value = .object(["name": .string("a"), "score": .int(3), "nick": .null, "plan": .object(["tier": .string("economy"), "seats": .int(1)])])
        #expect(coerced(withNull, shape) != nil)
        #expect(mismatch(.object(["score": .int(3), "plan": .object([:])]), shape) == "missing key 'name'")
        #expect(mismatch(.object(["name": .string("a"), "score": .int(3), "plan": .object(["tier": .string("economy")])]), shape) == "missing key 'plan.seats'")
        #expect(mismatch(.object(["name": .string("a"), "score": .int(3), "plan": .object(["tier": .string("gold"), "seats": .int(1)])]), shape)
            == "key 'plan.tier': 'gold' is not one of 'economy', 'business'")
        #expect(mismatch(.object(["name": .int(1), "score": .int(3), "plan": .object([:])]), shape) == "key 'name': expected a string, found the int 1")
        #expect(mismatch(.object(["name": .string("a"), "score": .int(3), "nmae": .string("b"), "plan": .object(["tier": .string("economy"), "seats": .int(1)])]), shape)
            == "unknown key 'nmae'; did you mean 'name'?")
        #expect(mismatch(.int(1), shape) == "expected an object, found the int 1")
    }

    @Test func resultFields() throws {
        let shape = [F.field("amount", F.type(.int)), F.field("age", F.type(.int, optional: true))]
        #expect(try TypeCheck.coerce(fields: ["amount": .int(5)], to: shape).get() == ["amount": .int(5)])
        #expect(throws: TypeMismatch(message: "unknown key 'amout'; did you mean 'amount'?")) {
            try TypeCheck.coerce(fields: ["amount": .int(5), "amout": .int(1)], to: shape).get()
        }
        #expect(throws: TypeMismatch(message: "key 'amount': expected an int, found the number 5.5")) {
            try TypeCheck.coerce(fields: ["amount": .number(5.5)], to: shape).get()
        }
    }

    func parsed(_ text: String, _ type: TypeRef) -> Value? {
        try? TypeCheck.parse(text: text, as: type).get()
    }

    func parseMismatch(_ text: String, _ type: TypeRef) -> String? {
        if case .failure(let mismatch) = TypeCheck.parse(text: text, as: type) { return mismatch.message }
        return nil
    }

    @Test func textToInt() {
        #expect(parsed("500", F.type(.int)) == .int(500))
        #expect(parsed("-5", F.type(.int)) == .int(-5))
        #expect(parsed("7", F.type(.int, optional: true)) == .int(7))
        #expect(parseMismatch("5.0", F.type(.int)) == "'5.0' is not an int")
        #expect(parseMismatch("abc", F.type(.int)) == "'abc' is not an int")
        #expect(parseMismatch("", F.type(.int)) == "'' is not an int")
        #expect(parseMismatch("99999999999999999999", F.type(.int)) == "'99999999999999999999' is too large for an int")
    }

    @Test func textToNumber() {
        #expect(parsed("1.5", F.type(.number)) == .number(1.5))
        #expect(parsed("500", F.type(.number)) == .number(500))
        #expect(parsed("-2e3", F.type(.number)) == .number(-2000))
        for text in ["inf", "nan", "0x10", "1.", ".5", "1e999", "", "1,5"] {
            #expect(parseMismatch(text, F.type(.number)) == "'\(text)' is not a number")
        }
    }

    @Test func textToOtherTypes() {
        #expect(parsed("hello world", F.type(.string)) == .string("hello world"))
        #expect(parsed("", F.type(.string, optional: true)) == .string(""))
        #expect(parsed("true", F.type(.bool)) == .bool(true))
        #expect(parsed("false", F.type(.bool)) == .bool(false))
        #expect(parseMismatch("yes", F.type(.bool)) == "'yes' is not a bool (true or false)")
        #expect(parsed("business", Self.tariff) == .string("business"))
        #expect(parseMismatch("economi", Self.tariff) == "'economi' is not one of 'economy', 'business'; did you mean 'economy'?")
        #expect(parseMismatch("x", F.type(.object([]))) == "an object cannot be read from the text 'x'")
    }
}
