#!/usr/bin/env python3
"""The limits advisor's answer across seeds, and its time to an answer on this machine.

Starts the service (target/schedsim-*.jar, a temporary H2 database, a free port, the advisor polling every 50 ms),
then for each of AS_SCENARIOS (default: example,advice-burstable-pod,advice-latency-burst) and each seed of
AS_SEEDS (default 1,2,3,42), one after the other: "example" submits Swagger's advisor example (a 0.8-CPU periodic
service, at most 5 % throttled periods, quotas 20-200 ms on a 100 ms period; the periods with AS_PERIODS, e.g.
AS_PERIODS=100000,50000) with that seed; any other name runs that shipped advisor scenario by name
(POST /api/v1/scenarios/NAME/run with {"seed": seed}). Prints each answer, its bracket, its steps and the wall time
from submission to answer.
    python3 scripts/advice-stability.py
    AS_SCENARIOS=advice-latency-burst AS_SEEDS=1,2 python3 scripts/advice-stability.py
"""
import glob, json, os, socket, subprocess, sys, tempfile, time, urllib.request

jar = [j for j in glob.glob("target/schedsim-*.jar") if "plain" not in j]
if not jar:
    sys.exit("build the jar first: ./mvnw -DskipTests package")
work = tempfile.mkdtemp()
# SCHEDSIM_PORT: the port to run the service on (else a free one), as for the shell scripts (scripts/lib.sh)
if os.environ.get("SCHEDSIM_PORT"):
    port = int(os.environ["SCHEDSIM_PORT"])
else:
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
proc = subprocess.Popen(["java", "-jar", jar[0], f"--server.port={port}", f"--spring.datasource.url=jdbc:h2:file:{work}/db;AUTO_SERVER=FALSE",
                         "--schedsim.warmup=0s", "--schedsim.advice.poll-interval=50ms"],
                        stdout=open(f"{work}/service.log", "w"), stderr=subprocess.STDOUT)
base = f"http://127.0.0.1:{port}"


def call(method, path, body=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)


try:
    for _ in range(240):
        try:
            urllib.request.urlopen(base + "/actuator/health"); break
        except Exception:
            time.sleep(0.5)
    periods = [int(p) for p in os.environ.get("AS_PERIODS", "100000").split(",")]
    seeds = [int(x) for x in os.environ.get("AS_SEEDS", "1,2,3,42").split(",")]
    for name in os.environ.get("AS_SCENARIOS", "example,advice-burstable-pod,advice-latency-burst").split(","):
        for seed in seeds:
            t0 = time.time()
            if name == "example":
                body = {"name": f"seed-{seed}", "request": {"topology": {"preset": "validation-2c"},
                        "cgroups": [{"path": "/web", "cpuMax": "50000 100000"}],
                        "workloads": [{"name": "web", "cgroup": "/web", "type": "periodic", "threads": 4,
                                       "runUs": 2000, "sleepUs": 8000}],
                        "durationMs": 1000, "seed": seed},
                        "cgroup": "/web", "workload": "web", "objective": {"maxThrottledPeriodsPct": 5},
                        "search": {"quotaUs": {"min": 20000, "max": 200000}, "periodsUs": periods}, "repetitions": 2}
                a = call("POST", "/api/v1/advice", body)
            else:
                a = call("POST", f"/api/v1/scenarios/{name}/run", {"seed": seed})
            while a["status"] == "RUNNING":
                time.sleep(0.05)
                a = call("GET", "/api/v1/advice/" + a["id"])
            dt = time.time() - t0
            rec = a.get("recommendation") or {}
            br = a.get("bracket") or {}
            print(f"{name} seed {seed}: {a['status']} cpu.max {rec.get('cpuMax')} burst {rec.get('cpuMaxBurst')} "
                  f"({rec.get('limitsCpu')}), bracket {br.get('cpuMax')} burst {br.get('cpuMaxBurst')}, "
                  f"{a['steps']} steps, {len(a.get('candidates', []))} settings, {dt:.1f} s to the answer")
finally:
    proc.terminate(); proc.wait()
