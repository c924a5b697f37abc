# syntax=docker/dockerfile:1.7
# Layerfix: one static binary with the React app embedded, for linux/amd64, linux/arm64 and
# linux/arm/v7. The build stages run on the build machine's platform and cross-compile (no
# emulation of npm or the Go compiler); the binary uses the pure-Go SQLite, so no C toolchain.
#   docker build -t layerfix .
#   docker buildx build --platform linux/amd64,linux/arm64,linux/arm/v7 -t layerfix .
#   docker compose up -d          (compose.yaml: a named volume, the variables documented)

# 1. The React app (platform-independent output).
FROM --platform=$BUILDPLATFORM node:22-bookworm-slim AS web
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json frontend/.npmrc ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

# 2. The Go binary, cross-compiled for the target platform.
FROM --platform=$BUILDPLATFORM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
# Only the Go sources: a change to the frontend's sources does not rebuild the Go packages' cache.
COPY *.go ./
COPY ai/ ai/
COPY billing/ billing/
COPY server/ server/
COPY store/ store/
COPY --from=web /src/frontend/dist ./frontend/dist
ARG TARGETOS=linux TARGETARCH=amd64 TARGETVARIANT
ARG VERSION=docker
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH GOARM=${TARGETVARIANT#v} \
    go build -trimpath -tags timetzdata -ldflags "-s -w -X main.version=${VERSION}" -o /out/layerfix . \
 && mkdir -p /out/data \
 && echo 'layerfix:x:10001:10001::/data:/sbin/nologin' > /out/passwd \
 && echo 'layerfix:x:10001:' > /out/group

# 3. The runtime: the binary, CA certificates and a non-root user; no shell, no curl.
FROM scratch AS runtime
ARG VERSION=docker
ARG REVISION=unknown
LABEL org.opencontainers.image.title="Layerfix" \
      org.opencontainers.image.description="3D print troubleshooting: a diagnosis with prioritized fixes" \
      org.opencontainers.image.source="https://github.com/layerfix/layerfix" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="proprietary"
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/passwd /etc/passwd
COPY --from=build /out/group /etc/group
COPY --from=build --chown=10001:10001 /out/data /data
COPY --from=build /out/layerfix /layerfix
ENV LAYERFIX_ADDR=:8080 \
    LAYERFIX_DATA_DIR=/data \
    LAYERFIX_LOG_FORMAT=json
VOLUME /data
EXPOSE 8080
USER 10001:10001
# The binary asks its own /healthz, following LAYERFIX_ADDR and the base path: no curl needed.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/layerfix", "healthcheck"]
ENTRYPOINT ["/layerfix"]
