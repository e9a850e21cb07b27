"""Local speech-to-text for the voice hotkey: WAV handling, models, transcription.

No Qt here (an import-linter contract checks it): the Qt side records audio to a
WAV file and hands it to :class:`~openworker_qt.voice.transcribe.Transcriber`.
"""
