/// The HTML report's style sheet and script, inline in every report (docs/format.md, "The HTML report"). Neither
/// holds text from a flow: the script reads the document's hooks (`data-path`, `data-edges`, `data-at-step`)
/// through the DOM, never as markup.
enum ReportAssets {
    /// Light and dark colours (`prefers-color-scheme`); diagrams keep Graphviz's colours on a light card in both.
    static let style = """
        :root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --card: #f6f8fa;
          --error: #c0392b; --warning: #9a6700; --note: #2e6da4; --ok: #1a7f37; --accent: #bc4c00; --on-accent: #ffffff; --focus: #8250df; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --card: #151b23;
            --error: #ff7b72; --warning: #d29922; --note: #79c0ff; --ok: #3fb950; --accent: #ffa657; --on-accent: #0d1117; --focus: #d2a8ff; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        header, main, footer { max-width: 1280px; margin: 0 auto; padding: 0 24px; }
        header { padding-top: 16px; border-bottom: 1px solid var(--line); padding-bottom: 8px; }
        h1 { font-size: 22px; margin: 8px 0; }
        h2 { font-size: 19px; margin: 28px 0 4px; padding-top: 12px; border-top: 1px solid var(--line); }
        h3 { font-size: 15px; margin: 18px 0 6px; }
        code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
        .muted { color: var(--muted); }
        .verdict { font-weight: 600; font-size: 16px; }
        .verdict.passes { color: var(--ok); }
        .verdict.fails { color: var(--error); }
        dl.figures { display: flex; flex-wrap: wrap; gap: 8px 20px; margin: 8px 0; }
        dl.figures div { display: flex; gap: 6px; align-items: baseline; }
        dl.figures dt { color: var(--muted); }
        dl.figures dd { margin: 0; font-weight: 600; font-size: 16px; }
        table { border-collapse: collapse; margin: 6px 0; }
        th, td { border: 1px solid var(--line); padding: 3px 10px; text-align: left; }
        td.number { text-align: right; font-variant-numeric: tabular-nums; }
        [data-meets="false"] { color: var(--error); font-weight: 600; }
        ul.problems li { color: var(--error); }
        nav ul { display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 0; list-style: none; }
        a { color: var(--note); }
        figure.diagram { background: #ffffff; border: 1px solid var(--line); border-radius: 6px; overflow: auto; padding: 8px; margin: 10px 0; }
        figure.diagram svg { display: block; max-width: 100%; height: auto; margin: 0 auto; }
        figure.diagram.large { max-height: 85vh; }
        figure.diagram.large svg { max-width: none; }
        figure.diagram figcaption { color: #59636e; font-size: 12px; }
        svg [data-taken="true"] > polygon, svg [data-taken="true"] > ellipse, svg [data-taken="true"] > path { stroke: #d35400; stroke-width: 4px; }
        svg [data-edge][data-taken="true"] > text { fill: #a04000; font-weight: bold; }
        svg [data-focused="true"] > polygon, svg [data-focused="true"] > ellipse, svg [data-focused="true"] > path { stroke: #8250df; stroke-width: 6px; }
        ol.findings, ol.scenarios, ul.changes { padding-left: 0; list-style: none; }
        ol.findings > li, ol.scenarios > li, ul.changes > li { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; margin: 6px 0; }
        .severity { font-weight: 600; text-transform: uppercase; font-size: 11.5px; letter-spacing: .04em; }
        [data-severity="error"] > .head .severity, .error { color: var(--error); }
        [data-severity="warning"] > .head .severity, .warning { color: var(--warning); }
        [data-severity="note"] > .head .severity, .note { color: var(--note); }
        [data-result="passed"] .result { color: var(--ok); font-weight: 600; }
        [data-result="failed"] .result { color: var(--error); font-weight: 600; }
        [data-level="breaking"] .level { color: var(--error); font-weight: 600; }
        [data-level="warning"] .level { color: var(--warning); font-weight: 600; }
        pre { background: var(--card); padding: 6px 8px; border-radius: 6px; overflow: auto; margin: 6px 0; }
        pre.excerpt span { display: block; white-space: pre; }
        pre.excerpt span.at { background: rgba(212, 167, 44, .28); }
        .witness { margin: 4px 0; }
        button { font: inherit; color: inherit; background: var(--card); border: 1px solid var(--line); border-radius: 6px;
          padding: 1px 10px; cursor: pointer; }
        button:hover { border-color: var(--muted); }
        button:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        button[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: var(--on-accent); }
        details summary { cursor: pointer; color: var(--muted); }
        footer { color: var(--muted); font-size: 12px; padding: 24px; }
        """

    /// Selecting a scenario marks its steps and options on its flow's diagram; selecting a finding shows its step.
    static let script = """
        (function () {
          "use strict";
          function sectionOf(element) { return element.closest("section[data-flow]"); }
          function diagramOf(section) { return section ? section.querySelector("svg[data-diagram=\\"flow\\"]") : null; }
          function withAttribute(root, name, value) {
            var found = [];
            if (!root) { return found; }
            var all = root.querySelectorAll("[" + name + "]");
            for (var index = 0; index < all.length; index += 1) {
              if (all[index].getAttribute(name) === value) { found.push(all[index]); }
            }
            return found;
          }
          function clear(section) {
            var diagram = diagramOf(section);
            if (diagram) {
              var taken = diagram.querySelectorAll("[data-taken]");
              for (var index = 0; index < taken.length; index += 1) { taken[index].removeAttribute("data-taken"); }
            }
            var pressed = section.querySelectorAll("button[data-select-scenario][aria-pressed=\\"true\\"]");
            for (var other = 0; other < pressed.length; other += 1) { pressed[other].setAttribute("aria-pressed", "false"); }
          }
          function selectScenario(button) {
            var item = button.closest("[data-scenario]");
            var section = sectionOf(item);
            if (!section) { return; }
            var wasPressed = button.getAttribute("aria-pressed") === "true";
            clear(section);
            if (wasPressed) { return; }
            button.setAttribute("aria-pressed", "true");
            var diagram = diagramOf(section);
            var steps = JSON.parse(item.getAttribute("data-path") || "[]");
            var edges = JSON.parse(item.getAttribute("data-edges") || "[]");
            steps.forEach(function (step) {
              withAttribute(diagram, "data-step", step).forEach(function (node) { node.setAttribute("data-taken", "true"); });
            });
            edges.forEach(function (edge) {
              withAttribute(diagram, "data-edge", String(edge)).forEach(function (node) { node.setAttribute("data-taken", "true"); });
            });
          }
          function showFinding(button) {
            var item = button.closest("[data-finding]");
            var section = sectionOf(item);
            var diagram = diagramOf(section);
            var step = item.getAttribute("data-at-step");
            var nodes = step === null ? [] : withAttribute(diagram, "data-step", step);
            var target = nodes.length > 0 ? nodes[0] : (diagram || section);
            if (!target) { return; }
            target.scrollIntoView({ block: "center", inline: "center" });
            if (nodes.length > 0) {
              nodes[0].setAttribute("data-focused", "true");
              window.setTimeout(function () { nodes[0].removeAttribute("data-focused"); }, 2000);
            }
          }
          document.addEventListener("click", function (event) {
            var target = event.target;
            if (!(target instanceof Element)) { return; }
            var scenario = target.closest("button[data-select-scenario]");
            if (scenario) { selectScenario(scenario); return; }
            var finding = target.closest("button[data-show-step]");
            if (finding) { showFinding(finding); }
          });
        })();
        """
}
