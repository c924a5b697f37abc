#!/usr/bin/env bash
# Load test of POST /api/troubleshoot on the real binary with the anonymous
# quota lifted: 50 concurrent connections for DURATION (default 15s).
# Needs `hey` (go install github.com/rakyll/hey@latest) and bin/layerfix.
# Only loopback traffic; it stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${LAYERFIX_BIN:-bin/layerfix}
hey=${HEY:-$(command -v hey || echo "$HOME/go/bin/hey")}
duration=${DURATION:-15s}
limit=${ANON_LIMIT:-unlimited}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
data=$(mktemp -d)
LAYERFIX_ADDR=127.0.0.1:$port LAYERFIX_DATA_DIR=$data LAYERFIX_ANON_MONTHLY_LIMIT=$limit "$bin" >"$data/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
body=$data/body.json
cat >"$body" <<'JSON'
{"category":"other","description":"Lots of thin hairs and strings between the two towers, PETG on my Ender 3","material":"PETG","nozzleTemp":245,"bedTemp":80,"layerHeight":0.2,"printSpeed":60,"infill":20,"printerBrand":"Creality Ender 3 V2","images":[]}
JSON
echo "load: POST /api/troubleshoot, 50 connections, $duration, anonymous limit $limit"
"$hey" -z "$duration" -c 50 -m POST -T application/json -D "$body" "http://127.0.0.1:$port/api/troubleshoot" |
  grep -E 'Requests/sec|Average|Slowest|50%|95%|99%|\[[0-9]{3}\]'
echo "server RSS: $(ps -o rss= -p $pid | awk '{printf "%.1f MiB", $1/1024}')"
