<#
.SYNOPSIS
  Sign files with signtool (SHA-256, RFC 3161 timestamp), then verify them.

.DESCRIPTION
  The certificate comes from the environment, never from this repository:
    WINDOWS_CERT_PFX           path to a .pfx file, with
    WINDOWS_CERT_PASSWORD      its password
  or
    WINDOWS_CERT_PFX_BASE64    the .pfx itself, base64 (a CI secret), with WINDOWS_CERT_PASSWORD
  or
    WINDOWS_CERT_THUMBPRINT    the SHA-1 thumbprint of a certificate in the user's or the
                               machine's store (e.g. an EV certificate on a hardware token)
  Optional:
    WINDOWS_TIMESTAMP_URL      RFC 3161 server (default http://timestamp.digicert.com)
    SIGNTOOL                   path to signtool.exe (default: found in the Windows SDK)

.EXAMPLE
  $env:WINDOWS_CERT_PFX = "C:\secrets\openworker.pfx"; $env:WINDOWS_CERT_PASSWORD = "…"
  .\installer\windows\sign.ps1 "dist\openworker-qt\OpenWorker Qt.exe" "dist\openworker-qt\openworker-qt.exe"
#>
param([Parameter(Mandatory = $true, ValueFromRemainingArguments = $true)][string[]]$Files)

$ErrorActionPreference = "Stop"

function Find-SignTool {
    if ($env:SIGNTOOL) { return $env:SIGNTOOL }
    $onPath = Get-Command signtool.exe -ErrorAction SilentlyContinue
    if ($onPath) { return $onPath.Source }
    $kits = Join-Path ${env:ProgramFiles(x86)} "Windows Kits\10\bin"
    $found = Get-ChildItem $kits -Recurse -Filter signtool.exe -ErrorAction SilentlyContinue |
        Where-Object { $_.FullName -match "\\x64\\" } | Sort-Object FullName -Descending |
        Select-Object -First 1
    if (-not $found) { throw "signtool.exe not found: install the Windows SDK or set SIGNTOOL" }
    return $found.FullName
}

$signtool = Find-SignTool
$timestamp = if ($env:WINDOWS_TIMESTAMP_URL) { $env:WINDOWS_TIMESTAMP_URL } else { "http://timestamp.digicert.com" }
$certArgs = @()
$tempPfx = $null
if ($env:WINDOWS_CERT_THUMBPRINT) {
    $certArgs = @("/sha1", $env:WINDOWS_CERT_THUMBPRINT)
} elseif ($env:WINDOWS_CERT_PFX -or $env:WINDOWS_CERT_PFX_BASE64) {
    if (-not $env:WINDOWS_CERT_PASSWORD) { throw "WINDOWS_CERT_PASSWORD is not set (the .pfx password)" }
    $pfx = $env:WINDOWS_CERT_PFX
    if (-not $pfx) {
        $tempPfx = Join-Path ([System.IO.Path]::GetTempPath()) ("ow-" + [guid]::NewGuid() + ".pfx")
        [System.IO.File]::WriteAllBytes($tempPfx, [Convert]::FromBase64String($env:WINDOWS_CERT_PFX_BASE64))
        $pfx = $tempPfx
    }
    if (-not (Test-Path $pfx)) { throw "WINDOWS_CERT_PFX points at a missing file: $pfx" }
    $certArgs = @("/f", $pfx, "/p", $env:WINDOWS_CERT_PASSWORD)
} else {
    throw ("No code-signing certificate: set WINDOWS_CERT_PFX (+ WINDOWS_CERT_PASSWORD), " +
           "WINDOWS_CERT_PFX_BASE64 (+ WINDOWS_CERT_PASSWORD) or WINDOWS_CERT_THUMBPRINT")
}

try {
    foreach ($file in $Files) {
        if (-not (Test-Path $file)) { throw "not found: $file" }
        Write-Host "==> signing $file"
        & $signtool sign /fd SHA256 /tr $timestamp /td SHA256 /d "OpenWorker Qt" @certArgs $file
        if ($LASTEXITCODE -ne 0) { throw "signtool sign failed for $file (exit $LASTEXITCODE)" }
        & $signtool verify /pa /v $file | Out-Null
        if ($LASTEXITCODE -ne 0) { throw "signtool verify failed for $file" }
    }
} finally {
    if ($tempPfx -and (Test-Path $tempPfx)) { Remove-Item $tempPfx -Force }
}
