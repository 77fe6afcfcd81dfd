#!/usr/bin/env python3
"""Runs every example of the Swagger UI twice in a row, in a real headless Chromium, the way a user would: opens
each operation, "Try it out", picks each example of its request body (or takes the parameters' examples), clicks
Execute twice and reads the status Swagger UI shows. Every example must answer 2xx both times (a prefilled
Idempotency-Key made the second run of an example a 409). Operations that need a value no example gives (a
simulation's id) are skipped and listed.

Drives Chromium over the DevTools protocol (scripts/cdp.py: a small WebSocket client, no Python packages needed).
Starts the service jar (target/schedsim-*.jar, built by the caller) on $SCHEDSIM_PORT (else a free port) with a
temporary H2 database.

usage: scripts/swagger-examples-check.py [JAR]      exit 0 ok, 1 a failure, 2 chromium unavailable
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Page, WebSocket, free_port, wait_http  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# Runs in the page: every operation, every example, Execute twice; returns what Swagger UI showed.
DRIVE = r"""
(async () => {
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  const until = async (f, ms) => { const end = Date.now() + ms; while (Date.now() < end) { const v = f(); if (v) return v; await sleep(50); } return null; };
  await until(() => document.querySelectorAll('.opblock').length > 0, 30000);
  const results = [];
  const blocks = [...document.querySelectorAll('.opblock')];
  for (const block of blocks) {
    const method = block.querySelector('.opblock-summary-method')?.textContent.trim();
    const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path')
        || block.querySelector('.opblock-summary-path')?.textContent.trim();
    const op = method + ' ' + path;
    if (!block.classList.contains('is-open')) (block.querySelector('.opblock-summary-control') || block.querySelector('.opblock-summary')).click();
    const tryOut = await until(() => block.querySelector('.try-out__btn'), 20000);
    if (!tryOut) { results.push({op, skipped: 'no Try it out'}); continue; }
    if (!tryOut.classList.contains('cancel')) tryOut.click();
    await sleep(200);
    const select = block.querySelector('.opblock-section-request-body select.examples-select-element');
    const examples = select ? [...select.options].map(o => o.value) : [null];
    for (const example of examples) {
      if (example !== null) {
        const setter = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set;
        setter.call(select, example);
        select.dispatchEvent(new Event('change', {bubbles: true}));
        await sleep(300);
      }
      const statuses = [];
      for (let run = 0; run < 2; run++) {
        const clear = block.querySelector('.btn-clear');
        if (clear) { clear.click(); await sleep(100); }
        block.querySelector('.execute')?.click();
        const cell = await until(() => block.querySelector('.live-responses-table .response .response-col_status'), 15000);
        if (!cell) {
          const invalid = block.querySelector('.invalid, input.invalid, .validation-errors');
          statuses.push(invalid ? 'needs input' : 'no response');
          break;
        }
        statuses.push(cell.textContent.trim().split(/\s/)[0]);
      }
      results.push({op, example, statuses});
    }
    // Close it again: every open operation renders its typed request and response models, and the page slows down
    // with each one left open.
    (block.querySelector('.opblock-summary-control') || block.querySelector('.opblock-summary')).click();
    await sleep(100);
  }
  return results;
})()
"""


def main():
    jar = sys.argv[1] if len(sys.argv) > 1 else next(
        (j for j in sorted(glob.glob(os.path.join(ROOT, "target", "schedsim-*.jar"))) if "plain" not in j), None)
    if not jar:
        sys.exit("no service jar: run ./mvnw -DskipTests package first")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("swagger-examples-check: chromium unavailable", file=sys.stderr)
        sys.exit(2)
    work = tempfile.mkdtemp()
    # SCHEDSIM_PORT: the service's port (and the browser's DevTools port, the next one), as for the shell
    # scripts (scripts/lib.sh); else free ones.
    base = os.environ.get("SCHEDSIM_PORT")
    port, cdp = (int(base), int(base) + 1) if base else (free_port(), free_port())
    service = subprocess.Popen(["java", "-jar", jar, "--server.port=%d" % port, "--schedsim.warmup=0s",
                                "--spring.datasource.url=jdbc:h2:file:%s/db;AUTO_SERVER=FALSE" % work],
                               stdout=open(os.path.join(work, "service.log"), "w"), stderr=subprocess.STDOUT)
    browser = None
    try:
        wait_http("http://127.0.0.1:%d/actuator/health" % port, 120)
        browser = subprocess.Popen([chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
                                    "--remote-debugging-port=%d" % cdp, "--user-data-dir=" + work + "/profile",
                                    "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        targets = json.loads(wait_http("http://127.0.0.1:%d/json/list" % cdp, 30))
        page = Page(WebSocket(next(t for t in targets if t["type"] == "page")["webSocketDebuggerUrl"]))
        page.call("Page.enable")
        page.call("Page.navigate", url="http://127.0.0.1:%d/swagger-ui/index.html" % port)
        results = page.evaluate(DRIVE)
    finally:
        if browser:
            browser.kill()
        service.terminate()
        service.wait(30)
    failures, ran, skipped = [], 0, []
    for r in results or []:
        label = r["op"] + ("" if r.get("example") in (None, "") else " [example %s]" % r["example"])
        statuses = r.get("statuses", [])
        if r.get("skipped") or (statuses and statuses[0] == "needs input"):
            skipped.append(label)
            continue
        ran += 1
        ok = len(statuses) == 2 and all(s.isdigit() and 200 <= int(s) < 300 for s in statuses)
        print(("ok   " if ok else "FAIL ") + label + ": " + ", ".join(statuses))
        if not ok:
            failures.append(label)
    print("skipped (need a value no example gives): " + "; ".join(skipped))
    shutil.rmtree(work, ignore_errors=True)
    if failures or ran < 5:
        print("swagger-examples-check: FAIL — %d of %d examples did not answer 2xx twice%s" % (
            len(failures), ran, "" if ran >= 5 else " (too few ran: the page was not driven)"), file=sys.stderr)
        sys.exit(1)
    print("swagger-examples-check: PASS — %d examples answered 2xx twice in a row" % ran)


if __name__ == "__main__":
    main()
