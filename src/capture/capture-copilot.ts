import { type CaptureOptions, type CaptureOutcome, captureTranscript } from './capture-transcript.js';
import { classifyCopilotLine } from './copilot-events.js';

/**
 * One run of a GitHub Copilot agent hook (`agentStop`, `sessionEnd`, or VS Code's `Stop` in the shared
 * format) on the session's event log, `events.jsonl` (source `copilot`).
 */
export function captureCopilot(options: CaptureOptions): Promise<CaptureOutcome> {
  return captureTranscript({ source: 'copilot', classify: classifyCopilotLine }, options);
}
