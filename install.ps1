# assist installer (Windows). Fetches this platform's binary, dist/x86_64-windows/assist.exe, from the
# update origin, verifies it against the MANIFEST (size and SHA-256; the MANIFEST's Ed25519 signature
# when a trusted key is known and the PowerShell host can check it), and puts `assist` on the user PATH.
#
#   irm <origin>/raw/branch/main/install.ps1 | iex
#
# Settings (environment): ASSIST_BASE_URL (the origin), ASSIST_ORIGIN_TOKEN or ORIGIN_TOKEN (private
# origin; sent only to the origin), ASSIST_ORIGIN_KEY (base64 Ed25519 key for a custom origin),
# ASSIST_BIN_DIR (default %LOCALAPPDATA%\assist\bin).
$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 3

$DefaultBaseUrl = 'https://gitea.assist.invalid/assist/assist'
$EmbeddedKeys = @('KDY50suAQkGLclYrJwm3iax+blvvR/fd8S2+ZgFEPBk=', 'z7euEyqkhVVFDEQ7QA1q7ZZq93Mvg2dEwSPLmDYw/tY=')

$Base = if ($env:ASSIST_BASE_URL) { $env:ASSIST_BASE_URL.TrimEnd('/') } else { $DefaultBaseUrl }
$Token = if ($env:ASSIST_ORIGIN_TOKEN) { $env:ASSIST_ORIGIN_TOKEN } elseif ($env:ORIGIN_TOKEN) { $env:ORIGIN_TOKEN } else { $null }
$BinDir = if ($env:ASSIST_BIN_DIR) { $env:ASSIST_BIN_DIR } else { Join-Path $env:LOCALAPPDATA 'assist\bin' }

function Fail([string]$Message) { Write-Host "install: $Message" -ForegroundColor Red; exit 1 }

# One file from the origin as bytes; redirects are not followed (the token stays on the origin).
function Get-OriginFile([string]$Path, [int]$TimeoutSec = 60) {
  $url = "$Base/raw/branch/main/$Path"
  $headers = @{}
  if ($Token) { $headers['Authorization'] = "token $Token" }
  try {
    $r = Invoke-WebRequest -Uri $url -Headers $headers -MaximumRedirection 0 -TimeoutSec $TimeoutSec -UseBasicParsing -ErrorAction Stop
  } catch {
    $resp = $_.Exception.Response
    if ($null -eq $resp) { Fail "cannot reach the update origin $Base ($($_.Exception.Message)); set ASSIST_BASE_URL to the origin's address" }
    $code = [int]$resp.StatusCode
    $loc = "$($resp.Headers.Location)"
    if ($code -ge 300 -and $code -lt 400) {
      if ($loc -match 'login|signin|sign_in') { Fail "$url redirected to a sign-in page ($loc): set ASSIST_ORIGIN_TOKEN" }
      Fail "$url redirected to ${loc}: set ASSIST_BASE_URL to the origin's address"
    }
    if ($code -eq 404) { Fail "${url}: not found (HTTP 404); check ASSIST_BASE_URL (a private origin answers 404 without ASSIST_ORIGIN_TOKEN)" }
    if ($code -eq 401 -or $code -eq 403) { Fail "${url}: HTTP ${code}: set ASSIST_ORIGIN_TOKEN (or check it)" }
    Fail "${url}: HTTP $code"
  }
  if ($r.StatusCode -ne 200) { Fail "${url}: HTTP $($r.StatusCode)" }
  if ("$($r.Headers['Content-Type'])" -match 'text/html') { Fail "$url answered with an HTML page (a sign-in page?): set ASSIST_ORIGIN_TOKEN or check ASSIST_BASE_URL" }
  $bytes = if ($r.Content -is [byte[]]) { $r.Content } else { [Text.Encoding]::UTF8.GetBytes([string]$r.Content) }
  $n = [Math]::Min(1024, $bytes.Length)
  $head = [Text.Encoding]::UTF8.GetString($bytes, 0, $n).TrimStart([char]0xFEFF, ' ', "`t", "`r", "`n").ToLowerInvariant()
  if ($head.StartsWith('<!doctype html') -or $head.StartsWith('<html') -or ($head.StartsWith('<') -and $head -match '<html[\s>]') -or $head -match '<title>[^<]*(sign ?in|log ?in)') {
    Fail "$url answered with an HTML page (a sign-in page?): set ASSIST_ORIGIN_TOKEN or check ASSIST_BASE_URL"
  }
  if ($head.StartsWith('version https://git-lfs.github.com/spec/v1')) { Fail "$url is a Git LFS pointer, not the file" }
  return ,$bytes
}

Write-Host "install: origin $Base"
$version = [Text.Encoding]::UTF8.GetString((Get-OriginFile 'VERSION' 20)).Trim()
if ($version -notmatch '^\d+\.\d+\.\d+([-+][0-9A-Za-z.+-]+)?$') { Fail "the origin's VERSION is not a semantic version" }
$manifestBytes = Get-OriginFile 'MANIFEST'
$manifest = [Text.Encoding]::UTF8.GetString($manifestBytes)

$keys = @()
if ($Base -eq $DefaultBaseUrl) { $keys += $EmbeddedKeys }
if ($env:ASSIST_ORIGIN_KEY) { $keys += $env:ASSIST_ORIGIN_KEY }
if ($keys.Count -gt 0) {
  $sigLine = [Text.Encoding]::UTF8.GetString((Get-OriginFile 'MANIFEST.sig')).Trim()
  # Ed25519 needs .NET 9+ (System.Security.Cryptography has no Ed25519 before it) or an installed deno.
  $deno = Get-Command deno -ErrorAction SilentlyContinue
  if (-not $deno) { Fail "cannot check the MANIFEST's Ed25519 signature here: install deno (https://deno.land) or use a host with it, then run again" }
  $tmp = New-Item -ItemType Directory -Path (Join-Path ([IO.Path]::GetTempPath()) ("assist-" + [guid]::NewGuid()))
  [IO.File]::WriteAllBytes((Join-Path $tmp 'MANIFEST'), $manifestBytes)
  $check = 'const [m, s, ...k] = Deno.args; const sig = Uint8Array.fromBase64(s.split(" ")[2]); const data = await Deno.readFile(m);' +
    'for (const key of k) { const pub = await crypto.subtle.importKey("raw", Uint8Array.fromBase64(key), "Ed25519", false, ["verify"]);' +
    'if (await crypto.subtle.verify("Ed25519", pub, sig, data)) Deno.exit(0); } Deno.exit(1);'
  & $deno.Source eval --no-prompt "--allow-read=$tmp" $check (Join-Path $tmp 'MANIFEST') $sigLine @keys
  $ok = $LASTEXITCODE -eq 0
  Remove-Item -Recurse -Force $tmp
  if (-not $ok) { Fail "the origin's MANIFEST signature does not verify with a trusted key; refused" }
  Write-Host 'install: MANIFEST signature verified'
} else {
  Write-Host "install: origin $Base is unsigned (no trusted key; set ASSIST_ORIGIN_KEY); files are checked by hash only"
}

$path = 'dist/x86_64-windows/assist.exe'
$line = ($manifest -split "`n") | Where-Object { $_ -match ('^' + [regex]::Escape($path) + ' [0-9a-f]{64} \d+$') } | Select-Object -First 1
if (-not $line) { Fail "the release $version has no $path (no binary for this platform)" }
$parts = $line.Trim() -split ' '
$bytes = Get-OriginFile $path 600
if ($bytes.Length -ne [long]$parts[2]) { Fail "${path}: size does not match the MANIFEST" }
$hash = -join ([Security.Cryptography.SHA256]::Create().ComputeHash($bytes) | ForEach-Object { $_.ToString('x2') })
if ($hash -ne $parts[1]) { Fail "${path}: SHA-256 does not match the MANIFEST (a torn or altered file)" }
if ($bytes[0] -ne 0x4D -or $bytes[1] -ne 0x5A) { Fail "$path is not a Windows executable" }

New-Item -ItemType Directory -Force -Path $BinDir | Out-Null
$exe = Join-Path $BinDir 'assist.exe'
$staged = Join-Path $BinDir '.assist.exe.assist-new'
[IO.File]::WriteAllBytes($staged, $bytes)
$said = (& $staged --version 2>$null | Select-Object -First 1)
if ("$said".Trim() -ne "assist $version") { Remove-Item -Force $staged; Fail "the downloaded binary says '$said', not 'assist $version'" }
# A running assist.exe cannot be overwritten but can be renamed aside (swept by the next update).
if (Test-Path $exe) { Rename-Item -Path $exe -NewName ("assist.exe.old-" + [DateTimeOffset]::UtcNow.ToUnixTimeMilliseconds()) }
Move-Item -Path $staged -Destination $exe

if ($env:ASSIST_ORIGIN_KEY) {
  $home_ = if ($env:ASSIST_HOME) { $env:ASSIST_HOME } else { Join-Path $env:USERPROFILE '.assist' }
  New-Item -ItemType Directory -Force -Path $home_ | Out-Null
  Set-Content -Path (Join-Path $home_ '.origin-key') -Value $env:ASSIST_ORIGIN_KEY -NoNewline
}
$userPath = [Environment]::GetEnvironmentVariable('Path', 'User')
if (-not (($userPath -split ';') -contains $BinDir)) {
  [Environment]::SetEnvironmentVariable('Path', (($userPath, $BinDir) -ne '' -join ';'), 'User')
  Write-Host "install: added $BinDir to your PATH (open a new terminal)"
}
Write-Host "install: assist $version installed at $exe"
