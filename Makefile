# gpuscope — `make run` starts the dashboard (the demo node where no NVIDIA
# driver loads), `make test` runs every test with the race detector.
GO ?= go
# nvml.h marks many functions deprecated; go-nvml's cgo build warns for each.
export CGO_ENABLED := 1
export CGO_CFLAGS := -Wno-deprecated-declarations
# encoding/json built on encoding/json/v2 (Go 1.25+ experiment): the same
# API and the same bytes out, but decoding ~2x faster, which is most of
# `gpuscope report`/replay of a recording (24 h, 8 GPUs, .jsonl.gz, on
# 2 cores: 13.0-13.5 s -> 9.8 s, measured 2026-12-02). `go build` and
# `go install` without it still work, only slower, so `make test` also runs
# the tests without it (the accuracy matrix once only).
export GOEXPERIMENT := jsonv2
BIN := gpuscope
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT)
DIST ?= dist
# Grace Hopper / Grace Blackwell nodes (GH200, GB200) are aarch64. go-nvml
# needs cgo, so arm64 is cross-compiled with Debian's gcc-aarch64-linux-gnu.
ARM64_CC ?= aarch64-linux-gnu-gcc

.PHONY: build run demo test bench fuzz accuracy vet clean man dist dist-amd64 dist-arm64

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) .

# Release binaries for both architectures, stamped with version and commit.
dist: dist-amd64 dist-arm64

dist-amd64:
	GOOS=linux GOARCH=amd64 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(DIST)/gpuscope-linux-amd64 .

dist-arm64:
	GOOS=linux GOARCH=arm64 CC=$(ARM64_CC) $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(DIST)/gpuscope-linux-arm64 .

# The live dashboard where NVML loads; elsewhere the simulated node, with a
# line on stderr saying why.
run: build
	./$(BIN) --fallback-demo

demo: build
	./$(BIN) --demo

# The diagnosis accuracy run (29 scenarios and look-alikes x 20 seeds x 3
# simulated minutes, plus four 5-seed sweeps of interval and noise; ~2 min on
# a 2-core machine) runs without -race: under the race detector it takes ~10x
# longer. It also checks docs/diagnosis-accuracy.md against its result.
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...
	$(GO) test -count=1 -run TestAccuracy ./diagnose/accuracy/
	GOEXPERIMENT= $(GO) test -count=1 -skip 'TestAccuracy|TestArm64Binary' ./...

# docs/man/*.1 from the command tree (TestManPages holds them equal);
# read with `man ./docs/man/gpuscope.1`.
man:
	$(GO) test -count=1 -run TestManPages . -args -update-man

# Rewrites the simulator section of docs/diagnosis-accuracy.md (other
# sections are kept) from the same run the test holds.
accuracy:
	$(GO) test -count=1 -run TestAccuracy ./diagnose/accuracy/ -args -update

# Each fuzz target for 30 s (docs/fuzzing.md: what each covers, last run).
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzReader$$' -fuzztime 30s ./sampler/record/
	$(GO) test -run '^$$' -fuzz '^FuzzCheckShape$$' -fuzztime 30s ./sampler/record/
	$(GO) test -run '^$$' -fuzz FuzzDetectAndParse -fuzztime 30s ./sampler/importer/
	$(GO) test -run '^$$' -fuzz FuzzPaste -fuzztime 30s ./sampler/importer/
	$(GO) test -run '^$$' -fuzz FuzzSections -fuzztime 30s ./sampler/importer/
	$(GO) test -run '^$$' -fuzz FuzzContainerID -fuzztime 30s ./sampler/host/
	$(GO) test -run '^$$' -fuzz FuzzPodUID -fuzztime 30s ./sampler/host/

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

vet:
	$(GO) vet ./...

clean:
	rm -rf $(BIN) $(DIST)
