# Front for the two quick-start commands; CMake does the building.
BUILD ?= build
JOBS  ?= $(shell nproc)

.PHONY: all deps build demo test asan clean format

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The main demonstration: the default scenario.
demo: build
	$(BUILD)/mmsim run scenarios/demo.conf

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The suite under AddressSanitizer + UndefinedBehaviorSanitizer, in its own build tree.
ASAN_FLAGS ?= -DMMSIM_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
asan:
	@$(MAKE) --no-print-directory test BUILD=build-asan CMAKE_FLAGS="$(ASAN_FLAGS) $(CMAKE_FLAGS)"

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build build-asan
