# The two commands of the README: `make run` and `make test`.
SWIFT ?= swift
CONFIG ?= debug

.PHONY: run test build deps test-deps

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --test

build: deps
	$(SWIFT) build -c $(CONFIG)

run: build
	$(SWIFT) run -c $(CONFIG) appstated

test: test-deps
	$(SWIFT) build --build-tests
	APPSTATE_VENV=$(CURDIR)/.venv $(SWIFT) test --skip-build --disable-swift-testing
