// The catalogue's words for failures (decision 0068), in English and Japanese: every closed reason main
// sends (src-shared/error-reasons.ts: one per server error_code, one per failure main words itself),
// every way a job or a model download fails, and each IpcErrorCode for errors stored before reasons
// existed. Spread into messages.ts; a test checks each closed code has words in both tables.

export const errorMessagesEn = {
  'error.details': 'Details',
  'error.detailsLine': 'Details: {details}',
  'error.errorId': 'Error id: {id}',
  'error.causedBy': '{message} {cause}',

  // Each IpcErrorCode, for an error without a reason (stored by an older version).
  'error.code.offline': 'The server cannot be reached. Check the connection, then try again.',
  'error.code.unauthorized': 'The server refused the API key. Check the key in Settings → Servers.',
  'error.code.forbidden': 'Your API key is not allowed to do this. Ask the server’s administrator for a key that is.',
  'error.code.not-found': 'This is no longer there. Refresh, then try again.',
  'error.code.validation': 'The request was refused as not valid. Check what you entered, then try again.',
  'error.code.conflict': 'This cannot be done in the current state. Refresh, then try again.',
  'error.code.too-large': 'This is too large for the server.',
  'error.code.insufficient-storage': 'The server does not have enough free disk space for this.',
  'error.code.unsupported': 'The server cannot do this with its current engines.',
  'error.code.cancelled': 'Cancelled.',
  'error.code.server': 'The server had a problem. Try again later.',
  'error.code.internal': 'Something went wrong in Kikitori. Please try again; if it keeps happening, report it.',

  // The server's error codes (docs/api/errors.md), said for a person using the app.
  'error.server.INTERNAL_ERROR':
    'The server had a problem and could not finish the request. Try again later; if it keeps happening, tell the server’s administrator.',
  'error.server.VALIDATION_FAILED':
    'The server refused the request as not valid. Check what you entered, then try again.',
  'error.server.MALFORMED_JSON': 'The server could not read the request Kikitori sent. Please report it.',
  'error.server.INVALID_PAGE': 'The server refused the page of the list Kikitori asked for. Refresh, then try again.',
  'error.server.UNSUPPORTED_LANGUAGE':
    'The server cannot handle this language. Choose another language, or ask the server’s administrator to install a model for it.',
  'error.server.UNSUPPORTED_OPTION': 'The server cannot do this with its current engines. Choose other options.',
  'error.server.MALFORMED_URL': 'The server could not read the address Kikitori asked for. Please report it.',
  'error.server.MALFORMED_REQUEST': 'The server could not read the request Kikitori sent. Please report it.',
  'error.server.CHECKSUM_MISMATCH':
    'The file changed or was damaged on the way to the server, so nothing was stored. Add it again.',
  'error.server.TUS_REQUEST_INVALID': 'The server could not follow the resumable upload. Add the file again.',
  'error.server.MISSING_API_KEY': 'The server needs an API key. Enter it in Settings → Servers.',
  'error.server.INVALID_API_KEY': 'The server refused the API key. Check the key in Settings → Servers.',
  'error.server.ROLE_REQUIRED':
    'Your API key is not allowed to do this. Ask the server’s administrator for a key that is, then update it in Settings → Servers.',
  'error.server.INVALID_SIGNATURE': 'The server refused the link it issued. Try again.',
  'error.server.EXPIRED_SIGNATURE': 'The link expired. Try again: Kikitori fetches a fresh one.',
  'error.server.QUOTA_EXCEEDED':
    'Your team has used all the storage it has on the server. Delete transcriptions you no longer need, then try again.',
  'error.server.ROUTE_NOT_FOUND': 'The server does not offer this operation. It may be an older version.',
  'error.server.TRANSCRIPTION_NOT_FOUND':
    'This transcription no longer exists on the server; it may have been deleted.',
  'error.server.DICTIONARY_NOT_FOUND': 'This dictionary no longer exists on the server; it may have been deleted.',
  'error.server.WORD_NOT_FOUND': 'This word is no longer in the dictionary.',
  'error.server.BLACKLIST_WORD_NOT_FOUND': 'This replacement is no longer in the dictionary.',
  'error.server.REVIEW_NOT_FOUND': 'No corrected text has been saved for this transcription yet.',
  'error.server.RESULT_NOT_READY': 'The transcript is not ready yet.',
  'error.server.ANALYSIS_NOT_FOUND': 'This analysis has not been requested yet.',
  'error.server.MODEL_NOT_FOUND': 'The server does not offer this speech model.',
  'error.server.MODEL_DOWNLOAD_NOT_FOUND': 'This download is no longer running on the server. Start it again.',
  'error.server.METHOD_NOT_ALLOWED': 'The server does not offer this operation. It may be an older version.',
  'error.server.REQUEST_TIMEOUT': 'The server stopped waiting for the request. Check the connection, then try again.',
  'error.server.UPLOAD_NOT_COMPLETE': 'The audio has not finished uploading yet.',
  'error.server.TRANSCRIPTION_ALREADY_ENDED': 'This transcription has already ended.',
  'error.server.UPLOAD_ALREADY_COMPLETED': 'This file was already uploaded.',
  'error.server.TRANSCRIPTION_NOT_COMPLETED': 'The transcription is not finished yet. Try again once it is done.',
  'error.server.UPLOAD_CLOSED': 'The server closed this upload (it waited too long). Add the file again.',
  'error.server.TOO_MANY_BLACKLIST_WORDS':
    'The dictionary cannot hold that many replacements. Remove some, then try again.',
  'error.server.MODEL_NOT_INSTALLED': 'This speech model is not installed on the server any more. Refresh the list.',
  'error.server.UPLOAD_OFFSET_MISMATCH': 'The upload got out of step with the server. Kikitori starts it again.',
  'error.server.TOO_MANY_OPEN_UPLOADS':
    'Your team has too many uploads open on the server. Wait until some finish, then try again.',
  'error.server.TRANSCRIPTION_RUNNING': 'This transcription is still running. Wait until it has finished.',
  'error.server.AUDIO_GONE': 'The server no longer has the recording of this transcription. Add the file again.',
  'error.server.MODEL_FILE_MISMATCH':
    'This file is not that speech model, or it is damaged, so it was not installed. Choose the file the model list names.',
  'error.server.MODEL_FILE_UNUSABLE':
    'The file matches the model list, but the server cannot load it as a speech model, so it was not installed. Ask the server’s administrator to check its model list.',
  'error.server.SPEAKER_SAMPLE_INVALID':
    'A voice needs a few seconds of speech from finished transcriptions of your team. Choose other parts, or more of them.',
  'error.server.SPEAKER_NOT_FOUND': 'The server no longer has this voice. Refresh the list.',
  'error.server.TOO_MANY_VOICES':
    'Your team’s voice library is full on this server. Delete voices you no longer need, then try again.',
  'error.server.TUS_VERSION_UNSUPPORTED': 'The server does not take resumable uploads of this kind. Please report it.',
  'error.server.REVISION_CONFLICT':
    'Someone changed this transcript on the server meanwhile. Look at it again, then make your change.',
  'error.server.PAYLOAD_TOO_LARGE': 'This is too large for the server.',
  'error.server.URI_TOO_LONG': 'The server refused an address that long. Please report it.',
  'error.server.UNSUPPORTED_MEDIA_TYPE': 'The server refused the kind of request Kikitori sent. Please report it.',
  'error.server.RANGE_NOT_SATISFIABLE': 'The server could not send that part of the audio. Try again.',
  'error.server.RATE_LIMITED':
    'The server is receiving too many requests with this API key. Try again in a minute; if it keeps happening, ask the server’s administrator about its rate limit.',
  'error.server.HEADERS_TOO_LARGE': 'The server refused a request that large. Please report it.',
  'error.server.ENGINE_UNAVAILABLE':
    'The server cannot run the engine this needs right now. Ask the server’s administrator to check it.',
  'error.server.SERVER_BUSY': 'The server is busy. Try again in a moment.',
  'error.server.UNHEALTHY': 'The server is not working properly. Ask its administrator to look at its log.',
  'error.server.NOT_READY': 'The server is starting or shutting down. Try again in a moment.',
  'error.server.INSUFFICIENT_STORAGE':
    'The server does not have enough free disk space for this. Try again later, or ask the server’s administrator to free some space.',

  // Main's own reasons.
  'error.app.connecting': 'Connecting to the server…',
  'error.app.offline':
    'Cannot reach the server. Check your connection or the server address in Settings → Servers; transcripts already on this computer are still available.',
  'error.app.offline-at':
    'Cannot reach the server at {host}. Check your connection or the server address in Settings → Servers; transcripts already on this computer are still available.',
  'error.app.embedded-stopped': 'The transcription server on this computer stopped; restarting it.',
  'error.app.embedded-not-running': 'The transcription server on this computer is not running.',
  'error.app.embedded-starting': 'The transcription server on this computer is starting…',
  'error.app.profile-removed': 'This server profile was removed.',
  'error.app.unauthorized': 'The server refused the API key. Check the key in Settings → Servers.',
  'error.app.link-expired': 'The download or upload link expired. Try again: Kikitori fetches a fresh one.',
  'error.app.link-refused': 'The server refused the link it issued. Try again.',
  'error.app.models-need-operator':
    'Your API key is not allowed to download or remove speech models: they are the whole server’s, so that needs a key with the OPERATOR role. Ask whoever runs the server to do it, or for such a key.',
  'error.app.role-required':
    'Your API key is not allowed to do this (deleting needs a key with the DELETE role). Ask your server administrator for such a key, then update it in Settings → Servers.',
  'error.app.refused': 'The server refused this operation.',
  'error.app.not-found-transcription': 'This transcription no longer exists on the server; it may have been deleted.',
  'error.app.not-found-transcript': 'The transcript is not ready yet. It appears once the transcription is COMPLETED.',
  'error.app.not-found-audio': 'The audio of this transcription is no longer on the server.',
  'error.app.not-found-upload': 'The server no longer knows this upload. Add the file again.',
  'error.app.not-found-review': 'No corrected text has been saved for this transcription yet.',
  'error.app.not-found-analysis': 'This analysis has not been requested yet.',
  'error.app.not-found-dictionary': 'This dictionary no longer exists on the server; it may have been deleted.',
  'error.app.not-found-word': 'This word is no longer in the dictionary.',
  'error.app.not-found-replacement-rule': 'This replacement is no longer in the dictionary.',
  'error.app.not-found-voice': 'The server no longer has this voice. Refresh the list.',
  'error.app.not-found-model':
    'The server does not offer this speech model. Refresh Settings → Speech recognition to see the models it has.',
  'error.app.not-found-model-download':
    'This download is no longer running on the server (it may have restarted). Start the download again.',
  'error.app.not-found-server':
    'The server does not offer this operation. Check the server address in Settings → Servers.',
  'error.app.not-completed': 'The transcription is not finished yet. Try again once it is COMPLETED.',
  'error.app.upload-not-complete': 'The audio has not finished uploading yet.',
  'error.app.already-ended': 'This transcription has already ended. Add the file again to transcribe it again.',
  'error.app.already-uploaded': 'This file was already uploaded.',
  'error.app.upload-closed': 'The server closed this upload (it waited too long). Add the file again.',
  'error.app.model-not-installed': 'This speech model is not installed on the server any more. Refresh the list.',
  'error.app.conflict': 'The server refused the operation in the current state. Refresh and try again.',
  'error.app.too-large': 'The file is too large for the server.',
  'error.app.unsupported': 'The server cannot honour this language or option.',
  'error.app.invalid': 'The server refused the request as invalid.',
  'error.app.rate-limited':
    'The server is receiving too many requests with this API key and asked Kikitori to wait. Try again in a minute; if it keeps happening, ask the server’s administrator about its rate limit.',
  'error.app.no-space':
    'The server does not have enough free disk space for this. Try again later, or ask the server’s administrator to free some space.',
  'error.app.no-space-model':
    'The server does not have enough free disk space for this. Free some space on it, or choose a smaller model.',
  'error.app.server-failed':
    'The server had a problem and could not finish the request. Try again later; if it keeps happening, tell the server’s administrator, quoting the error id under Details.',
  'error.app.app-request-refused': 'The server refused a request Kikitori made (HTTP {status}). Please report it.',
  'error.app.unreadable-answer': 'The server sent an answer Kikitori cannot read. Check that the server is up to date.',
  'error.app.unreadable-answer-address':
    'The server sent an answer Kikitori cannot read. Check the server address in Settings → Servers.',
  'error.app.cancelled': 'Cancelled.',
  'error.app.internal': 'Something went wrong in Kikitori. Please try again; if it keeps happening, report it.',
  'error.app.page-forbidden': 'This page may not use Kikitori.',
  'error.app.invalid-request': 'Kikitori refused this request as not valid.',
  'error.app.unsafe-file-name':
    'The server sent an id or name that is not safe to use as a file name, so nothing was read or written. Check the server this profile connects to.',
  'error.app.transcription-unreachable':
    'This transcription is not on this computer, and the server cannot be reached to fetch it.',
  'error.app.transcription-not-cached': 'This transcription is no longer on this computer.',
  'error.app.audio-not-uploaded': 'The audio of this transcription has not been uploaded.',
  'error.app.transcript-unreachable':
    'The transcript is not on this computer yet and the server cannot be reached. Try again when online.',
  'error.app.transcript-not-ready': 'The transcript is not ready yet. Export it once the transcription is COMPLETED.',
  'error.app.rerun-running':
    '“{name}” is still being transcribed. Wait until it has finished, then transcribe it again.',
  'error.app.rerun-needs-file':
    'The recording of “{name}” is not on this computer (it was uploaded from another computer, or removed from this one). Choose the file to transcribe it again.',
  'error.app.recording-format':
    'This recording format cannot be kept. Record with another microphone or update Kikitori.',
  'error.app.recording-incomplete':
    'Part of the recording did not arrive, so it was stopped. What was recorded before is kept on this computer.',
  'error.app.recording-empty':
    'Nothing was recorded. Check that the microphone is connected and not muted, then record again.',
  'error.app.recording-not-found': 'This recording is no longer on this computer.',
  'error.app.import-no-words': 'There are no words to import.',
  'error.app.import-no-rules': 'There are no replacement rules to import.',
  'error.app.word-already-in-dictionary': '“{word}” is already in this dictionary.',
  'error.app.reading-unpronounceable':
    'This reading cannot be pronounced. Write how the word sounds in letters or kana, e.g. “zin tricks” or “ききとり”.',
  'error.app.dictionary-offline':
    'You are offline, and dictionary changes need the server: nothing was changed. Dictionaries on this computer can still be read and used once online.',
  'error.app.dictionary-unreachable': 'This dictionary is not on this computer yet, and the server cannot be reached.',
  'error.app.voice-offline':
    'You are offline, and voices are changed on the server: nothing was changed. The voices listed can still be read.',
  'error.app.voice-no-speech':
    'This speaker has too little speech in this transcription to learn the voice (at least 3 seconds are needed). Choose a speaker who talks longer.',
  'error.app.edit-refused': 'This change cannot be made.',
  'error.app.edits-queue-full':
    'Up to {max} edits of one transcript can wait for the server. Connect to the server to send them, then go on editing.',
  'error.app.undo-conflict': 'Your edits met someone else’s on the server. Settle that first, then undo or redo.',
  'error.app.undo-waits-for-sending':
    'Undoing further needs the server, and your later edits are still waiting to be sent. Try again once they are sent.',
  'error.app.undo-offline': 'Undoing further needs the server, which cannot be reached now. Try again when online.',
  'error.app.undo-changed':
    'Someone changed this transcript on the server meanwhile. Open it again, then undo or redo.',
  'error.app.not-editable': 'This transcript cannot be edited until it is COMPLETED and on this computer.',
  'error.app.restore-unsent':
    'Your corrections on this computer have not reached the server yet. Restore a version once they are sent (or the conflict is settled).',
  'error.app.restore-changed': 'Someone changed this transcript meanwhile. Look at its history again, then restore.',
  'error.app.segments-merged':
    'Some of these segments were merged away on one side, so yours cannot simply replace the server’s. Choose segment by segment.',
  'error.app.no-conflict':
    'There is no conflict over these segments to settle. Open the transcript again to see what waits.',
  'error.app.segment-merged-away':
    'Segment {segment} was merged away on the server, so it cannot be given a text. Leave it out to keep the server’s version, or add its words to a neighbouring segment.',
  'error.app.segments-changed-again':
    'Someone changed these segments on the server again meanwhile. Look at them again, then choose.',
  'error.app.edits-conflict':
    'This transcript was corrected on the server by someone else while your changes waited to be sent. Your version is kept on this computer and was not sent; choose what to keep.',
  'error.app.review-conflict':
    'This transcript was corrected on the server by someone else while your changes waited to be sent. Your version is kept on this computer and was not sent; save again to replace the server’s version with yours.',
  'error.app.edits-deleted':
    'This transcript was deleted on the server, so your corrections could not be sent. They remain on this computer.',
  'error.app.edits-not-sent': 'Your corrections could not be sent:',
  'error.app.profile-not-found': 'This server profile no longer exists.',
  'error.app.no-keyring':
    'This system offers no secure storage for the API key (no keyring is running), so Kikitori cannot remember it. Start a keyring service, then try again.',
  'error.app.embedded-not-removable': 'The server on this computer cannot be removed.',
  'error.app.key-unreadable':
    'The saved API key can no longer be read on this computer (the system keychain changed). Remove the server in Settings → Servers and add it again.',
  'error.app.url-invalid': 'Enter the server address as a URL, such as https://kikitori.example.com.',
  'error.app.url-scheme': 'The server address must start with http:// or https://.',
  'error.app.url-parts': 'The server address must not contain credentials, a query or a fragment.',
  'error.app.file-unreadable': '“{name}” cannot be read. Check that it still exists, then add it again.',
  'error.app.file-forgotten': 'Kikitori no longer knows this file. Choose or drop it again.',
  'error.app.folder-forgotten': 'Kikitori no longer knows this folder. Choose or drop it again.',
  'error.app.file-twice': 'The same file was given twice.',
  'error.app.folder-unreadable':
    'The folder “{folder}” cannot be read. Check that it still exists and that you may open it.',
  'error.app.upload-not-listed': 'This upload is no longer in the list.',
  'error.app.upload-refused': 'The server did not accept the upload. Add the file again.',
  'error.app.file-empty':
    '“{name}” is empty (0 bytes), so there is nothing to transcribe. Choose the recording itself, or copy it again if it was cut off.',
  'error.app.not-media':
    '“{name}” is not an audio or video file (it looks like a {kind} file). Choose a recording, such as WAV, MP3, M4A, FLAC or MP4.',
  'error.app.not-media-text':
    '“{name}” is not an audio or video file (it looks like text). Choose a recording, such as WAV, MP3, M4A, FLAC or MP4.',
  'error.app.file-gone': 'The file can no longer be read. Check that it still exists, then add it again.',
  'error.app.upload-unexpected': 'The upload failed unexpectedly.',
  'error.app.switch-not-confirmed':
    'Kikitori did not switch to “{name}” ({url}): the switch was not confirmed. Nothing was sent to that server.',
  'error.app.translation-not-cached':
    'This transcript has no finished translation into {language} on this computer. Open the Translation tab to translate it (or to fetch it), then export again.',
  'error.app.waveform-cancelled': 'The waveform computation was cancelled.',
  'error.app.waveform-failed': 'The waveform cannot be drawn.',
  'error.app.download-not-followed': 'The download could not be followed.',

  // Why a transcription or an analysis failed (the server's failure_code / error_code).
  'failure.unavailable':
    'The server cannot run what this needs right now. Ask the server’s administrator to check it, then try again.',
  'failure.unsupported': 'The server cannot do this with its current engines (a language or an option it lacks).',
  'failure.bad-input':
    'The recording cannot be processed: it may be damaged, empty, silent or too long. Check the file, then add it again.',
  'failure.transient': 'The server failed several times while working on this. Try again later.',
  'failure.internal':
    'The server had an internal problem. Try again; if it keeps happening, tell the server’s administrator, quoting the error id under Details.',
  'failure.upload-expired': 'The audio was never uploaded before the upload link expired. Add the file again.',
  'failure.analysis.bad-input': 'The transcript cannot be analysed this way (it may be empty or too long).',

  // Why a speech model download failed (the download's error_code).
  'download.error.not-found': 'The server does not offer this speech model any more.',
  'download.error.not-installed': 'This speech model is not installed.',
  'download.error.insufficient-storage':
    'The server does not have enough free disk space for this model. Free some space on it, or choose a smaller model.',
  'download.error.unreachable':
    'The model could not be downloaded: the server cannot reach the model host. Check its network connection, or ask its administrator to set a mirror.',
  'download.error.source-failed':
    'The model host did not send the file. Try again later, or ask the server’s administrator to set a mirror.',
  'download.error.interrupted': 'The download stopped part-way. Download it again to continue where it stopped.',
  'download.error.corrupt': 'The downloaded file was damaged, so it was not kept. Download it again.',
  'download.error.unusable': 'The downloaded file is not a speech model the server can use, so it was not kept.',
  'download.error.not-this-model': 'The file is not this speech model, or it is damaged, so it was not installed.',
  'download.error.cancelled': 'The download was cancelled.',
  'download.error.internal': 'The download failed unexpectedly. Try again.',
} as const;

export const errorMessagesJa: Record<keyof typeof errorMessagesEn, string> = {
  'error.details': '詳細',
  'error.detailsLine': '詳細：{details}',
  'error.errorId': 'エラー ID: {id}',
  'error.causedBy': '{message} {cause}',

  'error.code.offline': 'サーバーに接続できません。接続を確認してから、もう一度お試しください。',
  'error.code.unauthorized': 'サーバーが API キーを受け付けませんでした。設定 → サーバー でキーを確認してください。',
  'error.code.forbidden':
    'この API キーではこの操作は許可されていません。サーバーの管理者に、許可されたキーを依頼してください。',
  'error.code.not-found': '対象がもう存在しません。更新してから、もう一度お試しください。',
  'error.code.validation': '要求が正しくないとして拒否されました。入力内容を確認して、もう一度お試しください。',
  'error.code.conflict': '今の状態ではこの操作はできません。更新してから、もう一度お試しください。',
  'error.code.too-large': 'サーバーにとって大きすぎます。',
  'error.code.insufficient-storage': 'サーバーのディスクに十分な空きがありません。',
  'error.code.unsupported': 'サーバーの今のエンジンでは、これはできません。',
  'error.code.cancelled': 'キャンセルしました。',
  'error.code.server': 'サーバーで問題が起きました。しばらくしてから、もう一度お試しください。',
  'error.code.internal': 'Kikitori で問題が起きました。もう一度お試しください。繰り返し起きる場合は報告してください。',

  'error.server.INTERNAL_ERROR':
    'サーバーで問題が起き、要求を完了できませんでした。しばらくしてから、もう一度お試しください。繰り返し起きる場合は、サーバーの管理者に伝えてください。',
  'error.server.VALIDATION_FAILED':
    'サーバーが要求を正しくないとして拒否しました。入力内容を確認して、もう一度お試しください。',
  'error.server.MALFORMED_JSON': 'Kikitori が送った要求をサーバーが読み取れませんでした。報告してください。',
  'error.server.INVALID_PAGE': '一覧のページ指定をサーバーが拒否しました。更新してから、もう一度お試しください。',
  'error.server.UNSUPPORTED_LANGUAGE':
    'サーバーはこの言語を扱えません。別の言語を選ぶか、その言語のモデルを入れるようサーバーの管理者に依頼してください。',
  'error.server.UNSUPPORTED_OPTION': 'サーバーの今のエンジンでは、これはできません。別のオプションを選んでください。',
  'error.server.MALFORMED_URL': 'Kikitori が要求したアドレスをサーバーが読み取れませんでした。報告してください。',
  'error.server.MALFORMED_REQUEST': 'Kikitori が送った要求をサーバーが読み取れませんでした。報告してください。',
  'error.server.CHECKSUM_MISMATCH':
    'ファイルが送信中に変わったか壊れたため、何も保存されませんでした。もう一度追加してください。',
  'error.server.TUS_REQUEST_INVALID':
    'サーバーが再開可能なアップロードを続けられませんでした。もう一度ファイルを追加してください。',
  'error.server.MISSING_API_KEY': 'サーバーには API キーが必要です。設定 → サーバー で入力してください。',
  'error.server.INVALID_API_KEY':
    'サーバーが API キーを受け付けませんでした。設定 → サーバー でキーを確認してください。',
  'error.server.ROLE_REQUIRED':
    'この API キーではこの操作は許可されていません。許可されたキーをサーバーの管理者に依頼し、設定 → サーバー で更新してください。',
  'error.server.INVALID_SIGNATURE': 'サーバーが自ら発行したリンクを拒否しました。もう一度お試しください。',
  'error.server.EXPIRED_SIGNATURE': 'リンクの期限が切れました。もう一度お試しください（新しいリンクを取得します）。',
  'error.server.QUOTA_EXCEEDED':
    'チームに割り当てられたサーバーの保存容量を使い切りました。不要な文字起こしを削除してから、もう一度お試しください。',
  'error.server.ROUTE_NOT_FOUND': 'サーバーはこの操作に対応していません。古いバージョンの可能性があります。',
  'error.server.TRANSCRIPTION_NOT_FOUND': 'この文字起こしはサーバー上にもうありません。削除された可能性があります。',
  'error.server.DICTIONARY_NOT_FOUND': 'この辞書はサーバー上にもうありません。削除された可能性があります。',
  'error.server.WORD_NOT_FOUND': 'この単語はもう辞書にありません。',
  'error.server.BLACKLIST_WORD_NOT_FOUND': 'この置換ルールはもう辞書にありません。',
  'error.server.REVIEW_NOT_FOUND': 'この文字起こしの修正版はまだ保存されていません。',
  'error.server.RESULT_NOT_READY': '文字起こし結果はまだできていません。',
  'error.server.ANALYSIS_NOT_FOUND': 'この分析はまだ依頼されていません。',
  'error.server.MODEL_NOT_FOUND': 'サーバーはこの音声モデルを提供していません。',
  'error.server.MODEL_DOWNLOAD_NOT_FOUND':
    'このダウンロードはサーバー上でもう実行されていません。もう一度始めてください。',
  'error.server.METHOD_NOT_ALLOWED': 'サーバーはこの操作に対応していません。古いバージョンの可能性があります。',
  'error.server.REQUEST_TIMEOUT':
    'サーバーが要求の到着を待ちきれませんでした。接続を確認してから、もう一度お試しください。',
  'error.server.UPLOAD_NOT_COMPLETE': '音声のアップロードがまだ終わっていません。',
  'error.server.TRANSCRIPTION_ALREADY_ENDED': 'この文字起こしはすでに終わっています。',
  'error.server.UPLOAD_ALREADY_COMPLETED': 'このファイルはすでにアップロードされています。',
  'error.server.TRANSCRIPTION_NOT_COMPLETED':
    '文字起こしがまだ終わっていません。終わってから、もう一度お試しください。',
  'error.server.UPLOAD_CLOSED':
    'サーバーがこのアップロードを締め切りました（待ち時間が長すぎました）。もう一度ファイルを追加してください。',
  'error.server.TOO_MANY_BLACKLIST_WORDS':
    '辞書にこれ以上の置換ルールは入りません。いくつか削除してから、もう一度お試しください。',
  'error.server.MODEL_NOT_INSTALLED': 'この音声モデルはもうサーバーに入っていません。一覧を更新してください。',
  'error.server.UPLOAD_OFFSET_MISMATCH': 'アップロードがサーバーとずれました。Kikitori がやり直します。',
  'error.server.TOO_MANY_OPEN_UPLOADS':
    'チームの進行中のアップロードが多すぎます。いくつか終わるのを待ってから、もう一度お試しください。',
  'error.server.TRANSCRIPTION_RUNNING': 'この文字起こしはまだ実行中です。終わるまでお待ちください。',
  'error.server.AUDIO_GONE': 'この文字起こしの録音はもうサーバーにありません。もう一度ファイルを追加してください。',
  'error.server.MODEL_FILE_MISMATCH':
    'このファイルはその音声モデルではないか、壊れているため、インストールしませんでした。モデル一覧に書かれたファイルを選んでください。',
  'error.server.MODEL_FILE_UNUSABLE':
    'ファイルはモデル一覧と一致しますが、サーバーが音声モデルとして読み込めないため、インストールしませんでした。サーバーの管理者にモデル一覧を確認してもらってください。',
  'error.server.SPEAKER_SAMPLE_INVALID':
    '声の登録には、チームの完了した文字起こしから数秒分の発話が必要です。別の部分か、もっと多くの部分を選んでください。',
  'error.server.SPEAKER_NOT_FOUND': 'この声はもうサーバーにありません。一覧を更新してください。',
  'error.server.TOO_MANY_VOICES':
    'このサーバーでは、チームの声のライブラリがいっぱいです。不要になった声を削除してから、もう一度お試しください。',
  'error.server.TUS_VERSION_UNSUPPORTED':
    'サーバーはこの種類の再開可能なアップロードに対応していません。報告してください。',
  'error.server.REVISION_CONFLICT':
    'この間に誰かがサーバー上でこの文字起こしを変更しました。もう一度確認してから、変更してください。',
  'error.server.PAYLOAD_TOO_LARGE': 'サーバーにとって大きすぎます。',
  'error.server.URI_TOO_LONG': 'サーバーが長すぎるアドレスを拒否しました。報告してください。',
  'error.server.UNSUPPORTED_MEDIA_TYPE': 'Kikitori が送った要求の種類をサーバーが拒否しました。報告してください。',
  'error.server.RANGE_NOT_SATISFIABLE': 'サーバーが音声のその部分を送れませんでした。もう一度お試しください。',
  'error.server.RATE_LIMITED':
    'この API キーからの要求が多すぎます。1 分ほど待ってから、もう一度お試しください。繰り返し起きる場合は、サーバーの管理者に回数制限について相談してください。',
  'error.server.HEADERS_TOO_LARGE': 'サーバーが大きすぎる要求を拒否しました。報告してください。',
  'error.server.ENGINE_UNAVAILABLE':
    'サーバーは今、これに必要なエンジンを動かせません。サーバーの管理者に確認を依頼してください。',
  'error.server.SERVER_BUSY': 'サーバーが混み合っています。少し待ってから、もう一度お試しください。',
  'error.server.UNHEALTHY': 'サーバーが正常に動いていません。管理者にログの確認を依頼してください。',
  'error.server.NOT_READY': 'サーバーは起動中または停止中です。少し待ってから、もう一度お試しください。',
  'error.server.INSUFFICIENT_STORAGE':
    'サーバーのディスクに十分な空きがありません。しばらくしてから試すか、サーバーの管理者に空き容量の確保を依頼してください。',

  'error.app.connecting': 'サーバーに接続しています…',
  'error.app.offline':
    'サーバーに接続できません。接続か、設定 → サーバー のアドレスを確認してください。このコンピューターにある文字起こしは引き続き使えます。',
  'error.app.offline-at':
    '{host} のサーバーに接続できません。接続か、設定 → サーバー のアドレスを確認してください。このコンピューターにある文字起こしは引き続き使えます。',
  'error.app.embedded-stopped': 'このコンピューターの文字起こしサーバーが停止しました。再起動しています。',
  'error.app.embedded-not-running': 'このコンピューターの文字起こしサーバーは動いていません。',
  'error.app.embedded-starting': 'このコンピューターの文字起こしサーバーを起動しています…',
  'error.app.profile-removed': 'このサーバーのプロファイルは削除されました。',
  'error.app.unauthorized': 'サーバーが API キーを受け付けませんでした。設定 → サーバー でキーを確認してください。',
  'error.app.link-expired':
    'ダウンロードまたはアップロードのリンクの期限が切れました。もう一度お試しください（新しいリンクを取得します）。',
  'error.app.link-refused': 'サーバーが自ら発行したリンクを拒否しました。もう一度お試しください。',
  'error.app.models-need-operator':
    'この API キーでは音声モデルのダウンロードや削除はできません。モデルはサーバー全体で共有されるため、OPERATOR ロールのキーが必要です。サーバーの運用者に作業か、そのようなキーを依頼してください。',
  'error.app.role-required':
    'この API キーではこの操作は許可されていません（削除には DELETE ロールのキーが必要です）。サーバーの管理者にキーを依頼し、設定 → サーバー で更新してください。',
  'error.app.refused': 'サーバーがこの操作を拒否しました。',
  'error.app.not-found-transcription': 'この文字起こしはサーバー上にもうありません。削除された可能性があります。',
  'error.app.not-found-transcript': '文字起こし結果はまだできていません。文字起こしが完了すると表示されます。',
  'error.app.not-found-audio': 'この文字起こしの音声はもうサーバーにありません。',
  'error.app.not-found-upload':
    'サーバーはこのアップロードをもう把握していません。もう一度ファイルを追加してください。',
  'error.app.not-found-review': 'この文字起こしの修正版はまだ保存されていません。',
  'error.app.not-found-analysis': 'この分析はまだ依頼されていません。',
  'error.app.not-found-dictionary': 'この辞書はサーバー上にもうありません。削除された可能性があります。',
  'error.app.not-found-word': 'この単語はもう辞書にありません。',
  'error.app.not-found-replacement-rule': 'この置換ルールはもう辞書にありません。',
  'error.app.not-found-voice': 'この声はもうサーバーにありません。一覧を更新してください。',
  'error.app.not-found-model':
    'サーバーはこの音声モデルを提供していません。設定 → 音声認識 を更新して、提供されているモデルを確認してください。',
  'error.app.not-found-model-download':
    'このダウンロードはサーバー上でもう実行されていません（サーバーが再起動した可能性があります）。もう一度ダウンロードを始めてください。',
  'error.app.not-found-server': 'サーバーはこの操作に対応していません。設定 → サーバー でアドレスを確認してください。',
  'error.app.not-completed': '文字起こしがまだ終わっていません。完了してから、もう一度お試しください。',
  'error.app.upload-not-complete': '音声のアップロードがまだ終わっていません。',
  'error.app.already-ended':
    'この文字起こしはすでに終わっています。もう一度文字起こしするには、ファイルをもう一度追加してください。',
  'error.app.already-uploaded': 'このファイルはすでにアップロードされています。',
  'error.app.upload-closed':
    'サーバーがこのアップロードを締め切りました（待ち時間が長すぎました）。もう一度ファイルを追加してください。',
  'error.app.model-not-installed': 'この音声モデルはもうサーバーに入っていません。一覧を更新してください。',
  'error.app.conflict': '今の状態ではサーバーがこの操作を受け付けません。更新してから、もう一度お試しください。',
  'error.app.too-large': 'ファイルがサーバーにとって大きすぎます。',
  'error.app.unsupported': 'サーバーはこの言語またはオプションに対応できません。',
  'error.app.invalid': 'サーバーが要求を正しくないとして拒否しました。',
  'error.app.rate-limited':
    'この API キーからの要求が多すぎるため、サーバーが待つよう求めています。1 分ほど待ってから、もう一度お試しください。繰り返し起きる場合は、サーバーの管理者に回数制限について相談してください。',
  'error.app.no-space':
    'サーバーのディスクに十分な空きがありません。しばらくしてから試すか、サーバーの管理者に空き容量の確保を依頼してください。',
  'error.app.no-space-model':
    'サーバーのディスクに十分な空きがありません。空きを作るか、小さいモデルを選んでください。',
  'error.app.server-failed':
    'サーバーで問題が起き、要求を完了できませんでした。しばらくしてから、もう一度お試しください。繰り返し起きる場合は、「詳細」のエラー ID を添えてサーバーの管理者に伝えてください。',
  'error.app.app-request-refused': 'Kikitori の要求をサーバーが拒否しました（HTTP {status}）。報告してください。',
  'error.app.unreadable-answer': 'サーバーの応答を Kikitori が読み取れません。サーバーが最新の状態か確認してください。',
  'error.app.unreadable-answer-address':
    'サーバーの応答を Kikitori が読み取れません。設定 → サーバー でアドレスを確認してください。',
  'error.app.cancelled': 'キャンセルしました。',
  'error.app.internal': 'Kikitori で問題が起きました。もう一度お試しください。繰り返し起きる場合は報告してください。',
  'error.app.page-forbidden': 'このページは Kikitori を使えません。',
  'error.app.invalid-request': 'Kikitori はこの要求を正しくないとして拒否しました。',
  'error.app.unsafe-file-name':
    'サーバーが送ってきた ID または名前はファイル名として安全ではないため、何も読み書きしませんでした。このプロファイルの接続先サーバーを確認してください。',
  'error.app.transcription-unreachable':
    'この文字起こしはこのコンピューターになく、取得するためのサーバーにも接続できません。',
  'error.app.transcription-not-cached': 'この文字起こしはもうこのコンピューターにありません。',
  'error.app.audio-not-uploaded': 'この文字起こしの音声はアップロードされていません。',
  'error.app.transcript-unreachable':
    '文字起こし結果はまだこのコンピューターになく、サーバーにも接続できません。オンラインになってから、もう一度お試しください。',
  'error.app.transcript-not-ready': '文字起こし結果はまだできていません。文字起こしが完了してから書き出してください。',
  'error.app.rerun-running': '「{name}」はまだ文字起こし中です。終わるのを待ってから、もう一度文字起こししてください。',
  'error.app.rerun-needs-file':
    '「{name}」の録音はこのコンピューターにありません（別のコンピューターからアップロードされたか、削除されました）。もう一度文字起こしするには、ファイルを選んでください。',
  'error.app.recording-format': 'この形式の録音は保存できません。別のマイクで録音するか、Kikitori を更新してください。',
  'error.app.recording-incomplete':
    '録音の一部が届かなかったため、録音を止めました。それまでに録音した分はこのコンピューターに残っています。',
  'error.app.recording-empty':
    '何も録音されませんでした。マイクが接続され、ミュートになっていないか確認して、もう一度録音してください。',
  'error.app.recording-not-found': 'この録音はもうこのコンピューターにありません。',
  'error.app.import-no-words': '取り込む単語がありません。',
  'error.app.import-no-rules': '取り込む置換ルールがありません。',
  'error.app.word-already-in-dictionary': '「{word}」はこの辞書にすでに登録されています。',
  'error.app.reading-unpronounceable':
    'この読みは発音できません。単語の音をかなか文字で書いてください（例：ききとり）。',
  'error.app.dictionary-offline':
    'オフラインのため、辞書を変更できません（変更にはサーバーが必要です）。何も変更していません。このコンピューターにある辞書は引き続き参照でき、オンラインになれば使えます。',
  'error.app.dictionary-unreachable': 'この辞書はまだこのコンピューターになく、サーバーにも接続できません。',
  'error.app.voice-offline':
    'オフラインのため、声を変更できません（変更にはサーバーが必要です）。何も変更していません。一覧の声は引き続き参照できます。',
  'error.app.voice-no-speech':
    'この文字起こしでは、この話者の発話が短すぎて声を登録できません（3 秒以上必要です）。もっと長く話している話者を選んでください。',
  'error.app.edit-refused': 'この変更はできません。',
  'error.app.edits-queue-full':
    '1 つの文字起こしについてサーバーへの送信を待てる編集は {max} 件までです。サーバーに接続して送信してから、編集を続けてください。',
  'error.app.undo-conflict':
    'あなたの編集がサーバー上で他の人の編集と重なりました。先にそれを解決してから、元に戻す／やり直すを行ってください。',
  'error.app.undo-waits-for-sending':
    'これ以上元に戻すにはサーバーが必要ですが、後の編集がまだ送信待ちです。送信されてから、もう一度お試しください。',
  'error.app.undo-offline':
    'これ以上元に戻すにはサーバーが必要ですが、今は接続できません。オンラインになってから、もう一度お試しください。',
  'error.app.undo-changed':
    'この間に誰かがサーバー上でこの文字起こしを変更しました。開き直してから、元に戻す／やり直すを行ってください。',
  'error.app.not-editable': 'この文字起こしは、完了してこのコンピューターに保存されるまで編集できません。',
  'error.app.restore-unsent':
    'このコンピューターでの修正がまだサーバーに届いていません。送信されてから（または競合を解決してから）版を復元してください。',
  'error.app.restore-changed':
    'この間に誰かがこの文字起こしを変更しました。履歴をもう一度確認してから復元してください。',
  'error.app.segments-merged':
    'これらのセグメントの一部はどちらかで結合されてなくなったため、あなたの版でサーバーの版をそのまま置き換えられません。セグメントごとに選んでください。',
  'error.app.no-conflict':
    'これらのセグメントに解決すべき競合はありません。文字起こしを開き直して、待っている内容を確認してください。',
  'error.app.segment-merged-away':
    'セグメント {segment} はサーバー上で結合されてなくなったため、テキストを設定できません。サーバーの版を残すには外すか、その言葉を隣のセグメントに加えてください。',
  'error.app.segments-changed-again':
    'この間に誰かがサーバー上でこれらのセグメントをまた変更しました。もう一度確認してから選んでください。',
  'error.app.edits-conflict':
    'あなたの変更が送信を待っている間に、他の人がサーバー上でこの文字起こしを修正しました。あなたの版はこのコンピューターに残っていて、送信していません。どちらを残すか選んでください。',
  'error.app.review-conflict':
    'あなたの変更が送信を待っている間に、他の人がサーバー上でこの文字起こしを修正しました。あなたの版はこのコンピューターに残っていて、送信していません。もう一度保存すると、サーバーの版をあなたの版で置き換えます。',
  'error.app.edits-deleted':
    'この文字起こしはサーバー上で削除されたため、修正を送信できませんでした。修正はこのコンピューターに残っています。',
  'error.app.edits-not-sent': '修正を送信できませんでした：',
  'error.app.profile-not-found': 'このサーバーのプロファイルはもうありません。',
  'error.app.no-keyring':
    'このシステムには API キーを安全に保存する仕組みがない（キーリングが動いていない）ため、キーを保存できません。キーリングのサービスを起動してから、もう一度お試しください。',
  'error.app.embedded-not-removable': 'このコンピューターのサーバーは削除できません。',
  'error.app.key-unreadable':
    '保存した API キーをこのコンピューターで読めなくなりました（システムのキーチェーンが変わりました）。設定 → サーバー でサーバーを削除し、もう一度追加してください。',
  'error.app.url-invalid': 'サーバーのアドレスを https://kikitori.example.com のような URL で入力してください。',
  'error.app.url-scheme': 'サーバーのアドレスは http:// か https:// で始めてください。',
  'error.app.url-parts': 'サーバーのアドレスに認証情報、クエリー、フラグメントは含められません。',
  'error.app.file-unreadable': '「{name}」を読み込めません。ファイルがあるか確認してから、もう一度追加してください。',
  'error.app.file-forgotten': 'Kikitori はこのファイルをもう把握していません。もう一度選ぶかドロップしてください。',
  'error.app.folder-forgotten': 'Kikitori はこのフォルダーをもう把握していません。もう一度選ぶかドロップしてください。',
  'error.app.file-twice': '同じファイルが 2 回指定されました。',
  'error.app.folder-unreadable':
    'フォルダー「{folder}」を読み込めません。フォルダーがあり、開く権限があるか確認してください。',
  'error.app.upload-not-listed': 'このアップロードはもう一覧にありません。',
  'error.app.upload-refused': 'サーバーがアップロードを受け付けませんでした。もう一度ファイルを追加してください。',
  'error.app.file-empty':
    '「{name}」は空（0 バイト）なので、文字起こしするものがありません。録音ファイルそのものを選ぶか、途中で切れている場合はもう一度コピーしてください。',
  'error.app.not-media':
    '「{name}」は音声・動画ファイルではありません（{kind} ファイルのようです）。WAV、MP3、M4A、FLAC、MP4 などの録音を選んでください。',
  'error.app.not-media-text':
    '「{name}」は音声・動画ファイルではありません（テキストのようです）。WAV、MP3、M4A、FLAC、MP4 などの録音を選んでください。',
  'error.app.file-gone': 'ファイルをもう読み込めません。ファイルがあるか確認してから、もう一度追加してください。',
  'error.app.upload-unexpected': 'アップロードが予期せず失敗しました。',
  'error.app.switch-not-confirmed':
    '確認されなかったため、「{name}」（{url}）には切り替えませんでした。そのサーバーには何も送っていません。',
  'error.app.translation-not-cached':
    'この文字起こしには、このコンピューター上に{language}への翻訳がありません。「翻訳」タブで翻訳（または取得）してから、もう一度書き出してください。',
  'error.app.waveform-cancelled': '波形の計算をキャンセルしました。',
  'error.app.waveform-failed': '波形を描けません。',
  'error.app.download-not-followed': 'ダウンロードの進み具合を確認できませんでした。',

  'failure.unavailable':
    'サーバーは今、これに必要な処理を実行できません。サーバーの管理者に確認を依頼してから、もう一度お試しください。',
  'failure.unsupported': 'サーバーの今のエンジンでは、これはできません（対応していない言語やオプションです）。',
  'failure.bad-input':
    '録音を処理できません。壊れている、空、無音、または長すぎる可能性があります。ファイルを確認して、もう一度追加してください。',
  'failure.transient': '処理中にサーバーで何度も失敗しました。しばらくしてから、もう一度お試しください。',
  'failure.internal':
    'サーバー内部で問題が起きました。もう一度お試しください。繰り返し起きる場合は、「詳細」のエラー ID を添えてサーバーの管理者に伝えてください。',
  'failure.upload-expired':
    'アップロード用リンクの期限が切れるまでに音声がアップロードされませんでした。もう一度ファイルを追加してください。',
  'failure.analysis.bad-input': 'この文字起こしはこの方法では分析できません（空か、長すぎる可能性があります）。',

  'download.error.not-found': 'サーバーはこの音声モデルをもう提供していません。',
  'download.error.not-installed': 'この音声モデルは入っていません。',
  'download.error.insufficient-storage':
    'サーバーのディスクに、このモデルを置く空きがありません。空きを作るか、小さいモデルを選んでください。',
  'download.error.unreachable':
    'モデルをダウンロードできませんでした。サーバーからモデルの配布元に接続できません。サーバーのネットワーク接続を確認するか、管理者にミラーの設定を依頼してください。',
  'download.error.source-failed':
    'モデルの配布元がファイルを送ってきませんでした。しばらくしてから試すか、サーバーの管理者にミラーの設定を依頼してください。',
  'download.error.interrupted':
    'ダウンロードが途中で止まりました。もう一度ダウンロードすると、止まった所から続けます。',
  'download.error.corrupt':
    'ダウンロードしたファイルが壊れていたため、保存しませんでした。もう一度ダウンロードしてください。',
  'download.error.unusable': 'ダウンロードしたファイルはサーバーが使える音声モデルではないため、保存しませんでした。',
  'download.error.not-this-model':
    'このファイルはこの音声モデルではないか、壊れているため、インストールしませんでした。',
  'download.error.cancelled': 'ダウンロードをキャンセルしました。',
  'download.error.internal': 'ダウンロードが予期せず失敗しました。もう一度お試しください。',
};
