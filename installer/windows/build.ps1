<#
.SYNOPSIS
  Build OpenWorker Qt for Windows: PyInstaller onedir, smoke start, Inno Setup installer.

.DESCRIPTION
  dist\openworker-qt\OpenWorker Qt.exe   the app (windowed)
  dist\openworker-qt\openworker-qt.exe   the command line (console)
  dist\OpenWorker-Qt-<version>-windows-x64-setup.exe   per-user installer

  -Sign signs both executables before packaging and the installer after it (sign.ps1;
  the certificate comes from environment variables, see sign.ps1).
  Needs: a Python environment with the app and PyInstaller (-Python, default .venv),
  Inno Setup 6 (iscc.exe on PATH or in its default folder).

.EXAMPLE
  .\installer\windows\build.ps1 -Sign
#>
param(
    [string]$Python = "",
    [switch]$Sign,
    [switch]$SkipSmoke
)

$ErrorActionPreference = "Stop"
$root = (Resolve-Path (Join-Path $PSScriptRoot "..\..")).Path
Set-Location $root
if (-not $Python) { $Python = Join-Path $root ".venv\Scripts\python.exe" }

$version = (& $Python -c "import openworker_qt; print(openworker_qt.__version__)").Trim()
if ($LASTEXITCODE -ne 0) { throw "cannot import openworker_qt with $Python" }
$dist = Join-Path $root "dist"
$onedir = Join-Path $dist "openworker-qt"

Write-Host "==> PyInstaller onedir (OpenWorker Qt $version)"
& $Python -m PyInstaller --noconfirm --log-level WARN --distpath $dist `
    --workpath (Join-Path $root "build\pyinstaller") installer\openworker-qt.spec
if ($LASTEXITCODE -ne 0) { throw "PyInstaller failed" }

if (-not $SkipSmoke) {
    Write-Host "==> smoke start (offscreen)"
    $smokeHome = Join-Path ([System.IO.Path]::GetTempPath()) ("ow-smoke-" + [guid]::NewGuid())
    $env:QT_QPA_PLATFORM = "offscreen"; $env:OPENWORKER_SMOKE_TEST = "1"; $env:OPENWORKER_HOME = $smokeHome
    try {
        # The console executable: same program, and its output reaches this window.
        & (Join-Path $onedir "openworker-qt.exe")
        if ($LASTEXITCODE -ne 0) { throw "smoke start failed (exit $LASTEXITCODE)" }
        & (Join-Path $onedir "openworker-qt.exe") --version
    } finally {
        Remove-Item Env:QT_QPA_PLATFORM, Env:OPENWORKER_SMOKE_TEST, Env:OPENWORKER_HOME
        Remove-Item $smokeHome -Recurse -Force -ErrorAction SilentlyContinue
    }
}

if ($Sign) {
    & (Join-Path $PSScriptRoot "sign.ps1") (Join-Path $onedir "OpenWorker Qt.exe") (Join-Path $onedir "openworker-qt.exe")
}

Write-Host "==> Inno Setup"
$iscc = Get-Command iscc.exe -ErrorAction SilentlyContinue
$isccPath = if ($iscc) { $iscc.Source } else {
    @("${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe", "$env:ProgramFiles\Inno Setup 6\ISCC.exe",
      "$env:LOCALAPPDATA\Programs\Inno Setup 6\ISCC.exe") | Where-Object { Test-Path $_ } | Select-Object -First 1
}
if (-not $isccPath) { throw "Inno Setup 6 not found (https://jrsoftware.org/isinfo.php); or put iscc.exe on PATH" }
& $isccPath "/DAppVersion=$version" "/DSourceDir=$onedir" "/DOutputDir=$dist" `
    (Join-Path $PSScriptRoot "openworker-qt.iss")
if ($LASTEXITCODE -ne 0) { throw "iscc failed" }
$setup = Join-Path $dist "OpenWorker-Qt-$version-windows-x64-setup.exe"

if ($Sign) { & (Join-Path $PSScriptRoot "sign.ps1") $setup }
Write-Host "==> $setup"
