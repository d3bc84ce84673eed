/// Generates app-shaped flows of any size in YAML and JSON, with a planted unreachable pair of steps.
enum FlowGenerator {
    /// The YAML text of a flow with `count` chained steps (each with a retry back edge and an error handler via
    /// `"*"`), an alert detour, a finish step, and two orphan steps `orphanA`/`orphanB` pointing at each other.
    static func yaml(steps count: Int) -> String {
        var text = "flowkit: 1\nflow: generated\nstart: s0\nevents:\n  retry:\n  error:\nsteps:\n"
        text += "  \"*\":\n    on:\n      error: alert\n"
        for i in 0..<count {
            let next = i + 1 < count ? "s\(i + 1)" : "done"
            let retry = i > 0 ? "s\(i - 1)" : "s0"
            text += "  s\(i):\n    title: Step \(i)\n    on:\n      retry: { back: \(retry) }\n    next: \(next)\n"
        }
        text += "  alert:\n    next: { back: true }\n  orphanA:\n    next: orphanB\n  orphanB:\n    next: orphanA\n  done:\n    kind: finish\n"
        return text
    }

    /// The JSON twin of `yaml(steps:)`.
    static func json(steps count: Int) -> String {
        var text = "{\n  \"flowkit\": 1,\n  \"flow\": \"generated\",\n  \"start\": \"s0\",\n  \"events\": { \"retry\": null, \"error\": null },\n  \"steps\": {\n"
        text += "    \"*\": { \"on\": { \"error\": \"alert\" } },\n"
        for i in 0..<count {
            let next = i + 1 < count ? "s\(i + 1)" : "done"
            let retry = i > 0 ? "s\(i - 1)" : "s0"
            text += "    \"s\(i)\": {\n      \"title\": \"Step \(i)\",\n      \"on\": { \"retry\": { \"back\": \"\(retry)\" } },\n      \"next\": \"\(next)\"\n    },\n"
        }
        text += "    \"alert\": { \"next\": { \"back\": true } },\n    \"orphanA\": { \"next\": \"orphanB\" },\n    \"orphanB\": { \"next\": \"orphanA\" },\n    \"done\": { \"kind\": \"finish\" }\n  }\n}\n"
        return text
    }
}
