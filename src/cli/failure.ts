/**
 * A command that failed, worded for the console: `run` prints `laneboard: <message>` and exits with
 * `exitCode`. The server-side commands turn the runtime's errors into this (`server-side.ts`), so the
 * entry point can report them without loading the modules that define those errors.
 */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
    this.name = 'CliFailure';
  }
}
