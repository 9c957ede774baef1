#!/usr/bin/env bash
# Builds the release archive of kubectl-policies for this machine (the binary, the
# kubectl_complete-policies script and LICENSE in a tar.gz named as krew-manifest.yaml
# expects) and writes the archive's sha256 into the manifest's matching platform.
#
#   scripts/package.sh [OUTDIR]        default OUTDIR: dist
#
# KUBECTL_POLICIES_BIN=PATH packages that binary instead of building one;
# MANIFEST=PATH updates that manifest instead of krew-manifest.yaml.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
outdir="${1:-dist}"
manifest="${MANIFEST:-$root/krew-manifest.yaml}"

version="v$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)"
case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) echo "package.sh: krew-manifest.yaml has no platform for OS $(uname -s)" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "package.sh: krew-manifest.yaml has no platform for CPU $(uname -m)" >&2; exit 1 ;;
esac
name="kubectl-policies_${version}_${os}_${arch}"
if ! grep -q "uri: .*/${version}/${name}\.tar\.gz\$" "$manifest"; then
  echo "package.sh: $manifest has no uri for ${name}.tar.gz under ${version}/ (is spec.version still ${version}?)" >&2
  exit 1
fi

bin="${KUBECTL_POLICIES_BIN:-}"
if [ -z "$bin" ]; then
  (cd "$root" && cargo build --release --locked)
  bin="$root/target/release/kubectl-policies"
fi

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp "$bin" "$stage/kubectl-policies"
cp "$root/completions/kubectl_complete-policies" "$root/LICENSE" "$stage/"
chmod 0755 "$stage/kubectl-policies" "$stage/kubectl_complete-policies"
chmod 0644 "$stage/LICENSE"

mkdir -p "$outdir"
archive="$(cd "$outdir" && pwd)/${name}.tar.gz"
files=(kubectl-policies kubectl_complete-policies LICENSE)
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

# The sha256 line that follows this platform's uri line.
tmp="$(mktemp)"
awk -v file="/${version}/${name}.tar.gz" -v sha="$sha" '
  /^ *uri: / { hit = (substr($0, length($0) - length(file) + 1) == file) }
  hit && /^ *sha256: / { sub(/sha256: .*/, "sha256: " sha); hit = 0 }
  { print }
' "$manifest" >"$tmp"
cat "$tmp" >"$manifest"
rm -f "$tmp"

echo "$archive"
echo "sha256 $sha written to $manifest (${os}/${arch})"
