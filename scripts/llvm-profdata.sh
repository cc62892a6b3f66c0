#!/usr/bin/env bash
# Sourced: finds llvm-profdata of rustc's own LLVM, the only version that reads
# the raw profiles rustc writes. Debian packages it as llvm-<major>.
#   llvm_major      rustc's LLVM major version
#   llvm_profdata   the tool's path, empty when it is not installed
llvm_major="$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')"
llvm_profdata="$(command -v "llvm-profdata-$llvm_major" || true)"
