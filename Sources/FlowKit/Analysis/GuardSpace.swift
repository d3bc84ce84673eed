/// Exact reasoning about conditions over finite or ordered values (docs/format.md, "Deciding guards"): every
/// condition is made of `true`, `false`, bool paths, `exists(p)`, comparisons of a path with a literal
/// (`== != < <= > >=`), `p in [literals]`, and `!`, `&&`, `||` of these, where each path is a state key or a key of
/// the step's declared result whose type is a bool, an enum, an int, a number or text (optional or not).
///
/// The values of each path that any condition can tell apart are finitely many classes (for an int compared with
/// 3: below 3, 3, above 3), so one representative of each class (2, 3, 4) decides every question exactly. The
/// conditions are evaluated by the evaluator the engine's semantics are tested against, on every combination of
/// representatives, so an answer is never a guess; beyond `maxValuations` combinations nothing is decided.
struct GuardSpace {
    /// A path the conditions read, with the representatives of its values.
    struct Variable {
        let root: PathRoot
        let key: String
        let type: TypeRef
        /// The representatives, in the order they are tried: declared enum values, `false` before `true`,
        /// numbers ascending, the literals' text then other text; `null` last for an optional type.
        var values: [Value] = []
        /// The representative that stands for any text no condition names, when the type is text.
        var otherText: String?
        /// Whether `exists(…)` reads the path: a non-optional state key may then also be unset (its reads fail,
        /// and `exists` is false), the last representative.
        var existsRead = false
        /// The index of the "unset" representative, when there is one.
        var unsetIndex: Int?

        var path: String { root.rawValue + "." + key }
    }

    /// One combination of representatives: an index into each variable's values, and whether there is a result.
    struct Valuation {
        let indexes: [Int]
        let hasResult: Bool
    }

    /// The most combinations decided; more and nothing is decided (the finding is left out, never guessed).
    static let maxValuations = 4_096
    /// The most evaluations of conditions one rule spends on one file (combinations times conditions, each list
    /// or question charged in full before it is searched): about a second on a slow machine. Past it, the rest
    /// is not decided, and the rule says so once.
    static let fileBudget = 1 << 20

    /// The number of combinations a search may try.
    private(set) var combinations = 1

    private(set) var variables: [Variable] = []
    /// Whether the conditions may be evaluated without a result (an explicit event at a step with `result`).
    let resultMayBeAbsent: Bool
    private let stateTypes: [String: TypeRef]
    private let resultTypes: [String: TypeRef]?
    private var constants: [[Value]] = []
    /// The index of each variable by its path (`state.k`), so that many paths cost linear time.
    private var indexByPath: [String: Int] = [:]

    /// The space of `conditions`, or nil when one of them is outside the decided forms or reads a path whose type
    /// is not known here (`resultTypes` nil: no result shape to read), or the combinations are too many.
    init?(conditions: [ExpressionNode], stateTypes: [String: TypeRef], resultTypes: [String: TypeRef]?, resultMayBeAbsent: Bool) {
        self.stateTypes = stateTypes
        self.resultTypes = resultTypes
        self.resultMayBeAbsent = resultMayBeAbsent && resultTypes != nil
        for condition in conditions {
            guard collect(condition, asCondition: true) else { return nil }
        }
        var count = 1
        for index in variables.indices {
            variables[index].values = representatives(of: variables[index], constants: constants[index])
            if variables[index].root == .state, variables[index].existsRead, !variables[index].type.optional {
                // A placeholder: the scope leaves the key out.
                variables[index].unsetIndex = variables[index].values.count
                variables[index].values.append(.null)
            }
            if variables[index].type.base == .string {
                // The last text before `null` stands for every text no literal names.
                variables[index].otherText = variables[index].values.lazy.compactMap { value -> String? in
                    if case .string(let text) = value { return text }
                    return nil
                }.last
            }
            (count, _) = count.multipliedReportingOverflow(by: variables[index].values.count)
            if count > Self.maxValuations { return nil }
        }
        if self.resultMayBeAbsent && count * 2 > Self.maxValuations { return nil }
        combinations = self.resultMayBeAbsent ? count * 2 : count
    }

    /// The space of `conditions` under an assumption (a derived event's condition, which held for its handler to
    /// run), with the assumption kept when it is in the decided forms too, else dropped (the conditions are then
    /// decided without it); nil when the conditions themselves cannot be decided.
    static func assuming(_ proposed: FlowExpression?, conditions: [ExpressionNode], stateTypes: [String: TypeRef],
                         resultTypes: [String: TypeRef]?, resultMayBeAbsent: Bool) -> (space: GuardSpace, assuming: FlowExpression?)? {
        if let proposed, let space = GuardSpace(conditions: conditions + [proposed.root], stateTypes: stateTypes,
                                                resultTypes: resultTypes, resultMayBeAbsent: resultMayBeAbsent) {
            return (space, proposed)
        }
        return GuardSpace(conditions: conditions, stateTypes: stateTypes, resultTypes: resultTypes, resultMayBeAbsent: resultMayBeAbsent)
            .map { ($0, nil) }
    }

    // MARK: - The decided forms

    private mutating func variable(_ path: ExpressionPath) -> Int? {
        guard path.keys.count == 1, let key = path.keys.first else { return nil }
        if let index = indexByPath[path.root.rawValue + "." + key] { return index }
        let type: TypeRef?
        switch path.root {
        case .state: type = stateTypes[key]
        case .result: type = resultTypes?[key]
        }
        guard let type else { return nil }
        if case .object = type.base { return nil }
        variables.append(Variable(root: path.root, key: key, type: type))
        constants.append([])
        indexByPath[path.root.rawValue + "." + key] = variables.count - 1
        return variables.count - 1
    }

    private static func isNumeric(_ type: TypeRef) -> Bool { type.base == .int || type.base == .number }

    /// Whether `condition` is in the decided forms (over `stateTypes` and `resultTypes`) with few enough combinations.
    static func isDecided(_ condition: ExpressionNode, stateTypes: [String: TypeRef], resultTypes: [String: TypeRef]?) -> Bool {
        GuardSpace(conditions: [condition], stateTypes: stateTypes, resultTypes: resultTypes, resultMayBeAbsent: false) != nil
    }

    /// A literal, a negative number (`-3`, parsed as `-` of `3`) included, or a part that reads nothing (literals
    /// and the operators on them, `100 + 250`) with the value the evaluator gives it (nil when it fails).
    static func literal(_ node: ExpressionNode) -> Value? {
        switch node {
        case .literal(let value, _):
            return value
        case .unary(.negate, .literal(.int(let value), _), _):
            let (negated, overflow) = Int64(0).subtractingReportingOverflow(value)
            return overflow ? nil : .int(negated)
        case .unary(.negate, .literal(.number(let value), _), _):
            return .number(-value)
        case .path, .exists:
            return nil
        default:
            return readsNothing(node) ? node.valueReadingNothing() : nil
        }
    }

    /// Whether `node` reads no path (it is literals and operators only).
    static func readsNothing(_ node: ExpressionNode) -> Bool {
        var pending = [node]
        while let next = pending.popLast() {
            switch next {
            case .path, .exists: return false
            default: pending.append(contentsOf: next.children)
            }
        }
        return true
    }

    private mutating func collect(_ node: ExpressionNode, asCondition: Bool) -> Bool {
        switch node {
        case .literal(.bool, _):
            return asCondition
        case .path(let path):
            guard asCondition, let index = variable(path) else { return false }
            return variables[index].type.base == .bool
        case .exists(let path, _):
            guard let index = variable(path) else { return false }
            variables[index].existsRead = true
            return true
        case .unary(.not, let operand, _):
            return collect(operand, asCondition: true)
        case .binary(.and, let lhs, let rhs, _), .binary(.or, let lhs, let rhs, _):
            return collect(lhs, asCondition: true) && collect(rhs, asCondition: true)
        case .conditional(let condition, let then, let otherwise, _):
            return asCondition && collect(condition, asCondition: true) && collect(then, asCondition: true)
                && collect(otherwise, asCondition: true)
        case .binary(let op, let lhs, let rhs, _) where op.isComparison && Self.literal(lhs) != nil && Self.literal(rhs) != nil:
            // Two literals: the evaluator gives the value; no path is read.
            return true
        case .binary(let op, .path(let lhs), .path(let rhs), _) where op.isComparison && lhs.root == rhs.root && lhs.keys == rhs.keys:
            // A path compared with itself tells none of its values apart: no representative is added.
            return variable(lhs) != nil
        case .binary(let op, let lhs, let rhs, _):
            let pair: (ExpressionPath, Value)
            if case .path(let path) = lhs, let value = Self.literal(rhs) {
                pair = (path, value)
            } else if case .path(let path) = rhs, let value = Self.literal(lhs) {
                pair = (path, value)
            } else {
                return false
            }
            guard let index = variable(pair.0) else { return false }
            switch op {
            case .equal, .notEqual:
                break
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                guard Self.isNumeric(variables[index].type) else { return false }
            default:
                return false
            }
            constants[index].append(pair.1)
            return true
        case .membership(.path(let path), let list, _):
            guard let index = variable(path) else { return false }
            for item in list {
                guard let value = Self.literal(item) else { return false }
                constants[index].append(value)
            }
            return true
        default:
            return false
        }
    }

    // MARK: - Representatives

    private func representatives(of variable: Variable, constants: [Value]) -> [Value] {
        var values: [Value]
        switch variable.type.base {
        case .bool:
            values = [.bool(false), .bool(true)]
        case .enumeration(let cases):
            values = cases.map { .string($0) }
        case .int:
            // Each constant c, and c - 1 and c + 1: every class of ints the comparisons tell apart has one of them.
            var points = Set<Int64>()
            for constant in constants {
                let bounds: [Int64]
                switch constant {
                case .int(let value): bounds = [value]
                case .number(let value) where value.isFinite:
                    // Beyond the ints, the literal splits them no more than the extreme int does.
                    if value >= 9_223_372_036_854_775_808.0 {
                        bounds = [Int64.max]
                    } else if value < -9_223_372_036_854_775_808.0 {
                        bounds = [Int64.min]
                    } else {
                        bounds = [value.rounded(.down), value.rounded(.up)].compactMap { Int64(exactly: $0) }
                    }
                default: bounds = []
                }
                for bound in bounds {
                    points.insert(bound)
                    if bound > Int64.min { points.insert(bound - 1) }
                    if bound < Int64.max { points.insert(bound + 1) }
                }
            }
            if points.isEmpty { points = [0] }
            values = points.sorted().map { .int($0) }
        case .number:
            // Each constant, a number between each two, and one beyond each end.
            let points = Set(constants.compactMap { constant -> Double? in
                switch constant {
                case .int(let value): return Double(value)
                case .number(let value) where value.isFinite: return value
                default: return nil
                }
            }).sorted()
            if points.isEmpty {
                values = [.number(0)]
            } else {
                // Each point's neighbours as well as a number between each two: where `p - 1` is `p` (beyond
                // 2^53) the next number down still lies below it, and an int literal a double cannot hold (it is
                // compared exactly) falls between its rounding and that rounding's neighbour.
                var list = [min(points[0] - 1, points[0].nextDown)]
                for (offset, point) in points.enumerated() {
                    list += [point.nextDown, point, point.nextUp]
                    if offset + 1 < points.count { list.append(point / 2 + points[offset + 1] / 2) }
                }
                list.append(max(points[points.count - 1] + 1, points[points.count - 1].nextUp))
                values = Set(list.filter(\.isFinite)).sorted().map { .number($0) }
            }
        case .string:
            // Texts are told apart by their Unicode scalars, as the evaluator compares them (not by Swift's
            // canonical equivalence, which would merge 'é' written precomposed and decomposed).
            var texts: [String] = []
            var seen = Set<[UInt8]>()
            for constant in constants {
                if case .string(let text) = constant, seen.insert(Array(text.utf8)).inserted { texts.append(text) }
            }
            values = texts.map { .string($0) } + [.string(Self.otherText(avoiding: seen))]
        case .object:
            values = []
        }
        if variable.type.optional { values.append(.null) }
        return values
    }

    /// Text that none of `texts` (as UTF-8) is, standing for all such text.
    private static func otherText(avoiding texts: Set<[UInt8]>) -> String {
        var candidate = ""
        var number = 0
        while texts.contains(Array(candidate.utf8)) {
            number += 1
            candidate = "other\(number)"
        }
        return candidate
    }

    // MARK: - Searching

    /// The first combination, in order (the first variable slowest; with a result before without one), for which
    /// `accepts` holds of the scope it makes; nil when there is none.
    func first(where accepts: (EvaluationScope) -> Bool) -> Valuation? {
        for hasResult in resultMayBeAbsent ? [true, false] : [true] {
            var indexes = [Int](repeating: 0, count: variables.count)
            while true {
                if accepts(scope(indexes, hasResult: hasResult)) { return Valuation(indexes: indexes, hasResult: hasResult) }
                // The next combination, the last variable fastest; without a result, result paths are not varied.
                var position = variables.count - 1
                while position >= 0 {
                    if !hasResult && variables[position].root == .result {
                        position -= 1
                        continue
                    }
                    indexes[position] += 1
                    if indexes[position] < variables[position].values.count { break }
                    indexes[position] = 0
                    position -= 1
                }
                if position < 0 { break }
            }
        }
        return nil
    }

    /// The scope of a combination.
    func scope(_ indexes: [Int], hasResult: Bool) -> EvaluationScope {
        var state: [String: Value] = [:]
        var result: [String: Value]? = hasResult && resultTypes != nil ? [:] : nil
        for (index, variable) in variables.enumerated() {
            if indexes[index] == variable.unsetIndex { continue }
            let value = variable.values[indexes[index]]
            switch variable.root {
            case .state: state[variable.key] = value
            case .result: if value != .null { result?[variable.key] = value }
            }
        }
        return EvaluationScope(state: state, stateTypes: stateTypes, result: result, resultTypes: resultTypes)
    }

    /// A combination in words: `result.verdict is 'pending' and state.attempts is 3`.
    func describe(_ valuation: Valuation) -> String {
        var parts: [String] = []
        for (index, variable) in variables.enumerated() {
            if !valuation.hasResult && variable.root == .result { continue }
            if valuation.indexes[index] == variable.unsetIndex {
                parts.append("\(variable.path) is unset")
                continue
            }
            let value = variable.values[valuation.indexes[index]]
            if let other = variable.otherText, value == .string(other) {
                let named = variable.values.compactMap { value -> String? in
                    if case .string(let text) = value, text != other { return Message.quoted([text]).text }
                    return nil
                }
                parts.append("\(variable.path) is " + (named.isEmpty ? "any text" : "text other than " + Self.list(named)))
            } else if case .string(let text) = value {
                parts.append("\(variable.path) is \(Message.quoted([text]).text)")
            } else {
                parts.append("\(variable.path) is \(value)")
            }
        }
        return parts.joined(separator: " and ")
    }

    /// A key for questions written alike, compared byte for byte (not by Swift's canonical equivalence of text,
    /// which the evaluator does not use): the conditions' texts, and the result shape with every enum value and
    /// key written unambiguously. (Flow text holds no NUL, which separates the parts.)
    static func signature(_ parts: [String], resultTypes: [String: TypeRef]?) -> [UInt8] {
        func written(_ type: TypeRef) -> String {
            let base: String
            switch type.base {
            case .int: base = "int"
            case .number: base = "number"
            case .string: base = "string"
            case .bool: base = "bool"
            case .enumeration(let values): base = "[" + values.map(JSONText.string).joined(separator: ",") + "]"
            case .object(let fields): base = "{" + fields.map { JSONText.string($0.name.text) + ":" + written($0.type) }.joined(separator: ",") + "}"
            }
            return base + (type.optional ? "?" : "")
        }
        let shape = resultTypes.map { types in
            types.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
                .map { JSONText.string($0.key) + ":" + written($0.value) }.joined(separator: ",")
        } ?? "-"
        return Array((parts + [shape]).joined(separator: "\u{0}").utf8)
    }

    /// `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`.
    package static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}

