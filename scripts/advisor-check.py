#!/usr/bin/env python3
"""The advisor's page (/advisor) in a real headless Chromium, with security on, as a user would use it, and the
screenshots of docs/images/ (advisor.png, report-throttled.png):

1. /advisor opens without a key and offers the objectives by name; asking without a key shows the 401 the service
   gave, and a misspelt workload field shows the field it names.
2. With the key typed in, the Deployment the page comes with is asked for at throttled-10pct: the page shows the
   answer's kubectl patch with the limits.cpu the API answered, and the advice report with its trade-off plot.
   Then a Pod of two containers (each advised, one patch for both) and the observed counters the page comes with.
3. A throttled simulation (the README's first one, /b at half a CPU): its report is screenshot; its "ask it on
   /advisor" link opens the page with the advice request filled in, which is asked and answered with the cpu.max
   the API answered.

Starts the service jar (target/schedsim-*.jar, built by the caller) on $SCHEDSIM_PORT (else a free port; the
browser's DevTools on the next) with a temporary H2 database and an API key of its own.

usage: scripts/advisor-check.py [JAR]      exit 0 ok, 1 a failure, 2 chromium unavailable
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEY = "advisor-check-submit-key-01"
IMAGES = os.path.join(ROOT, "docs", "images")

# The README's first simulation: /b limited to half a CPU, throttled in every period.
TWO_GROUPS = {"name": "two-groups", "topology": {"preset": "validation-2c"},
              "cgroups": [{"path": "/a", "cpuWeight": 200}, {"path": "/b", "cpuWeight": 100, "cpuMax": "50000 100000"}],
              "workloads": [{"name": "stress-a", "cgroup": "/a", "type": "cpu-bound", "threads": 2},
                            {"name": "stress-b", "cgroup": "/b", "type": "cpu-bound", "threads": 2}],
              "durationMs": 2000, "seed": 42}

# A bare Pod of two containers, each with its own limit.
TWO_CONTAINERS = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "checkout", "namespace": "shop"},
                  "spec": {"containers": [
                      {"name": "web", "image": "checkout:2.4",
                       "resources": {"requests": {"cpu": "250m"}, "limits": {"cpu": "300m"}}},
                      {"name": "sidecar", "image": "fluent-bit:3.1",
                       "resources": {"requests": {"cpu": "50m"}, "limits": {"cpu": "100m"}}}]}}

# In the page: fills a field as typing would (the value, then the events a user's typing fires).
FILL = r"""
window.fill = (id, value) => {
  const e = document.getElementById(id);
  e.value = value;
  e.dispatchEvent(new Event('input', {bubbles: true}));
  e.dispatchEvent(new Event('change', {bubbles: true}));
};
window.pick = mode => { const r = document.querySelector('input[name=mode][value=' + mode + ']'); r.click(); };
"""

# In the page: clicks Ask and waits until the page says it is done or failed; returns what it shows.
ASK = r"""
(async () => {
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  document.getElementById('submit').click();
  const answer = document.getElementById('answer');
  const end = Date.now() + 900000;
  while (Date.now() < end && !['done', 'failed'].includes(answer.dataset.state)) await sleep(200);
  const frames = [...document.querySelectorAll('iframe.report')].map(f => ({
    circles: f.contentDocument.querySelectorAll('svg circle').length,
    dashed: f.contentDocument.querySelectorAll('[stroke-dasharray]').length,
    text: f.contentDocument.body.innerText}));
  return {state: answer.dataset.state, status: document.getElementById('status').innerText,
          problems: [...document.querySelectorAll('#status .problem code')].map(c => c.textContent),
          advices: [...document.querySelectorAll('.advice')].map(a => ({id: a.dataset.advice, status: a.dataset.status})),
          kubectl: [...document.querySelectorAll('pre.kubectl')].map(p => p.textContent),
          cpuMax: [...document.querySelectorAll('code.cpumax')].map(c => c.textContent), frames};
})()
"""


def api(port, path, body=None):
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), method="POST" if body else "GET",
                                 data=json.dumps(body).encode() if body else None,
                                 headers={"X-API-Key": KEY, "Content-Type": "application/json",
                                          "Accept": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def check(failures, ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def shot(page, name, failures):
    path = os.path.join(IMAGES, name)
    png = page.screenshot(path)
    colours = cdp.distinct_colours(png)
    check(failures, len(png) > 20000 and colours >= 16,
          "screenshot %s: %d bytes, %d distinct colours sampled" % (os.path.relpath(path, ROOT), len(png), colours))


def main():
    jar = sys.argv[1] if len(sys.argv) > 1 else next(
        (j for j in sorted(glob.glob(os.path.join(ROOT, "target", "schedsim-*.jar"))) if "plain" not in j), None)
    if not jar:
        sys.exit("no service jar: run ./mvnw -DskipTests package first")
    if not cdp.chromium():
        print("advisor-check: chromium unavailable", file=sys.stderr)
        sys.exit(2)
    work = tempfile.mkdtemp()
    base = os.environ.get("SCHEDSIM_PORT")
    port, cdp_port = (int(base), int(base) + 1) if base else (cdp.free_port(), cdp.free_port())
    service = subprocess.Popen(["java", "-jar", jar, "--server.port=%d" % port, "--schedsim.warmup=0s",
                                "--schedsim.poll-interval=50ms", "--schedsim.security.api-keys=ci:%s:submit" % KEY,
                                "--spring.datasource.url=jdbc:h2:file:%s/db;AUTO_SERVER=FALSE" % work],
                               stdout=open(os.path.join(work, "service.log"), "w"), stderr=subprocess.STDOUT)
    browser = None
    failures = []
    url = "http://127.0.0.1:%d" % port
    try:
        cdp.wait_http(url + "/actuator/health", 120)
        browser, page = cdp.browser(cdp_port, os.path.join(work, "profile"))

        # 1. Open, without a key; the objectives by name; the service's problems shown as it gave them.
        page.open(url + "/advisor")
        page.evaluate(FILL)
        options = page.evaluate("[...document.querySelectorAll('#objective option')].map(o => o.value)")
        check(failures, all(p in options for p in ("CPUThrottlingHigh", "throttled-10pct", "throttled-1pct")),
              "/advisor offers the presets by name: %s" % options)
        r = page.evaluate(ASK)
        check(failures, r["state"] == "failed" and r["status"].startswith("401 "),
              "asked without a key: %s" % r["status"].strip())
        page.evaluate("fill('key', %s)" % json.dumps(KEY))
        page.evaluate("fill('workloads', %s)" % json.dumps(
            '{"web": {"type": "periodic", "thread": 4, "runUs": 2000, "sleepUs": 8000}}'))
        r = page.evaluate(ASK)
        check(failures, r["state"] == "failed" and any("thread" in p for p in r["problems"]),
              "a misspelt workload field is shown with its field: %s" % r["status"].strip())

        # 2. The Deployment the page comes with, at the preselected throttled-10pct.
        page.evaluate("fill('workloads', %s)" % json.dumps(
            '{"web": {"type": "periodic", "threads": 4, "runUs": 2000, "sleepUs": 8000}}'))
        r = page.evaluate(ASK)
        check(failures, r["state"] == "done" and len(r["advices"]) == 1 and r["advices"][0]["status"] == "SUCCEEDED",
              "the pod was advised: %s" % (r["advices"] or r["status"]))
        if r["state"] == "done":
            a = api(port, "/api/v1/advice/" + r["advices"][0]["id"])
            limits = a["recommendation"]["limitsCpu"]
            check(failures, a["request"]["objective"].get("preset") == "throttled-10pct",
                  "the objective sent is the preset picked: %s" % a["request"]["objective"])
            check(failures, r["kubectl"] == [a["apply"]["kubernetes"]["kubectl"]]
                  and '"cpu":"%s"' % limits in r["kubectl"][0] and "deployment web" in r["kubectl"][0],
                  "the page shows the API's patch (limits.cpu %s): %s" % (limits, r["kubectl"]))
            f = r["frames"][0] if r["frames"] else {"circles": 0, "dashed": 0, "text": ""}
            check(failures, f["circles"] > 0 and f["dashed"] > 0 and "The trade-off" in f["text"]
                  and "What to apply" in f["text"] and a["apply"]["kubernetes"]["kubectl"] in f["text"],
                  "the advice report is shown with its trade-off plot (%d points) and the patch" % f["circles"])
            shot(page, "advisor.png", failures)

        # 2b. A pod of two containers, as JSON: each advised, and one patch for both; then observed counters.
        page.evaluate("fill('pod', %s)" % json.dumps(json.dumps(TWO_CONTAINERS, indent=2)))
        page.evaluate("fill('workloads', %s)" % json.dumps(json.dumps(
            {"web": {"type": "periodic", "threads": 2, "runUs": 2000, "sleepUs": 8000},
             "sidecar": {"type": "periodic", "threads": 1, "runUs": 1000, "sleepUs": 9000}})))
        page.evaluate("fill('duration', '500'); fill('objective', 'CPUThrottlingHigh')")
        r = page.evaluate(ASK)
        ok = r["state"] == "done" and [a["status"] for a in r["advices"]] == ["SUCCEEDED", "SUCCEEDED"]
        pod = api(port, "/api/v1/advice/" + r["advices"][0]["id"])["pod"] if ok else {}
        check(failures, ok and r["kubectl"][0] == pod.get("kubectl") and len(r["frames"]) == 2
              and all(f["circles"] > 0 for f in r["frames"]),
              "both containers advised, one patch for both: %s" % (r["kubectl"][:1] or r["status"]))
        page.evaluate("pick('observed'); fill('objective', 'throttled-10pct')")
        r = page.evaluate(ASK)
        ok = r["state"] == "done" and len(r["advices"]) == 1 and r["advices"][0]["status"] == "SUCCEEDED"
        a = api(port, "/api/v1/advice/" + r["advices"][0]["id"]) if ok else {}
        check(failures, ok and "observed" in a and r["cpuMax"] == ["cpu.max " + a["apply"]["cpuMax"]],
              "observed counters advised: %s" % (r["cpuMax"] or r["status"]))

        # 3. A throttled report, and from its link back to the page.
        sim = api(port, "/api/v1/simulations", TWO_GROUPS)["id"]
        status = "QUEUED"
        for _ in range(600):
            status = api(port, "/api/v1/simulations/" + sim)["status"]
            if status not in ("QUEUED", "RUNNING"):
                break
            time.sleep(0.2)
        check(failures, status == "SUCCEEDED", "the throttled simulation %s: %s" % (sim, status))
        # (a browser sends no key of its own on a navigation: the DevTools add it, for the report only)
        page.call("Network.enable")
        page.call("Network.setExtraHTTPHeaders", headers={"X-API-Key": KEY})
        page.open(url + "/api/v1/simulations/%s/report" % sim)
        text = page.evaluate("document.body.innerText")
        link = page.evaluate("(document.querySelector('a.advisor') || {}).href || ''")
        check(failures, "/b: throttled in" in text and "#request=" in link,
              "the report says /b is throttled and links to /advisor")
        shot(page, "report-throttled.png", failures)
        page.call("Network.setExtraHTTPHeaders", headers={})
        if link:
            page.open(link)
            page.evaluate(FILL)
            filled = page.evaluate("document.querySelector('input[name=mode]:checked').value + ' ' "
                                   "+ JSON.parse(document.getElementById('request').value).cgroup")
            check(failures, filled == "request /b", "the link fills in the advice request: %s" % filled)
            page.evaluate("fill('key', %s)" % json.dumps(KEY))
            r = page.evaluate(ASK)
            ok = r["state"] == "done" and len(r["advices"]) == 1 and r["advices"][0]["status"] == "SUCCEEDED"
            cpu_max = api(port, "/api/v1/advice/" + r["advices"][0]["id"])["apply"]["cpuMax"] if ok else None
            check(failures, ok and r["cpuMax"] == ["cpu.max " + cpu_max] and r["frames"]
                  and r["frames"][0]["circles"] > 0,
                  "the report's request asked from the page: %s" % (r["cpuMax"] or r["status"]))
    finally:
        if browser:
            browser.kill()
        service.terminate()
        service.wait(30)
    if failures:
        print("advisor-check: FAIL — %d check(s); the service's log: %s" % (len(failures), work), file=sys.stderr)
        sys.exit(1)
    shutil.rmtree(work, ignore_errors=True)
    print("advisor-check: PASS — /advisor asked in Chromium; screenshots in docs/images/")


if __name__ == "__main__":
    main()
