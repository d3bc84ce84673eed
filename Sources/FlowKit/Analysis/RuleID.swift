/// A rule's identifier: its snake_case name (`dead_end`), part of flowkit's interface (configuration files,
/// suppressions, baselines and reports name rules by it). The rules' own identifiers are the constants below, so
/// that the readers, the decoder and the rules write a typed value rather than a string.
public struct RuleID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The snake_case name.
    public let rawValue: String

    /// The identifier named `rawValue` (which need not be a known rule's: a configuration may name a mistyped one).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// An identifier written as a literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// Decodes the snake_case name.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the snake_case name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    public static func < (lhs: RuleID, rhs: RuleID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `back_target`.
    public static let backTarget: RuleID = "back_target"
    /// `cannot_finish`.
    public static let cannotFinish: RuleID = "cannot_finish"
    /// `constant_condition`.
    public static let constantCondition: RuleID = "constant_condition"
    /// `dead_end`.
    public static let deadEnd: RuleID = "dead_end"
    /// `duplicate_key`.
    public static let duplicateKey: RuleID = "duplicate_key"
    /// `entry_param`.
    public static let entryParam: RuleID = "entry_param"
    /// `expression`.
    public static let expression: RuleID = "expression"
    /// `finish_has_transitions`.
    public static let finishHasTransitions: RuleID = "finish_has_transitions"
    /// `maybe_null`.
    public static let maybeNull: RuleID = "maybe_null"
    /// `maybe_unset`.
    public static let maybeUnset: RuleID = "maybe_unset"
    /// `non_exhaustive_guards`.
    public static let nonExhaustiveGuards: RuleID = "non_exhaustive_guards"
    /// `schema`.
    public static let schema: RuleID = "schema"
    /// `script`.
    public static let script: RuleID = "script"
    /// `set_without_result`.
    public static let setWithoutResult: RuleID = "set_without_result"
    /// `shadowed_event`.
    public static let shadowedEvent: RuleID = "shadowed_event"
    /// `shadowed_handler`.
    public static let shadowedHandler: RuleID = "shadowed_handler"
    /// `subflow_cycle`.
    public static let subflowCycle: RuleID = "subflow_cycle"
    /// `subflow_missing`.
    public static let subflowMissing: RuleID = "subflow_missing"
    /// `syntax`.
    public static let syntax: RuleID = "syntax"
    /// `type_mismatch`.
    public static let typeMismatch: RuleID = "type_mismatch"
    /// `undeclared_event`.
    public static let undeclaredEvent: RuleID = "undeclared_event"
    /// `undeclared_state`.
    public static let undeclaredState: RuleID = "undeclared_state"
    /// `undefined_step`.
    public static let undefinedStep: RuleID = "undefined_step"
    /// `unhandled_outcome`.
    public static let unhandledOutcome: RuleID = "unhandled_outcome"
    /// `unreachable_entry`.
    public static let unreachableEntry: RuleID = "unreachable_entry"
    /// `unreachable_option`.
    public static let unreachableOption: RuleID = "unreachable_option"
    /// `unreachable_step`.
    public static let unreachableStep: RuleID = "unreachable_step"
    /// `unused_event`.
    public static let unusedEvent: RuleID = "unused_event"
}
