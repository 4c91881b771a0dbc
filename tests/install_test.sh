#!/usr/bin/env bash
# Installs the build into a temporary prefix and checks that every file is
# where the freedesktop.org standards and GNUInstallDirs put it, and that each
# passes its validator (desktop-file-validate, appstreamcli, xmllint,
# update-mime-database, groff). Exits 1 on the first problem; 77 (CTest: skipped)
# when a validator is not installed: scripts/setup.sh installs them all.
#
# Usage: install_test.sh CMAKE BUILD_DIR CONFIG VERSION ICON_TOOL DOCS_DIR
set -euo pipefail

cmake=$1 build=$2 config=$3 version=$4 icon_tool=$5 docs=$6
id=io.github.attention_explorer.AttentionExplorer
mime_type=application/x-attention-explorer-session

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

for tool in desktop-file-validate appstreamcli xmllint update-mime-database groff; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (run scripts/setup.sh)"; exit 77; }
done

tmp=$(mktemp -d)
# cmake --install rewrites BUILD_DIR/install_manifest.txt, the list a user
# uninstalls with after a real install: keep theirs.
manifest=$build/install_manifest.txt
if [ -f "$manifest" ]; then cp -p "$manifest" "$tmp/manifest.saved"; fi
restore() {
  if [ -f "$tmp/manifest.saved" ]; then cp -p "$tmp/manifest.saved" "$manifest"; else rm -f "$manifest"; fi
  rm -rf "$tmp"
}
trap restore EXIT
prefix=$tmp/prefix
"$cmake" --install "$build" --config "$config" --prefix "$prefix" >"$tmp/install.log" 2>&1 \
  || { cat "$tmp/install.log" >&2; fail "cmake --install"; }
pass "cmake --install into $prefix"

share=$prefix/share
expected=(
  bin/attention-explorer
  "share/applications/$id.desktop"
  "share/metainfo/$id.metainfo.xml"
  share/mime/packages/attention-explorer.xml
  "share/icons/hicolor/scalable/apps/$id.svg"
  share/man/man1/attention-explorer.1
  share/attention-explorer/examples/cross-attention.attn.json
  share/attention-explorer/examples/four-heads-causal.attn.json
  share/attention-explorer/examples/long-sentence.attn.json
  share/attention-explorer/examples/rotary-positions.attn.json
  share/attention-explorer/examples/shared-key-value-heads.attn.json
  share/attention-explorer/examples/your-journey.attn.json
  share/attention-explorer/examples/your-journey-simplified.attn.json
  share/attention-explorer/examples/models/induction/config.json
  share/attention-explorer/examples/models/induction/model.safetensors
  share/attention-explorer/examples/models/induction/vocab.json
  share/attention-explorer/examples/models/induction/merges.txt
  share/attention-explorer/examples/models/pronoun/config.json
  share/attention-explorer/examples/models/pronoun/model.safetensors
  share/attention-explorer/examples/models/pronoun/vocab.json
  share/attention-explorer/examples/models/pronoun/merges.txt
  share/attention-explorer/examples/models/pronoun-llama/config.json
  share/attention-explorer/examples/models/pronoun-llama/model.safetensors
  share/attention-explorer/examples/models/pronoun-llama/tokenizer.json
  share/attention-explorer/examples/models/pronoun-llama/tokenizer_config.json
  share/doc/attention-explorer/LICENSE
  share/doc/attention-explorer/README.md
)
# The documentation pages and their pictures, as docs/ holds them (Help › User Guide reads them there).
while IFS= read -r file; do
  expected+=("share/doc/attention-explorer/docs/$file")
done < <(cd "$docs" && find . -type f \( -name '*.md' -o -name '*.png' -o -name '*.svg' \) | sed 's|^\./||' | sort)
[ -f "$docs/user-guide.md" ] && [ -f "$docs/command-line.md" ] || fail "no user guide in $docs"
sizes=(16 32 48 64 128 256)
for size in "${sizes[@]}"; do
  expected+=("share/icons/hicolor/${size}x${size}/apps/$id.png")
done
for file in "${expected[@]}"; do
  [ -f "$prefix/$file" ] && [ -s "$prefix/$file" ] || fail "missing or empty: $file"
done
[ -x "$prefix/bin/attention-explorer" ] || fail "bin/attention-explorer is not executable"
pass "all ${#expected[@]} files in place"

# Nothing else: a stray file would end up in the .deb as well.
actual=$(cd "$prefix" && find . -type f | sed 's|^\./||' | sort)
wanted=$(printf '%s\n' "${expected[@]}" | sort)
[ "$actual" = "$wanted" ] || fail "installed files differ from the expected list:
$(diff <(echo "$wanted") <(echo "$actual") || true)"
pass "no unexpected files"

# The installed binary runs on an installed example, without a display.
out=$("$prefix/bin/attention-explorer" --version) || fail "--version exited $?"
[ "$out" = "attention-explorer $version" ] || fail "--version printed \"$out\", expected \"attention-explorer $version\""
"$prefix/bin/attention-explorer" compute "$share/attention-explorer/examples/your-journey.attn.json" -o "$tmp/result.json" \
  || fail "compute on the installed example exited $?"
grep -q '"attention-explorer-result"' "$tmp/result.json" || fail "compute wrote no result file"
# The installed Llama-style model opens where it lies, its beginning token first.
"$prefix/bin/attention-explorer" compute --model "$share/attention-explorer/examples/models/pronoun-llama" \
  --text "The man found the lamp and it" -o "$tmp/llama.json" || fail "compute --model on the installed pronoun-llama exited $?"
grep -q '"<|begin_of_text|>"' "$tmp/llama.json" || fail "compute --model pronoun-llama: no beginning token"
pass "installed binary: --version, compute and compute --model"

# Desktop entry: valid, and consistent with the binary, icon and MIME type.
desktop=$share/applications/$id.desktop
desktop-file-validate "$desktop" || fail "desktop-file-validate $desktop"
key() { sed -n "s/^$1=//p" "$desktop"; }
[ "$(key Exec)" = "attention-explorer %f" ] || fail "Exec=$(key Exec)"
[ "$(key Icon)" = "$id" ] || fail "Icon=$(key Icon), expected $id"
[ "$(key MimeType)" = "$mime_type;" ] || fail "MimeType=$(key MimeType)"
[ "$(key Categories)" = "Education;Science;Qt;" ] || fail "Categories=$(key Categories)"
for k in Name GenericName Comment Keywords; do [ -n "$(key $k)" ] || fail "desktop entry lacks $k"; done
pass "desktop-file-validate and desktop entry keys"

# AppStream metadata: valid (warnings fail too), naming the desktop file and this version.
metainfo=$share/metainfo/$id.metainfo.xml
appstreamcli validate --no-net --strict --pedantic "$metainfo" || fail "appstreamcli validate $metainfo"
grep -q "<id>$id</id>" "$metainfo" || fail "metainfo id is not $id"
grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$metainfo" || fail "metainfo launchable"
grep -q "<binary>attention-explorer</binary>" "$metainfo" || fail "metainfo provides no binary"
grep -q "<release version=\"$version\"" "$metainfo" || fail "metainfo has no release $version"
pass "appstreamcli validate"

# MIME type: well-formed, and the database it builds maps *.attn.json to our type above plain JSON.
mime_xml=$share/mime/packages/attention-explorer.xml
xmllint --noout "$mime_xml" || fail "xmllint $mime_xml"
mkdir -p "$tmp/mime/packages"
cp "$mime_xml" "$tmp/mime/packages/"
update-mime-database "$tmp/mime" >"$tmp/mime.log" 2>&1 || { cat "$tmp/mime.log" >&2; fail "update-mime-database"; }
! grep -qi -e error -e warn "$tmp/mime.log" || { cat "$tmp/mime.log" >&2; fail "update-mime-database complained"; }
grep -qx "60:$mime_type:\*.attn.json" "$tmp/mime/globs2" || fail "globs2 lacks *.attn.json at weight 60"
grep -qx "$mime_type application/json" "$tmp/mime/subclasses" || fail "$mime_type is not a subclass of application/json"
pass "MIME type"

# Icons: the SVG is well-formed, every PNG decodes to its nominal size.
xmllint --noout "$share/icons/hicolor/scalable/apps/$id.svg" || fail "xmllint on the SVG icon"
for size in "${sizes[@]}"; do
  "$icon_tool" check "$share/icons/hicolor/${size}x${size}/apps/$id.png" "$size" || fail "icon ${size}x${size}"
done
pass "icons: SVG and ${#sizes[@]} PNG sizes"

# Man page: groff formats it without a single warning.
man_page=$share/man/man1/attention-explorer.1
LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$man_page" >"$tmp/groff.log" 2>&1 || fail "groff on $man_page"
[ ! -s "$tmp/groff.log" ] || { cat "$tmp/groff.log" >&2; fail "groff warnings on the man page"; }
grep -q '^\.TH ATTENTION-EXPLORER 1 ' "$man_page" || fail "man page header"
# Made from docs/command-line.md: its sections and options are there.
for text in '^\.SH SYNOPSIS' '^\.SH EXIT STATUS' '^\.SS "export \\-\\-model"' '\\-\\-each\\-head' '\\-\\-report\\-every'; do
  grep -q -e "$text" "$man_page" || fail "the man page lacks $text"
done
pass "man page"

echo "All install checks passed."
