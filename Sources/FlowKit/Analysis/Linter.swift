/// Runs every rule over loaded documents.
package enum Linter {
    /// The rules whose errors stop a flow from running at all (it cannot be read, decoded or have its expressions
    /// parsed); `flowkit simulate` runs a flow that has no error from these, whatever else lint says.
    package static let runPrerequisites: [any Rule.Type] = [SyntaxRule.self, SchemaRule.self, ExpressionRule.self]

    /// Every rule flowkit has, in the order `flowkit rules` lists them.
    package static let rules: [any Rule.Type] = [
        SyntaxRule.self,
        SchemaRule.self,
        DuplicateKeyRule.self,
        UndefinedStepRule.self,
        UndeclaredEventRule.self,
        UnusedEventRule.self,
        UnreachableStepRule.self,
        DeadEndRule.self,
        CannotFinishRule.self,
        FinishHasTransitionsRule.self,
        BackTargetRule.self,
        MaybeUnsetRule.self,
        SetWithoutResultRule.self,
        ExpressionRule.self,
        UndeclaredStateRule.self,
        TypeMismatchRule.self,
        MaybeNullRule.self,
        ConstantConditionRule.self,
        UnreachableOptionRule.self,
        NonExhaustiveGuardsRule.self,
        ShadowedHandlerRule.self,
        ShadowedEventRule.self,
        EntryParamRule.self,
        UnreachableEntryRule.self,
        SubflowMissingRule.self,
        SubflowCycleRule.self,
        UnhandledOutcomeRule.self,
        ScriptRule.self,
    ]

    /// The rule with `identifier`, when there is one.
    package static func rule(_ identifier: RuleID) -> (any Rule.Type)? {
        rules.first { $0.description.identifier == identifier }
    }

    /// The findings of only `rules`, after the steps' suppressions, with no nested flows read: the graphs are built
    /// only when one of the rules needs them (`Rule.needs`), and rules that need the nested flows do not run. For a
    /// run that must know whether a flow can run at all (`runPrerequisites`) without the whole analysis.
    package static func lint(_ document: LoadedDocument, rules: [any Rule.Type]) -> [Diagnostic] {
        let runnable = rules.filter { !$0.needs.contains(.workspace) }
        let context = LintContext(document: document, graphs: runnable.contains { $0.needs.contains(.graph) })
        return finished(runnable.flatMap { $0.check(context) }, context: context)
    }

    /// Rules whose findings a step's `lint: { allow: ... }` cannot silence: the file must be readable and well formed.
    package static let unsuppressible: Set<RuleID> = [.syntax, .schema, .duplicateKey]

    /// The number of steps from which one file's rules run on all cores (below it, threads cost more than they save).
    package static let parallelThreshold = 1_000

    /// Every finding for a loaded document, ordered by position and then rule, after the steps' suppressions.
    /// Nested flows are followed through `workspace` (without one, the rules that need them do not run). Rules
    /// named in `disabled` do not run at all (a configuration's `disabled`), so they cost nothing.
    package static func lint(_ document: LoadedDocument, workspace: LintWorkspace? = nil, disabled: Set<RuleID> = []) -> [Diagnostic] {
        lint(document, workspace: workspace, rules: rules.filter { !disabled.contains($0.description.identifier) })
    }

    /// The findings of `rules`, run over the whole analysis (graphs included), after the steps' suppressions.
    package static func lint(_ document: LoadedDocument, workspace: LintWorkspace?, rules: [any Rule.Type]) -> [Diagnostic] {
        let rules = workspace == nil ? rules.filter { !$0.needs.contains(.workspace) } : rules
        let context = LintContext(document: document, workspace: workspace)
        guard (document.flow?.steps.count ?? 0) >= parallelThreshold else {
            return finished(rules.flatMap { $0.check(context) }, context: context)
        }
        return finished(checkInParallel(rules, context), context: context)
    }

    /// The rules that take longest on a large flow, longest first (`flowkit-bench rules`): on all cores they start
    /// first, so that no core is left with one of them while the others have finished. `undeclared_state` leads
    /// the three rules that share the flow-wide type check, which it computes; the other two wait for it
    /// (`LintMemo.typeFindings`), so they go last, when it is done, rather than holding a core while they wait.
    static let longestFirst: [RuleID] = [.undeclaredState, .maybeUnset, .backTarget, .expression, .undefinedStep, .unreachableOption]
    /// The rules that read the type check `undeclared_state` computes.
    static let typeCheckReaders: Set<RuleID> = [.typeMismatch, .maybeNull]

    /// `rules`' findings, the rules run on all cores in the order `longestFirst` gives; the findings come back in
    /// `rules`' order, as a run on one core gives them.
    static func checkInParallel(_ rules: [any Rule.Type], _ context: LintContext) -> [Diagnostic] {
        func rank(_ index: Int) -> Int {
            let identifier = rules[index].description.identifier
            if let position = longestFirst.firstIndex(of: identifier) { return position }
            return typeCheckReaders.contains(identifier) ? Int.max : longestFirst.count
        }
        // A stable order: equal ranks keep the rules' order.
        let order = rules.indices.sorted { (rank($0), $0) < (rank($1), $1) }
        let results = Parallel.map(order.count) { rules[order[$0]].check(context) }
        var byRule = [[Diagnostic]](repeating: [], count: rules.count)
        for (position, index) in order.enumerated() { byRule[index] = results[position] }
        return byRule.flatMap { $0 }
    }

    /// The rules' findings after the steps' suppressions, ordered by position, then rule, then message.
    private static func finished(_ findings: [Diagnostic], context: LintContext) -> [Diagnostic] {
        var findings = findings
        if let flow = context.flow { findings = applySuppressions(findings, flow: flow, context: context) }
        return findings.sorted { ($0.position, $0.rule, $0.message) < ($1.position, $1.rule, $1.message) }
    }

    /// Drops findings a step allows with a written reason, and reports suppressions that are themselves wrong.
    static func applySuppressions(_ findings: [Diagnostic], flow: Flow, context: LintContext) -> [Diagnostic] {
        var allowed: [String: Set<RuleID>] = [:]
        var problems: [Diagnostic] = []
        let identifiers = rules.map { $0.description.identifier.rawValue }
        for step in flow.steps {
            guard let suppression = step.suppression else { continue }
            let name = step.name.text
            for rule in suppression.rules where !identifiers.contains(rule.text) {
                let suggestion = Suggestions.closest(to: rule.text, in: identifiers)
                problems.append(context.finding(SchemaRule.self, at: rule.position, step: name,
                                                fix: suggestion.flatMap { Fix(at: rule.position, replacing: rule.text, with: $0) },
                                                "unknown rule '\(name: rule.text)' in 'allow'\(verbatim: suggestion.map { "; did you mean '\($0)'?" } ?? "")"))
            }
            for rule in suppression.rules where unsuppressible.contains(RuleID(rawValue: rule.text)) {
                problems.append(context.finding(SchemaRule.self, at: rule.position, step: name, "rule '\(name: rule.text)' cannot be allowed on a step"))
            }
            guard let reason = suppression.reason, !reason.allSatisfy(\.isWhitespace) else {
                problems.append(context.finding(SchemaRule.self, at: suppression.position, step: name,
                                                "the 'lint' of step '\(name: name)' allows rules without a 'reason'; say why they do not apply here"))
                continue
            }
            allowed[name] = Set(suppression.rules.map { RuleID(rawValue: $0.text) }).subtracting(unsuppressible)
        }
        guard !allowed.isEmpty || !problems.isEmpty else { return findings }
        return findings.filter { finding in
            guard let step = finding.step, let rules = allowed[step] else { return true }
            return !rules.contains(finding.rule)
        } + problems
    }
}
