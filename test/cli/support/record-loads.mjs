// `node --import ./record-loads.mjs ...`: appends the URL of every module the process loads to the file
// named by LANEBOARD_RECORD_LOADS, one per line: through the ES module loader (our dist/ files and the
// packages they import), and through `require` (CommonJS packages loaded on demand, as the pg driver
// is on PostgreSQL only). The ES hooks run on the loader's thread, so they write the file themselves
// rather than send messages that could be lost when the process exits.
import { appendFileSync } from 'node:fs';
import Module from 'node:module';
import { pathToFileURL } from 'node:url';

const file = process.env.LANEBOARD_RECORD_LOADS;
if (file) {
  // Node 22.15+ has synchronous in-thread hooks, and Node 26 warns (DEP0205) on `register`, which the
  // tests would read as output on stderr; Node 20 has only `register`.
  if (typeof Module.registerHooks === 'function') {
    Module.registerHooks({
      load(url, context, nextLoad) {
        appendFileSync(file, `${url}\n`);
        return nextLoad(url, context);
      },
    });
  } else {
    Module.register('./record-loads-hooks.mjs', { parentURL: import.meta.url, data: { file } });
  }
  // Every CommonJS module is loaded once through Module.prototype.load, however it was required.
  const load = Module.prototype.load;
  Module.prototype.load = function recordLoad(filename) {
    appendFileSync(file, `${pathToFileURL(filename).href}\n`);
    return load.call(this, filename);
  };
}
