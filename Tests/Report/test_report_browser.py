"""End to end: `flowkit report` opened in a real browser, headless Chromium from Debian's packages driven by
Selenium through Debian's chromedriver (docs/format.md, "The HTML report").

Run by `make test-report` (part of `make test`) with FLOWKIT set to the built binary. Screenshots are saved in
REPORT_TEST_OUTPUT (default .build/report-tests), to be looked at.
"""
import json
import os
import pathlib
import shutil
import subprocess

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

ROOT = pathlib.Path(__file__).resolve().parents[2]
FLOWKIT = os.environ.get("FLOWKIT", str(ROOT / ".build" / "debug" / "flowkit"))
OUTPUT = pathlib.Path(os.environ.get("REPORT_TEST_OUTPUT", str(ROOT / ".build" / "report-tests")))
SAMPLES = ["flows/booking.json", "flows/onboarding.yaml", "flows/profile.yaml", "flows/signup.yaml", "flows/transfer.yaml", "flows/transfer.json"]
SCRIPTS = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "flows" / "scripts").glob("*.yaml"))


def report(args, cwd, output):
    """Runs `flowkit report`; returns the exit status and standard error."""
    result = subprocess.run([FLOWKIT, "report", *args, "-o", str(output)], cwd=cwd, capture_output=True, text=True, timeout=600)
    return result.returncode, result.stderr


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1600"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    yield driver
    driver.quit()


def open_report(browser, path):
    """Opens the report from file://; returns what the page logged to its console and the URLs it requested."""
    browser.get_log("browser")
    browser.get_log("performance")
    browser.get(path.as_uri())
    browser.find_element(By.CSS_SELECTOR, "[data-summary]")
    console = browser.get_log("browser")
    requests = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            requests.append(message["params"]["request"]["url"])
    return console, requests


def attribute_of_all(elements, name):
    return [element.get_attribute(name) for element in elements]


def steps_taken(section):
    return {node.get_attribute("data-step") for node in section.find_elements(By.CSS_SELECTOR, 'svg[data-diagram="flow"] [data-step][data-taken="true"]')}


def test_samples_open_offline_with_a_diagram_per_flow_and_scenarios_that_mark_their_steps(browser, tmp_path):
    path = tmp_path / "report.html"
    status, stderr = report(SAMPLES + [argument for script in SCRIPTS for argument in ("--script", script)], ROOT, path)
    assert status == 0, stderr
    console, requests = open_report(browser, path)
    assert console == [], console
    assert requests == [path.as_uri()], requests

    sections = browser.find_elements(By.CSS_SELECTOR, "section[data-flow]")
    flows = attribute_of_all(sections, "data-flow")
    assert flows[:len(SAMPLES)] == SAMPLES
    assert "flows/nested/sign-in.yaml" in flows
    for section in sections:
        diagrams = section.find_elements(By.CSS_SELECTOR, 'svg[data-diagram="flow"]')
        assert len(diagrams) == 1, section.get_attribute("data-flow")
        assert section.find_elements(By.CSS_SELECTOR, 'svg[data-diagram="flow"] [data-step]')
    assert int(browser.find_element(By.CSS_SELECTOR, '[data-count="passed"]').text) == len(browser.find_elements(By.CSS_SELECTOR, "[data-scenario]"))

    # Every scenario, selected, marks exactly the steps of its path that the diagram draws; selected again, nothing.
    checked = 0
    for section in sections:
        drawn = set(attribute_of_all(section.find_elements(By.CSS_SELECTOR, 'svg[data-diagram="flow"] [data-step]'), "data-step"))
        for scenario in section.find_elements(By.CSS_SELECTOR, "[data-scenario]"):
            button = scenario.find_element(By.CSS_SELECTOR, "button[data-select-scenario]")
            browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
            path_steps = set(json.loads(scenario.get_attribute("data-path")))
            assert path_steps, scenario.get_attribute("data-scenario")
            assert steps_taken(section) == path_steps & drawn
            assert button.get_attribute("aria-pressed") == "true"
            edges = json.loads(scenario.get_attribute("data-edges"))
            taken_edges = section.find_elements(By.CSS_SELECTOR, 'svg[data-diagram="flow"] [data-edge][data-taken="true"]')
            assert sorted(int(edge.get_attribute("data-edge")) for edge in taken_edges) == sorted(edges)
            button.click()
            assert steps_taken(section) == set()
            assert button.get_attribute("aria-pressed") == "false"
            checked += 1
    assert checked >= 20

    # With the keyboard: Tab reaches a scenario's button, Enter selects it, Space clears it.
    transfer = browser.find_element(By.CSS_SELECTOR, 'section[data-flow="flows/transfer.yaml"]')
    first = transfer.find_element(By.CSS_SELECTOR, "button[data-select-scenario]")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", first)
    assert browser.switch_to.active_element == first
    first.send_keys(Keys.ENTER)
    assert steps_taken(transfer) == set(json.loads(transfer.find_element(By.CSS_SELECTOR, "[data-scenario]").get_attribute("data-path")))
    # Its options, as flows/scripts/transfer.yaml's first scenario walks them (not as the report computed them).
    taken = {(edge.get_attribute("data-from"), edge.get_attribute("data-to"))
             for edge in transfer.find_elements(By.CSS_SELECTOR, 'svg[data-diagram="flow"] [data-edge][data-taken="true"]')}
    assert taken == {("amount", "invalidAmount"), ("invalidAmount", "amount"), ("amount", "tariffs"), ("tariffs", "confirmation"),
                     ("confirmation", "success"), ("success", "finish")}
    OUTPUT.mkdir(parents=True, exist_ok=True)
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", transfer)
    browser.save_screenshot(str(OUTPUT / "report-light.png"))
    first.send_keys(Keys.SPACE)
    assert steps_taken(transfer) == set()
    next_button = transfer.find_elements(By.CSS_SELECTOR, "button[data-select-scenario]")[1]
    first.send_keys(Keys.TAB)
    assert browser.switch_to.active_element in (next_button, transfer.find_elements(By.CSS_SELECTOR, "details summary")[0])

    # Dark: the page follows the colour scheme; the diagrams stay on a light card.
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        assert browser.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(13, 17, 23)"
        assert browser.execute_script("return getComputedStyle(document.querySelector('figure.diagram')).backgroundColor") == "rgb(255, 255, 255)"
        first.send_keys(Keys.ENTER)
        browser.save_screenshot(str(OUTPUT / "report-dark.png"))
        first.send_keys(Keys.ENTER)
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
    assert browser.get_log("browser") == []


def test_findings_show_their_step_and_the_report_of_the_broken_flows_fails(browser, tmp_path):
    path = tmp_path / "broken.html"
    status, stderr = report(["flows/broken"], ROOT, path)
    assert status == 1, stderr
    console, requests = open_report(browser, path)
    assert console == [] and requests == [path.as_uri()], (console, requests)
    rules = set(attribute_of_all(browser.find_elements(By.CSS_SELECTOR, "[data-finding]"), "data-rule"))
    for rule in ["maybe_unset", "back_target", "undefined_step", "unreachable_step", "dead_end", "syntax", "schema"]:
        assert rule in rules
    assert int(browser.find_element(By.CSS_SELECTOR, '[data-count="errors"]').text) == len(browser.find_elements(By.CSS_SELECTOR, '[data-finding][data-severity="error"]'))
    finding = browser.find_element(By.CSS_SELECTOR, '[data-finding][data-rule="unreachable_step"]')
    step = finding.get_attribute("data-at-step")
    section = finding.find_element(By.XPATH, "ancestor::section")
    nodes = [node for node in section.find_elements(By.CSS_SELECTOR, 'svg[data-diagram="flow"] [data-step]') if node.get_attribute("data-step") == step]
    assert len(nodes) == 1
    assert nodes[0].get_attribute("data-findings") == "1" and nodes[0].get_attribute("data-severity") == finding.get_attribute("data-severity")
    browser.execute_script("window.scrollTo(0, 0)")
    finding.find_element(By.CSS_SELECTOR, "button[data-show-step]").click()
    assert nodes[0].get_attribute("data-focused") == "true"
    assert browser.execute_script("const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight", nodes[0])
    OUTPUT.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(OUTPUT / "report-finding.png"))
    witnessed = browser.find_elements(By.CSS_SELECTOR, "[data-finding] [data-witness]")
    assert witnessed
    for witness in witnessed:
        assert "steps" in json.loads(witness.get_attribute("data-witness"))


HOSTILE_TITLE = "</script><img src=x onerror=\"window.pwned=1\"> & \"q\" 'a' ]]> <!--"
HOSTILE_SCENARIO = "<img src=x onerror=window.pwned=2> & </li></ol><b>bold</b>"
HOSTILE_FILE = "we<i>rd&\"name'.yaml"


def test_hostile_names_stay_text(browser, tmp_path):
    folder = tmp_path / "hostile"
    folder.mkdir()
    (folder / HOSTILE_FILE).write_text(
        "flowkit: 1\nflow: hostile\ntitle: " + json.dumps(HOSTILE_TITLE) + "\nstart: ask\n"
        "steps:\n"
        "  ask:\n"
        "    title: " + json.dumps("<svg onload=window.pwned=3>") + "\n"
        "    result: { name: string }\n"
        "    next:\n"
        "      - { forward: done, if: " + json.dumps("result.name == \"<script>window.pwned=4</script>\"") + " }\n"
        "      - { forward: done }\n"
        "  done: { kind: finish }\n")
    (folder / "tagged.yaml").write_text(
        "flowkit: 1\nflow: tagged\nstart: \"<b>x</b>\"\nsteps:\n  \"<b>x</b>\": { next: done }\n  done: { kind: finish }\n")
    (folder / "script.yaml").write_text(
        "flowkit-script: 1\nflow: " + json.dumps(HOSTILE_FILE) + "\nscenarios:\n"
        "  - name: " + json.dumps(HOSTILE_SCENARIO) + "\n"
        "    steps:\n      - ask: { result: { name: \"<script>window.pwned=4</script>\" } }\n"
        "    expect: { outcome: done }\n")
    path = tmp_path / "hostile.html"
    status, stderr = report(["hostile"], tmp_path, path)
    assert status == 1, stderr
    console, requests = open_report(browser, path)
    assert console == [] and requests == [path.as_uri()], (console, requests)
    assert browser.execute_script("return window.pwned === undefined")
    assert browser.find_elements(By.CSS_SELECTOR, "img, main b, script[src], iframe") == []
    section = browser.find_element(By.CSS_SELECTOR, "section[data-flow]")
    flows = attribute_of_all(browser.find_elements(By.CSS_SELECTOR, "section[data-flow]"), "data-flow")
    assert "hostile/" + HOSTILE_FILE in flows
    section = browser.find_elements(By.CSS_SELECTOR, "section[data-flow]")[flows.index("hostile/" + HOSTILE_FILE)]
    assert HOSTILE_TITLE in section.find_element(By.CSS_SELECTOR, "h2").text
    scenario = section.find_element(By.CSS_SELECTOR, "[data-scenario]")
    assert scenario.get_attribute("data-scenario") == HOSTILE_SCENARIO
    assert scenario.find_element(By.CSS_SELECTOR, "button").text == HOSTILE_SCENARIO
    assert scenario.get_attribute("data-result") == "passed"
    diagram_text = section.find_element(By.CSS_SELECTOR, 'svg[data-diagram="flow"]').get_attribute("textContent")
    assert "<svg onload=window.pwned=3>" in diagram_text
    assert "<script>window.pwned=4<" in diagram_text  # the condition, cut at 40 characters as render cuts labels
    assert "ask" in [title.get_attribute("textContent") for title in section.find_elements(By.CSS_SELECTOR, "svg [data-step] > title")]
    tagged = browser.find_elements(By.CSS_SELECTOR, "section[data-flow]")[flows.index("hostile/tagged.yaml")]
    messages = [finding.find_element(By.CSS_SELECTOR, ".message").text for finding in tagged.find_elements(By.CSS_SELECTOR, '[data-finding][data-rule="schema"]')]
    assert any("'<b>x</b>' is not a valid step name" in message for message in messages), messages
    assert tagged.find_elements(By.CSS_SELECTOR, "b") == []
    scenario.find_element(By.CSS_SELECTOR, "button").click()
    assert steps_taken(section) == {"ask", "done"}
    assert browser.execute_script("return window.pwned === undefined")
