# OnrampKit: the two commands of the README, and a few helpers.
PORT ?= 8080
DATABASE ?= sqlite:./onramp.db
SERVE_FLAGS ?=
SWIFT ?= swift

.PHONY: serve build test tour bench lint clean

# On a Mac (built on Linux only): Homebrew's keg-only openssl@3 and libpq are not on pkg-config's default path.
ifeq ($(shell uname -s),Darwin)
export PKG_CONFIG_PATH := $(shell brew --prefix openssl@3 2>/dev/null)/lib/pkgconfig:$(shell brew --prefix libpq 2>/dev/null)/lib/pkgconfig:$(PKG_CONFIG_PATH)
endif

## make serve: install missing Debian packages (Homebrew formulas on a Mac), build, start the server on SQLite.
serve: build
	.build/release/onramp serve --port $(PORT) --database $(DATABASE) $(SERVE_FLAGS)

build:
	scripts/install-deps.sh build
	$(SWIFT) build -c release --product onramp

## make test: install what the tests need, start a throw-away PostgreSQL, run every test on both drivers.
test:
	scripts/install-deps.sh test
	SWIFT=$(SWIFT) scripts/with-postgres.sh scripts/run-tests.sh

## make tour: the README's tour blocks, pasted in order into a shell against a fresh server (scripts/tour.sh).
tour: build
	ONRAMP=.build/release/onramp scripts/tour.sh

## make bench: every hot path on one pinned core against its reference (bench/pinned.sh).
bench: build
	scripts/install-deps.sh bench
	bench/pinned.sh

lint:
	$(SWIFT) format lint -r Sources Tests

clean:
	rm -rf .build
