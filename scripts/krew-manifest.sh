#!/usr/bin/env bash
# Renders the krew manifest template (krew-manifest.yaml at the top of the
# repository, in krew-release-bot's syntax) into a
# manifest krew installs from, the way the bot does: the tag for `{{ .TagName }}`, and
# for each platform's `{{addURIAndSha "URL" .TagName }}` its uri and the sha256 of the
# archive the URL names.
#
#   scripts/krew-manifest.sh TAG SUMS... > krew-manifest.yaml
#
# SUMS are files in sha256sum's format (`<sha256>  <archive>`). A platform whose archive
# no SUMS file lists is left out: scripts/package.sh packages one platform and renders a
# manifest for it alone. TEMPLATE=PATH renders another template.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "$#" -lt 2 ]; then
  echo "usage: $0 TAG SUMS..." >&2
  exit 2
fi
tag="$1"
shift
template="${TEMPLATE:-$root/krew-manifest.yaml}"
sums="$(mktemp)"
trap 'rm -f "$sums"' EXIT
cat "$@" >"$sums"

awk -v tag="$tag" -v template="$template" -v sums="$sums" '
  # The checksums: archive name (without a path or sha256sum'"'"'s binary-mode "*") -> sha256.
  BEGIN {
    while ((getline line < sums) > 0) {
      n = split(line, f, " ")
      if (n < 2) continue
      name = f[2]; sub(/^\*/, "", name); sub(/.*\//, "", name)
      if (f[1] ~ /^[0-9a-f]+$/ && length(f[1]) == 64) sha[name] = f[1]
    }
  }
  function tagged(s) { gsub(/[{][{] *[.]TagName *[}][}]/, tag, s); return s }
  function flush() {
    if (entry != "" && keep) { printf "%s", entry; kept++ }
    entry = ""; keep = 1
  }
  # Platform entries are buffered: one whose archive is not listed is dropped whole.
  /^  platforms:/ { print; in_platforms = 1; next }
  in_platforms && /^  - / { flush() }
  in_platforms && /^  [^ -]/ { flush(); in_platforms = 0 }
  # The template'"'"'s own comments describe the template; the manifest gets one line instead.
  FNR == 1 { print "# Rendered from the template krew-manifest.yaml by scripts/krew-manifest.sh for " tag "." }
  /^#/ { next }
  /^ *[{][{] *addURIAndSha/ {
    if (!match($0, /"[^"]*"/)) { print template ": no URL in: " $0 > "/dev/stderr"; bad = 1; next }
    url = tagged(substr($0, RSTART + 1, RLENGTH - 2))
    indent = $0; sub(/[^ ].*/, "", indent)
    file = url; sub(/.*\//, "", file)
    if (file in sha) entry = entry indent "uri: " url "\n" indent "sha256: " sha[file] "\n"
    else keep = 0
    next
  }
  {
    line = tagged($0)
    if (line ~ /[{][{]/) { print template ": unknown template action in: " $0 > "/dev/stderr"; bad = 1 }
    if (in_platforms) entry = entry line "\n"; else print line
  }
  END {
    flush()
    if (bad) exit 1
    if (kept == 0) { print "krew-manifest.sh: no archive of the checksums matches a platform of " template > "/dev/stderr"; exit 1 }
  }
' "$template"
