#!/bin/sh
# assist installer (Linux, macOS). Fetches a release from the update origin, verifies it against the
# signed MANIFEST, and puts `assist` on PATH.
#
#   curl -fsSL <origin>/raw/branch/main/install.sh | sh
#   sh install.sh [--binary | --source]
#
# --binary (default): this platform's compiled binary, dist/<arch>-<os>/assist, into $ASSIST_BIN_DIR.
# --source: the source files into $ASSIST_INSTALL_DIR and a small `assist` launcher that runs them
#           with Deno (needs `deno` on PATH); it then keeps itself up to date at every start.
#
# Settings (environment):
#   ASSIST_BASE_URL      the update origin (default: the project's Gitea)
#   ASSIST_ORIGIN_TOKEN  token for a private origin (or ORIGIN_TOKEN); sent only to the origin, never in argv
#   ASSIST_ORIGIN_KEY    base64 Ed25519 public key trusted for a custom origin (else: hashes only)
#   ASSIST_BIN_DIR       where `assist` goes (default ~/.local/bin)
#   ASSIST_INSTALL_DIR   where a source install lives (default ~/.local/share/assist)
set -eu

DEFAULT_BASE_URL="https://gitea.assist.invalid/assist/assist"
# Release keys (raw Ed25519, base64), the same as update/signature.ts embeds.
EMBEDDED_KEYS="KDY50suAQkGLclYrJwm3iax+blvvR/fd8S2+ZgFEPBk= z7euEyqkhVVFDEQ7QA1q7ZZq93Mvg2dEwSPLmDYw/tY="

mode=binary
for a in "$@"; do
  case "$a" in
    --binary) mode=binary ;;
    --source) mode=source ;;
    -h|--help) sed -n '2,20p' "$0" 2>/dev/null | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install: unknown option $a (use --binary or --source)" >&2; exit 2 ;;
  esac
done

BASE="${ASSIST_BASE_URL:-$DEFAULT_BASE_URL}"
BASE="${BASE%/}"
BIN_DIR="${ASSIST_BIN_DIR:-$HOME/.local/bin}"
INSTALL_DIR="${ASSIST_INSTALL_DIR:-$HOME/.local/share/assist}"
TOKEN="${ASSIST_ORIGIN_TOKEN:-${ORIGIN_TOKEN:-}}"

die() { echo "install: $*" >&2; exit 1; }
command -v curl >/dev/null 2>&1 || die "curl is needed"

TMP=$(mktemp -d 2>/dev/null || mktemp -d -t assist)
# Every staging file is listed in $TMP/staged before it is written (also from inside $(get ...),
# whose failure exits only its subshell); at exit whatever is still there is removed, so a failed
# download never leaves a staging file behind. Moved files are gone from there already.
: > "$TMP/staged"
cleanup() {
  while IFS= read -r f; do rm -f "$f"; done < "$TMP/staged"
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
umask 077
# The token goes to curl in a config file (mode 0600), never on its command line.
: > "$TMP/curlrc"
if [ -n "$TOKEN" ]; then
  printf 'header = "Authorization: token %s"\n' "$TOKEN" > "$TMP/curlrc"
fi
umask 022

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  else shasum -a 256 "$1" | cut -d' ' -f1; fi
}
size_of() { wc -c < "$1" | tr -d ' '; }

# fetch <path> <out>: one file, refused when it is not a 200 with the file (sign-in pages, redirects
# to a login, LFS pointers). Redirects are not followed, so the token never leaves the origin.
fetch() {
  url="$BASE/raw/branch/main/$1"
  set +e
  meta=$(curl -sS -K "$TMP/curlrc" --max-time "${3:-60}" -o "$2" -w '%{http_code} %{content_type} %{redirect_url}' "$url" 2>"$TMP/err")
  rc=$?
  set -e
  if [ $rc -ne 0 ]; then
    case $rc in
      6|7|28|35|52|56) die "cannot reach the update origin $BASE ($(head -c 200 "$TMP/err")); set ASSIST_BASE_URL to the origin's address" ;;
      *) die "$url: download failed ($(head -c 200 "$TMP/err"))" ;;
    esac
  fi
  code=${meta%% *}
  rest=${meta#* }
  ctype=${rest%% *}
  loc=${rest#* }
  case "$code" in
    200) ;;
    30*) case "$loc" in
           *login*|*signin*|*sign_in*) die "$url redirected to a sign-in page ($loc): set ASSIST_ORIGIN_TOKEN" ;;
           *) die "$url redirected to $loc: set ASSIST_BASE_URL to the origin's address" ;;
         esac ;;
    404) die "$url: not found (HTTP 404); check ASSIST_BASE_URL (a private origin answers 404 without ASSIST_ORIGIN_TOKEN)" ;;
    401|403) die "$url: HTTP $code: set ASSIST_ORIGIN_TOKEN (or check it)" ;;
    *) die "$url: HTTP $code" ;;
  esac
  case "$ctype" in *text/html*) die "$url answered with an HTML page (a sign-in page?): set ASSIST_ORIGIN_TOKEN or check ASSIST_BASE_URL" ;; esac
  head1k=$(head -c 1024 "$2" | tr -d '\000' | tr 'A-Z' 'a-z' | tr -d '\r\n' | sed 's/^[[:space:]]*//')
  case "$head1k" in
    "version https://git-lfs.github.com/spec/v1"*) die "$url is a Git LFS pointer, not the file" ;;
  esac
  # A file the MANIFEST hashes ($4 = hashed) is checked by its hash instead: it may quote HTML.
  # Markup that opens with a comment or an XML declaration and holds an <html> tag is a page too.
  [ "${4:-}" = hashed ] && return 0
  case "$head1k" in
    "<!doctype html"*|"<html"*|"<"*"<html "*|"<"*"<html>"*|*"<title>sign in"*|*"<title>sign-in"*|*"<title>login"*|*"<title>log in"*)
      die "$url answered with an HTML page (a sign-in page?): set ASSIST_ORIGIN_TOKEN or check ASSIST_BASE_URL" ;;
  esac
}

# Ed25519 signature check of MANIFEST with openssl (raw key → SubjectPublicKeyInfo PEM).
verify_sig() { # <key b64>
  # The DER prefix of an Ed25519 SubjectPublicKeyInfo (30 2a 30 05 06 03 2b 65 70 03 21 00).
  printf '\060\052\060\005\006\003\053\145\160\003\041\000' > "$TMP/spki"
  printf '%s' "$1" | openssl base64 -d -A >> "$TMP/spki" 2>/dev/null || return 1
  { echo "-----BEGIN PUBLIC KEY-----"; openssl base64 -A -in "$TMP/spki"; echo; echo "-----END PUBLIC KEY-----"; } > "$TMP/pub.pem"
  sig_b64=$(cut -d' ' -f3 "$TMP/MANIFEST.sig" | tr -d '\n')
  printf '%s' "$sig_b64" | openssl base64 -d -A > "$TMP/sig.bin" 2>/dev/null || return 1
  openssl pkeyutl -verify -pubin -inkey "$TMP/pub.pem" -rawin -in "$TMP/MANIFEST" -sigfile "$TMP/sig.bin" >/dev/null 2>&1
}

echo "install: origin $BASE"
fetch VERSION "$TMP/VERSION" 20
VERSION=$(tr -d ' \r\n' < "$TMP/VERSION")
echo "$VERSION" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$' || die "the origin's VERSION is not a semantic version"
fetch MANIFEST "$TMP/MANIFEST"

keys=""
[ "$BASE" = "$DEFAULT_BASE_URL" ] && keys="$EMBEDDED_KEYS"
[ -n "${ASSIST_ORIGIN_KEY:-}" ] && keys="$keys $ASSIST_ORIGIN_KEY"
if [ -n "$keys" ]; then
  command -v openssl >/dev/null 2>&1 || die "openssl is needed to verify the signed MANIFEST"
  ( fetch MANIFEST.sig "$TMP/MANIFEST.sig" ) || die "the origin's MANIFEST is not signed; refused (this origin has a trusted key)"
  ok=""
  for k in $keys; do if verify_sig "$k"; then ok=1; break; fi; done
  [ -n "$ok" ] || die "the origin's MANIFEST signature does not verify with a trusted key; refused"
  echo "install: MANIFEST signature verified"
else
  echo "install: origin $BASE is unsigned (no trusted key; set ASSIST_ORIGIN_KEY); files are checked by hash only"
fi

# entry <path>: "<sha256> <size>" from the MANIFEST, or nothing.
entry() { awk -v p="$1" '$1 == p && NF == 3 { print $2, $3 }' "$TMP/MANIFEST"; }

# get <path> <dest>: fetch, check size and hash, stage beside dest, rename.
get() {
  want=$(entry "$1")
  [ -n "$want" ] || die "the MANIFEST has no hashed entry for $1"
  case "$1" in /*|*..*|*\\*) die "the MANIFEST path $1 leaves the install folder" ;; esac
  mkdir -p "$(dirname "$2")"
  stage="$(dirname "$2")/.$(basename "$2").assist-new"
  printf '%s\n' "$stage" >> "$TMP/staged"
  fetch "$1" "$stage" 300 hashed || { rm -f "$stage"; exit 1; }
  if [ "$(size_of "$stage")" != "${want#* }" ] || [ "$(sha256 "$stage")" != "${want% *}" ]; then
    rm -f "$stage"; die "$1: size or SHA-256 does not match the MANIFEST (a torn or altered file)"
  fi
  echo "$stage"
}

# no_link <path>: refuse a MANIFEST path whose existing components under $INSTALL_DIR include a
# symbolic link (a write through it would land outside the install folder).
no_link() {
  d="$INSTALL_DIR"; rest="$1"
  while :; do
    part=${rest%%/*}; d="$d/$part"
    [ -L "$d" ] && die "refused, nothing written: $1: $d is a symbolic link inside the install folder; remove it and retry"
    [ -e "$d" ] || return 0
    [ "$rest" = "$part" ] && return 0
    rest=${rest#*/}
  done
}

mkdir -p "$BIN_DIR"
if [ "$mode" = binary ]; then
  os=$(uname -s); arch=$(uname -m)
  case "$os" in Linux) os=linux ;; Darwin) os=macos ;; *) die "no binary for $os; try --source" ;; esac
  case "$arch" in x86_64|amd64) arch=x86_64 ;; aarch64|arm64) arch=aarch64 ;; *) die "no binary for $arch; try --source" ;; esac
  path="dist/$arch-$os/assist"
  [ -n "$(entry "$path")" ] || die "the release $VERSION has no $path (no binary for this platform); try --source"
  staged=$(get "$path" "$BIN_DIR/assist")
  case "$(head -c 4 "$staged" | od -An -tx1 | tr -d ' \n')" in
    7f454c46|cffaedfe|cafebabe) ;; *) rm -f "$staged"; die "$path is not an executable" ;;
  esac
  chmod 0755 "$staged"
  # The token and API key are not the new program's business: unset in the subshell that runs it.
  said=$(unset ASSIST_ORIGIN_TOKEN ORIGIN_TOKEN ASSIST_API_KEY; "$staged" --version 2>/dev/null || true)
  [ "$said" = "assist $VERSION" ] || { rm -f "$staged"; die "the downloaded binary says '$said', not 'assist $VERSION'"; }
  [ -f "$BIN_DIR/assist" ] && ln -f "$BIN_DIR/assist" "$BIN_DIR/assist.prev" 2>/dev/null || true
  mv -f "$staged" "$BIN_DIR/assist"
else
  command -v deno >/dev/null 2>&1 || die "a source install needs deno on PATH"
  mkdir -p "$INSTALL_DIR"
  for p in $(awk 'NF == 3 && $1 !~ /^#/ && $1 !~ /^dist\// { print $1 }' "$TMP/MANIFEST") MANIFEST MANIFEST.sig; do
    no_link "$p"
  done
  n=0
  # Staged file and target, one per line each (paths may hold spaces or colons).
  : > "$TMP/moves"
  for p in $(awk 'NF == 3 && $1 !~ /^#/ && $1 !~ /^dist\// { print $1 }' "$TMP/MANIFEST"); do
    n=$((n + 1))
    if [ -f "$INSTALL_DIR/$p" ] && [ "$(sha256 "$INSTALL_DIR/$p")" = "$(entry "$p" | cut -d' ' -f1)" ]; then continue; fi
    s=$(get "$p" "$INSTALL_DIR/$p")
    printf '%s\n%s\n' "$s" "$INSTALL_DIR/$p" >> "$TMP/moves"
    [ $((n % 10)) -eq 0 ] && echo "install: downloading $n files"
  done
  while IFS= read -r src && IFS= read -r dst; do mv -f "$src" "$dst"; done < "$TMP/moves"
  cp "$TMP/MANIFEST" "$INSTALL_DIR/MANIFEST"
  [ -f "$TMP/MANIFEST.sig" ] && cp "$TMP/MANIFEST.sig" "$INSTALL_DIR/MANIFEST.sig"
  chmod 0755 "$INSTALL_DIR/install.sh" 2>/dev/null || true
  launcher="$BIN_DIR/.assist.assist-new"
  printf '%s\n' "$launcher" >> "$TMP/staged"
  cat > "$launcher" <<EOF
#!/bin/sh
# assist launcher for the source install in $INSTALL_DIR (written by install.sh)
exec deno run -q --no-prompt -P=assist --config "$INSTALL_DIR/deno.json" "$INSTALL_DIR/main.ts" "\$@"
EOF
  chmod 0755 "$launcher"
  said=$(unset ASSIST_ORIGIN_TOKEN ORIGIN_TOKEN ASSIST_API_KEY; "$launcher" --version 2>/dev/null || true)
  [ "$said" = "assist $VERSION" ] || { rm -f "$launcher"; die "the installed program says '$said', not 'assist $VERSION'"; }
  mv -f "$launcher" "$BIN_DIR/assist"
  # The launch sync checks against this marker (under $ASSIST_HOME).
  home="${ASSIST_HOME:-$HOME/.assist}"
  mkdir -p "$home" && chmod 0700 "$home" && (umask 077; printf '%s\n' "$VERSION" > "$home/.last-sync-version")
fi

# A key given for a custom origin stays trusted by the program's own updates.
home="${ASSIST_HOME:-$HOME/.assist}"
if [ -n "${ASSIST_ORIGIN_KEY:-}" ]; then
  mkdir -p "$home" && chmod 0700 "$home"
  (umask 077; printf '%s\n' "$ASSIST_ORIGIN_KEY" > "$home/.origin-key")
fi
echo "install: assist $VERSION installed at $BIN_DIR/assist"
case ":$PATH:" in
  *":$BIN_DIR:"*) ;;
  *) echo "install: $BIN_DIR is not on PATH; add it: export PATH=\"$BIN_DIR:\$PATH\" (in ~/.profile)" ;;
esac
