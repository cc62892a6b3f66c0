#!/usr/bin/env bash
# Sourced: finds llvm-profdata of rustc's own LLVM, the only version that reads
# the raw profiles rustc writes. Debian packages it as llvm-<major>.
#   llvm_major      rustc's LLVM major version
#   llvm_profdata   the tool's path, empty when it is not installed
#   install_llvm_profdata   installs llvm-<major> when the tool is missing
#                   (setup.sh, bench/enhance/run.sh), then finds it again
llvm_major="$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')"
llvm_profdata="$(command -v "llvm-profdata-$llvm_major" || true)"

install_llvm_profdata() {
  [ -n "$llvm_profdata" ] && return 0
  local root=()
  [ "$(id -u)" = 0 ] || root=(sudo)
  echo "installing Debian's llvm-$llvm_major (llvm-profdata, for the profile-guided release build)"
  if "${root[@]}" apt-get update -qq \
    && "${root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "llvm-$llvm_major" >/dev/null; then
    llvm_profdata="$(command -v "llvm-profdata-$llvm_major" || true)"
  else
    echo "no llvm-$llvm_major package here: builds go without a profile" >&2
  fi
}
