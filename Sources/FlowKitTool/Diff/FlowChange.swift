import FlowKit

/// How much a change matters to what depends on the flow (docs/format.md, "Flow changes").
package enum ChangeLevel: String, Sendable, Comparable, CaseIterable, Codable {
    /// Anything else a reviewer may want to see.
    case info
    /// A change that may break a run or a script that used to work.
    case warning
    /// A change that breaks what depends on the flow: deep links in shipped apps, parent flows, scripts.
    case breaking

    private var rank: Int {
        switch self {
        case .info: return 0
        case .warning: return 1
        case .breaking: return 2
        }
    }

    /// Whether `lhs` matters less than `rhs`.
    package static func < (lhs: ChangeLevel, rhs: ChangeLevel) -> Bool { lhs.rank < rhs.rank }
}

/// The checks `flowkit diff` makes, each with a stable identifier and its level (docs/format.md, "Flow changes").
package enum ChangeCheck: String, Sendable, CaseIterable, Codable {
    /// `start_changed`: start names another step.
    case startChanged = "start_changed"
    /// `step_added`: a step is only in the new file.
    case stepAdded = "step_added"
    /// `step_removed`: a step is only in the old file (scripts and saved runs name steps).
    case stepRemoved = "step_removed"
    /// `step_renamed`: a step only in the old file and one only in the new file are the same step renamed.
    case stepRenamed = "step_renamed"
    /// `step_kind_changed`: a step's kind changed.
    case stepKindChanged = "step_kind_changed"
    /// `step_title_changed`: a step's title changed.
    case stepTitleChanged = "step_title_changed"
    /// `step_result_changed`: a step's declared result changed.
    case stepResultChanged = "step_result_changed"
    /// `transition_added`: an option is only in the new target list.
    case transitionAdded = "transition_added"
    /// `transition_removed`: an option is only in the old target list.
    case transitionRemoved = "transition_removed"
    /// `handler_removed`: a step no longer handles an explicit event it handled, by its own `on` or by `"*"`'s.
    case handlerRemoved = "handler_removed"
    /// `transition_retargeted`: the option at the same place moves elsewhere.
    case transitionRetargeted = "transition_retargeted"
    /// `guard_changed`: the option at the same place has another condition.
    case guardChanged = "guard_changed"
    /// `set_changed`: the option or the step sets other keys or values.
    case setChanged = "set_changed"
    /// `event_added`: an event is only declared in the new file.
    case eventAdded = "event_added"
    /// `event_removed`: an event is only declared in the old file.
    case eventRemoved = "event_removed"
    /// `event_renamed`: an event only in the old file and one only in the new file are used alike.
    case eventRenamed = "event_renamed"
    /// `event_changed`: a derived event's expression changed.
    case eventChanged = "event_changed"
    /// `state_key_added`: a state key is only in the new file.
    case stateKeyAdded = "state_key_added"
    /// `state_key_removed`: a state key is only in the old file (a parent flow or the app may read it).
    case stateKeyRemoved = "state_key_removed"
    /// `state_type_changed`: a state key's type changed.
    case stateTypeChanged = "state_type_changed"
    /// `input_added`: an input is only in the new file (breaking when it is required).
    case inputAdded = "input_added"
    /// `input_removed`: an input is only in the old file.
    case inputRemoved = "input_removed"
    /// `entry_added`: an entry is only in the new file.
    case entryAdded = "entry_added"
    /// `entry_removed`: an entry is only in the old file (shipped apps open its links).
    case entryRemoved = "entry_removed"
    /// `entry_path_changed`: an entry's path or a parameter's type changed.
    case entryPathChanged = "entry_path_changed"
    /// `entry_step_changed`: an entry starts at another step.
    case entryStepChanged = "entry_step_changed"
    /// `outcome_added`: an outcome only the new file gives.
    case outcomeAdded = "outcome_added"
    /// `outcome_removed`: an outcome only the old file gives (parent flows handle outcomes).
    case outcomeRemoved = "outcome_removed"
    /// `outcome_renamed`: the finish steps that gave an outcome give another one instead.
    case outcomeRenamed = "outcome_renamed"
    /// `nested_flow_changed`: a flow step runs another file or passes other inputs.
    case nestedFlowChanged = "nested_flow_changed"
    /// `step_unreachable`: a step reached in the old file is not reached in the new one.
    case stepUnreachable = "step_unreachable"
    /// `step_now_reachable`: a step not reached in the old file is reached in the new one.
    case stepNowReachable = "step_now_reachable"
    /// `outcome_unreachable`: an outcome a run from the start could end with in the old file it cannot in the new.
    case outcomeUnreachable = "outcome_unreachable"
    /// `outcome_now_reachable`: an outcome a run from the start could not end with in the old file it can in the new.
    case outcomeNowReachable = "outcome_now_reachable"
    /// `scenario_changed`: a scenario of a script that passed on the old flow goes another way on the new one.
    case scenarioChanged = "scenario_changed"

    /// The level a change of this check has, unless the change says otherwise (`input_added` of an optional input
    /// is info).
    package var level: ChangeLevel {
        switch self {
        case .stepRemoved, .stepRenamed, .handlerRemoved, .eventRemoved, .eventRenamed, .outcomeRenamed, .inputAdded, .entryRemoved, .entryPathChanged, .outcomeRemoved: return .breaking
        case .stepResultChanged, .stateKeyRemoved, .stateTypeChanged, .entryStepChanged, .stepUnreachable, .outcomeUnreachable, .scenarioChanged: return .warning
        default: return .info
        }
    }

    /// Whether only those who read the flow's inside see a change of this check (transitions, conditions, sets,
    /// derived events, a new state key, a step now reached): `--format changelog` leaves such changes out unless
    /// their level is warning or breaking.
    package var isInternal: Bool {
        switch self {
        case .transitionAdded, .transitionRemoved, .transitionRetargeted, .guardChanged, .setChanged, .eventChanged, .stateKeyAdded, .stepNowReachable,
             .outcomeNowReachable:
            return true
        default:
            return false
        }
    }

    /// What the check finds, in a few words, for `flowkit diff --checks`.
    package var summary: String {
        switch self {
        case .startChanged: return "start names another step"
        case .stepAdded: return "a step is only in the new file"
        case .stepRemoved: return "a step is only in the old file (scripts and saved runs name steps)"
        case .stepRenamed: return "a step is renamed (scripts, saved runs and generated code name steps)"
        case .stepKindChanged: return "a step's kind changed"
        case .stepTitleChanged: return "a step's title changed"
        case .stepResultChanged: return "a step's declared result changed"
        case .transitionAdded: return "an option is only in the new target list"
        case .transitionRemoved: return "an option is only in the old target list"
        case .handlerRemoved: return "a step no longer handles an explicit event it handled, itself or through \"*\" (apps and scripts raise it there)"
        case .transitionRetargeted: return "the option at the same place moves elsewhere"
        case .guardChanged: return "the option at the same place has another condition"
        case .setChanged: return "the option or the step sets other keys or values"
        case .eventAdded: return "an event is only declared in the new file"
        case .eventRemoved: return "an event is only declared in the old file (generated Swift names it; apps and scripts raise it)"
        case .eventRenamed: return "an event is renamed (scripts and the app raise events by name)"
        case .eventChanged: return "a derived event's expression changed"
        case .stateKeyAdded: return "a state key is only in the new file"
        case .stateKeyRemoved: return "a state key is only in the old file (a parent flow or the app may read it)"
        case .stateTypeChanged: return "a state key's type changed"
        case .inputAdded: return "an input is only in the new file (breaking when it is required)"
        case .inputRemoved: return "an input is only in the old file"
        case .entryAdded: return "an entry is only in the new file"
        case .entryRemoved: return "an entry is only in the old file (shipped apps open its links)"
        case .entryPathChanged: return "an entry's path or a parameter's type changed"
        case .entryStepChanged: return "an entry starts at another step"
        case .outcomeAdded: return "an outcome only the new file gives"
        case .outcomeRemoved: return "an outcome only the old file gives (parent flows handle outcomes)"
        case .outcomeRenamed: return "an outcome is renamed (parent flows handle outcomes)"
        case .nestedFlowChanged: return "a flow step runs another file or passes other inputs"
        case .stepUnreachable: return "a step reached in the old file is not reached in the new one"
        case .stepNowReachable: return "a step not reached in the old file is reached in the new one"
        case .outcomeUnreachable: return "an outcome a run from the start could end with can no longer be reached"
        case .outcomeNowReachable: return "an outcome a run from the start could not end with can now be reached"
        case .scenarioChanged: return "a scenario of a script that passed on the old flow goes another way on the new one"
        }
    }
}

/// One semantic change between two versions of a flow file.
package struct FlowChange: Sendable, Equatable {
    /// What a change is about, in the terms of one of the two files: what the picture of a change marks, and
    /// what a reader of the change can look up in that file.
    package enum Subject: Hashable, Sendable {
        /// The flow's `start`.
        case start
        /// A step (`*` for the `"*"` step).
        case step(String)
        /// An option of a target list.
        case option(FlowOption)
        /// A step's handler of an event: its own, or the `"*"` step's (step `*`).
        case handler(step: String, event: String)
        /// A declared event.
        case event(String)
        /// A state key.
        case stateKey(String)
        /// An input.
        case input(String)
        /// An entry.
        case entry(String)
        /// An outcome the flow's finish steps give.
        case outcome(String)
        /// A scenario of a script, by its name.
        case scenario(String)
    }

    /// A place in one of the two files.
    package struct Place: Sendable, Equatable {
        /// The file, as it was named.
        package var file: String
        /// The 1-based line.
        package var line: Int
        /// The 1-based column.
        package var column: Int

        /// Creates a place.
        package init(file: String, line: Int, column: Int) {
            self.file = file
            self.line = line
            self.column = column
        }

        /// Where it is in its file.
        package var position: SourcePosition { SourcePosition(line: line, column: column) }
    }

    /// The check that found the change.
    package var check: ChangeCheck
    /// How much it matters.
    package var level: ChangeLevel
    /// What changed, lowercase, names in single quotes.
    package var message: String
    /// Where it was in the old file (nil for what was added).
    package var old: Place?
    /// Where it is in the new file (nil for what was removed).
    package var new: Place?
    /// What it was about in the old file (nil for what was added).
    package var was: Subject?
    /// What it is about in the new file (nil for what was removed).
    package var now: Subject?
    /// The new file of the two compared: where a change that has no place there (something removed) is
    /// annotated.
    package var file: String

    /// Creates a change; `file` is the new place's file, or the old one's, unless given.
    package init(check: ChangeCheck, level: ChangeLevel, message: String, old: Place?, new: Place?, was: Subject?, now: Subject?, file: String? = nil) {
        self.check = check
        self.level = level
        self.message = message
        self.old = old
        self.new = new
        self.was = was
        self.now = now
        self.file = file ?? new?.file ?? old?.file ?? ""
    }
}
