# Shared helpers of the scripts in this directory (sourced, not run).

# The service jar: target/schedsim-*.jar, rebuilt (tests skipped) when missing or older than the sources.
service_jar() {
  local jar
  jar=$(ls target/schedsim-*.jar 2>/dev/null | grep -v '\.original$' | head -n1 || true)
  if [[ -z "$jar" || -n "$(find src/main pom.xml -newer "$jar" -type f 2>/dev/null | head -n1)" ]]; then
    echo "building the service jar (tests skipped)..." >&2
    ./mvnw -B -q -o -DskipTests package >&2 || ./mvnw -B -q -DskipTests package >&2
    jar=$(ls target/schedsim-*.jar | grep -v '\.original$' | head -n1)
  fi
  echo "$jar"
}

# A free TCP port on 127.0.0.1 (asks the kernel through python3 when there, else probes from $1).
free_port() {
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
  else
    local p=${1:-18080}
    while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
    echo "$p"
  fi
}

# The port of the Nth service (0, 1, …) a script starts: SCHEDSIM_PORT + N when SCHEDSIM_PORT is set (so that a
# run can be given ports that nothing else on the machine uses), else a free one.
service_port() {
  if [[ -n "${SCHEDSIM_PORT:-}" ]]; then
    echo $((SCHEDSIM_PORT + ${1:-0}))
  else
    free_port
  fi
}

# Waits until http://127.0.0.1:$1/actuator/health answers UP, at most $2 seconds; $3 is the pid to watch.
await_up() {
  local port=$1 limit=$2 pid=${3:-}
  for _ in $(seq 1 $((limit * 4))); do
    if grep -q '"UP"' <<<"$(curl -fsS "http://127.0.0.1:$port/actuator/health" 2>/dev/null)"; then
      return 0
    fi
    if [[ -n "$pid" ]] && ! kill -0 "$pid" 2>/dev/null; then
      echo "the service on port $port exited during start-up" >&2
      return 1
    fi
    sleep 0.25
  done
  echo "the service on port $port did not come up within ${limit}s" >&2
  return 1
}

# A small simulation: validation-2c, 200 ms, two CPU-bound threads in a quota-limited group.
small_simulation() {
  cat <<JSON
{"name":"${1:-small}","topology":{"preset":"validation-2c"},
 "cgroups":[{"path":"/a","cpuMax":"50000 100000"}],
 "workloads":[{"name":"w","cgroup":"/a","type":"cpu-bound","threads":2}],
 "durationMs":200,"seed":${2:-1}}
JSON
}

# submit_one KEY N PORT… : submits small simulation N with Idempotency-Key KEY-N to the first port, failing over
# to the next ones (as a load balancer would) when an instance does not answer; prints the simulation id.
submit_one() {
  local key=$1 n=$2
  shift 2
  local ports=("$@") out code try port auth=()
  # With security on (SCHEDSIM_KEY set), the key goes as X-API-Key (the scripts' own requests send Bearer).
  [[ -n "${SCHEDSIM_KEY:-}" ]] && auth=(-H "X-API-Key: $SCHEDSIM_KEY")
  out=$(mktemp)
  for try in $(seq 0 $((2 * ${#ports[@]} - 1))); do
    port=${ports[$(((n + try) % ${#ports[@]}))]}
    code=$(small_simulation "s-$n" "$n" | curl -sS -o "$out" -w '%{http_code}' -X POST \
      -H 'Content-Type: application/json' -H "Idempotency-Key: $key-$n" "${auth[@]}" --data-binary @- \
      "http://127.0.0.1:$port/api/v1/simulations" 2>/dev/null) || true
    if [[ "$code" == 202 || "$code" == 200 ]]; then
      jq -r .id "$out"
      rm -f "$out"
      return 0
    fi
    sleep 0.2
  done
  echo "submission $n was not accepted (last answer $code: $(cat "$out"))" >&2
  rm -f "$out"
  return 1
}

# The HdrHistogram jar from the local Maven repository (the engine's only dependency), for javac-built engines.
hdr_jar() {
  local hdr
  hdr=$(find "${MAVEN_USER_HOME:-$HOME/.m2}/repository/org/hdrhistogram/HdrHistogram" -name 'HdrHistogram-*.jar' 2>/dev/null \
    | sort | tail -n1)
  [[ -n "$hdr" ]] || { echo "HdrHistogram jar not found: run ./mvnw -q dependency:resolve first" >&2; return 2; }
  echo "$hdr"
}

# Builds a revision's engine (its src/main/java/dev/schedsim/engine) with javac into OUT, together with benchmark
# drivers from src/test/java/dev/schedsim/bench. The drivers are the newer revision's (DRIVER_SRC), so that both
# sides run the same cases; when those do not compile against an older engine (its spec API was different, as
# before the engine was split by mechanism), the revision's own drivers of the same names are used, and a note
# says so (compare their case lists: ReportFingerprint -v prints one digest per case).
# usage: build_engine SRC DRIVER_SRC OUT HDR_JAR DRIVER...
build_engine() {
  local src=$1 drivers=$2 out=$3 hdr=$4
  shift 4
  local files
  files=$(mktemp)
  mkdir -p "$out"
  find "$src/src/main/java/dev/schedsim/engine" -name '*.java' > "$files"
  for f in "$@"; do echo "$drivers/src/test/java/dev/schedsim/bench/$f.java" >> "$files"; done
  if ! javac -nowarn -proc:none -d "$out" -cp "$hdr" @"$files" 2>/dev/null; then
    echo "note: the newer drivers ($*) do not compile against the engine of $src; using that revision's own" >&2
    rm -rf "$out"; mkdir -p "$out"
    find "$src/src/main/java/dev/schedsim/engine" -name '*.java' > "$files"
    for f in "$@"; do echo "$src/src/test/java/dev/schedsim/bench/$f.java" >> "$files"; done
    javac -nowarn -proc:none -d "$out" -cp "$hdr" @"$files"
  fi
  rm -f "$files"
}

# Copies a revision's src/ into DIR/src (REV = WORKTREE: the work tree's). usage: extract_src REV DIR
extract_src() {
  mkdir -p "$2"
  if [[ "$1" = WORKTREE ]]; then
    cp -r src "$2/"
  else
    git archive "$1" src | tar -x -C "$2"
  fi
}

# The options of the default H2 URL (what follows the path in application.properties), so that the scripts run
# the database as users get it.
h2_options() {
  sed -n 's/^spring\.datasource\.url=[^;]*//p' src/main/resources/application.properties
}
