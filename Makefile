# Two entry points for a fresh machine (README.md): `make suite` and `make test`.
# Each installs the system libraries first when they are missing.

.PHONY: setup build suite test release clean

setup:
	@missing=""; for p in libxml2-dev libcurl4-openssl-dev pkg-config; do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq $$missing; fi

build: setup
	swift build

# The conformance suite with a summary; --repeat 2 proves every transcript identical across runs.
suite: build
	.build/debug/passim run --repeat 2 Scenarios

test: setup
	swift test

release: setup
	swift build -c release

clean:
	rm -rf .build
