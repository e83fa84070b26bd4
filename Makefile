# The two commands of the README; the work is in scripts/ so it reads as plain bash.
.PHONY: run test setup build

## Install what is missing, build the app, serve it on http://127.0.0.1:8080.
run:
	bash scripts/run.sh

## The whole test suite (what CI runs).
test:
	bash scripts/test.sh

## Only install the tools (idempotent).
setup:
	bash scripts/setup.sh

## Only build the app into dist/.
build:
	bash scripts/build.sh
