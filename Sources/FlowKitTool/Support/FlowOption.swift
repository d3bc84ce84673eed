import FlowKit

/// An option of a flow's target lists by what it is, not where it is written: the step whose list holds it (`*`
/// for the `"*"` step), the list (`next`, or the handler of an event) and its place in the list. The change's
/// picture, `flowkit diff` and coverage's picture match options so.
package struct FlowOption: Hashable, Sendable {
    /// The step whose target list holds the option, `*` for the `"*"` step.
    package var step: String
    /// The target list.
    package var list: CoverageIdentity.OptionList
    /// Its place in the list, from 0.
    package var index: Int

    /// Creates an option's identity.
    package init(step: String, list: CoverageIdentity.OptionList, index: Int) {
        self.step = step
        self.list = list
        self.index = index
    }
}

extension Step {
    /// The step's target lists with their identities: its handlers in order, then `next` (empty when absent).
    package var optionLists: [(list: CoverageIdentity.OptionList, targets: [Target])] {
        on.map { (.on($0.event.text), $0.targets) } + [(.next, next ?? [])]
    }

    /// The targets of the list `list`, nil when the step has no such list.
    package func targets(of list: CoverageIdentity.OptionList) -> [Target]? {
        switch list {
        case .next: return next
        case .on(let event): return handler(for: event)?.targets
        }
    }
}
