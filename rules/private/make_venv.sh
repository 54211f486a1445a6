#!/usr/bin/env bash
# Create (once) the venv for a lock file; print its absolute path on the last line.
#
# Usage: make_venv.sh PYTHON LOCKFILE ROOT
# The venv is ROOT/py<major><minor>-<first 16 hex digits of sha256(LOCKFILE)>. A venv is
# only used once its ".tinypte-complete" marker exists, so an interrupted install is
# redone; a lock on ROOT keeps two workspaces from building the same venv at once.
set -euo pipefail

python=$1
lock=$2
root=$3

tag=$("$python" -c 'import sys; print("py%d%d" % sys.version_info[:2])')
digest=$(sha256sum "$lock" | cut -c1-16)
venv="$root/$tag-$digest"

mkdir -p "$root"
exec 9>"$root/.lock"
flock 9

if [[ ! -f "$venv/.tinypte-complete" ]]; then
  echo "tinypte: creating $venv from $lock" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --no-input --disable-pip-version-check --quiet \
    --require-hashes -r "$lock" >&2
  # Byte-compile now, so later actions never write .pyc files into the shared venv.
  "$venv/bin/python" -m compileall -q "$venv/lib" >/dev/null 2>&1 || true
  cp "$lock" "$venv/requirements.lock"
  touch "$venv/.tinypte-complete"
fi
echo "$venv"
