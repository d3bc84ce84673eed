/// Generates random flows from a seed, rich in what makes static analysis of flows hard: state keys of every type
/// (optional ones too), declared `inputs`, steps with and without `result` (optional keys, nested shapes), `set`s
/// on both, explicit and derived events (some reading `result`), guarded target lists with `if` and `set`,
/// `"*"` detours and shared handlers, `back: X`, `back: true`, `restart`, entries with path parameters, several
/// finish outcomes and nested flows whose outcomes set different keys.
///
/// Flows are mostly schema-valid (names are identifiers, types declared) and small (3 to 12 steps), and many of
/// them have lint findings on purpose. The same seed always gives the same bundle.
public struct BlueprintGenerator {
    private var rng: SplitMix64
    private var children: [FlowBundle.File] = []
    private let childFormat: BlueprintFormat

    private static let statePool: [BlueprintField] = [
        BlueprintField("amount", BlueprintType(.int)),
        BlueprintField("total", BlueprintType(.number)),
        BlueprintField("name", BlueprintType(.string)),
        BlueprintField("note", BlueprintType(.string)),
        BlueprintField("tier", BlueprintType(.enumeration(["gold", "basic"]))),
        BlueprintField("ok", BlueprintType(.bool)),
        BlueprintField("count", BlueprintType(.int)),
        BlueprintField("city", BlueprintType(.string)),
        BlueprintField("mode", BlueprintType(.enumeration(["fast", "slow"]))),
    ]

    private static let childStatePool: [BlueprintField] = [
        BlueprintField("token", BlueprintType(.string)),
        BlueprintField("code", BlueprintType(.string)),
        BlueprintField("tries", BlueprintType(.int)),
        BlueprintField("level", BlueprintType(.enumeration(["low", "high"]))),
        BlueprintField("fee", BlueprintType(.number)),
        BlueprintField("amount", BlueprintType(.int)),
    ]

    private static let resultPool: [BlueprintField] = [
        BlueprintField("amount", BlueprintType(.int)),
        BlueprintField("name", BlueprintType(.string)),
        BlueprintField("note", BlueprintType(.string)),
        BlueprintField("tier", BlueprintType(.enumeration(["gold", "basic"]))),
        BlueprintField("ok", BlueprintType(.bool)),
        BlueprintField("price", BlueprintType(.number)),
        BlueprintField("code", BlueprintType(.string)),
        BlueprintField("user", BlueprintType(.object([BlueprintField("name", BlueprintType(.string)),
                                                      BlueprintField("age", BlueprintType(.int, optional: true))]))),
    ]

    private static let explicitEvents = ["skip", "retry", "edit", "cancel"]
    private static let derivedEventNames = ["big", "flagged", "small"]

    private init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        childFormat = rng.chance(0.5) ? .yaml : .json
    }

    /// The bundle (a top-level flow and its nested flows) that `seed` gives.
    public static func bundle(seed: UInt64) -> FlowBundle {
        var generator = BlueprintGenerator(seed: seed)
        let format: BlueprintFormat = generator.rng.chance(0.5) ? .yaml : .json
        let main = generator.flow(name: "main", nested: true)
        return FlowBundle(main: FlowBundle.File(name: "main." + format.rawValue, flow: main), children: generator.children)
    }

    // MARK: - Flows

    private mutating func fields(from pool: [BlueprintField], count: Int, optional probability: Double) -> [BlueprintField] {
        var chosen: [BlueprintField] = []
        var remaining = pool
        for _ in 0..<min(count, pool.count) {
            var field = remaining.remove(at: rng.below(remaining.count))
            if case .enumeration = field.type.base {} else if case .object = field.type.base {} else {
                field.type.optional = rng.chance(probability)
            }
            chosen.append(field)
        }
        return chosen
    }

    private mutating func flow(name: String, nested: Bool) -> FlowBlueprint {
        let state = fields(from: nested ? Self.statePool : Self.childStatePool, count: rng.int(in: 3...6), optional: 0.35)
        var flow = FlowBlueprint(name: name, start: "s0", state: state)
        if rng.chance(0.5) {
            var inputs: [String] = []
            for _ in 0..<rng.int(in: 1...2) {
                let key = rng.pick(state).name
                if !inputs.contains(key) { inputs.append(key) }
            }
            flow.inputs = inputs
        }

        // Events: explicit ones are declared as used; derived ones read state, or the result of the step evaluating them.
        var derived: [EventBlueprint] = []
        for event in Self.derivedEventNames.prefix(rng.int(in: 0...2)) {
            let resultScope = [BlueprintField("amount", BlueprintType(.int)), BlueprintField("tier", Self.resultPool[3].type)]
            let scope = Scope(state: state, result: rng.chance(0.5) ? resultScope : nil)
            derived.append(EventBlueprint(event, expression: expression(.bool, scope, depth: 0)))
        }

        let screens = rng.int(in: nested ? 2...8 : 1...4)
        let finishNames = nested ? ["done", "cancelled", "failed"] : ["ok", "cancelled", "failed"]
        let finishes = Array(finishNames.prefix(rng.int(in: nested ? 1...3 : 2...3)))
        let screenNames = (0..<screens).map { "s\($0)" }
        var context = FlowContext(screens: screenNames, finishes: finishes, derived: derived.map(\.name), state: state)

        var steps: [StepBlueprint] = []
        for index in 0..<screens {
            if nested && index > 0 && children.count < 2 && rng.chance(0.2) {
                steps.append(flowStep(index: index, context: &context, parentState: state))
            } else {
                steps.append(screen(index: index, context: &context))
            }
        }

        // The "*" step: an alert detour, a shared back, a restart or a back to the start, a derived event.
        if rng.chance(0.6) {
            var any = StepBlueprint(name: "*")
            if rng.chance(0.6) {
                any.on.append(HandlerBlueprint("help", [TargetBlueprint(.forward("alert"))]))
                context.used.insert("help")
                if rng.chance(0.5) {
                    steps.append(StepBlueprint(name: "alert", next: [TargetBlueprint(.backOne)]))
                } else {
                    steps.append(StepBlueprint(name: "alert", on: [HandlerBlueprint("close", [TargetBlueprint(.backOne)])]))
                    context.used.insert("close")
                }
            }
            if rng.chance(0.4) {
                any.on.append(HandlerBlueprint("back", [TargetBlueprint(.backOne)]))
                context.used.insert("back")
            }
            if rng.chance(0.3) {
                let move: TargetBlueprint.Move = rng.chance(0.5) ? .back(rng.pick(screenNames)) : .restart
                any.on.append(HandlerBlueprint("cancel", [TargetBlueprint(move)]))
                context.used.insert("cancel")
            }
            if let event = derived.first?.name, rng.chance(0.5) {
                any.on.append(HandlerBlueprint(event, targets(from: -1, scope: Scope(state: state, result: nil), context: &context)))
            }
            if rng.chance(0.1) {
                any.next = [TargetBlueprint(.forward(rng.pick(finishes)))]
            }
            if !any.on.isEmpty || any.next != nil { flow.anyStep = any }
        }

        for finish in finishes {
            steps.append(StepBlueprint(name: finish, kind: "finish", outcome: nested && finish != "done" && rng.chance(0.3) ? "done" : nil))
        }
        flow.steps = steps
        flow.events = Self.explicitEvents.filter(context.used.contains).map { EventBlueprint($0) }
            + ["help", "back", "close"].filter(context.used.contains).map { EventBlueprint($0) } + derived

        if rng.chance(nested ? 0.35 : 0.1) && screens > 1 {
            for entryName in ["open", "edit"].prefix(rng.int(in: 1...2)) {
                let step = screenNames[rng.int(in: 1...(screens - 1))]
                guard steps.first(where: { $0.name == step })?.kind != "flow" else { continue }
                var parameters: [String] = []
                for _ in 0..<rng.int(in: 0...2) {
                    let key = rng.pick(state).name
                    if !parameters.contains(key) { parameters.append(key) }
                }
                flow.entries.append(EntryBlueprint(name: entryName, step: step, parameters: parameters))
            }
        }
        return flow
    }

    /// What the steps of one flow share while they are generated.
    private struct FlowContext {
        let screens: [String]
        let finishes: [String]
        let derived: [String]
        let state: [BlueprintField]
        var used: Set<String> = []
    }

    private mutating func screen(index: Int, context: inout FlowContext) -> StepBlueprint {
        var step = StepBlueprint(name: context.screens[index])
        if rng.chance(0.15) { step.kind = "action" }
        if rng.chance(0.6) {
            step.result = fields(from: Self.resultPool, count: rng.int(in: 1...3), optional: 0.3)
        }
        // A step without a declared result sometimes reads one anyway (lint should say it never has one).
        let readable = step.result ?? (rng.chance(0.05) ? [Self.resultPool[0]] : nil)
        let scope = Scope(state: context.state, result: readable)
        if rng.chance(step.result == nil ? 0.12 : 0.65) {
            step.set = assignments(scope, count: rng.int(in: 1...2))
        }
        for _ in 0..<rng.int(in: 0...2) {
            let event: String
            if !context.derived.isEmpty && rng.chance(0.3) {
                event = rng.pick(context.derived)
            } else {
                event = rng.pick(Self.explicitEvents)
                context.used.insert(event)
            }
            guard !step.on.contains(where: { $0.event == event }) else { continue }
            step.on.append(HandlerBlueprint(event, targets(from: index, scope: scope, context: &context)))
        }
        if rng.chance(step.on.isEmpty ? 0.9 : 0.7) {
            step.next = targets(from: index, scope: scope, context: &context)
        }
        return step
    }

    private mutating func flowStep(index: Int, context: inout FlowContext, parentState: [BlueprintField]) -> StepBlueprint {
        let file = "child\(children.count + 1)." + childFormat.rawValue
        let child = flow(name: "child\(children.count + 1)", nested: false)
        children.append(FlowBundle.File(name: file, flow: child))
        var step = StepBlueprint(name: context.screens[index], kind: "flow", flow: file)
        let parentScope = Scope(state: parentState, result: nil)
        // Pass the child's required inputs (almost always) and sometimes other keys.
        for field in child.state {
            let required = child.requiredInputs.contains(field.name)
            guard rng.chance(required ? 0.9 : 0.2) else { continue }
            step.input.append(BlueprintAssignment(field.name, value(for: field.type, scope: parentScope)))
        }
        // The parent reads the child's final state as `result`: the child's optional keys, and keys some outcome
        // leaves unset, make these reads interesting.
        let scope = Scope(state: parentState, result: child.state)
        step.set = assignments(scope, count: rng.int(in: 1...2))
        for outcome in child.outcomes where rng.chance(0.7) {
            step.on.append(HandlerBlueprint(outcome, targets(from: index, scope: scope, context: &context)))
        }
        if rng.chance(0.6) {
            step.next = targets(from: index, scope: scope, context: &context)
        }
        return step
    }

    // MARK: - Targets

    private mutating func move(from index: Int, context: FlowContext) -> TargetBlueprint.Move {
        let roll = rng.below(100)
        let screens = context.screens
        if roll < 9 && index > 0 { return .back(screens[rng.below(index + 1)]) }
        if roll < 11 { return .back(rng.pick(screens)) }
        if roll < 18 { return .backOne }
        if roll < 22 { return .restart }
        let later = Array(screens[min(index + 1, screens.count)...]) + context.finishes
        if rng.chance(0.8) { return .forward(rng.pick(later)) }
        return .forward(rng.pick(screens + context.finishes))
    }

    private mutating func targets(from index: Int, scope: Scope, context: inout FlowContext) -> [TargetBlueprint] {
        if rng.chance(0.3) {
            var options: [TargetBlueprint] = []
            let count = rng.int(in: 2...3)
            // Half the lists guard on one key of a finite or ordered type, as apps do (`verdict == 'approved'`,
            // `amount > 100`), and then often with no fallback: guards lint decides (`non_exhaustive_guards`).
            let decided = rng.chance(0.5) ? decidedPath(scope) : nil
            for position in 0..<count {
                var target = TargetBlueprint(move(from: index, context: context))
                if let decided {
                    if position < count - 1 || rng.chance(0.6) { target.condition = decidedGuard(decided) }
                } else if position < count - 1 || rng.chance(0.2) { target.condition = guardExpression(scope) }
                if rng.chance(0.4) { target.set = assignments(scope, count: 1) }
                options.append(target)
            }
            return options
        }
        var target = TargetBlueprint(move(from: index, context: context))
        if rng.chance(0.25) { target.set = assignments(scope, count: rng.int(in: 1...2)) }
        if rng.chance(0.05) { target.condition = guardExpression(scope) }
        return [target]
    }

    /// A key of a finite or ordered type (bool, enum, int, number, text) that guards can decide over, or nil.
    private mutating func decidedPath(_ scope: Scope) -> (path: String, base: BlueprintType.Base, optional: Bool)? {
        let candidates = scope.paths.filter { candidate in
            // One-key paths only (`result.k`, `state.k`): nested result fields are beyond the decided forms.
            guard candidate.path.split(separator: ".").count == 2 else { return false }
            if case .object = candidate.base { return false }
            return true
        }
        return rng.pickIfAny(candidates)
    }

    /// A guard over `decided` alone: a comparison with a literal, `in`, the bool itself, or `exists`.
    private mutating func decidedGuard(_ decided: (path: String, base: BlueprintType.Base, optional: Bool)) -> String {
        let path = decided.path
        if decided.optional && rng.chance(0.2) { return rng.chance(0.5) ? "exists(\(path))" : "!exists(\(path))" }
        switch decided.base {
        case .bool:
            return rng.pick([path, "!\(path)", "\(path) == true", "\(path) != false"])
        case .enumeration(let values):
            if rng.chance(0.5) { return "\(path) == '\(rng.pick(values))'" }
            let chosen = values.filter { _ in rng.chance(0.5) }
            return "\(path) in [" + (chosen.isEmpty ? [values[0]] : chosen).map { "'\($0)'" }.joined(separator: ", ") + "]"
        case .int, .number:
            let op = rng.pick(["<", "<=", ">", ">=", "==", "!="])
            return "\(path) \(op) \(literal(decided.base))"
        case .string:
            return "\(path) \(rng.pick(["==", "!="])) \(literal(.string))"
        case .object:
            return "true"
        }
    }

    /// An `if`: often `exists(state.k)` or `!exists(…)`, else any condition (with unguarded reads).
    private mutating func guardExpression(_ scope: Scope) -> String {
        let optional = scope.paths.filter(\.optional)
        if !optional.isEmpty && rng.chance(0.35) {
            let path = rng.pick(optional).path
            return rng.chance(0.7) ? "exists(\(path))" : "!exists(\(path))"
        }
        return expression(.bool, scope, depth: 0)
    }

    // MARK: - Assignments

    private mutating func assignments(_ scope: Scope, count: Int) -> [BlueprintAssignment] {
        var list: [BlueprintAssignment] = []
        for _ in 0..<count {
            let field = rng.pick(scope.state)
            guard !list.contains(where: { $0.key == field.name }) else { continue }
            list.append(BlueprintAssignment(field.name, value(for: field.type, scope: scope)))
        }
        return list
    }

    /// An expression for a key of `type`: often the idiom `result.k` (same name), sometimes `null`.
    private mutating func value(for type: BlueprintType, scope: Scope) -> String {
        if rng.chance(type.optional ? 0.05 : 0.01) { return "null" }
        let direct = scope.paths.filter { $0.path.hasPrefix("result.") && $0.base == type.base }
        if !direct.isEmpty && rng.chance(0.5) { return rng.pick(direct).path }
        return expression(type.base, scope, depth: 0)
    }

    // MARK: - Expressions

    /// What an expression may read: state keys, and the result's keys (nested shapes flattened) when there is one.
    struct Scope {
        var state: [BlueprintField]
        var result: [BlueprintField]?

        /// Every readable path with its type.
        var paths: [(path: String, base: BlueprintType.Base, optional: Bool)] {
            var list = state.map { ("state." + $0.name, $0.type.base, $0.type.optional) }
            func add(_ fields: [BlueprintField], prefix: String, optional: Bool) {
                for field in fields {
                    if case .object(let nested) = field.type.base {
                        add(nested, prefix: prefix + field.name + ".", optional: optional || field.type.optional)
                    } else {
                        list.append((prefix + field.name, field.type.base, optional || field.type.optional))
                    }
                }
            }
            if let result { add(result, prefix: "result.", optional: false) }
            return list
        }
    }

    private func paren(_ text: String, _ depth: Int) -> String { depth > 0 ? "(" + text + ")" : text }

    /// A read of a path of type `base`; an optional one is sometimes guarded with `exists(p) ? p : literal`.
    private mutating func read(_ base: BlueprintType.Base, _ scope: Scope, depth: Int) -> String? {
        let candidates = scope.paths.filter { $0.base == base }
        guard !candidates.isEmpty else { return nil }
        let chosen = rng.pick(candidates)
        if chosen.optional && rng.chance(0.4) {
            return paren("exists(\(chosen.path)) ? \(chosen.path) : \(literal(base))", depth)
        }
        return chosen.path
    }

    private mutating func literal(_ base: BlueprintType.Base) -> String {
        switch base {
        case .int: return rng.pick(["0", "1", "2", "-3", "10", "100", "250"])
        case .number: return rng.pick(["0.5", "1.5", "-2.5", "100.0"])
        case .string: return rng.pick(["''", "'a'", "'hi '", "'x y'"])
        case .bool: return rng.pick(["true", "false"])
        case .enumeration(let values): return "'" + rng.pick(values) + "'"
        case .object: return "null"
        }
    }

    /// An expression of type `base` (ints, numbers, text, bools, enums); now and then one of the wrong type.
    private mutating func expression(_ base: BlueprintType.Base, _ scope: Scope, depth: Int) -> String {
        if rng.chance(0.02) {
            // A type error on purpose.
            switch base {
            case .int, .number: return "'oops'"
            case .enumeration: return "'silver'"
            default: return "1"
            }
        }
        let leafOnly = depth >= 2
        let roll = leafOnly ? rng.below(3) : rng.below(6)
        if roll == 1 || roll == 2, let path = read(base, scope, depth: depth) { return path }
        switch base {
        case .int:
            if roll >= 3 && roll <= 4 {
                let op = rng.pick(["+", "-", "*", "+", "/", "%"])
                return paren("\(expression(.int, scope, depth: depth + 1)) \(op) \(expression(.int, scope, depth: depth + 1))", depth)
            }
            if roll == 5 { return conditional(.int, scope, depth: depth) }
            return literal(.int)
        case .number:
            if roll == 3 { return expression(.int, scope, depth: depth) }
            if roll == 4 {
                let op = rng.pick(["+", "-", "*"])
                return paren("\(expression(.number, scope, depth: depth + 1)) \(op) \(expression(.int, scope, depth: depth + 1))", depth)
            }
            if roll == 5 { return conditional(.number, scope, depth: depth) }
            return literal(.number)
        case .string:
            if roll >= 3 && roll <= 4 {
                return paren("\(expression(.string, scope, depth: depth + 1)) + \(expression(.string, scope, depth: depth + 1))", depth)
            }
            if roll == 5 { return conditional(.string, scope, depth: depth) }
            return literal(.string)
        case .enumeration(let values):
            if roll >= 3 && roll <= 4 { return conditional(base, scope, depth: depth) }
            return "'" + rng.pick(values) + "'"
        case .bool:
            return condition(scope, depth: depth, leafOnly: leafOnly)
        case .object:
            return "null"
        }
    }

    private mutating func conditional(_ base: BlueprintType.Base, _ scope: Scope, depth: Int) -> String {
        paren("\(expression(.bool, scope, depth: depth + 1)) ? \(expression(base, scope, depth: depth + 1)) : \(expression(base, scope, depth: depth + 1))", depth)
    }

    private mutating func condition(_ scope: Scope, depth: Int, leafOnly: Bool) -> String {
        let paths = scope.paths
        switch leafOnly ? rng.below(3) : rng.below(9) {
        case 0:
            if let path = read(.bool, scope, depth: depth) { return path }
            return literal(.bool)
        case 1:
            guard let path = rng.pickIfAny(paths.filter(\.optional))?.path ?? rng.pickIfAny(paths)?.path else { return "true" }
            return rng.chance(0.7) ? "exists(\(path))" : "!exists(\(path))"
        case 2, 3:
            let numeric: BlueprintType.Base = rng.chance(0.7) ? .int : .number
            let op = rng.pick([">", "<", ">=", "<=", "==", "!="])
            return paren("\(expression(numeric, scope, depth: depth + 1)) \(op) \(expression(numeric, scope, depth: depth + 1))", depth)
        case 4:
            let enums = paths.filter { if case .enumeration = $0.base { return true } else { return false } }
            guard let chosen = rng.pickIfAny(enums), case .enumeration(let values) = chosen.base else {
                return paren("\(expression(.string, scope, depth: depth + 1)) == \(literal(.string))", depth)
            }
            if rng.chance(0.5) {
                let value = rng.chance(0.05) ? "silver" : rng.pick(values)
                return paren("\(chosen.path) == '\(value)'", depth)
            }
            return paren("\(chosen.path) in [" + values.map { "'\($0)'" }.joined(separator: ", ") + "]", depth)
        case 5:
            // The guard idiom: exists(p) && p > literal.
            let optional = paths.filter { $0.optional && ($0.base == .int || $0.base == .number) }
            guard let chosen = rng.pickIfAny(optional) else { return condition(scope, depth: depth, leafOnly: true) }
            return paren("exists(\(chosen.path)) && \(chosen.path) > \(literal(.int))", depth)
        case 6:
            return paren("\(expression(.bool, scope, depth: depth + 1)) && \(expression(.bool, scope, depth: depth + 1))", depth)
        case 7:
            return paren("\(expression(.bool, scope, depth: depth + 1)) || \(expression(.bool, scope, depth: depth + 1))", depth)
        default:
            return "!" + "(" + expression(.bool, scope, depth: depth + 1) + ")"
        }
    }
}
