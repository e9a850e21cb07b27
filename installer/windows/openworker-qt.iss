; Inno Setup 6 script for OpenWorker Qt: a per-user install (no administrator rights).
;
;   iscc /DAppVersion=0.1.0 /DSourceDir=..\..\dist\openworker-qt /DOutputDir=..\..\dist openworker-qt.iss
;
; build.ps1 passes those defines and signs the installer (sign.ps1). Installs to
; %LOCALAPPDATA%\Programs\OpenWorker Qt, adds a Start menu entry, optionally a desktop
; icon and starting with Windows (HKCU Run key, removed again on uninstall).

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#ifndef SourceDir
  #define SourceDir "..\..\dist\openworker-qt"
#endif
#ifndef OutputDir
  #define OutputDir "..\..\dist"
#endif
#ifndef IconFile
  ; rendered from resources/icons/openworker.svg by the spec (installer/make_icons.py)
  #define IconFile "..\..\build\pyinstaller\openworker-qt\icons\openworker-qt.ico"
#endif
#define AppName "OpenWorker Qt"
#define AppExe "OpenWorker Qt.exe"
#define CliExe "openworker-qt.exe"

[Setup]
; A fixed AppId keeps upgrades in place; never change it once released.
AppId={{7B0F5E62-4C1D-4E0B-9A51-0C9B2E7D3F41}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=OpenWorker
AppPublisherURL=https://github.com/openworker
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
; Per user: {autopf} is %LOCALAPPDATA%\Programs, registry entries go to HKCU.
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir={#OutputDir}
OutputBaseFilename=OpenWorker-Qt-{#AppVersion}-windows-x64-setup
SetupIconFile={#IconFile}
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
; A running instance holds its files open: ask it to close (Restart Manager).
CloseApplications=yes
RestartApplications=no
; sign.ps1 signs the finished setup.exe; the executables inside are signed before iscc runs.

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"
Name: "chinesesimplified"; MessagesFile: "compiler:Languages\ChineseSimplified.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked
Name: "autostart"; Description: "Start {#AppName} when I sign in to Windows"; GroupDescription: "Start-up:"; Flags: unchecked

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"; AppUserModelID: "OpenWorker.OpenWorkerQt"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Registry]
; Optional autostart for this user only; the value is deleted on uninstall.
Root: HKCU; Subkey: "Software\Microsoft\Windows\CurrentVersion\Run"; ValueType: string; \
  ValueName: "{#AppName}"; ValueData: """{app}\{#AppExe}"""; Flags: uninsdeletevalue; Tasks: autostart

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; Only what the installer put there: sessions, settings and logs live in the user's
; data folder and are kept (delete %LOCALAPPDATA%\OpenWorker by hand to remove them).
Type: filesandordirs; Name: "{app}\_internal"
