#!/usr/bin/env bash
# make release-check: runs each release binary the way a Pi would, on loopback only: amd64
# natively, arm64 under qemu-aarch64, ARMv7 under qemu-arm -cpu cortex-a7 and ARMv6 under
# qemu-arm -cpu arm1176 (the Pi Zero / Pi 1 core), all with no sysroot, so a binary that needed
# a C library or an ARMv7 instruction would fail here. For each: static or not, size, time from
# start to a healthy /healthz, one POST /api/troubleshoot, and peak RSS (VmHWM; under qemu it
# includes the emulator's own memory).
set -euo pipefail
dir=${1:-bin/release}
cd "$(dirname "$0")/.."
command -v qemu-aarch64 >/dev/null && command -v qemu-arm >/dev/null || {
  echo "release-check needs qemu-user (apt-get install qemu-user)" >&2
  exit 1
}
body='{"category":"stringing","description":"Thin hairs between the two towers after every print, PETG on my Ender 3","material":"PETG","nozzleTemp":245,"printerBrand":"Creality Ender 3 V2","images":[]}'
fail=0
printf '%-28s %-8s %8s %10s %8s %10s\n' binary static size healthy analysis peak_rss
for bin in "$dir"/layerfix-*-linux-*; do
  case "$bin" in
    *-amd64) run=() ;;
    *-arm64) run=(qemu-aarch64) ;;
    *-armv7) run=(qemu-arm -cpu cortex-a7) ;;
    *-armv6) run=(qemu-arm -cpu arm1176) ;;
    *) continue ;;
  esac
  static=no
  file "$bin" | grep -q 'statically linked' && static=yes
  [ "$static" = yes ] || fail=1
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  data=$(mktemp -d)
  start=$(date +%s.%N)
  LAYERFIX_ADDR=127.0.0.1:$port LAYERFIX_DATA_DIR=$data "${run[@]}" "$bin" >"$data/log" 2>&1 &
  pid=$!
  healthy=-
  for _ in $(seq 600); do
    if curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
      healthy=$(python3 -c "import time; print(f'{time.time()-$start:.2f}s')")
      break
    fi
    kill -0 $pid 2>/dev/null || break
    sleep 0.1
  done
  analysis=-
  if [ "$healthy" != - ]; then
    t0=$(date +%s.%N)
    code=$(curl -s -o "$data/answer.json" -w '%{http_code}' -H 'Content-Type: application/json' -d "$body" "http://127.0.0.1:$port/api/troubleshoot")
    if [ "$code" = 200 ] && grep -q '"steps"' "$data/answer.json"; then
      analysis=$(python3 -c "import time; print(f'{time.time()-$t0:.2f}s')")
    else
      analysis="HTTP$code"
    fi
  fi
  rss=$(awk '/VmHWM/ {printf "%.0fMiB", $2/1024}' /proc/$pid/status 2>/dev/null || echo -)
  kill $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  size=$(du -m "$bin" | cut -f1)MiB
  printf '%-28s %-8s %8s %10s %8s %10s\n' "$(basename "$bin")" "$static" "$size" "$healthy" "$analysis" "$rss"
  if [ "$healthy" = - ] || [[ "$analysis" != *s ]]; then
    fail=1
    tail -5 "$data/log" >&2
  fi
  rm -rf "$data"
done
(cd "$dir" && sha256sum -c --quiet SHA256SUMS) || fail=1
exit $fail
