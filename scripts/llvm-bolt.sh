#!/usr/bin/env bash
# Sourced after llvm-profdata.sh: LLVM's post-link optimizer, BOLT. PGO decides
# what to inline and which branch is likely; BOLT then lays the linked machine
# code out by a profile of a training run (hot paths together, cold blocks and
# functions apart), which the compiler cannot do across a whole program. The
# enhancer's hot code is larger than the instruction cache; laid out, the same
# run takes about a fifth fewer instruction cache misses (bench/enhance/README.md).
# Debian packages it as bolt-<major>, beside llvm-<major>.
#   llvm_bolt             the tool's path, empty when it is not installed
#   install_llvm_bolt     installs bolt-<major> when it is missing
#   bolt_link_flags       RUSTFLAGS a binary needs to be laid out again (its
#                         relocations kept in the file)
#   bolt_layout BINARY TRAIN...
#                         instruments BINARY, runs TRAIN (a command in which
#                         `{}` stands for the instrumented binary's path), and
#                         replaces BINARY by its laid-out copy; fails and keeps
#                         BINARY as it was when any step fails
#   bolt_laid_out BINARY  whether BINARY already went through BOLT
llvm_bolt="$(command -v "llvm-bolt-$llvm_major" || true)"
bolt_link_flags="-Clink-args=-Wl,--emit-relocs"

install_llvm_bolt() {
  [ -n "$llvm_bolt" ] && return 0
  install_llvm_package "bolt-$llvm_major" "llvm-bolt, for the laid-out release build" \
    && llvm_bolt="$(command -v "llvm-bolt-$llvm_major" || true)" \
    || echo "no bolt-$llvm_major package here: builds go without BOLT" >&2
}

bolt_laid_out() {
  readelf -S "$1" 2>/dev/null | grep -q '\.note\.bolt_info'
}

bolt_layout() {
  local binary="$1" work
  shift
  work="$(mktemp -d "${TMPDIR:-/tmp}/tf-bolt.XXXXXX")" || return 1
  local instrumented="$work/$(basename "$binary")" profile="$work/profile.fdata"
  local command=() arg
  for arg in "$@"; do command+=("${arg//\{\}/$instrumented}"); done
  if "$llvm_bolt" "$binary" -o "$instrumented" -instrument --instrumentation-file="$profile" \
       --instrumentation-file-append-pid=0 >"$work/instrument.log" 2>&1 \
    && "${command[@]}" >"$work/train.log" 2>&1 \
    && [ -s "$profile" ] \
    && "$llvm_bolt" "$binary" -o "$work/laid-out" -data="$profile" -reorder-blocks=ext-tsp \
         -reorder-functions=cdsort -split-functions -split-all-cold -split-eh -icf=all -use-gnu-stack -use-old-text -no-huge-pages \
         >"$work/optimize.log" 2>&1 \
    && mv -f "$work/laid-out" "$binary"; then
    rm -rf "$work"
  else
    echo "BOLT failed on $binary (logs in $work)" >&2
    return 1
  fi
}
