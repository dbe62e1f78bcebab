# mcpconform — the two commands of the README, and their parts.
GO ?= go

.PHONY: all build conform test vet fmt-check unit bench

all: test

build:
	$(GO) build -o bin/mcpconform ./cmd/mcpconform

# Run the whole suite against the built-in reference implementation and
# print the verdict.
conform: build
	./bin/mcpconform run

# Vet, format check, and every test (unit tests, the conformance suite
# against the reference, mutation tests) under the race detector.
test: vet fmt-check
	$(GO) test -race -timeout 20m ./...

vet:
	$(GO) vet ./...

fmt-check:
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# Benchmarks (figures in the notes; not part of make test).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
