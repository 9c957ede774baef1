#!/usr/bin/env bash
# Builds the release archive of kubectl-policies for one platform (this machine's, or
# TARGET's) and a krew manifest that installs from it:
#
#   scripts/package.sh [OUTDIR]        default OUTDIR: dist
#
# OUTDIR gets kubectl-policies_<tag>_<os>_<arch>.tar.gz (the binary, the completion
# forwarder kubectl runs, and LICENSE), its .sha256, and krew-manifest.yaml rendered
# from the template (krew-manifest.yaml at the top of the repository) for every archive
# OUTDIR holds, so that
#
#   kubectl krew install --manifest=dist/krew-manifest.yaml --archive=dist/<archive>
#
# installs it. The release workflow (.github/workflows/release.yml) runs this once per
# platform.
#
# TARGET=<Rust target triple> builds for that target (cargo build --target);
# KUBECTL_POLICIES_BIN=PATH packages that binary instead of building one;
# TAG=vX.Y.Z names the archives (default: v and Cargo.toml's version).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
outdir="${1:-dist}"
tag="${TAG:-v$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)}"
target="${TARGET:-}"

# krew's os and arch, from the target triple or from this machine.
platform="${target:-$(uname -s)/$(uname -m)}"
case "$platform" in
  *linux* | Linux/*) os=linux ;;
  *apple-darwin* | Darwin/*) os=darwin ;;
  *windows* | MINGW* | MSYS* | CYGWIN*) os=windows ;;
  *) echo "package.sh: no krew platform for OS of $platform" >&2; exit 1 ;;
esac
case "$platform" in
  x86_64* | */x86_64 | */amd64) arch=amd64 ;;
  aarch64* | */aarch64 | */arm64) arch=arm64 ;;
  *) echo "package.sh: no krew platform for the CPU of $platform" >&2; exit 1 ;;
esac
exe=""
complete="kubectl_complete-policies"
if [ "$os" = windows ]; then
  exe=".exe"
  complete="kubectl_complete-policies.cmd"
fi
name="kubectl-policies_${tag}_${os}_${arch}"
if ! grep -qF "/kubectl-policies_{{ .TagName }}_${os}_${arch}.tar.gz\"" "$root/krew-manifest.yaml"; then
  echo "package.sh: krew-manifest.yaml has no platform ${os}/${arch}" >&2
  exit 1
fi

mkdir -p "$outdir"
outdir="$(cd "$outdir" && pwd)"
# The rendered manifest must not replace the template it is rendered from.
if [ "$outdir" = "$root" ]; then
  echo "package.sh: OUTDIR is the repository itself; its krew-manifest.yaml is the template" >&2
  exit 1
fi

bin="${KUBECTL_POLICIES_BIN:-}"
if [ -z "$bin" ]; then
  if [ -n "$target" ]; then
    (cd "$root" && cargo build --release --locked --target "$target")
    bin="$root/target/$target/release/kubectl-policies$exe"
  else
    (cd "$root" && cargo build --release --locked)
    bin="$root/target/release/kubectl-policies$exe"
  fi
fi

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
files=("kubectl-policies$exe" "$complete" LICENSE)
cp "$bin" "$stage/kubectl-policies$exe"
cp "$root/completions/$complete" "$root/LICENSE" "$stage/"
chmod 0755 "$stage/kubectl-policies$exe" "$stage/$complete"
chmod 0644 "$stage/LICENSE"

archive="$outdir/${name}.tar.gz"
# The same bytes for the same binary where GNU tar allows: fixed order, owner and time.
if tar --version 2>/dev/null | grep -q 'GNU tar'; then
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$stage" -cf - "${files[@]}" | gzip -n -9 >"$archive"
else
  tar -C "$stage" -cf - "${files[@]}" | gzip -n -9 >"$archive"
fi

if command -v sha256sum >/dev/null 2>&1; then
  sha="$(sha256sum "$archive" | cut -d ' ' -f 1)"
else
  sha="$(shasum -a 256 "$archive" | cut -d ' ' -f 1)"
fi
printf '%s  %s\n' "$sha" "${name}.tar.gz" >"$archive.sha256"

"$root/scripts/krew-manifest.sh" "$tag" "$outdir"/*.tar.gz.sha256 >"$outdir/krew-manifest.yaml"

echo "$archive"
echo "sha256 $sha"
echo "$outdir/krew-manifest.yaml"
