#!/usr/bin/env bash
# Sourced by the environment scripts (scripts/dace-env.sh, scripts/gt4py-env.sh):
#   sdfgstream_debian_packages WHO PACKAGE...
# installs those of the Debian packages that are not installed (apt-get, with
# sudo when not root; waits up to 10 minutes for another apt's lock), with
# progress on stderr prefixed by WHO. Installs nothing when all are there.
sdfgstream_debian_packages() {
  local who=$1
  shift
  local missing=() package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  ((${#missing[@]})) || return 0
  echo "$who: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -q \
    --no-install-recommends "${missing[@]}" >&2
}
