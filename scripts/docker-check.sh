#!/usr/bin/env bash
# Checks what can be checked of the Dockerfile without a Docker engine: builds its runtime stage
# (FROM scratch, so nothing is downloaded) with Debian's buildah in chroot isolation from a
# locally built static binary, runs the binary inside the image as the image's user, and checks
# the image's configuration. The node and golang build stages need images this machine cannot pull.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v buildah >/dev/null || { echo "docker-check needs buildah (apt-get install buildah)" >&2; exit 1; }
ctx=$(mktemp -d)
trap 'rm -rf "$ctx"; buildah rm layerfix-check >/dev/null 2>&1 || true; buildah rmi -f localhost/layerfix-check >/dev/null 2>&1 || true' EXIT
CGO_ENABLED=0 go build -trimpath -tags timetzdata -ldflags "-s -w -X main.version=docker-check" -o "$ctx/out/layerfix" .
mkdir -p "$ctx/out/data" "$ctx/etc/ssl/certs"
cp /etc/ssl/certs/ca-certificates.crt "$ctx/etc/ssl/certs/"
echo 'layerfix:x:10001:10001::/data:/sbin/nologin' > "$ctx/out/passwd"
echo 'layerfix:x:10001:' > "$ctx/out/group"
# The runtime stage as written, with the build stage's files taken from the context.
sed -n '/^FROM scratch AS runtime/,$p' Dockerfile | sed -E 's#COPY --from=build (--chown=[0-9:]+ )?/#COPY \1#' > "$ctx/Containerfile"
buildah bud --format docker --isolation chroot --quiet --layers=false -t localhost/layerfix-check -f "$ctx/Containerfile" "$ctx" >/dev/null
cfg=$(buildah inspect --type image localhost/layerfix-check)
check() { echo "$cfg" | python3 -c "import json,sys; c=json.load(sys.stdin); v=$1; print(v); sys.exit(0 if $2 else 1)"; }
check 'c["Docker"]["config"]["User"]' 'v=="10001:10001"'
check 'c["Docker"]["config"]["Entrypoint"]' 'v==["/layerfix"]'
check 'c["Docker"]["config"]["Healthcheck"]["Test"]' 'v==["CMD","/layerfix","healthcheck"]'
check 'sorted(c["Docker"]["config"]["Volumes"])' 'v==["/data"]'
check 'c["Docker"]["config"]["Labels"]["org.opencontainers.image.title"]' 'v=="Layerfix"'
buildah from --name layerfix-check localhost/layerfix-check >/dev/null
version=$(buildah run --isolation chroot --user 10001:10001 layerfix-check /layerfix --version)
[ "$version" = docker-check ] || { echo "the binary in the image said $version" >&2; exit 1; }
echo "docker-check: the runtime stage builds, runs the static binary as uid 10001 ($version), config as expected"
