#!/usr/bin/env bash
# The Windows job (issue 26 item 11): Deno's Windows build (the npm package @deno/win32-x64) runs
# the Windows suites under Wine 10, in a Debian trixie chroot (bookworm's Wine 8 cannot run Deno:
# no ProcessPrng, no placeholder reservations). Run as root by .ci/run; prints one closing line
# `windows: N passed, N failed, N skipped` and exits non-zero when a check failed or the job could
# not start. What is not run is listed by name with the reason: the suites Wine cannot pass (its own
# limits) and the tests that are POSIX only.
#
# Cached across runs in $ASSIST_WINE_CACHE (default /var/cache/assist-ci): the chroot with Wine,
# its Wine prefix, deno.exe and the Windows Deno's module cache. Each is rebuilt when missing or
# half-built (a `.ready` marker is written last), so a fresh machine builds it all (about 2 min);
# bumping CHROOT_REV rebuilds the chroot.
set -uo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
DENO_VERSION=2.9.6
CHROOT_REV=1
CACHE=${ASSIST_WINE_CACHE:-/var/cache/assist-ci}
ROOT="$CACHE/trixie-wine-$CHROOT_REV"
start=$(date +%s)

say() { echo "windows: $*"; }
fail_setup() {
  say "$*" >&2
  echo "windows: 0 passed, 1 failed, 0 skipped"
  exit 1
}
step() { say "$1 ($(($(date +%s) - start)) s)"; }

[ "$(id -u)" = 0 ] || fail_setup "the Windows job needs root (debootstrap, chroot, mounts)"
mkdir -p "$CACHE"

# The Debian mirror this machine's apt already uses (its sources), for debootstrap.
mirror() {
  local u
  u=$(grep -hE '^\s*URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n 1)
  [ -n "$u" ] || u=$(grep -hE '^\s*deb\s' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | grep -v security | head -n 1)
  printf '%s' "$u"
}

# Mounts a killed run may have left inside a chroot folder (its /proc, /dev, the repository): never
# delete through them, never mount twice.
unmount_under() {
  awk -v r="$1/" 'index($2 "/", r) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do
    umount -l "$m" 2>/dev/null || true
  done
}
unmount_under "$ROOT"
unmount_under "$ROOT.part"

if [ ! -f "$ROOT/.ready" ]; then
  step "building the trixie chroot with Wine (first run on this machine)"
  command -v debootstrap >/dev/null 2>&1 || {
    apt-get update -qq >/dev/null 2>&1
    apt-get install -y -qq debootstrap >/dev/null 2>&1
  } || fail_setup "cannot install debootstrap"
  m=$(mirror)
  [ -n "$m" ] || fail_setup "no Debian mirror found in /etc/apt sources"
  rm -rf --one-file-system "$ROOT" "$ROOT.part"
  debootstrap --variant=minbase --include=wine,wine64,ca-certificates trixie "$ROOT.part" "$m" \
    >"$CACHE/debootstrap.log" 2>&1 || {
    tail -n 5 "$CACHE/debootstrap.log" >&2
    fail_setup "debootstrap of trixie failed (log: $CACHE/debootstrap.log)"
  }
  mv "$ROOT.part" "$ROOT" && touch "$ROOT/.ready"
fi

if [ "$(cat "$ROOT/opt/deno/VERSION" 2>/dev/null)" != "$DENO_VERSION" ]; then
  step "fetching Deno's Windows build ${DENO_VERSION} from the npm registry"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack -q "@deno/win32-x64@${DENO_VERSION}" >/dev/null && tar xzf deno-win32-x64-*.tgz) ||
    fail_setup "cannot fetch @deno/win32-x64@${DENO_VERSION}"
  mkdir -p "$ROOT/opt/deno"
  mv "$tmp/package/deno.exe" "$ROOT/opt/deno/deno.exe" && echo "$DENO_VERSION" >"$ROOT/opt/deno/VERSION"
  rm -rf "$tmp"
fi
# Deno 2.9 puts a `node` of its own on PATH for its children unless one is there: under Wine it does
# not recognise the link it made and copies deno.exe (97 MB) once per process, leaving the copies in
# its cache (about 6 GB a run). A `node.exe` beside deno.exe (a hard link, on WINEPATH) is found
# instead.
ln -f "$ROOT/opt/deno/deno.exe" "$ROOT/opt/deno/node.exe"
rm -f "$ROOT"/root/.wine/drive_c/users/*/AppData/Local/deno/node_compat_bin/node.exe.tmp-*
# The machine's certificate authorities (the registries may sit behind a proxy of the machine's).
cp /etc/ssl/certs/ca-certificates.crt "$ROOT/opt/ca.crt" 2>/dev/null || true

mounted=()
cleanup() {
  chroot "$ROOT" /usr/bin/env WINEPREFIX=/root/.wine wineserver -k >/dev/null 2>&1 || true
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
  # Copies a child started without that PATH still leaves (a few per run).
  rm -f "$ROOT"/root/.wine/drive_c/users/*/AppData/Local/deno/node_compat_bin/node.exe.tmp-*
}
trap cleanup EXIT
mnt() {
  mkdir -p "$2" && mount "${@:3}" "$1" "$2" && mounted+=("$2")
}
mnt proc "$ROOT/proc" -t proc || fail_setup "cannot mount /proc in the chroot"
mnt /dev "$ROOT/dev" --bind || fail_setup "cannot bind /dev in the chroot"
mnt "$REPO" "$ROOT/repo" --bind || fail_setup "cannot bind the repository in the chroot"

# Wine in the chroot: Z: is the chroot's root, so the repository is Z:\repo. deno.exe is on the
# Windows PATH (WINEPATH), as an installed Deno is: the SSH master is started as `deno` by name.
wine_env=(HOME=/root PATH=/usr/bin:/bin WINEPREFIX=/root/.wine WINEDEBUG=-all XDG_RUNTIME_DIR=/tmp
  NO_COLOR=1 DENO_NO_UPDATE_CHECK=1 'WINEPATH=Z:\opt\deno')
[ -f "$ROOT/opt/ca.crt" ] && wine_env+=('DENO_CERT=Z:\opt\ca.crt')
wine_deno() { chroot "$ROOT" /usr/bin/env -i "${wine_env[@]}" sh -c 'cd /repo && exec wine /opt/deno/deno.exe "$@"' wine "$@"; }

step "Wine $(chroot "$ROOT" wine --version 2>/dev/null), $(wine_deno --version 2>/dev/null | head -n 1)"
wine_deno --version >/dev/null 2>&1 || fail_setup "Deno's Windows build does not start under Wine"

# The unit suites meant for Windows (they pass on Windows as on Linux), and the Windows suites.
SUITES=(
  tests/windows/
  tests/core/
  tests/hl7/
  tests/ssh/spawn_detached.test.ts
  tests/update/units.test.ts
  tests/update/swap.test.ts
  tests/update/launcher.test.ts
  tests/tools/bash/bash_exec.test.ts
)
# Suites left out under Wine, by name, with the reason (a real Windows machine runs them).
LEFT_OUT=(
  "tests/tools/files/protect.test.ts, file_tools.test.ts: their symbolic-link cases (under Wine Deno.symlink succeeds but makes no link: lstat says not found)"
  "tests/tty/: console cursor moves and Ctrl-C as end of input (Wine's console)"
  "tests/ssh/: the SSH suites themselves (POSIX modes, /proc, throwaway users; the SSH check in tests/windows/ runs the Windows side against a real sshd instead)"
)

# A real sshd on this machine's loopback for the SSH check (tests/windows/_sshd_host.ts, Linux Deno):
# it runs until its standard input (fd 3 here) closes, then removes its user and files.
host_deno=(deno)
command -v deno >/dev/null 2>&1 || host_deno=(npx -y "deno@${DENO_VERSION}")
info="$ROOT/tmp/assist-sshd.json"
rm -f "$info"
exec 3> >("${host_deno[@]}" run -q -P=test tests/windows/_sshd_host.ts "$info" >"$CACHE/sshd-host.log" 2>&1)
sshd_pid=$!
for _ in $(seq 1 600); do [ -s "$info" ] && break; sleep 0.1; done
[ -s "$info" ] || say "the sshd for the SSH check did not start ($(tail -n 1 "$CACHE/sshd-host.log"))" >&2
wine_env+=('ASSIST_TEST_SSHD_INFO=Z:\tmp\assist-sshd.json')

log=$(mktemp)
step "deno test ${SUITES[*]}"
wine_deno test -q -P=test --config 'Z:\repo\deno.json' "${SUITES[@]}" 2>&1 | sed -e 's/\x1b\[[0-9;]*m//g' | tee "$log"
test_rc=${PIPESTATUS[0]}
summary=$(grep -E '^(ok|FAILED) \| [0-9]+ passed' "$log" | tail -n 1)
passed=$(printf '%s' "$summary" | sed -nE 's/.*\| ([0-9]+) passed.*/\1/p')
failed=$(printf '%s' "$summary" | sed -nE 's/.*\| ([0-9]+) failed.*/\1/p')
ignored=$(printf '%s' "$summary" | sed -nE 's/.*\| ([0-9]+) ignored.*/\1/p')
say "not run on Windows (POSIX only, ignored by the test itself):"
grep -E ' \.\.\. ignored' "$log" | sed -e 's/ \.\.\. ignored.*//' -e 's/^/  - /'
say "left out under Wine, by name:"
for s in "${LEFT_OUT[@]}"; do echo "  - $s"; done
rm -f "$log"
exec 3>&-
wait "$sshd_pid" 2>/dev/null || true
step "done"
if [ -z "$passed" ]; then
  say "no test summary (Deno did not finish under Wine)" >&2
  echo "windows: 0 passed, 1 failed, 0 skipped"
  exit 1
fi
echo "windows: ${passed} passed, ${failed:-0} failed, ${ignored:-0} skipped"
[ "$test_rc" -eq 0 ] && [ "${failed:-0}" -eq 0 ]
