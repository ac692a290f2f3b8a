import { defaultStateDir, StateStore, type TranscriptState } from './state-store.js';

/** One transcript as `capture status --json` prints it. */
export interface TranscriptStatus {
  transcriptPath: string;
  source: 'claude' | 'copilot' | null;
  sessionId: string | null;
  task: { shortId: string; boardId: string; taskId: string } | null;
  /** Bytes of the transcript sent so far. */
  offset: number;
  lastRunAt: string | null;
  /** The last run's log line. */
  lastRun: string | null;
  lastTurn: { sourceId: string; role: string; capturedAt: string } | null;
  lastError: { at: string; message: string } | null;
}

function statusOf(state: TranscriptState): TranscriptStatus {
  return {
    transcriptPath: state.transcriptPath,
    source: state.source ?? null,
    sessionId: state.sessionId ?? null,
    task: state.task
      ? { shortId: state.task.shortId, boardId: state.task.boardId, taskId: state.task.taskId }
      : null,
    offset: state.offset,
    lastRunAt: state.lastRunAt ?? null,
    lastRun: state.lastRun ?? null,
    lastTurn: state.lastTurn ?? null,
    lastError: state.lastError ?? null,
  };
}

/** The `limit` most recently run transcripts of the state directory, most recent first. */
export async function captureStatus(stateDir: string, limit: number): Promise<TranscriptStatus[]> {
  const store = new StateStore(stateDir, { now: () => Date.now() });
  return (await store.list()).slice(0, limit).map(statusOf);
}

/** The status as text: a block per transcript, what a person checks first (the error) last and plain. */
export function formatStatus(stateDir: string, transcripts: readonly TranscriptStatus[]): string {
  if (transcripts.length === 0) return `No capture runs recorded in ${stateDir}.\n`;
  const blocks = transcripts.map((t) => {
    const turn = t.lastTurn
      ? `${t.lastTurn.sourceId} (${t.lastTurn.role}, captured ${t.lastTurn.capturedAt})`
      : 'none yet';
    const rows = [
      ['source', `${t.source ?? '?'}, session ${t.sessionId ?? '?'}`],
      ['task', t.task ? t.task.shortId : 'not resolved yet'],
      ['last run', t.lastRunAt ? `${t.lastRunAt}: ${t.lastRun ?? ''}` : 'never'],
      ['last turn', turn],
      ['last error', t.lastError ? `${t.lastError.at}: ${t.lastError.message}` : 'none'],
    ];
    return [
      t.transcriptPath,
      ...rows.map(([label, value]) => `  ${(label as string).padEnd(11)} ${value}`),
    ].join('\n');
  });
  return `Capture state in ${stateDir} (most recent first):\n\n${blocks.join('\n\n')}\n`;
}

/** `laneboard capture status [--json] [--limit N]`. */
export async function printCaptureStatus(options: { json: boolean; limit: number }): Promise<void> {
  const stateDir = defaultStateDir(process.env);
  const transcripts = await captureStatus(stateDir, options.limit);
  process.stdout.write(
    options.json
      ? `${JSON.stringify({ stateDir, transcripts }, null, 2)}\n`
      : formatStatus(stateDir, transcripts),
  );
}
