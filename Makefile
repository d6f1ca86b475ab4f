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

.PHONY: build run demo test bench fuzz accuracy vet clean

build:
	$(GO) build -trimpath -o $(BIN) .

# The live dashboard where NVML loads; elsewhere the simulated node, with a
# line on stderr saying why.
run: build
	./$(BIN) --fallback-demo

demo: build
	./$(BIN) --demo

# The diagnosis accuracy matrix (22 scenarios x 20 seeds x 3 simulated
# minutes) runs without -race: under the race detector it takes ~10x longer.
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...
	$(GO) test -count=1 -run TestAccuracy ./diagnose/accuracy/
	GOEXPERIMENT= $(GO) test -count=1 -skip TestAccuracy ./...

# Rewrites docs/diagnosis-accuracy.md from the same run the test holds.
accuracy:
	$(GO) test -count=1 -run TestAccuracy ./diagnose/accuracy/ -args -update

# Each fuzz target for 30 s.
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzReader -fuzztime 30s ./sampler/record/
	$(GO) test -run '^$$' -fuzz FuzzDetectAndParse -fuzztime 30s ./sampler/importer/
	$(GO) test -run '^$$' -fuzz FuzzContainerID -fuzztime 30s ./sampler/host/
	$(GO) test -run '^$$' -fuzz FuzzPodUID -fuzztime 30s ./sampler/host/

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

vet:
	$(GO) vet ./...

clean:
	rm -f $(BIN)
