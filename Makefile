# mcpconform — the two commands of the README, and their parts.
GO ?= go

.PHONY: all build conform test vet fmt-check unit bench deps matrix generate

all: test

# Static binaries (CGO_ENABLED=0; nothing in them needs cgo): a run starts
# hundreds of fake processes, and a dynamically linked one pays glibc's
# loader (relocations, CPU feature probes) at each start, a seventh of its
# CPU (a stdio fake's life: 10.2 -> 8.9 ms). The runner and its
# mcpconform-fake must share CGO_ENABLED (conformance's sameBuild).
# Then each binary is written again with cp: a process started from the
# file as the linker wrote it (through a memory mapping) paid more CPU than
# one started from a copy of the same bytes written with write(2), on this
# ext4 machine 1.3 ms of a stdio fake's 10 ms right after the build (the
# page cache the two leave differs; the gap narrows as the kernel ages the
# cached pages, so it matters most to `make conform`, build then run).
BINS = mcpconform mcpconform-fake mcpconform-reference
build:
	CGO_ENABLED=0 $(GO) build -o bin/ $(addprefix ./cmd/,$(BINS))
	@for b in $(BINS); do cp bin/$$b bin/$$b.tmp && mv -f bin/$$b.tmp bin/$$b || exit 1; done

# Regenerate what is generated from the source: the index of where rules
# are enforced and steps defined, which explain embeds (after moving code in
# reference/, internal/ or conformance/; TestEmbeddedIndexIsCurrent says when).
generate:
	$(GO) generate ./internal/codeindex

# Run the whole suite against the built-in reference implementation and
# print the verdict.
conform: build
	./bin/mcpconform run

# The verdict tests: every mutant of the reference and every corruption of
# what it says against the scenarios it affects, and the hollow adapter
# against the whole suite. They prove verdicts, not the harness's
# concurrency: they run the scenarios TestReferenceConforms and
# TestSameVerdictsThroughTheProtocol run under the race detector, so they
# run without it (it multiplies their time about three times). Most of
# their time is red scenarios waiting out a step's deadline, not CPU: six
# mutants run at once (-parallel), four corruptions (corruptionsAtOnce).
VERDICT_TESTS = ^(TestMutantsFail|TestCorruptionsFail|TestHollowAdapterPassesNothing)$$

# Vet, format check, and every test: unit tests and the conformance suite
# against the reference under the race detector, then the verdict tests.
test: deps vet fmt-check
	$(GO) test -race -timeout 20m -skip '$(VERDICT_TESTS)' ./...
	$(GO) test -timeout 20m -parallel 6 -run '$(VERDICT_TESTS)' ./conformance/

# What the tests need beyond Go: Node.js 20+ (the Node stub adapter; the
# machine has it) and Debian's Chromium (the HTML report's browser test),
# installed here when it is missing.
deps:
	@command -v node >/dev/null 2>&1 || { echo "make deps: Node.js 20 or later is needed (the Node stub adapter's tests)"; exit 1; }
	@command -v chromium >/dev/null 2>&1 || { \
		echo "make deps: installing Debian's chromium (for the HTML report's browser test)"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
		{ echo "make deps: could not install chromium: run as root, or install Debian's chromium package"; exit 1; }; }

vet:
	$(GO) vet ./...

fmt-check:
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# Benchmarks (figures in the notes; not part of make test).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# The suite against the reference and each real SDK adapter
# (conformance/adapters/<sdk>/), their pinned dependencies installed into
# out/matrix; writes out/matrix/matrix.html and matrix.md. Fails when an
# SDK's verdict changes without its committed baseline.yaml.
matrix: deps
	./conformance/adapters/matrix.sh
