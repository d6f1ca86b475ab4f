# gpuscope — `make run` starts the dashboard (the demo node where no NVIDIA
# driver loads), `make test` runs every test with the race detector.
GO ?= go
# nvml.h marks many functions deprecated; go-nvml's cgo build warns for each.
export CGO_ENABLED := 1
export CGO_CFLAGS := -Wno-deprecated-declarations
BIN := gpuscope

.PHONY: build run demo test bench fuzz accuracy vet clean

build:
	$(GO) build -trimpath -o $(BIN) .

run: build
	./$(BIN)

demo: build
	./$(BIN) --demo

test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

vet:
	$(GO) vet ./...

clean:
	rm -f $(BIN)
