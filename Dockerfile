# syntax=docker/dockerfile:1
# Layerfix: one binary with the React app embedded.
#   docker build -t layerfix .
#   docker run -p 8080:8080 -v layerfix-data:/data layerfix

# 1. The React app.
FROM node:20-bookworm-slim AS web
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json frontend/.npmrc ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

# 2. The Go binary, with cgo for SQLite.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=web /src/frontend/dist ./frontend/dist
ARG VERSION=docker
RUN CGO_ENABLED=1 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/layerfix .

# 3. A slim runtime as a non-root user.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 layerfix \
 && useradd --system --uid 10001 --gid layerfix --home-dir /data --shell /usr/sbin/nologin layerfix \
 && mkdir -p /data && chown layerfix:layerfix /data
COPY --from=build /out/layerfix /usr/local/bin/layerfix
ENV LAYERFIX_ADDR=:8080 \
    LAYERFIX_DATA_DIR=/data \
    LAYERFIX_LOG_FORMAT=json
VOLUME /data
EXPOSE 8080
USER layerfix:layerfix
# The binary asks its own /healthz, following LAYERFIX_ADDR and the base path: no curl needed.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/layerfix", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/layerfix"]
