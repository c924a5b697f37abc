#!/usr/bin/env bash
# The Firebase Auth emulator (firebase-tools from scripts/firebase) for
# trying or testing Firebase mode without a Firebase project.
#
#   scripts/firebase-emulator.sh              run it in the foreground
#   scripts/firebase-emulator.sh CMD ARGS...  run CMD with it, then stop it
#
# CMD gets FIREBASE_AUTH_EMULATOR_HOST, LAYERFIX_AUTH_MODE=firebase and
# LAYERFIX_FIREBASE_PROJECT_ID=demo-layerfix (the server accepts the
# emulator only with a demo- project). Port: FIREBASE_EMULATOR_PORT
# (default 9099). The Go tests start their own emulator.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tools="$here/firebase"
port=${FIREBASE_EMULATOR_PORT:-9099}
project=demo-layerfix
if [ ! -x "$tools/node_modules/.bin/firebase" ]; then
  echo "firebase-emulator: installing firebase-tools in scripts/firebase" >&2
  (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error)
fi
dir=$(mktemp -d /tmp/layerfix-firebase.XXXXXX)
free() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
cat >"$dir/firebase.json" <<EOF
{"emulators": {"auth": {"host": "127.0.0.1", "port": $port}, "hub": {"host": "127.0.0.1", "port": $(free)},
 "logging": {"host": "127.0.0.1", "port": $(free)}, "ui": {"enabled": false}}}
EOF
start=(env CI=true TMPDIR="$dir" "$tools/node_modules/.bin/firebase" emulators:start --only auth --project "$project" --config "$dir/firebase.json")
if [ $# -eq 0 ]; then
  cd "$dir" && exec "${start[@]}"
fi
(cd "$dir" && exec "${start[@]}") >"$dir/log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
t0=$SECONDS
until curl -fs "http://127.0.0.1:$port/" 2>/dev/null | grep -q '"ready": *true'; do
  if ! kill -0 "$pid" 2>/dev/null || [ $((SECONDS - t0)) -gt 180 ]; then
    echo "firebase-emulator: the Auth emulator did not start:" >&2
    cat "$dir/log" >&2
    exit 1
  fi
  sleep 0.5
done
echo "firebase-emulator: Auth emulator on 127.0.0.1:$port after $((SECONDS - t0)) s" >&2
export FIREBASE_AUTH_EMULATOR_HOST="127.0.0.1:$port" LAYERFIX_AUTH_MODE=firebase LAYERFIX_FIREBASE_PROJECT_ID="$project"
"$@"
