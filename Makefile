# Layerfix: `make run` starts the product, `make test` runs every test.
GO      ?= go
BIN     := bin/layerfix
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build frontend run test test-go test-go-race test-go-purego test-go-and-static test-frontend frontend-static test-vitest test-e2e vet fmt-check lint lint-tool lint-go lint-frontend deps-test deps-go-test bench clean release release-check attack fuzz lighthouse bench-farm bench-http test-s3 api-types

# stripe-mock: a local Stripe API for the billing tests (installed once).
STRIPE_MOCK ?= github.com/stripe/stripe-mock@v0.203.0
# MinIO for make test-s3 (a pseudo-version the module proxy has).
MINIO ?= github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c

all: build

frontend/node_modules/.package-lock.json: frontend/package-lock.json frontend/package.json
	cd frontend && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The Vite build goes to frontend/dist (ignored but for BUILD.txt, which the
# build writes back unchanged), embedded by embed.go.
frontend: frontend/node_modules/.package-lock.json
	cd frontend && npm run build

# -trimpath keeps this machine's paths out of the binary. make test builds
# without it: golangci-lint (go list -export) and the pure-Go SQLite rerun
# then reuse the binary's compiled packages, the standard library and the
# cgo SQLite among them, rather than compiling them all again (about 8 CPU
# minutes on a cold cache).
GO_BUILD_FLAGS ?= -trimpath

build: frontend
	CGO_ENABLED=1 $(GO) build $(GO_BUILD_FLAGS) -ldflags "$(LDFLAGS)" -o $(BIN) .

run: build
	./$(BIN)

# Debian's Chromium for the browser tests (never a downloaded browser).
deps-test:
	@command -v chromium >/dev/null 2>&1 || { echo "installing chromium with apt"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }

# golangci-lint at a pinned version, built once into .tools/ (about 4 minutes
# cold on 2 shared cores); its cache is golangci-lint's default under ~/.cache.
GOLANGCI_LINT_VERSION := v2.15.0
GOLANGCI_LINT := .tools/golangci-lint-$(GOLANGCI_LINT_VERSION)

lint-tool: $(GOLANGCI_LINT)

$(GOLANGCI_LINT):
	GOBIN=$(CURDIR)/.tools $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION)
	mv .tools/golangci-lint $@

# The linters and their justified exclusions are in .golangci.yml and
# frontend/eslint.config.js.
lint: lint-go lint-frontend

lint-go: $(GOLANGCI_LINT)
	$(NICE) $(GOLANGCI_LINT) run --concurrency 2 --allow-serial-runners $(LINT_FLAGS) ./...

lint-frontend: frontend/node_modules/.package-lock.json
	cd frontend && npm run lint

# go vet's analyzers also run inside lint-go (govet), so make test runs only
# the gofmt check from here.
vet: fmt-check
	$(GO) vet ./...

fmt-check:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './frontend/*'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

deps-go-test:
	@command -v stripe-mock >/dev/null 2>&1 || test -x "$$($(GO) env GOPATH)/bin/stripe-mock" || $(GO) install $(STRIPE_MOCK)

# firebase-tools for the Firebase Auth emulator tests (server/auth_firebase_test.go, frontend/e2e/firebase.test.mjs).
scripts/firebase/node_modules/.package-lock.json: scripts/firebase/package-lock.json scripts/firebase/package.json
	cd scripts/firebase && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# Store tests also run on PostgreSQL when Debian's server is installed;
# under make the Firebase emulator test must run, not skip.
test-go: test-go-race test-go-purego

test-go-race: deps-go-test scripts/firebase/node_modules/.package-lock.json
	LAYERFIX_REQUIRE_FIREBASE_EMULATOR=1 scripts/with-postgres.sh $(GO) test -race -count=1 $(GO_TEST_FLAGS) ./...

# The release binaries' SQLite (pure Go): the store's tests again (every
# query of the HTTP layer goes through the store).
test-go-purego:
	$(NICE) $(GO) test -count=1 -tags sqlite_purego ./store/...

# openapi-typescript in a package of its own: it needs TypeScript 5's
# compiler API, which the frontend's TypeScript 7 does not ship.
frontend/scripts/openapi-types/node_modules/.package-lock.json: frontend/scripts/openapi-types/package-lock.json frontend/scripts/openapi-types/package.json
	cd frontend/scripts/openapi-types && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The API contract: server/openapi/openapi.json is generated from the Go
# types (go generate ./server; TestOpenAPIDocumentIsCurrent fails when it is
# stale), frontend/src/api/schema.gen.ts from it.
api-types: frontend/scripts/openapi-types/node_modules/.package-lock.json
	$(GO) generate ./server
	node frontend/scripts/openapi-types/gen.mjs

test-frontend: frontend-static test-vitest

# The frontend checks that only read the sources: the generated API types,
# TypeScript, ESLint.
frontend-static: frontend/node_modules/.package-lock.json frontend/scripts/openapi-types/node_modules/.package-lock.json
	$(NICE) node frontend/scripts/openapi-types/gen.mjs --check
	cd frontend && $(NICE) npm run typecheck && $(NICE) npm run lint

test-vitest: frontend/node_modules/.package-lock.json
	cd frontend && npm test

test-e2e: build deps-test scripts/firebase/node_modules/.package-lock.json
	cd frontend && LAYERFIX_BIN=$(CURDIR)/$(BIN) npm run e2e

test: build fmt-check test-go-and-static test-vitest test-e2e
test: GO_BUILD_FLAGS :=

# The Go tests under -race leave a core idle for their last minutes (the
# server package runs alone): the checks that have no timing of their own
# (golangci-lint, the pure-Go SQLite rerun, the frontend's types and lint)
# run beside them at the lowest CPU priority, so they take only what the
# tests leave; golangci-lint's own 10-minute timeout (.golangci.yml) is
# lifted, as its wall time is then the tests'. Each target's output is
# printed whole when it ends. go test's own vet pass (a subset of the
# analyzers golangci-lint's govet runs here on the same files) is off in the
# -race run: about a minute of CPU on a cold cache. The pure-Go SQLite rerun
# keeps it, as golangci-lint does not build the sqlite_purego files.
test-go-and-static:
	$(MAKE) --no-print-directory -j4 --output-sync=target NICE="nice -n 19" LINT_FLAGS="--timeout 30m" \
	  GO_TEST_FLAGS=-vet=off test-go-race test-go-purego lint-go frontend-static

# Hostile-load script (issue 10): replays the attacks against the real binary
# on loopback and checks peak RSS, /healthz latency and every answer.
# Lighthouse (mobile) on the public pages of the real binary, then axe-core on every screen.
scripts/lighthouse/node_modules/.package-lock.json: scripts/lighthouse/package-lock.json
	cd scripts/lighthouse && npm ci --no-audit --no-fund --loglevel=error

lighthouse: build deps-test scripts/lighthouse/node_modules/.package-lock.json
	node scripts/lighthouse/run.mjs
	cd frontend && LAYERFIX_BIN=$(CURDIR)/$(BIN) node --test e2e/pages.test.mjs

attack: build
	$(GO) run ./scripts/attack -bin $(BIN)

# Fuzz every parser of untrusted input, FUZZTIME each (default 10 minutes).
FUZZTIME ?= 10m
FUZZ_TARGETS := photos:FuzzImageHeaders server:FuzzJSONRoutes server:FuzzBindTroubleshoot billing:FuzzParseEvent ai:FuzzAnalyze \
	ai/printerfiles:FuzzStripSecrets ai/printerfiles:FuzzKlipperConfig ai/printerfiles:FuzzKlippyLog \
	ai/printerfiles:FuzzMarlin ai/printerfiles:FuzzRRF ai/printerfiles:FuzzPrusa ai/printerfiles:FuzzGcode \
	ai/printerfiles:FuzzRead
fuzz:
	@for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; fn=$${t##*:}; \
	  echo "fuzz $$fn ($$pkg) for $(FUZZTIME)"; \
	  scripts/fuzz.sh $$pkg $$fn $(FUZZTIME) || exit 1; done

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./ai/ ./ai/printerfiles/ ./server/

# Writes at disk speed: the disk's fsync rate, a bare Echo server and
# Layerfix at 50 connections in one run (scripts/benchhttp).
bench-http: build
	$(GO) run ./scripts/benchhttp -bin $(BIN)

# The object-store tests against a real MinIO server instead of the in-process
# gofakes3 that make test uses: the S3 photo store, photos shared by two
# instances on PostgreSQL. Building MinIO takes a few minutes, hence its own
# target.
test-s3:
	@test -x "$$($(GO) env GOPATH)/bin/minio" || $(GO) install $(MINIO)
	LAYERFIX_TEST_MINIO="$$($(GO) env GOPATH)/bin/minio" scripts/with-postgres.sh \
	  $(GO) test -count=1 -v -run 'TestS3|TestTwoInstances' ./store/blob/ ./server/

# A print farm with 100,000 issues on SQLite (FARM_ISSUES to change): the
# dashboard, issue pages and the CSV export, timed on the HTTP handlers.
bench-farm:
	$(GO) test -run '^$$' -bench BenchmarkFarm -benchtime 1x -v ./server/ | grep -E 'seeded|mean|export'

# Release binaries: fully static (no C library needed), the version stamped
# in, for 64-bit PCs and servers, 64-bit Pi OS, 32-bit Pi OS (ARMv7) and
# Pi Zero / Pi 1 (ARMv6). They use the pure-Go SQLite (modernc), so every
# target cross-compiles without a C toolchain; see "Release binaries" in
# docs/operating.md for the measured trade-off against the cgo build.
RELEASE_DIR     := bin/release
RELEASE_TARGETS := amd64 arm64 armv7 armv6

release: frontend
	rm -rf $(RELEASE_DIR) && mkdir -p $(RELEASE_DIR)
	@for t in $(RELEASE_TARGETS); do \
	  case $$t in armv7) arch=arm arm=7 ;; armv6) arch=arm arm=6 ;; *) arch=$$t arm= ;; esac; \
	  echo "release: linux/$$t"; \
	  CGO_ENABLED=0 GOOS=linux GOARCH=$$arch GOARM=$$arm $(GO) build -trimpath -ldflags "$(LDFLAGS)" \
	    -o $(RELEASE_DIR)/layerfix-$(VERSION)-linux-$$t . || exit 1; \
	done
	cd $(RELEASE_DIR) && sha256sum layerfix-* > SHA256SUMS && cat SHA256SUMS

# Runs every release binary (under qemu-user for the ARM ones, no sysroot):
# /healthz and one analysis on loopback, with size, time to healthy and RSS.
release-check: release
	scripts/release-check.sh $(RELEASE_DIR)

clean:
	rm -rf bin frontend/node_modules frontend/test-results scripts/firebase/node_modules
