# cudaclimb - see README.md.  `make run` sets up, builds and starts; `make test` runs every test.
CUDA_HOME ?= /usr/local/cuda
PREFIX    ?= /usr/local
CC        ?= gcc
CXX       ?= g++
NVCC      ?= $(CUDA_HOME)/bin/nvcc
BUILD     ?= build

PKGS      := yaml-0.1 ncursesw
# src/ by role, in layers (docs/how-it-works.md, "The layers"): core (util, results, YAML, JSON),
# lesson (the format, expressions, plans, claim names), cuda (what the parent and the worker both use:
# the GPU table, NVRTC compiles and their cache, SASS), worker (the GPU process), runner (where the
# worker runs, its protocol), render (pure text renderers: the timeline, the roofline data, the SASS
# and hotspot reports), engine (diagnosis, jobs; no curses), tui, app (the CLI). A header is
# named alone, but each folder sees only its own headers and those of the layers below it, so an
# include the wrong way fails to compile; tests/cli/layers.sh checks the same from the sources.
SRC_DIRS  := src/core src/lesson src/cuda src/render src/engine src/runner src/worker src/app
SRC_INC   := $(addprefix -I,$(SRC_DIRS) tui)
LAYER_src/core   := src/core
LAYER_src/lesson := $(LAYER_src/core) src/lesson
LAYER_src/cuda   := $(LAYER_src/lesson) src/cuda
LAYER_src/worker := $(LAYER_src/cuda) src/worker
LAYER_src/runner := $(LAYER_src/cuda) src/runner
LAYER_src/render := $(LAYER_src/cuda) src/render
LAYER_src/engine := $(LAYER_src/runner) src/render src/engine
LAYER_tui        := $(LAYER_src/engine) tui
LAYER_src/app    := $(LAYER_tui) src/worker src/app
LAYER_DIRS       := $(SRC_DIRS) tui
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lyaml -lncursesw)

WARN      := -Wall -Wextra -Wshadow -Wno-unused-parameter
CFLAGS    ?= -O2 -g
CFLAGS    += -std=c11 -D_GNU_SOURCE $(WARN) -MMD -MP -I$(CUDA_HOME)/include $(PKG_CFLAGS) \
             -DCC_DATADIR='"$(PREFIX)/share/cudaclimb"' -DCUDA_BIN='"$(CUDA_HOME)/bin"'
.DEFAULT_GOAL := all
# --version names the commit it was built from (git describe; nothing outside a git checkout). cli.o
# depends on a file that changes only when the commit does, so a new commit rebuilds it. CUDACLIMB_COMMIT
# names it instead where the checkout's git is not the tree's (a copy of the tree beside an older .git,
# as on the GPU box of scripts/gpu-check.sh).
CC_COMMIT_NOW := $(or $(CUDACLIMB_COMMIT),$(shell git describe --always --dirty 2>/dev/null))
$(BUILD)/obj/src/app/cli.o: CFLAGS += -DCC_COMMIT='"$(CC_COMMIT_NOW)"'
$(BUILD)/obj/src/app/cli.o: $(BUILD)/commit.txt
$(BUILD)/commit.txt: FORCE
	@mkdir -p $(dir $@); [ "$$(cat $@ 2>/dev/null)" = "$(CC_COMMIT_NOW)" ] || echo "$(CC_COMMIT_NOW)" > $@
.PHONY: FORCE
FORCE:
CXXFLAGS  ?= -O2 -g
CXXFLAGS  += -std=c++17 $(WARN) -MMD -MP -I$(CUDA_HOME)/include -I$(CUDA_HOME)/extras/CUPTI/include
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

# In parallel unless a -j is given (make -j1 for one job at a time); one short line per file
# (CC src/core/util.c) unless V=1, which prints the whole command.
# The sub-makes of run and test share the jobs through make's jobserver.
NPROC := $(shell nproc 2>/dev/null || echo 2)
ifeq ($(MAKELEVEL),0)
ifeq ($(filter -j% --jobserver%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(NPROC)
endif
endif
ifeq ($(V),1)
Q   :=
say  =
else
Q   := @
SUB := -s
say  = printf '  %-4s %s\n' $(1) $(2);
endif

.PHONY: all run test deps deps-run install uninstall clean fuzz asan layers
all: $(BIN)

# Each folder's objects get the include paths of its layer (LAYER_INC), nothing above it.
$(foreach d,$(LAYER_DIRS),$(eval $(OBJ_DIR)/$(d)/%.o: LAYER_INC := $(addprefix -I,$(LAYER_$(d)))))
# "FOLDER: the folders it may include from", one line each (read by tests/cli/layers.sh).
layers:
	@$(foreach d,$(LAYER_DIRS),echo '$(d): $(LAYER_$(d))';)

$(OBJ_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$<)$(CC) $(CFLAGS) $(LAYER_INC) $(SAN) -c $< -o $@
$(OBJ_DIR)/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(Q)$(call say,CXX,$<)$(CXX) $(CXXFLAGS) $(LAYER_INC) $(SAN) -c $< -o $@
$(OBJ_DIR)/%.cu.o: %.cu
	@mkdir -p $(dir $@)
	$(Q)$(call say,NVCC,$<)$(NVCC) $(NVCCFLAGS) $(LAYER_INC) -c $< -o $@

$(BUILD)/libengine.a: $(ENGINE_OBJ)
	@rm -f $@
	$(Q)$(call say,AR,$@)ar rcs $@ $^

$(BUILD)/libapp.a: $(APP_OBJ)
	@rm -f $@
	$(Q)$(call say,AR,$@)ar rcs $@ $^

$(BIN): $(OBJ_DIR)/src/app/main.o $(BUILD)/libapp.a $(TUI_OBJ) $(BUILD)/libengine.a
	$(Q)$(call say,LD,$@)$(CC) $(SAN) -o $@ $^ $(PKG_LIBS) $(CUDA_LIBS)

$(BUILD)/tests/%: tests/%.c $(BUILD)/libapp.a $(BUILD)/libengine.a $(TUI_OBJ)
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(CC) $(CFLAGS) $(SRC_INC) $(SAN) -o $@ $< $(BUILD)/libapp.a $(TUI_OBJ) $(BUILD)/libengine.a $(PKG_LIBS) -lcmocka $(CUDA_LIBS)

# Installs what is missing (Debian/Ubuntu), or says the exact command to run: deps-run only what the
# tool needs, deps that and what the tests need too (scripts/deps.sh list shows both lists). Each
# prints what it installs before installing; no service is started or enabled.
deps:
	@BUILD=$(BUILD) scripts/deps.sh test
deps-run:
	@BUILD=$(BUILD) scripts/deps.sh run

# The set-up first, then the build (in parallel), then the interface: on a terminal only.
run: deps-run
	@$(MAKE) $(SUB) --no-print-directory all
	@if [ -t 0 ] && [ -t 1 ]; then $(BIN); else echo "make run: built $(BIN); the terminal interface needs a terminal: start it from one, or see $(BIN) --help"; fi

test: deps
	@$(MAKE) $(SUB) --no-print-directory all $(TEST_BINS)
	@scripts/run-tests.sh

# The same suite built with AddressSanitizer and UBSan, in its own build folder.
asan:
	@$(MAKE) --no-print-directory BUILD=build-asan SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		all $(TESTS_C:tests/%.c=build-asan/tests/%)

fuzz:
	@scripts/fuzz.sh $(FUZZ_SECONDS)

# make install [PREFIX=/usr/local] [DESTDIR=]: the binary, its data (lessons, kernels, assets) in
# share/cudaclimb, the nvdisasm deps.sh fetched (if any) in libexec/cudaclimb, where the binary looks
# for it, the man page, the bash and zsh completions, and the lab service's systemd unit and account
# (lib/systemd/system, lib/sysusers.d: installed, never enabled or started). make uninstall removes exactly those files
# (the list install wrote into share/cudaclimb/installed-files) and the folders that become empty.
DATA_DIR  = $(PREFIX)/share/cudaclimb
TOOL_DIR  = $(PREFIX)/libexec/cudaclimb
MAN_DIR   = $(PREFIX)/share/man/man1
BASH_DIR  = $(PREFIX)/share/bash-completion/completions
ZSH_DIR   = $(PREFIX)/share/zsh/site-functions
UNIT_DIR  = $(PREFIX)/lib/systemd/system
SYSUSERS_DIR = $(PREFIX)/lib/sysusers.d
MANIFEST  = $(DESTDIR)$(DATA_DIR)/installed-files
install: all
	@set -e; d='$(DESTDIR)'; list=$$(mktemp); trap 'rm -f "$$list"' EXIT; \
	put() { p=$$(dirname "$$3"); while [ "$$p" != / ] && [ "$$p" != . ] && [ ! -d "$$d$$p" ]; do echo "$$p/" >>"$$list"; p=$$(dirname "$$p"); done; \
		install -d "$$d$$(dirname "$$3")"; install -m $$1 "$$2" "$$d$$3"; echo "$$3" >>"$$list"; }; \
	put 755 $(BIN) $(PREFIX)/bin/cudaclimb; \
	for f in $$(find lessons kernels assets -type f ! -path 'assets/completions/*' | LC_ALL=C sort); do put 644 "$$f" "$(DATA_DIR)/$$f"; done; \
	if [ -x $(BUILD)/tools/nvdisasm ]; then put 755 $(BUILD)/tools/nvdisasm $(TOOL_DIR)/nvdisasm; fi; \
	put 644 docs/cudaclimb.1 $(MAN_DIR)/cudaclimb.1; \
	put 644 assets/completions/cudaclimb.bash $(BASH_DIR)/cudaclimb; \
	put 644 assets/completions/_cudaclimb $(ZSH_DIR)/_cudaclimb; \
	unit=$$(mktemp); sed 's|@BINDIR@|$(PREFIX)/bin|' assets/service/cudaclimb.service >"$$unit"; \
	put 644 "$$unit" $(UNIT_DIR)/cudaclimb.service; rm -f "$$unit"; \
	put 644 assets/service/sysusers.conf $(SYSUSERS_DIR)/cudaclimb.conf; \
	echo "$(DATA_DIR)/installed-files" >>"$$list"; \
	install -m 644 "$$list" "$(MANIFEST)"; \
	echo "installed $$(grep -vc '/$$' "$$list") files under $$d$(PREFIX) (listed in $(MANIFEST); make uninstall removes them)"

uninstall:
	@d='$(DESTDIR)'; m='$(MANIFEST)'; \
	if [ ! -f "$$m" ]; then echo "make uninstall: no $$m: nothing installed under $$d$(PREFIX)"; exit 0; fi; \
	all=$$(cat "$$m"); n=0; \
	for f in $$(printf '%s\n' "$$all" | grep -v '/$$'); do case $$f in '$(PREFIX)'/*) ;; *) continue;; esac; \
		if [ -f "$$d$$f" ] || [ -L "$$d$$f" ]; then rm -f "$$d$$f"; n=$$((n + 1)); fi; done; \
	for dir in $$(printf '%s\n' "$$all" | grep '/$$' | awk '{ print length, $$0 }' | sort -rn | cut -d' ' -f2-); do rmdir "$$d$$dir" 2>/dev/null || true; done; \
	echo "removed $$n files from $$d$(PREFIX)"

clean:
	rm -rf build build-asan build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
