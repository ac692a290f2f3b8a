import { type CaptureOptions, type CaptureOutcome, captureTranscript } from './capture-transcript.js';
import { classifyClaudeLine } from './claude-transcript.js';

export type { CaptureOptions, CaptureOutcome } from './capture-transcript.js';

/** One run of the Claude Code hook (`Stop`, `SessionEnd`) on its JSONL transcript (source `claude`). */
export function captureClaude(options: CaptureOptions): Promise<CaptureOutcome> {
  return captureTranscript({ source: 'claude', classify: classifyClaudeLine }, options);
}
