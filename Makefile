# cudaclimb - see README.md.  `make run` sets up, builds and starts; `make test` runs every test.
CUDA_HOME ?= /usr/local/cuda
PREFIX    ?= /usr/local
CC        ?= gcc
CXX       ?= g++
NVCC      ?= $(CUDA_HOME)/bin/nvcc
BUILD     ?= build

PKGS      := yaml-0.1 ncursesw
# src/ by role: core (util, results, YAML, JSON), lesson (the format, expressions, plans), engine
# (compiles, diagnosis, jobs; no curses), runner (where the worker runs, its protocol), worker (the
# GPU side), app (the CLI). Every folder is on the include path, so a header is named alone.
SRC_DIRS  := src/core src/lesson src/engine src/runner src/worker src/app
SRC_INC   := $(addprefix -I,$(SRC_DIRS))
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lyaml -lncursesw)

WARN      := -Wall -Wextra -Wshadow -Wno-unused-parameter
CFLAGS    ?= -O2 -g
CFLAGS    += -std=c11 -D_GNU_SOURCE $(WARN) -MMD -MP -I$(CUDA_HOME)/include $(SRC_INC) -Itui $(PKG_CFLAGS) \
             -DCC_DATADIR='"$(PREFIX)/share/cudaclimb"' -DCUDA_BIN='"$(CUDA_HOME)/bin"'
# --version names the commit it was built from (git describe; nothing outside a git checkout).
$(BUILD)/obj/src/app/cli.o: CFLAGS += -DCC_COMMIT='"$(shell git describe --always --dirty 2>/dev/null)"'
CXXFLAGS  ?= -O2 -g
CXXFLAGS  += -std=c++17 $(WARN) -MMD -MP -I$(CUDA_HOME)/include -I$(CUDA_HOME)/extras/CUPTI/include $(SRC_INC)
NVCCFLAGS ?= -O2 -std=c++17 -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 \
             -gencode=arch=compute_90,code=compute_90
CUDA_LIBS := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lnvrtc -lcudart_static \
             -ldl -lpthread -lrt -lstdc++ -lm
SAN       ?=

# The engine library holds no front end; the CLI (src/app, which starts the TUI) is a library of
# its own, so that nothing below it can reach the terminal.
ENGINE_C   := $(wildcard $(addsuffix /*.c,$(filter-out src/app,$(SRC_DIRS))))
APP_C      := $(filter-out src/app/main.c,$(wildcard src/app/*.c))
ENGINE_CXX := $(wildcard $(addsuffix /*.cpp,$(SRC_DIRS)))
ENGINE_CU  := $(wildcard $(addsuffix /*.cu,$(SRC_DIRS)))
TUI_C      := $(wildcard tui/*.c)
OBJ_DIR    := $(BUILD)/obj
ENGINE_OBJ := $(ENGINE_C:%.c=$(OBJ_DIR)/%.o) $(ENGINE_CXX:%.cpp=$(OBJ_DIR)/%.o) $(ENGINE_CU:%.cu=$(OBJ_DIR)/%.cu.o)
TUI_OBJ    := $(TUI_C:%.c=$(OBJ_DIR)/%.o)
APP_OBJ    := $(APP_C:%.c=$(OBJ_DIR)/%.o)
BIN        := $(BUILD)/cudaclimb
TESTS_C    := $(wildcard tests/test_*.c)
TEST_BINS  := $(TESTS_C:tests/%.c=$(BUILD)/tests/%)

.PHONY: all run test deps deps-run install clean fuzz asan
all: $(BIN)

$(OBJ_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN) -c $< -o $@
$(OBJ_DIR)/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(SAN) -c $< -o $@
$(OBJ_DIR)/%.cu.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(SRC_INC) -c $< -o $@

$(BUILD)/libengine.a: $(ENGINE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libapp.a: $(APP_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(OBJ_DIR)/src/app/main.o $(BUILD)/libapp.a $(TUI_OBJ) $(BUILD)/libengine.a
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS) $(CUDA_LIBS)

$(BUILD)/tests/%: tests/%.c $(BUILD)/libapp.a $(BUILD)/libengine.a $(TUI_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN) -Itui -o $@ $< $(BUILD)/libapp.a $(TUI_OBJ) $(BUILD)/libengine.a $(PKG_LIBS) -lcmocka $(CUDA_LIBS)

# Installs what is missing (Debian/Ubuntu), or says the exact command to run: deps-run only what the
# tool needs, deps that and what the tests need (cmocka, tmux) too.
deps:
	@BUILD=$(BUILD) scripts/deps.sh test
deps-run:
	@BUILD=$(BUILD) scripts/deps.sh run

run: deps-run all
	$(BIN)

test: deps
	@$(MAKE) --no-print-directory all $(TEST_BINS)
	@scripts/run-tests.sh

# The same suite built with AddressSanitizer and UBSan, in its own build folder.
asan:
	@$(MAKE) --no-print-directory BUILD=build-asan SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		all $(TESTS_C:tests/%.c=build-asan/tests/%)

fuzz:
	@scripts/fuzz.sh $(FUZZ_SECONDS)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/cudaclimb
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/cudaclimb
	cp -r lessons kernels assets $(DESTDIR)$(PREFIX)/share/cudaclimb/

clean:
	rm -rf build build-asan build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
