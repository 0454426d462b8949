# The two commands of the README: `make run` and `make test`.
SWIFT ?= swift
CONFIG ?= debug

.PHONY: run test build release deps test-deps release-deps fuzz sanitize docs lint deb deb-deps check-deb

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --test

release-deps:
	@scripts/install-deps --release

deb-deps:
	@scripts/install-deps --deb

build: deps
	$(SWIFT) build -c $(CONFIG)

# What a machine runs, in release: appstated as scripts/build-release builds it (in
# .build-release: the Swift runtime linked in, no symbols exported, its functions laid out
# hot first in an order made by profiling that very binary under valgrind, which
# release-deps installs; the script says why), which scripts/install-systemd installs.
# appstatectl, which starts for every command, is linked fully static in a build folder of
# its own (flags of its own would rebuild another folder's objects): no dynamic loader and no
# relocations make its whole run shorter; the price is a fixed load address, and a warning
# from the linker about the user database functions in FoundationEssentials that it links
# but never calls.
release: release-deps
	scripts/build-release --product appstated
	$(SWIFT) build -c release --scratch-path .build-ctl -Xswiftc -static-executable --product appstatectl

# Debian packages in dist/ (scripts/build-deb; docs/packaging.md): the release binaries, and
# the gateway and the kiosk built as scripts/build-release builds appstated, sharing its objects.
deb: release deb-deps
	scripts/build-release --product appstate-gateway
	scripts/build-release --product appstate-kiosk
	scripts/build-deb

# The packages installed, upgraded and purged by piuparts and in a clean Debian 12 root, where
# the daemon must start on its default tree (scripts/check-deb).
check-deb: deb
	scripts/check-deb

run: build
	$(SWIFT) run -c $(CONFIG) appstated

test: test-deps
	$(SWIFT) build --build-tests
	APPSTATE_VENV=$(CURDIR)/.venv $(SWIFT) test --skip-build --disable-swift-testing

# Each fuzz target for FUZZ_SECONDS (scripts/fuzz has the details), then the committed
# regression inputs once more.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = frames dispatch treefile bus

fuzz:
	scripts/fuzz build
	for target in $(FUZZ_TARGETS); do scripts/fuzz run $$target $(FUZZ_SECONDS) || exit 1; done
	for target in $(FUZZ_TARGETS); do scripts/fuzz replay $$target || exit 1; done

# The whole test suite under AddressSanitizer (with LeakSanitizer), then ThreadSanitizer, each
# in its own build directory (.build-asan, .build-tsan: they cannot share objects with each
# other or with `make test`). Fails on a failing test or on any report from any process,
# the daemons the tests start included (scripts/sanitize; docs/reliability/sanitizers.md).
sanitize: test-deps
	SWIFT="$(SWIFT)" scripts/sanitize address
	SWIFT="$(SWIFT)" scripts/sanitize thread

# The DocC documentation of AppStateCore, StateContainers and AppStateIPC, built in .build-docs (archives in
# .build-docs/plugins/Swift-DocC/outputs). docc reports a broken symbol link only as a
# warning, so any "warning:" in the output fails the target.
docs: deps
	@mkdir -p .build-docs
	@for target in AppStateCore StateContainers AppStateIPC; do \
		($(SWIFT) package --scratch-path .build-docs generate-documentation --target $$target 2>&1 \
			|| echo "make docs: generate-documentation failed for $$target") | tee .build-docs/docs-$$target.log; \
		if grep -q -e "warning:" -e "^make docs: generate-documentation failed" .build-docs/docs-$$target.log; then \
			echo "make docs: $$target has documentation problems (see above)" >&2; exit 1; \
		fi; \
	done

# The toolchain's formatter, with the committed .swift-format: `swift format format -i -r -p`
# over the same folders fixes what it reports.
lint:
	$(SWIFT) format lint --strict -r -p Sources Tests Plugins Benchmarks Fuzz Package.swift
