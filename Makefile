# OnrampKit: the two commands of the README, and a few helpers.
PORT ?= 8080
DATABASE ?= sqlite:./onramp.db
SWIFT ?= swift

.PHONY: serve build test bench lint clean

## make serve: install missing Debian packages, build, start the server on SQLite.
serve: build
	.build/release/onramp serve --port $(PORT) --database $(DATABASE)

build:
	scripts/install-deps.sh build
	$(SWIFT) build -c release --product onramp

## make test: install what the tests need, start a throw-away PostgreSQL, run every test on both drivers.
test:
	scripts/install-deps.sh test
	SWIFT=$(SWIFT) scripts/with-postgres.sh scripts/run-tests.sh

## make bench: every hot path on one pinned core against its reference (bench/pinned.sh).
bench: build
	scripts/install-deps.sh bench
	bench/pinned.sh

lint:
	$(SWIFT) format lint -r Sources Tests

clean:
	rm -rf .build
